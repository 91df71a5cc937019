"""Is the exact agent's guess better than its runners-up? Played out on layouts drawn from the position.

Usage::

    python benchmarks/rollouts.py --games 400 --layouts 100 --ratio 0.97

The look-ahead ranks its candidates by a score (secondary safety, progress,
50/50 influence); that score is a heuristic. Here it is checked against the
game itself: in each game (the same boards as ``cspmines bench`` with the
same seed) the first look-ahead guess whose runner-up scores within
``ratio`` of the winner is stopped at. ``layouts`` mine layouts are drawn
uniformly from those the position allows (:func:`cspmines.sample_layouts`);
on each, the game is played on from the position opening the agent's cell
first, and again opening each runner-up first, the agent itself playing the
rest. The same layouts serve every candidate, so the differences are paired.
A runner-up that wins more often than the choice is a guess the score got
wrong; the mean difference over many decisions is the win rate that a
better choice at such close calls would be worth.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor

from guessing import board_arguments  # the script beside this one

from cspmines import sample_layouts
from cspmines.agents.base import Action, parse_agent_spec
from cspmines.agents.exact import ExactAgent
from cspmines.bench import Suite, board_for
from cspmines.games import Game, play
from cspmines.games.board import Board


class _CloseCall(Exception):
    """Raised from the agent's guess callback to stop the game at the decision."""


def _candidates(agent: ExactAgent, analysis, chosen: int) -> list:
    """(cell, score) of the agent's choice and of its living runners-up, best first, as the agent weighs them."""
    views = agent.weigh(analysis)
    return [(view.cell, view.score(agent.progress)) for view in views if not view.dead or view.cell == chosen]


def _find_close_call(args):
    """The game's first look-ahead guess with a runner-up within ``ratio`` of it, or None."""
    suite, options, ratio, i = args
    seen = {}

    def on_guess(guess):
        if guess.reason != "look-ahead":
            return
        ranked = _candidates(agent, seen["analysis"], guess.cell)
        score = dict(ranked)[guess.cell]
        close = [cell for cell, value in ranked if cell != guess.cell and value >= ratio * score and value != score]
        if close:
            seen["call"] = (seen["analysis"].position, guess.cell, close[:2], guess.covered)
            raise _CloseCall

    agent = ExactAgent(on_analysis=lambda analysis: seen.__setitem__("analysis", analysis), on_guess=on_guess, **options)
    try:
        play(agent, Game(board_for(suite, i)), seed=i)
    except _CloseCall:
        return i, seen["call"]
    return i, None


def _play_on(args) -> bool:
    """Resume the position on ``layout``, open ``first``, and let the agent play the rest."""
    position, layout, first, options, seed = args
    game = Game.from_position(position, Board.from_layout(position.width, position.height, layout))
    game.apply(Action.open(first))
    if game.status != "playing":
        return game.won
    return play(ExactAgent(**options), game, seed=seed).won


def main(argv=None) -> int:
    parser = board_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--layouts", type=int, default=100, help="layouts drawn per decision")
    parser.add_argument("--ratio", type=float, default=0.97, help="a runner-up within this share of the winner's score")
    parser.add_argument("--option", default="", help="k=v[,k=v]: ExactAgent options")
    parser.add_argument("--verbose", action="store_true", help="a line per decision")
    args = parser.parse_args(argv)
    suite = Suite.create(agents=["exact"], size=args.preset, first_click=args.first_click, games=args.games, seed=args.seed)
    options = parse_agent_spec(f"exact:{args.option}")[1]
    differences = []  # per decision and runner-up: its win chance minus the choice's, over the same layouts
    by_stage = {"over 80% covered": [], "80% covered or less": []}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        jobs = [(suite, options, args.ratio, i) for i in range(args.games)]
        calls = [(i, call) for i, call in pool.map(_find_close_call, jobs, chunksize=4) if call is not None]
        print(f"{len(calls)} close calls (runner-up within {args.ratio:.0%}) in {args.games} {args.preset} games, "
              f"{args.layouts} layouts each", flush=True)
        for i, (position, chosen, others, covered) in calls:
            layouts = sample_layouts(position, args.layouts, seed=args.seed + i)
            cells = [chosen, *others]
            runs = [(position, layout, cell, options, j) for cell in cells for j, layout in enumerate(layouts)]
            won = list(pool.map(_play_on, runs, chunksize=10))
            wins = {cell: won[n * args.layouts : (n + 1) * args.layouts] for n, cell in enumerate(cells)}
            stage = "over 80% covered" if covered > 0.8 * position.size else "80% covered or less"
            for cell in others:
                difference = (sum(wins[cell]) - sum(wins[chosen])) / args.layouts
                differences.append(difference)
                by_stage[stage].append(difference)
            if args.verbose:
                print(f"game {i}: {covered} covered, chose {chosen} ({sum(wins[chosen])} won), "
                      + ", ".join(f"{cell}: {sum(wins[cell])}" for cell in others), flush=True)
    print(summary("every runner-up", differences))
    for stage, values in by_stage.items():
        print(summary(stage, values))
    return 0


def summary(label: str, differences: list) -> str:
    """The mean difference in win chance (runner-up minus choice) with its 95% interval over decisions.

    >>> summary("x", [0.02, -0.01, 0.0, 0.03])
    'x: 4 runners-up, mean +1.00 points (95% +-1.79); better 2, worse 1'
    """
    if len(differences) < 2:
        return f"{label}: {len(differences)} runners-up"
    mean = statistics.mean(differences)
    half_width = 1.96 * statistics.stdev(differences) / len(differences) ** 0.5
    better = sum(1 for d in differences if d > 0)
    worse = sum(1 for d in differences if d < 0)
    return (f"{label}: {len(differences)} runners-up, mean {100 * mean:+.2f} points (95% +-{100 * half_width:.2f}); "
            f"better {better}, worse {worse}")


if __name__ == "__main__":
    sys.exit(main())
