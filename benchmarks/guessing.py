"""The exact agent's guessing options, measured: win rate with its 95% interval, and time per game.

Usage::

    python benchmarks/guessing.py --games 2000 --preset expert --option lookahead=0 --option lookahead=6

Every option set plays the same boards (game i: seed + i), on a process pool.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from cspmines.agents.base import parse_agent_spec
from cspmines.agents.exact import ExactAgent
from cspmines.bench import Suite, board_for, wilson_interval
from cspmines.games import Game, play


def _play(args) -> tuple[bool, float]:
    suite, options, i = args
    started = time.perf_counter()
    record = play(ExactAgent(**options), Game(board_for(suite, i)), seed=i)
    return record.won, time.perf_counter() - started


def board_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options that say which shared boards are played, and on how many workers."""
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    return parser


def main(argv=None) -> int:
    parser = board_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--option", action="append", default=None, help="k=v[,k=v]: ExactAgent options")
    args = parser.parse_args(argv)
    suite = Suite.create(agents=["exact"], size=args.preset, first_click=args.first_click, games=args.games, seed=args.seed)
    print(f"{args.games} classic {args.preset} games, first click {args.first_click}, same boards for every option")
    print(f"{'options':>28} {'win rate':>9} {'95% interval':>17} {'median ms/game':>15} {'mean ms/game':>13}")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for text in args.option or [""]:
            options = parse_agent_spec(f"exact:{text}")[1]
            results = list(pool.map(_play, [(suite, options, i) for i in range(args.games)], chunksize=20))
            wins = sum(won for won, _ in results)
            seconds = [s for _, s in results]
            low, high = wilson_interval(wins, args.games)
            print(
                f"{text or 'defaults':>28} {wins / args.games:9.2%} {low:8.2%}-{high:<8.2%} "
                f"{statistics.median(seconds) * 1e3:15.2f} {statistics.mean(seconds) * 1e3:13.2f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
