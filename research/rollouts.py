"""Is the exact agent's guess better than its runners-up? Played out on layouts drawn from the position.

Usage::

    python research/rollouts.py --games 400 --layouts 100 --ratio 0.97

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
import contextlib
import sys
from functools import partial

from guessing import board_arguments, suite_of  # the script beside this one

from cspmines import Position, sample_layouts
from cspmines.actions import Action
from cspmines.agents import make_agent
from cspmines.agents.exact import ExactAgent
from cspmines.bench import agent_seed, new_game, paired_means, parallel_map, run_suite
from cspmines.games import Game, play
from cspmines.games.board import Board


class _CloseCall(Exception):
    """Raised from the agent's guess callback to stop the game at the decision."""


def _candidates(agent: ExactAgent, analysis, chosen: int) -> list:
    """(cell, score) of the agent's choice and of its living runners-up, best first, as the agent weighs them."""
    views = agent.weigh(analysis)
    return [(view.cell, view.score(agent.options.progress)) for view in views if not view.dead or view.cell == chosen]


def close_call_game(suite, agent_spec: str, i: int, *, ratio: float) -> dict:
    """Game ``i``'s first look-ahead guess with a runner-up within ``ratio`` of it (a bench task):
    ``{"call": [position, chosen, runners-up, covered]}``, or ``{"call": None}``. The game stops there."""
    seen = {}

    def on_guess(guess):
        if guess.reason != "look-ahead":
            return
        ranked = _candidates(agent, seen["analysis"], guess.cell)
        score = dict(ranked)[guess.cell]
        close = [cell for cell, value in ranked if cell != guess.cell and value >= ratio * score and value != score]
        if close:
            seen["call"] = [str(seen["analysis"].position), guess.cell, close[:2], guess.covered]
            raise _CloseCall

    agent = make_agent(agent_spec)
    agent.on_analysis = lambda analysis: seen.__setitem__("analysis", analysis)
    agent.on_guess = on_guess
    with contextlib.suppress(_CloseCall):
        play(agent, new_game(suite, i), seed=agent_seed(suite, i))
    return {"agent": agent_spec, "game": i, "call": seen.get("call")}


def _play_on(args) -> bool:
    """Resume the position on ``layout``, open ``first``, and let the agent play the rest."""
    position, layout, first, spec, seed = args
    game = Game.from_position(position, Board.from_layout(position.width, position.height, layout))
    game.apply(Action.open(first))
    if game.status != "playing":
        return game.won
    return play(make_agent(spec), game, seed=seed).won


def main(argv=None) -> int:
    parser = board_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.add_argument("--layouts", type=int, default=100, help="layouts drawn per decision")
    parser.add_argument("--ratio", type=float, default=0.97, help="a runner-up within this share of the winner's score")
    parser.add_argument("--option", default="", help="k=v[,k=v]: ExactAgent options")
    parser.add_argument("--verbose", action="store_true", help="a line per decision")
    args = parser.parse_args(argv)
    spec = f"exact:{args.option}" if args.option else "exact"
    suite = suite_of(args, [spec])
    differences = []  # per decision and runner-up: its win chance minus the choice's, over the same layouts
    by_stage = {"over 80% covered": [], "80% covered or less": []}
    found = run_suite(suite, workers=args.workers, progress=False, task=partial(close_call_game, ratio=args.ratio))
    calls = [(r["game"], r["call"]) for r in found.records if r["call"] is not None]
    print(f"{len(calls)} close calls (runner-up within {args.ratio:.0%}) in {args.games} {args.preset} games, "
          f"{args.layouts} layouts each", flush=True)
    for i, (text, chosen, others, covered) in calls:
        position = Position.from_string(text)
        layouts = sample_layouts(position, args.layouts, seed=args.seed + i)
        cells = [chosen, *others]
        runs = [(position, layout, cell, spec, j) for cell in cells for j, layout in enumerate(layouts)]
        won = parallel_map(_play_on, runs, workers=args.workers, chunksize=10)
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
    paired = paired_means([0.0] * len(differences), differences)  # each difference is already paired on its layouts
    half_width = paired.high - paired.difference
    return (f"{label}: {len(differences)} runners-up, mean {100 * paired.difference:+.2f} points (95% +-{100 * half_width:.2f}); "
            f"better {paired.gained}, worse {paired.lost}")


if __name__ == "__main__":
    sys.exit(main())
