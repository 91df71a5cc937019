"""How the bench's process pool scales: games per second with 1 and 2 workers.

Usage::

    python research/scaling.py [--games 400]

The same expert games of the exact agent on one worker and on two; the
speed-up is what a second core gives the bench (``cspmines bench --workers``).
"""

from __future__ import annotations

import argparse
import sys

from cspmines.bench import Suite, run_suite


def scaling(args) -> None:
    suite = Suite.create(agents=["exact"], size="expert", games=args.games, seed=args.seed)
    rates = {}
    for workers in (1, 2):
        rates[workers] = run_suite(suite, workers=workers, progress=args.progress).games_per_second
        print(f"{workers} worker(s): {rates[workers]:.1f} expert games/s", flush=True)
    print(f"speed-up on 2 workers: {rates[2] / rates[1]:.2f}x")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--progress", action="store_true", default=None)
    args = parser.parse_args(argv)
    scaling(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
