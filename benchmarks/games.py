"""Time agents playing seeded games: median seconds per game, win rate, guesses.

Usage::

    python benchmarks/games.py                         # exact agent, 200 classic expert games
    python benchmarks/games.py --agent greedy --agent exact --preset beginner --games 500
    python benchmarks/games.py --rules minesearch --agent partition --agent risk-score

Game i is game i of ``cspmines bench`` at the same seed, for every agent, played
on the bench's runner (``--workers`` processes).
"""

from __future__ import annotations

import argparse
import statistics
import sys

from cspmines.agents import agent_names
from cspmines.bench import Suite, run_suite


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", action="append", choices=agent_names())
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--rules", default="classic", choices=("classic", "minesearch", "score"))
    parser.add_argument("--first-click", default="safe", choices=("safe", "opening", "unsafe"))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    agents = args.agent or ["exact"]
    print(f"{args.games} {args.rules} games on {args.preset}, first click {args.first_click}")
    print(f"{'agent':>15} {'median ms/game':>15} {'mean ms/game':>13} {'ms/move':>8} {'wins':>7} {'guesses':>8} {'opened':>7} {'score':>6}")
    suite = Suite.create(agents=agents, size=args.preset, rules=args.rules, first_click=args.first_click, games=args.games, seed=args.seed)
    played = run_suite(suite, workers=args.workers, progress=False)
    for name in agents:
        records = [r for r in played.records if r["agent"] == name]
        seconds = [r["seconds"] for r in records]
        moves = sum(r["moves"] for r in records)
        wins = sum(r["won"] for r in records)
        print(
            f"{name:>15} {statistics.median(seconds) * 1e3:15.2f} {statistics.mean(seconds) * 1e3:13.2f} "
            f"{sum(seconds) / max(1, moves) * 1e3:8.3f} {wins / len(records):7.1%} "
            f"{statistics.mean(r['guesses'] for r in records):8.2f} {statistics.mean(r['opened_fraction'] for r in records):7.3f} "
            f"{statistics.mean(r['score'] for r in records):6.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
