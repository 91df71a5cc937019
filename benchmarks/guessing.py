"""The exact agent's guessing options, measured: win rate with its 95% interval, and time per game.

Usage::

    python benchmarks/guessing.py --games 2000 --preset expert --option lookahead=0 --option lookahead=6

Every option set plays the same boards (game i: seed + i), on a process pool.
With more than one option set, each is then paired with the first on those
boards: "+a -b" counts the boards only it won and only the first won, and
the difference in win rate gets its paired 95% interval (McNemar's normal
approximation), far narrower than the two intervals side by side.
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
    outcomes = {}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for text in args.option or [""]:
            options = parse_agent_spec(f"exact:{text}")[1]
            results = list(pool.map(_play, [(suite, options, i) for i in range(args.games)], chunksize=20))
            outcomes[text] = [won for won, _ in results]
            wins = sum(won for won, _ in results)
            seconds = [s for _, s in results]
            low, high = wilson_interval(wins, args.games)
            print(
                f"{text or 'defaults':>28} {wins / args.games:9.2%} {low:8.2%}-{high:<8.2%} "
                f"{statistics.median(seconds) * 1e3:15.2f} {statistics.mean(seconds) * 1e3:13.2f}",
                flush=True,
            )
    first, *others = outcomes
    for text in others:
        print(paired_difference(outcomes[first], outcomes[text], f"{text} against {first or 'defaults'}"))
    return 0


def paired_difference(base: list, other: list, label: str) -> str:
    """'+a -b': boards only ``other`` won and only ``base`` won, and the difference in win
    rate with its paired 95% interval.

    >>> paired_difference([True, False, True, False], [True, True, True, False], "x")
    'x: +1 -0, +25.00 points (95% +-49.00)'
    """
    gained = sum(1 for was, now in zip(base, other, strict=True) if now and not was)
    lost = sum(1 for was, now in zip(base, other, strict=True) if was and not now)
    games = len(base)
    half_width = 196 * (gained + lost) ** 0.5 / games
    return f"{label}: +{gained} -{lost}, {100 * (gained - lost) / games:+.2f} points (95% +-{half_width:.2f})"


if __name__ == "__main__":
    sys.exit(main())
