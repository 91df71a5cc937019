"""How far each player is from optimal minesearch play, on boards small enough to search whole.

Usage::

    python research/optimum.py [--size 5x5x2] [--boards 100] [--seed 0] [--layouts 0] [--out optimum.jsonl]

Minesearch (seeds 000 and 004) ends when every mine is opened; its measure
counts the squares opened, and since every mine is opened anyway, a player
can save only on the safe squares. On a board small enough, the exhaustive
least-cost search (:func:`~cspmines.agents.exact.objectives.search_cost`)
runs over *every* layout the position after the first square allows and
gives the least expected number of safe squares any player can open from
there: the optimum.

Each player's expected number, on the same position, is measured without
sampling noise: the player (seeded as ``cspmines bench`` seeds it) plays
the game once on every layout the position allows, and the mean over those
games is its exact expectation. ``--layouts K`` plays K of them, drawn
uniformly, instead (faster, with noise).

Printed per player: squares opened (the seed's measure, a share of the
board), its expected safe squares beyond the optimum with a 95% interval
over boards, and how many fewer squares than the seed's AI-0 (``risk-score``)
it opens, beside the optimum's. This bounds what any player can gain over
AI-0 on these boards.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

from cspmines.agents import make_agent
from cspmines.agents.exact.layoutsets import list_layouts
from cspmines.agents.exact.objectives import OPENINGS, search_cost
from cspmines.bench import Suite
from cspmines.bench.runner import agent_seed, new_game
from cspmines.games import Board, Game, play

AGENTS = ["risk-score", "single-point", "greedy", "partition", "exact"]


def expected_safe_openings(spec: str, suite: Suite, i: int, first: int, layouts: list) -> float:
    """The mean number of safe squares ``spec`` opens after the first, over a game on each layout."""
    total = 0
    for layout in layouts:
        board = Board.from_layout(suite.width, suite.height, layout)
        game = Game(Board(board.mines, first_click=first), rules="minesearch")
        record = play(make_agent(spec), game, seed=agent_seed(suite, i))
        total += round(record.opened_fraction * board.size) - board.n_mines - 1
    return total / len(layouts)


def board_row(suite: Suite, i: int, agents: list, sample: int, budget: int) -> dict | None:
    game = new_game(suite, i)
    position = game.position
    first = game.board.first_click
    layouts = list_layouts(position, limit=10**6)
    started = time.process_time()
    searched = search_cost(position, layouts, OPENINGS, budget=budget)
    row = {"game": i, "layouts": len(layouts), "search_seconds": time.process_time() - started}
    if searched is None and len(layouts) > 1:
        return None  # past the budget: left out, and counted
    row["optimum"] = 0.0 if searched is None else searched[1]
    played = layouts if not sample or sample >= len(layouts) else random.Random(i).sample(layouts, sample)
    for spec in agents:
        row[spec] = expected_safe_openings(spec, suite, i, first, played)
    return row


def interval(values: list) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else float("nan")
    return mean, half


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="5x5x2", help="WxHxM (default: 5x5x2)")
    parser.add_argument("--boards", type=int, default=100, help="boards (default: 100)")
    parser.add_argument("--seed", type=int, default=0, help="the suite's seed (default: 0)")
    parser.add_argument("--agents", default=",".join(AGENTS), help="players, comma-separated (default: the seeds' and exact)")
    parser.add_argument("--layouts", type=int, default=0, help="play this many layouts a board, drawn uniformly (default: 0, all)")
    parser.add_argument("--budget", type=int, default=50_000_000, help="the optimum search's states (default: 50,000,000)")
    parser.add_argument("--out", help="JSON Lines of each board's figures, resumed when it exists")
    args = parser.parse_args(argv)
    agents = args.agents.split(",")
    suite = Suite.create(agents=agents, size=args.size, rules="minesearch", first_click="random-safe", games=args.boards, seed=args.seed)
    rows, skipped = [], 0
    out = Path(args.out) if args.out else None
    if out and out.exists():
        rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    done = {row["game"] for row in rows}
    sink = out.open("a") if out else None
    for i in range(args.boards):
        if i in done:
            continue
        row = board_row(suite, i, agents, args.layouts, args.budget)
        if row is None:
            skipped += 1
            continue
        rows.append(row)
        if sink:
            sink.write(json.dumps(row) + "\n")
            sink.flush()
        print(f"\rboard {i + 1}/{args.boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if not rows:
        print("no board was searched within the budget")
        return 1
    cells, mines = suite.width * suite.height, suite.mines
    share = lambda safe: (safe + mines + 1) / cells  # noqa: E731 (the seed's measure: every square opened)
    print(f"minesearch {args.size}, first square random-safe, {len(rows)} boards "
          f"({skipped} past the search budget), {'every layout' if not args.layouts else f'{args.layouts} layouts'} a board")
    print(f"{'player':>13} {'opened':>8} {'safe squares beyond the optimum (95%)':>40} {'fewer squares than AI-0':>24}")
    baseline = "risk-score" if "risk-score" in agents else None
    for name in ["optimum", *agents]:
        mean = statistics.fmean(row[name] for row in rows)
        beyond = "" if name == "optimum" else "{:+.3f} ({:+.3f} .. {:+.3f})".format(
            *(lambda m, h: (m, m - h, m + h))(*interval([row[name] - row["optimum"] for row in rows])))
        fewer = ""
        if baseline:
            base = statistics.fmean(row[baseline] for row in rows)
            fewer = f"{1 - share(mean) / share(base):.2%}"
        print(f"{name:>13} {share(mean):8.4f} {beyond:>40} {fewer:>24}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
