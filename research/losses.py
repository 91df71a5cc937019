"""Where the exact agent loses: the guess that ended each lost game, and every guess's risk.

Usage::

    python research/losses.py --games 4000 --preset expert --option off_front=8

The same boards as ``cspmines bench`` with the same seed. For the lost games:
which rule chose the fatal guess, how far the game had gone (covered cells
left) and how many guesses it was; for every guess, its expected cost
(its chance of being a mine) summed by rule and by stage, so the stages
where losses are taken, and the rules that take them, stand side by side.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from dataclasses import asdict

from guessing import board_arguments, suite_of  # the script beside this one

from cspmines.agents import make_agent
from cspmines.agents.exact import Guess
from cspmines.bench import board_for, play_game, run_suite


def guesses_game(suite, agent: str, i: int) -> dict:
    """Game ``i`` played by ``agent`` (an exact agent spec), with every guess it made (a bench task)."""
    guesses = []
    player = make_agent(agent)
    player.on_guess = guesses.append
    return {**play_game(suite, agent, i, player=player), "guess_list": [asdict(guess) for guess in guesses]}


def _stage(covered: int, size: int) -> str:
    """Covered cells left as a share of the board, in fifths (the opening is the top fifth)."""
    fifth = min(4, covered * 5 // (size + 1))
    return f"{fifth * 20}-{fifth * 20 + 20}% covered"


def main(argv=None) -> int:
    parser = board_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--option", default="", help="k=v[,k=v]: ExactAgent options")
    args = parser.parse_args(argv)
    suite = suite_of(args, [f"exact:{args.option}" if args.option else "exact"])
    size = board_for(suite, 0).size
    result = run_suite(suite, workers=args.workers, progress=False, task=guesses_game)
    games = [(r["won"], [Guess(**g) for g in r["guess_list"]]) for r in result.records]
    lost = [guesses for won, guesses in games if not won]
    print(f"{args.games} classic {args.preset} games, first click {args.first_click}, options {args.option or 'defaults'}")
    print(f"won {args.games - len(lost)} ({1 - len(lost) / args.games:.2%}), lost {len(lost)}")
    every = [guess for _, guesses in games for guess in guesses]
    by_reason, by_stage = defaultdict(float), defaultdict(float)
    for guess in every:
        by_reason[guess.reason] += 1 - guess.safety
        by_stage[_stage(guess.covered, size)] += 1 - guess.safety
    fatal_reason = Counter(guesses[-1].reason for guesses in lost if guesses)
    fatal_stage = Counter(_stage(guesses[-1].covered, size) for guesses in lost if guesses)
    fatal_index = Counter(min(len(guesses), 6) for guesses in lost if guesses)
    count_reason = Counter(guess.reason for guess in every)
    print(f"\n{'rule':>20} {'guesses':>8} {'expected losses':>16} {'lost games':>11}")
    for reason, _ in count_reason.most_common():
        print(f"{reason:>20} {count_reason[reason]:8d} {by_reason[reason]:16.1f} {fatal_reason[reason]:11d}")
    print(f"\n{'stage':>20} {'expected losses':>16} {'lost games':>11}")
    for stage in sorted(by_stage, reverse=True):
        print(f"{stage:>20} {by_stage[stage]:16.1f} {fatal_stage[stage]:11d}")
    print("\nlost games by the number of the fatal guess (6: six or more):")
    print("  " + ", ".join(f"{n}: {fatal_index[n]}" for n in sorted(fatal_index)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
