"""Where the exact agent's CPU goes in a classic game, and what compiling its two kernels could buy.

Usage::

    python research/agent_parts.py --games 2000 --preset expert --seed 77 [--hill CLASSES]

Plays game i of ``cspmines bench --preset P --seed S`` (safe corner) for i
< ``--games`` with the exact agent's defaults in this one process, each
game from the same start (empty memories, as the
bench does), and times the CPU of each part of the play around it (the
outermost call of each: a recursive search is timed once). The parts nest:
the agent's moves hold the look-ahead, the board's solves and the endgame
search, and the two *kernels* below, the counting programme's passes (the
``dp`` backend's ``count``) and the endgame's search over layout masks
(compiled where ``cspmines --version`` says so, the time to hand them their
input included), run
inside them.

Then the bound that settles what compiled code could do for the kernels
alone: if both cost nothing, a game would cost the rest (Amdahl's law), and
that is set beside Hill's Java solver's CPU a game on the same boards, in
the same run (``--hill``, or ``$HILL_CLASSES``: his compiled classes and the
``BoardFileRun`` driver, as ``peers.py`` uses them; without them the peer is
not run and this says so). His CPU a game is given twice: the boards played
alone, start-up and compiling included (on a thousand boards they are most
of it), and played after as many other boards in the same process, less
those boards' CPU: warmer, though his virtual machine goes on getting
faster for some ten thousand boards, so a long ``peers.py`` run is the
figure to quote. (Playing the same boards twice would not do: he plays a
board met before in about half the time.)

The timers cost a little themselves: the table's whole-game figure comes
with them, so compare shares, and take the plain CPU a game from
``peers.py``.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from peers import run_hill  # noqa: E402  (the peers benchmark's runner of Hill's solver)

import cspmines.agents.exact.player as player
import cspmines.engine.value as value
from cspmines.agents.exact.deductions import SingleClueWatch
from cspmines.bench import Suite, board_for
from cspmines.bench.runner import agent_seed, new_game
from cspmines.engine.backends.dynamic import DynamicProgrammingBackend
from cspmines.engine.engine import Engine, default_engine
from cspmines.games import play

# part -> CPU seconds, and how deep each part's calls are nested now (only the outermost is timed)
SPENT: dict[str, float] = {}
_DEPTH: dict[str, int] = {}

# (part, the object holding the function, its attribute name); a kernel's share bounds what compiling it buys
PARTS = [
    ("the agent's moves in all", player.ExactAgent, "act"),
    ("the look-ahead (each candidate's clues solved)", player, "best_guess"),
    ("the board's solves", Engine, "solve"),  # the agent solves the board with its engine
    ("the endgame: the value of the position, layouts listed and searched", player, "best_play"),
    ("single-clue deductions", SingleClueWatch, "__call__"),
    ("50/50 influence", player, "fifty_fifty_influence"),
    ("candidates for the look-ahead", player, "candidates"),
]
KERNELS = [
    ("kernel: the counting programme's passes (dp count)", DynamicProgrammingBackend, "count"),
    ("kernel: the value search over the layouts", value, "run_search"),
]


def timed(part: str, function):
    """``function``, its CPU added to ``SPENT[part]`` on its outermost calls."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        depth = _DEPTH.get(part, 0)
        _DEPTH[part] = depth + 1
        started = time.process_time() if depth == 0 else 0.0
        try:
            return function(*args, **kwargs)
        finally:
            _DEPTH[part] = depth
            if depth == 0:
                SPENT[part] = SPENT.get(part, 0.0) + time.process_time() - started

    return wrapper


def install_timers() -> None:
    for part, owner, attribute in PARTS + KERNELS:
        setattr(owner, attribute, timed(part, getattr(owner, attribute)))


def play_games(suite: Suite) -> tuple[float, int]:
    """(CPU seconds over the games, games won), every part timed."""
    total = 0.0
    won = 0
    for i in range(suite.games):
        default_engine().cache.forget()  # each game from the same start, as the bench plays it
        game = new_game(suite, i)
        started = time.process_time()
        record = play(player.ExactAgent(), game, seed=agent_seed(suite, i))
        total += time.process_time() - started
        won += record.won
    return total, won


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="expert", choices=("beginner", "intermediate", "expert"))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--hill", default=os.environ.get("HILL_CLASSES"), help="Hill's compiled classes (or $HILL_CLASSES)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    missing = None
    if not args.hill or not (Path(args.hill) / "BoardFileRun.class").exists():
        missing = "no classes of Hill's solver (pass --hill or set HILL_CLASSES)"
    elif shutil.which("java") is None:
        missing = "no java on this machine"
    suite = Suite.create(agents=["exact"], size=args.preset, games=args.games, seed=args.seed)
    install_timers()
    total, won = play_games(suite)
    per_game = 1e3 / args.games
    print(f"{args.games} classic {args.preset} games, safe corner, seed {args.seed}: the exact agent won {won}, "
          f"{total * per_game:.1f} ms of CPU a game with the timers")
    print(f"{'part':<52} {'ms a game':>10} {'share':>7}")
    rows = [("the whole game", total)] + [(part, SPENT.get(part, 0.0)) for part, _, _ in PARTS]
    rows.append(("the game itself (moves applied, positions made)", total - SPENT.get(PARTS[0][0], 0.0)))
    rows += [(part, SPENT.get(part, 0.0)) for part, _, _ in KERNELS]
    for part, seconds in rows:
        print(f"{part:<52} {seconds * per_game:10.2f} {seconds / total:7.1%}")
    kernels = sum(SPENT.get(part, 0.0) for part, _, _ in KERNELS)
    rest = total - kernels
    print(f"with both kernels free (Amdahl): {rest * per_game:.1f} ms a game, {total / rest:.2f} times faster at most")
    if missing is not None:
        print(f"peer not run: {missing}")
        return 0
    boards = [board_for(suite, i) for i in range(suite.games)]
    # other boards first, as many, to warm his virtual machine up: the same boards again would not do,
    # his solver plays a board it has met before in half the time
    warm_up = Suite.create(agents=["exact"], size=args.preset, games=args.games, seed=args.seed + 1)
    other = [board_for(warm_up, i) for i in range(args.games)]
    _, alone = run_hill(Path(args.hill), boards)
    _, warming = run_hill(Path(args.hill), other)
    _, after = run_hill(Path(args.hill), other + boards)
    warm_ms = (after - warming) * per_game
    print(f"Hill's Java solver on the same boards: {alone * per_game:.1f} ms of CPU a game played alone (its start "
          f"included), {warm_ms:.1f} ms played after as many other boards (less their CPU)")
    print(f"ours against his warm figure: {total * per_game / warm_ms:.2f} times now, "
          f"{rest * per_game / warm_ms:.2f} times with both kernels free")
    return 0


if __name__ == "__main__":
    sys.exit(main())
