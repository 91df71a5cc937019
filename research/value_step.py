"""Is the exact agent's minesearch play a fixed point of one step of policy improvement? Fitted and played.

Usage::

    python research/value_step.py [--size 10x10x10] [--fit-games 300] [--games 1000] [--seed 4] [--workers 2]

Under minesearch (seeds 000 and 004), with too many layouts left for its
exhaustive search, the exact agent opens the square that tells most (the
entropy of what it will show) for the safe squares it is expected to cost
(:func:`~cspmines.agents.exact.objectives.information_per_cost`). That is a
rule of thumb. Policy improvement (Bertsekas's rollout, one step of Howard's
policy iteration) gives a test of it: if ``V`` is the expected number of safe
squares the agent itself still opens from a position, the player that opens
the square of least price (its chance of being safe) plus ``V`` expected
after it is at least as good, and no better only if the rule already makes
those choices.

1. **Fit.** The agent plays ``--fit-games`` boards (the bench's boards at
   ``--seed + 1``, none of those played in step 2). Before each move the
   position is described by the base-2 logarithm of its layouts left and by
   its unresolved squares (covered, neither proved safe nor proved a mine);
   the safe squares the agent then opens to the end are regressed on them by
   least squares, and R^2 is printed for each set of features.
2. **Step.** The one-step player (the agent, with its information rule
   replaced by least price plus fitted ``V`` after: the layouts left shrink
   by the entropy of what the square shows, its own square is resolved, and
   its covered neighbours with it when its clue says all safe or all mines,
   read from the same drawn layouts as the rule's) plays the suite's
   ``--games`` boards at ``--seed`` beside the agent and the seed's AI-0
   (``risk-score``). Each is paired with the agent: squares mined (the seed's
   measure) with the 95% interval of the difference.

A difference within noise says that, as far as these features of a position
can tell, the rule is already at the fixed point: a better player needs a
value that sees more than the layouts left, or a deeper search.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys

import numpy as np

from cspmines import sample_layouts, solve
from cspmines.agents import make_agent
from cspmines.agents.exact import ExactAgent
from cspmines.agents.exact.objectives import drawn_clue_counts, information_per_cost
from cspmines.bench import Suite, paired_means, parallel_map
from cspmines.bench.runner import agent_seed, new_game
from cspmines.games import play
from cspmines.position import COVERED, FLAG, MINE

FEATURES = ("log2 layouts", "unresolved")


def describe(analysis) -> tuple[float, int]:
    """The position's features: log2 of its layouts left, and its covered squares not yet resolved."""
    chances = np.nan_to_num(analysis.probabilities().ravel(), nan=0.0)
    covered = analysis.position.grid.ravel() == COVERED
    unresolved = int(np.count_nonzero(covered & (chances > 0) & (chances < 1)))
    return math.log2(analysis.model_count), unresolved


def collect(task) -> list:
    """(features..., safe squares the agent opens from there to the end) before each move of game ``i``."""
    suite, i = task
    game = new_game(suite, i)
    agent = make_agent("exact")
    agent.reset(rules=game.rules, seed=agent_seed(suite, i))
    states, opened_safe = [], 0
    while game.status == "playing":
        states.append((*describe(solve(game.position)), opened_safe))
        action = agent.act(game.position)
        game.apply(action)
        opened_safe += not game.board.mines.flat[action.cell]
    return [(log_count, unresolved, opened_safe - before) for log_count, unresolved, before in states]


def fit(states: list) -> dict:
    """Least squares of the safe squares still opened on each set of features: {features: (R^2, weights, intercept)}."""
    table = np.array(states, dtype=float)
    target = table[:, -1]
    fits = {}
    for size in (1, 2):
        for chosen in itertools.combinations(range(len(FEATURES)), size):
            design = np.column_stack([table[:, list(chosen)], np.ones(len(table))])
            weights, *_ = np.linalg.lstsq(design, target, rcond=None)
            residual = target - design @ weights
            fits[tuple(FEATURES[c] for c in chosen)] = (1 - residual.var() / target.var(), weights[:-1], weights[-1])
    return fits


def one_step_values(analysis, cells, layouts, per_bit: float, per_square: float) -> dict:
    """For each of ``cells``: its price (chance of being safe) plus the fitted value expected after it,
    less the value now (which every cell shares): ``price - per_bit * entropy - per_square * resolved``."""
    position = analysis.position
    flat = position.grid.ravel()
    chances = np.nan_to_num(analysis.probabilities().ravel(), nan=0.0)
    known_mine = (flat == FLAG) | (flat == MINE) | ((flat == COVERED) & (chances >= 1))
    bits = information_per_cost(analysis, cells, layouts=layouts, cost_power=0.0)  # the entropy itself
    spreads = drawn_clue_counts(position, layouts)
    values = {}
    for cell, entropy in bits.items():
        chance = float(chances[cell])
        around = position.neighbours(cell)
        mines_known = sum(1 for n in around if known_mine[n])
        open_question = [n for n in around if flat[n] == COVERED and 0 < chances[n] < 1]
        resolved = 1.0 if 0 < chance < 1 else 0.0
        spread = spreads[cell]
        if open_question and spread.sum():
            shown = spread / spread.sum()  # the clue's spread when the cell is safe
            settles = shown[mines_known] + (shown[mines_known + len(open_question)] if mines_known + len(open_question) <= 8 else 0.0)
            resolved += (1 - chance) * settles * len(open_question)
        values[cell] = (1 - chance) - per_bit * entropy - per_square * resolved
    return values


class OneStepAgent(ExactAgent):
    """The exact agent with its minesearch information rule replaced by one step of improvement on a fitted value."""

    if ExactAgent.MINESEARCH_RULES[-1] is not ExactAgent._most_information:  # the rule replaced below
        raise ImportError("the exact agent's last minesearch rule is no longer _most_information")

    def __init__(self, per_bit: float, per_square: float):
        super().__init__()
        self.per_bit, self.per_square = per_bit, per_square

    def _one_step(self, turn):
        """The information rule's place: the square of best one-step value on the fitted value."""
        ExactAgent._most_information(self, turn)  # its draws from the agent's seed kept: the games stay those measured
        layouts = sample_layouts(turn.analysis.position, self.options.clue_samples, seed=int(self.rng.integers(2**63)))
        cells = [c for c in turn.position.covered_cells if c not in self.mines]
        values = one_step_values(turn.analysis, cells, layouts, self.per_bit, self.per_square)
        return min(values, key=lambda c: (values[c], c)), "one step"

    MINESEARCH_RULES = (*ExactAgent.MINESEARCH_RULES[:-1], _one_step)


def play_one(task) -> float:
    """The share of the board mined by one player on board ``i`` of ``suite``."""
    suite, i, player, weights = task
    agent = OneStepAgent(*weights) if player == "one step" else make_agent(player)
    return play(agent, new_game(suite, i), seed=agent_seed(suite, i)).opened_fraction


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="10x10x10")
    parser.add_argument("--fit-games", type=int, default=300)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)

    def suite(games: int, seed: int) -> Suite:
        return Suite.create(agents=["exact"], size=args.size, rules="minesearch", first_click="random-safe", games=games, seed=seed)

    training = suite(args.fit_games, args.seed + 1)
    states = [s for game in parallel_map(collect, [(training, i) for i in range(args.fit_games)], workers=args.workers) for s in game]
    print(f"fit: {len(states)} positions of {args.fit_games} games of the exact agent, {args.size} minesearch, seed {args.seed + 1}")
    fits = fit(states)
    for features, (r2, weights, intercept) in fits.items():
        terms = " + ".join(f"{w:.3f} * {name}" for w, name in zip(weights, features, strict=True))
        print(f"  R^2 {r2:.3f}: safe squares still opened = {terms} + {intercept:.3f}")
    _, (per_bit, per_square), _ = fits[FEATURES]
    print(f"step: {args.games} boards at seed {args.seed}; least price {-per_bit:+.3f} * entropy {-per_square:+.3f} * squares resolved")

    boards = suite(args.games, args.seed)
    players = ["exact", "one step", "risk-score"]
    tasks = [(boards, i, player, (per_bit, per_square)) for player in players for i in range(args.games)]
    shares = parallel_map(play_one, tasks, workers=args.workers, chunksize=4)
    by_player = {p: shares[n * args.games : (n + 1) * args.games] for n, p in enumerate(players)}
    print(f"{'player':>12} {'squares mined':>14} {'minus exact (95%)':>30}")
    for player, values in by_player.items():
        line = f"{player:>12} {statistics.fmean(values):14.4f}"
        if player != "exact":
            paired = paired_means(by_player["exact"], values)
            line += f" {paired.difference:+12.4f} ({paired.low:+.4f} .. {paired.high:+.4f})"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
