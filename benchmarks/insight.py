"""What the insight a player is shown costs, on the positions of real games.

Usage::

    python benchmarks/insight.py --games 30 --preset expert --every 5

Plays ``--games`` games of the exact agent (safe corner, boards from ``--seed``), keeps every
``--every``-th position it met before a move, and times on each, in CPU milliseconds, the three parts
of :func:`cspmines.insight_of` (dead cells, 50/50s, endgame winning chances) and the whole; then counts
what they found. None of it runs in a solve or an agent's move unless asked (``benchmarks/agent_time.py
--against REV`` shows the agent's time and moves unchanged).
"""

from __future__ import annotations

import argparse
import statistics
import sys

from cspmines import BudgetExceededError, Limit, solve
from cspmines.agents import make_agent
from cspmines.engine.budget import Stopwatch
from cspmines.engine.insight import FiftyFiftyKind, dead_cells, endgame_chances, fifty_fifties
from cspmines.games import Board, Game, play


def positions(games: int, preset: str, seed: int, every: int) -> list:
    """Every ``every``-th position the exact agent met before a move, over ``games`` games."""
    met: list = []
    for i in range(games):
        play(make_agent("exact"), Game(Board.random(preset, seed=seed + i, first_click="safe")), seed=i,
             observe=lambda position, action: met.append(position))
    return met[::every]


def timed(part, analysis, limit: Limit) -> tuple[float, object]:
    watch = Stopwatch(cpu=True)
    try:
        found = part(analysis, limit=limit)
    except BudgetExceededError:  # past the budget (an endgame of more layouts than it can list): not found
        found = None
    return watch.seconds * 1e3, found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--every", type=int, default=5, help="keep every n-th position met")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds each part may take on a position")
    args = parser.parse_args(argv)
    parts = {"dead cells": dead_cells, "50/50s": fifty_fifties, "endgame chances": endgame_chances}
    spent: dict = {name: [] for name in [*parts, "all three"]}
    found = {"dead cells": 0, "unavoidable 50/50s": 0, "pseudo-50/50s": 0, "endgames valued exactly": 0}
    met = positions(args.games, args.preset, args.seed, args.every)
    for position in met:
        analysis = solve(position)
        total = 0.0
        for name, part in parts.items():
            ms, what = timed(part, analysis, Limit(time=args.budget))
            spent[name].append(ms)
            total += ms
            if what is None:
                continue
            if name == "dead cells":
                found["dead cells"] += len(what)
            elif name == "50/50s":
                found["unavoidable 50/50s"] += sum(f.kind == FiftyFiftyKind.UNAVOIDABLE for f in what)
                found["pseudo-50/50s"] += sum(f.kind == FiftyFiftyKind.PSEUDO for f in what)
            elif what.exact:
                found["endgames valued exactly"] += 1
        spent["all three"].append(total)
    print(f"{len(met)} positions from {args.games} {args.preset} games (1 in {args.every} met), CPU ms a position")
    print(f"{'part':>16} {'median':>8} {'mean':>8} {'max':>8}")
    for name, times in spent.items():
        print(f"{name:>16} {statistics.median(times):8.2f} {statistics.mean(times):8.2f} {max(times):8.2f}")
    print("found: " + ", ".join(f"{count} {what}" for what, count in found.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
