"""CPU time of the exact agent per game, here and (optionally) at an earlier revision.

Usage::

    python benchmarks/agent_time.py --games 500 --preset expert --preset intermediate --rounds 1 --against 289d0e1

Plays the same ``--games`` games (``--rules``, classic by default) of each ``--preset`` (safe corner,
default ``exact`` agent, boards from ``--seed``) in a fresh process per
round and prints the median and mean CPU milliseconds per game, each game's
fastest round counting. With ``--against REV`` the revision is checked out
into a temporary git worktree and played in alternating rounds with this
tree (this machine's speed drifts), and every game's whole move history
(each action, in order) is checked to be the same: a change that should
not change play is proved not to.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BUILDS: dict = {}  # source -> the build it ran

PLAYER = """
import json, sys, time
from cspmines.agents import make_agent
from cspmines.games import Board, Game, play
games, seed, preset, rules = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = []
for i in range(games):
    board = Board.random(preset, seed=seed + i, first_click="safe")
    started = time.process_time()
    record = play(make_agent("exact"), Game(board, rules=rules), seed=i)
    history = [[move.action.kind, move.action.cell] for move in record.history]
    rows.append((time.process_time() - started, record.status, history))
from cspmines import native
print(json.dumps({"build": native.BUILD, "rows": rows}))
"""


def one_round(source: Path, games: int, seed: int, preset: str, rules: str) -> list:
    """[(CPU seconds, status, move history)] per game, the package imported from ``source``
    (whose build, compiled kernels or pure Python, is noted in BUILDS)."""
    env = dict(os.environ, PYTHONPATH=str(source))
    done = subprocess.run([sys.executable, "-c", PLAYER, str(games), str(seed), preset, rules], env=env, cwd=tempfile.gettempdir(),
                          capture_output=True, text=True, check=True)
    played = json.loads(done.stdout)
    BUILDS[source] = played["build"]
    return played["rows"]


def build_kernels(tree: Path) -> None:
    """Compile a checked-out revision's C kernels in place, as installing it would (same flags),
    so that both sides run the build a user gets; a revision without them runs pure Python."""
    folder = tree / "cspmines" / "native"
    sources = sorted(str(path) for path in folder.glob("*.c"))  # one file, or one a family of kernels
    if not sources:
        return
    target = folder / ("_kernels" + sysconfig.get_config_var("EXT_SUFFIX"))
    includes = sysconfig.get_paths()["include"]
    subprocess.run([os.environ.get("CC", "gcc"), "-shared", "-fPIC", "-O2", "-fno-fast-math", f"-I{includes}", *sources, "-o", str(target)],
                   check=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--preset", action="append", help="a board preset or WxHxM (repeatable; default expert)")
    parser.add_argument("--against", help="a git revision to time beside this tree")
    parser.add_argument("--rules", default="classic", choices=["classic", "minesearch", "score"])
    args = parser.parse_args(argv)
    presets = args.preset or ["expert"]
    with tempfile.TemporaryDirectory() as scratch:
        sources = {"this tree": ROOT}
        if args.against:
            # this tree's package copied and built by the same command as the revision's: the kernels' build
            # flags (an installed build adds Python's own) must not tell the two apart
            here = Path(scratch) / "this"
            shutil.copytree(ROOT / "cspmines", here / "cspmines", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
            build_kernels(here)
            sources["this tree"] = here
            worktree = Path(scratch) / "against"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(worktree), args.against], check=True)
            sources[args.against] = worktree
            build_kernels(worktree)
        try:
            rounds = {(name, preset): [] for preset in presets for name in sources}
            for _ in range(args.rounds):
                for (name, preset), played in rounds.items():
                    played.append(one_round(sources[name], args.games, args.seed, preset, args.rules))
        finally:
            if args.against:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], check=True)
    print(f"{args.games} {args.rules} games a preset x {args.rounds} rounds, default exact agent, CPU ms per game (fastest round)")
    print(f"{'preset':>12} {'version':>12} {'median':>8} {'mean':>8} {'wins':>6}")
    results = {}
    for (name, preset), played in rounds.items():
        per_game = [min(times) * 1e3 for times in zip(*([row[0] for row in r] for r in played), strict=True)]
        results[name, preset] = [row[1:] for row in played[0]]
        wins = sum(status == "won" for status, _ in results[name, preset])
        print(f"{preset:>12} {name:>12} {statistics.median(per_game):8.1f} {statistics.mean(per_game):8.1f} {wins:6d}   {BUILDS[sources[name]]}")
    if args.against:
        for preset in presets:
            mine, theirs = results["this tree", preset], results[args.against, preset]
            differ = [i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b]
            print(f"{preset}: same move histories in {len(mine) - len(differ)} of {len(mine)} games"
                  + (f" (first differing game: {differ[0]})" if differ else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
