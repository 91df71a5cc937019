"""Bounded chains against exact: probability error, win rate and time per game (seed 001, section 4).

Usage::

    python research/bounded.py [--games 300] [--limits 5,10,20,40] [--preset expert]

Positions: every position the exact agent meets in ``--games`` seeded games
is solved exactly and with each ``max_chain``; the error is over covered
cells (largest and mean absolute). Play: the exact agent with each
``max_chain`` plays the same games. Time per game is for play.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from cspmines import Limit, solve
from cspmines.agents.exact import ExactAgent
from cspmines.bench import Suite, paired_wins, play_game, run_suite, wilson_interval


def positions_of(suite: Suite, games: int) -> list:
    """Every position the exact agent is shown in the first ``games`` games."""
    seen = []

    class Recorder(ExactAgent):
        def act(self, position):
            seen.append(position)
            return super().act(position)

    for i in range(games):
        play_game(suite, "exact", i, player=Recorder())
    return seen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--error-games", type=int, default=40, help="games whose positions are compared")
    parser.add_argument("--limits", default="5,10,20,40")
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    limits = [int(x) for x in args.limits.split(",")]
    suite = Suite.create(agents=["exact"], size=args.preset, games=args.games, seed=args.seed)

    positions = positions_of(suite, args.error_games)
    print(f"probability error over {len(positions)} positions from {args.error_games} {args.preset} games")
    print(f"{'max_chain':>9} {'cut positions':>13} {'max abs error':>13} {'mean abs error':>14} {'certain cells lost':>18} {'ms/solve':>9}")
    exact = []
    started = time.perf_counter()
    for position in positions:
        exact.append(solve(position))
    exact_ms = (time.perf_counter() - started) / len(positions) * 1e3
    print(f"{'exact':>9} {0:13d} {0.0:13.4f} {0.0:14.5f} {0:18d} {exact_ms:9.3f}")
    for limit in limits:
        worst, errors, cut, lost = 0.0, [], 0, 0
        started = time.perf_counter()
        approximations = [solve(p, limit=Limit(max_chain=limit)) for p in positions]
        ms = (time.perf_counter() - started) / len(positions) * 1e3
        for truth, approx in zip(exact, approximations, strict=True):
            a, b = truth.probabilities(), approx.probabilities()
            covered = ~np.isnan(a)
            diff = np.abs(a[covered] - b[covered])
            worst = max(worst, float(diff.max(initial=0)))
            errors.extend(diff.tolist())
            cut += approx.approximate
            lost += len(truth.safe_cells) + len(truth.mine_cells) - len(approx.safe_cells) - len(approx.mine_cells)
        print(f"{limit:9d} {cut:13d} {worst:13.4f} {statistics.fmean(errors):14.5f} {lost:18d} {ms:9.3f}")

    print(f"\nplay: {args.games} classic {args.preset} games, safe corner start, same boards")
    print(f"{'max_chain':>9} {'win rate':>9} {'95% interval':>17} {'ms/game':>8} {'paired against exact':>30}")
    specs = {None: "exact", **{limit: f"exact:max_chain={limit}" for limit in limits}}
    played = run_suite(Suite.create(agents=list(specs.values()), size=args.preset, games=args.games, seed=args.seed),
                       workers=args.workers, progress=False)
    won = {spec: [r["won"] for r in sorted(played.records, key=lambda r: r["game"]) if r["agent"] == spec] for spec in specs.values()}
    for limit, spec in specs.items():
        wins = sum(won[spec])
        seconds = [r["seconds"] for r in played.records if r["agent"] == spec]
        low, high = wilson_interval(wins, args.games)
        paired = "" if limit is None else str(paired_wins(won["exact"], won[spec]))
        label = "exact" if limit is None else str(limit)
        print(f"{label:>9} {wins / args.games:9.2%} {low:8.2%}-{high:<8.2%} {statistics.median(seconds) * 1e3:8.2f} {paired:>30}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
