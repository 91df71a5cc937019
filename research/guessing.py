"""The exact agent's guessing options, measured: win rate with its 95% interval, and time per game.

Usage::

    python research/guessing.py --games 2000 --preset expert --option lookahead=0 --option lookahead=6

Every option set plays the same boards, those of ``cspmines bench`` at the same
seed, on the bench's own runner (``--workers`` processes).
With more than one option set, each is then paired with the first on those
boards: "+a -b" counts the boards only it won and only the first won, and
the difference in win rate gets its paired 95% interval (McNemar's normal
approximation), far narrower than the two intervals side by side.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from cspmines.bench import Suite, paired_wins, run_suite, wilson_interval


def board_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options that say which shared boards are played, and on how many workers."""
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    return parser


def suite_of(args, agents=("exact",)) -> Suite:
    """The suite of the shared boards the board options name."""
    return Suite.create(agents=list(agents), size=args.preset, first_click=args.first_click, games=args.games, seed=args.seed)


def main(argv=None) -> int:
    parser = board_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--option", action="append", default=None, help="k=v[,k=v]: ExactAgent options")
    args = parser.parse_args(argv)
    texts = args.option or [""]
    specs = {text: f"exact:{text}" if text else "exact" for text in texts}
    suite = suite_of(args, dict.fromkeys(specs.values()))
    print(f"{args.games} classic {args.preset} games, first click {args.first_click}, same boards for every option")
    result = run_suite(suite, workers=args.workers, progress=False)
    print(f"{'options':>28} {'win rate':>9} {'95% interval':>17} {'median ms/game':>15} {'mean ms/game':>13}")
    outcomes = {}
    for text, spec in specs.items():
        records = sorted((r for r in result.records if r["agent"] == spec), key=lambda r: r["game"])
        outcomes[text] = [r["won"] for r in records]
        wins = sum(outcomes[text])
        seconds = [r["seconds"] for r in records]
        low, high = wilson_interval(wins, len(records))
        print(
            f"{text or 'defaults':>28} {wins / len(records):9.2%} {low:8.2%}-{high:<8.2%} "
            f"{statistics.median(seconds) * 1e3:15.2f} {statistics.mean(seconds) * 1e3:13.2f}"
        )
    first, *others = outcomes
    for text in others:
        paired = paired_wins(outcomes[first], outcomes[text])
        print(f"{text} against {first or 'defaults'}: +{paired.gained} -{paired.lost}, {100 * paired.difference:+.2f} points "
              f"(95% {100 * paired.low:+.2f} .. {100 * paired.high:+.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
