"""Where the exact agent and another player part ways, what kind of move it was, and what it cost.

Usage::

    python research/divergence.py --hill CLASSES --preset expert --games 400 --seed 31 [--first-click opening]
    python research/divergence.py --against exact:lookahead=0 --preset expert --games 200
    python research/divergence.py --hill CLASSES --along hill --games 1000 --layouts 20 --workers 2

The exact agent plays game i of ``cspmines bench --preset P --seed S``
exactly as the bench plays it. At each of its guesses the other player is
asked for its move on the same position: Hill's Java solver (``--hill``, a
folder of compiled classes holding his solver and a ``HillAdvisor`` driver
that reads games as JSON Lines and answers with its move at every position;
or ``$HILL_CLASSES``), or any cspmines agent (``--against SPEC``). Where the
two would open different cells, both moves are valued by play-outs: mine
layouts are drawn uniformly from those the position allows
(``sample_layouts``), each move is made on each layout, and the exact agent
plays on to the end; the two moves meet the same layouts, so the difference
in games won is paired.

With ``--along hill`` the roles turn: Hill's solver plays the boards (its
own moves, from a ``HillTrace`` driver compiled beside his classes: see
``benchmarks/hill/HillTrace.java``), and at each of its guesses the exact
agent is asked for its move on the same position; the play-outs are the
same (the exact agent playing on after either move). This is the
comparison that adds up: by the performance difference lemma, the win
rate of his policy minus ours is the sum, over the positions *his* games
reach, of what his move gains over ours with our play after it. Along our
own games the same sum measures nothing of the kind, which is why no
class there accounts for the gap.

Each divergence is put in one class by what chose our move and how the two
cells' exact chances of a mine compare right now:

* ``first guess``: the game's first guess (the opening policy);
* ``endgame``: our exhaustive endgame search chose it;
* ``50/50``: our forced or pseudo 50/50 rule chose it;
* ``look-ahead, both off front``: the look-ahead chose it, and both cells are
  off the front (no clue touches either, so they are exactly as risky: which
  cell of the unknown sea to open);
* ``look-ahead, ours safer`` / ``ours riskier`` / ``as risky``: the look-ahead
  (or the least-risk rule) chose it otherwise, and the other cell is riskier,
  safer, or exactly as risky now (a tie-break);
* ``a safe cell was left`` (walking Hill's games only): our agent proves a
  cell safe where his solver guesses a cell that is not.

Printed: the guesses compared, how often the other picks our cell, and per
class the divergences, the play-outs' verdicts and the points of win rate
ours loses to the other's choices (per 100 games, with a 95% interval;
negative means ours gained). Without Hill's classes or ``java`` it says so
and stops (CI needs no Java).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

from cspmines import sample_layouts, solve
from cspmines.actions import Action
from cspmines.agents import ExactAgent, suggest
from cspmines.bench import Suite, parallel_map
from cspmines.bench.runner import agent_seed, new_game
from cspmines.games import Board, Game, play
from cspmines.position import COVERED

CLASSES = ("first guess", "endgame", "50/50", "look-ahead, ours safer", "look-ahead, ours riskier", "look-ahead, as risky",
           "look-ahead, both off front", "a safe cell was left")


def our_game(suite: Suite, i: int) -> dict:
    """Game ``i`` played by the exact agent as the bench plays it: its opens and, per guess, the rule that chose it."""
    reasons = []
    record = play(ExactAgent(on_guess=lambda guess: reasons.append(guess.reason)), new_game(suite, i), seed=agent_seed(suite, i))
    opens = [m.action.cell for m in record.history if m.action.kind == "open"]
    guessed = [m.guess for m in record.history if m.action.kind == "open"]
    return {"game": i, "won": record.won, "opens": opens, "guessed": guessed, "reasons": reasons}


def position_after(suite: Suite, i: int, opens: list):
    """The position of game ``i`` after the first ``opens`` moves."""
    game = new_game(suite, i)
    for cell in opens:
        game.apply(Action.open(cell))
    return game.position


def hill_advice(classes: Path, suite: Suite, games: list) -> dict:
    """{(game, step): Hill's cell (None where it has none)} at every position of our games."""
    lines = []
    for game in games:
        board = new_game(suite, game["game"]).board
        cell = lambda c, width=board.width: list(divmod(int(c), width))  # noqa: E731
        mines = [cell(c) for c in range(board.size) if board.is_mine(c)]
        lines.append(json.dumps({"width": board.width, "height": board.height, "mines": mines,
                                 "first": cell(board.first_click), "opens": [cell(c) for c in game["opens"]]}))
    done = subprocess.run(["java", "-XX:ActiveProcessorCount=1", "-cp", str(classes), "HillAdvisor"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, check=True)
    advice = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            answer = json.loads(line)
            where = None if answer["row"] is None else answer["row"] * suite.width + answer["col"]
            advice[(games[answer["line"]]["game"], answer["step"])] = where
    return advice


def hill_games(classes: Path, suite: Suite) -> list:
    """Hill's solver's own games on the suite's boards, as {"game", "won", "opens", "guessed"}: the cells it
    opened after the first click, and which of them it did not call certain (``HillTrace``'s output)."""
    first = new_game(suite, 0).board.first_click
    row, col = divmod(first, suite.width)
    with tempfile.TemporaryDirectory() as folder:
        boards, out = Path(folder) / "boards.jsonl", Path(folder) / "trace.jsonl"
        boards.write_text("".join(new_game(suite, i).board.to_json() + "\n" for i in range(suite.games)))
        subprocess.run(["java", "-XX:ActiveProcessorCount=1", "-cp", str(classes), "HillTrace", str(boards), str(out), str(row), str(col)],
                       check=True, capture_output=True)
        traces = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    games = []
    for trace in traces:
        moves = [(r * suite.width + c, bool(certain)) for r, c, certain in trace["moves"]]
        game = new_game(suite, trace["index"])  # the first click made; his later moves replayed
        kept = []
        for cell, certain in moves:
            if game.status == "playing" and game.position.grid.flat[cell] == COVERED:  # his solver returns a batch of
                kept.append((cell, certain))  # moves at once: a cell a zero before it opened is passed over, as his game does
                game.apply(Action.open(cell))
        moves = kept
        if game.won != trace["won"]:
            raise RuntimeError(f"board {trace['index']}: Hill's game replayed here does not end as his did")
        games.append({"game": trace["index"], "won": trace["won"], "opens": [cell for cell, _ in moves],
                      "guessed": [not certain for _, certain in moves]})
    return games


def our_advice(suite: Suite, game: dict) -> list:
    """At each guess of another player's ``game``: (step, our cell, our rule, first guess or not); the rule
    is None where the exact agent proves a cell safe there and opens it."""
    out = []
    guesses = 0
    for step, guessed in enumerate(game["guessed"]):
        if not guessed:
            continue
        guesses += 1
        position = position_after(suite, game["game"], game["opens"][:step])
        advice = suggest(position, "exact", seed=agent_seed(suite, game["game"]))
        certain = advice.action.certain or advice.action.kind != "open"
        out.append((step, advice.action.cell, None if certain else advice.reason or "", guesses == 1))
    return out


def agent_advice(spec: str, suite: Suite, game: dict) -> dict:
    """{(game, step): the cell agent ``spec`` opens} at each of our guesses in ``game``."""
    advice = {}
    for step, guessed in enumerate(game["guessed"]):
        if guessed:
            position = position_after(suite, game["game"], game["opens"][:step])
            action = suggest(position, spec, seed=step).action
            advice[(game["game"], step)] = action.cell if action.kind == "open" else None
    return advice


def both_off_front(analysis, *cells: int) -> bool:
    """Whether every one of ``cells`` is off the front (no clue touches it: all are equally likely mines)."""
    front = {cell for report in analysis.chains for cell in report.cells}
    return not any(cell in front for cell in cells)


def classify(reason: str, first: bool, ours: float, theirs: float, off_front: bool = False) -> str:
    """The class of a divergence (see the module's text); ``off_front``: both cells are off the front."""
    if first:
        return "first guess"
    if reason == "endgame":
        return "endgame"
    if "fifty" in reason:
        return "50/50"
    if off_front:
        return "look-ahead, both off front"
    if ours < theirs:
        return "look-ahead, ours safer"
    return "look-ahead, ours riskier" if ours > theirs else "look-ahead, as risky"


def play_out(task: tuple) -> list:
    """[(won after our move, won after theirs)] on each layout drawn for one divergence."""
    suite, i, opens, ours, theirs, layouts = task
    position = position_after(suite, i, opens)
    first = new_game(suite, i).board.first_click
    drawn = sample_layouts(position, layouts, seed=(suite.seed * 1_000_003 + i) * 1009 + len(opens))
    out = []
    for j, layout in enumerate(drawn):
        mines = [[False] * suite.width for _ in range(suite.height)]
        for cell in layout:
            mines[cell // suite.width][cell % suite.width] = True
        board = Board(mines, first_click=first)
        pair = []
        for move in (ours, theirs):
            game = Game.from_position(position, board)
            game.apply(Action.open(move))
            if game.status == "playing":
                play(ExactAgent(), game, seed=j)
            pair.append(game.won)
        out.append(tuple(pair))
    return out


def points(verdicts: list, games: int) -> tuple[float, float]:
    """(points of win rate lost per 100 games, half-width of its 95% interval) over divergences' play-outs."""
    total = variance = 0.0
    for pairs in verdicts:
        differences = [int(theirs) - int(ours) for ours, theirs in pairs]
        n = len(differences)
        mean = sum(differences) / n
        total += mean
        if n > 1:
            variance += sum((d - mean) ** 2 for d in differences) / (n - 1) / n
    return 100 * total / games, 196 * math.sqrt(variance) / games


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hill", default=os.environ.get("HILL_CLASSES"), help="Hill's compiled classes (or $HILL_CLASSES)")
    parser.add_argument("--against", help="a cspmines agent to compare with instead of Hill's solver")
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--first-click", default="safe", choices=("safe", "opening"))
    parser.add_argument("--layouts", type=int, default=40, help="play-outs per move of a divergence")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", help="write each divergence (position, both cells, class, play-outs) to this JSON Lines file")
    parser.add_argument("--along", choices=("ours", "hill"), default="ours",
                        help="whose games to walk: ours (the other player advises) or Hill's (the exact agent advises)")
    args = parser.parse_args(argv)
    suite = Suite.create(agents=["exact"], size=args.preset, first_click=args.first_click, games=args.games, seed=args.seed)
    other = f"cspmines {args.against}" if args.against else "Hill's solver"
    if not args.against:
        if not args.hill or not (Path(args.hill) / "HillAdvisor.class").exists():
            print("peer not run: no classes of Hill's solver with HillAdvisor (pass --hill or set HILL_CLASSES, or --against SPEC)")
            return 0
        if shutil.which("java") is None:
            print("peer not run: no java on this machine")
            return 0
    print(f"{args.games} classic {args.preset} boards, first click {args.first_click}, seed {args.seed}: "
          f"the exact agent against {other}, {args.layouts} play-outs a move")
    if args.along == "hill":
        if args.against:
            parser.error("--along hill walks Hill's games: it takes --hill, not --against")
        if not (Path(args.hill) / "HillTrace.class").exists():
            print("peer not run: no HillTrace among Hill's classes (compile benchmarks/hill/HillTrace.java beside them)")
            return 0
        return along_hill(args, suite)
    return along_ours(args, suite, other)


def along_ours(args, suite: Suite, other: str) -> int:
    """Walk our games: at each of our guesses, the other player's move and both valued by play-outs."""
    games = parallel_map(partial(our_game, suite), range(args.games), workers=args.workers)
    if args.against:
        advice = {}
        for part in parallel_map(partial(agent_advice, args.against, suite), games, workers=args.workers):
            advice.update(part)
    else:
        advice = hill_advice(Path(args.hill), suite, games)
    asked = same = 0
    found = []
    for game in games:
        game_asked, game_same, game_found = divergences_in(game, advice, suite, args.layouts)
        asked, same = asked + game_asked, same + game_same
        found += game_found
    verdicts = parallel_map(play_out, [task for _, task in found], workers=args.workers)
    keep(args.out, found, verdicts)
    won = sum(game["won"] for game in games)
    print(f"ours won {won} of {len(games)}; {asked} of our guesses compared: {other} picks the same cell {same} times, "
          f"another {len(found)} times")
    report(found, verdicts, len(games))
    return 0


def divergences_in(game: dict, advice: dict, suite: Suite, layouts: int) -> tuple[int, int, list]:
    """(our guesses the other player advised on, those where it picks our cell, the divergences with their
    class and play-out task) in one of our games."""
    asked = same = guesses = 0
    found = []
    for step, guessed in enumerate(game["guessed"]):
        if not guessed:
            continue
        guesses += 1
        theirs = advice.get((game["game"], step))
        if theirs is None:
            continue
        asked += 1
        ours = game["opens"][step]
        if theirs == ours:
            same += 1
            continue
        analysis = solve(position_after(suite, game["game"], game["opens"][:step]))
        kind = classify(game["reasons"][guesses - 1], guesses == 1, analysis.probability(ours), analysis.probability(theirs),
                        both_off_front(analysis, ours, theirs))
        found.append((kind, (suite, game["game"], game["opens"][:step], ours, theirs, layouts)))
    return asked, same, found


def along_hill(args, suite: Suite) -> int:
    """Walk Hill's games: at each of his guesses, the exact agent's move and both valued by play-outs."""
    games = hill_games(Path(args.hill), suite)
    advice = parallel_map(partial(our_advice, suite), games, workers=args.workers)
    asked = same = proved = 0
    found = []
    for game, answers in zip(games, advice, strict=True):
        for step, ours, reason, first in answers:
            asked += 1
            theirs = game["opens"][step]
            if ours == theirs:
                same += 1
                continue
            analysis = solve(position_after(suite, game["game"], game["opens"][:step]))
            if reason is None:  # a safe cell was there to open: his move is a guess only if his cell is not safe too
                if analysis.probability(theirs) == 0:
                    same += 1
                    continue
                proved += 1
                kind = "a safe cell was left"
            else:
                kind = classify(reason, first, analysis.probability(ours), analysis.probability(theirs),
                                both_off_front(analysis, ours, theirs))
            found.append((kind, (suite, game["game"], game["opens"][:step], ours, theirs, args.layouts)))
    verdicts = parallel_map(play_out, [task for _, task in found], workers=args.workers)
    keep(args.out, found, verdicts)
    won = sum(game["won"] for game in games)
    print(f"Hill's solver won {won} of {len(games)}; at its {asked} guesses his cell is not safe while the exact agent proves "
          f"another safe {proved} times, it picks the same cell (or another safe one) {same} times, another {len(found)} times")
    report(found, verdicts, len(games))
    return 0


def keep(path, found: list, verdicts: list) -> None:
    """Each divergence as a JSON line (game, the moves before it, class, our cell, theirs, play-out pairs)."""
    if not path:
        return
    with open(path, "w") as out:
        for (kind, (_suite, game, opens, ours, theirs, _layouts)), pairs in zip(found, verdicts, strict=True):
            out.write(json.dumps({"game": game, "opens": opens, "class": kind, "ours": ours, "theirs": theirs,
                                  "pairs": [[int(a), int(b)] for a, b in pairs]}) + "\n")


def report(found: list, verdicts: list, games: int) -> None:
    """The table of divergences by class: play-outs' verdicts, points of win rate ours loses per 100 games."""
    print(f"{'class':>26} {'divergences':>11} {'ours better':>11} {'theirs better':>13} {'points lost /100 games (95%)':>30}")
    everything = []
    for name in CLASSES:
        mine = [v for (kind, _), v in zip(found, verdicts, strict=True) if kind == name]
        everything += mine
        better = sum(1 for pairs in mine if sum(int(t) - int(o) for o, t in pairs) < 0)
        worse = sum(1 for pairs in mine if sum(int(t) - int(o) for o, t in pairs) > 0)
        lost, half = points(mine, games)
        print(f"{name:>26} {len(mine):11d} {better:11d} {worse:13d} {lost:+18.2f} ({lost - half:+.2f} .. {lost + half:+.2f})")
    lost, half = points(everything, games)
    print(f"{'all':>26} {len(everything):11d} {'':>11} {'':>13} {lost:+18.2f} ({lost - half:+.2f} .. {lost + half:+.2f})")


if __name__ == "__main__":
    sys.exit(main())
