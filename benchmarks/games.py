"""Time agents playing seeded games: median seconds per game, win rate, guesses.

Usage::

    python benchmarks/games.py                         # exact agent, 200 classic expert games
    python benchmarks/games.py --agent greedy --agent exact --preset beginner --games 500
    python benchmarks/games.py --rules minesearch --agent partition --agent risk-score

Game i uses the board ``Board.random(preset, seed=seed + i)`` for every agent.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from cspmines.agents import agent_names, make_agent
from cspmines.games import Board, Game, play


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", action="append", choices=agent_names())
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--rules", default="classic", choices=("classic", "minesearch", "score"))
    parser.add_argument("--first-click", default="safe", choices=("safe", "opening", "unsafe"))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    agents = args.agent or ["exact"]
    print(f"{args.games} {args.rules} games on {args.preset}, first click {args.first_click}")
    print(f"{'agent':>15} {'median ms/game':>15} {'mean ms/game':>13} {'ms/move':>8} {'wins':>7} {'guesses':>8} {'opened':>7} {'score':>6}")
    for name in agents:
        seconds, moves, records = [], 0, []
        for i in range(args.games):
            board = Board.random(args.preset, seed=args.seed + i, first_click=args.first_click)
            t = time.perf_counter()
            record = play(make_agent(name), Game(board, rules=args.rules, seed=args.seed + i), seed=args.seed + i)
            seconds.append(time.perf_counter() - t)
            moves += record.moves
            records.append(record)
        wins = sum(r.won for r in records)
        print(
            f"{name:>15} {statistics.median(seconds) * 1e3:15.2f} {statistics.mean(seconds) * 1e3:13.2f} "
            f"{sum(seconds) / max(1, moves) * 1e3:8.3f} {wins / len(records):7.1%} "
            f"{statistics.mean(r.guesses for r in records):8.2f} {statistics.mean(r.opened_fraction for r in records):7.3f} "
            f"{statistics.mean(r.score for r in records):6.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
