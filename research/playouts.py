"""Could a better minesearch square be found by playing on? Paired play-outs at the exact agent's information moves.

Usage::

    python research/playouts.py [--size 10x10x10] [--games 40] [--first 1000] [--seed 4] [--layouts 80] [--squares 4] [--out F]

Under minesearch, with too many layouts for its exhaustive search, the
exact agent opens the square that tells most for what it costs. Here that
choice is put to the game itself. In each of ``--games`` games (the bench's
boards at ``--seed``, from game ``--first``) one of the agent's information
moves is drawn at random and the game stopped there; ``--layouts`` layouts
are drawn uniformly from those the position allows, and on each the agent
plays on to the end after opening its own square first, and again after
each of the ``--squares - 1`` runners-up of its rule. The same layouts serve
every square, so the differences are paired; every mine is opened in the
end, so the difference in squares opened is the difference in safe ones.

Printed: for each decision the mean squares opened after each square; then
over the decisions the runners-up's mean difference from the choice, and
the gain of choosing by play-outs, cross-validated (the square that does
best on half the layouts, judged on the other half, and the other way
round), which is unbiased where the best of the sample is not.
Multiplied by the agent's information moves a game, it bounds what a
player choosing this way could save. With ``--out``, each decision's
play-outs are kept as a line of JSON, a run stopped part way resumes where
it stopped, and the summary covers every decision in the file.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
from pathlib import Path

from cspmines import Position, sample_layouts
from cspmines.actions import Action
from cspmines.agents import make_agent
from cspmines.agents.exact.objectives import information_per_cost
from cspmines.bench import Suite, paired_means, parallel_map
from cspmines.bench.runner import agent_seed, new_game
from cspmines.games import Game, play
from cspmines.games.board import Board


class _Decision(Exception):
    """Raised from the agent's guess callback to stop the game at the chosen move."""


def information_moves(task) -> int:
    """How many information moves the agent makes in game ``i``."""
    suite, i = task
    made = []
    agent = make_agent("exact", on_guess=lambda guess: made.append(guess.reason == "information"))
    play(agent, new_game(suite, i), seed=agent_seed(suite, i))
    return sum(made)


def decision(task) -> dict | None:
    """Game ``i`` stopped at its ``k``-th information move: the position, the agent's square and the runners-up."""
    suite, i, k, squares = task
    seen = {"moves": 0}

    def on_guess(guess):
        if guess.reason != "information":
            return
        if seen["moves"] == k:
            analysis = seen["analysis"]
            layouts = sample_layouts(analysis.position, agent.options.clue_samples, seed=i)
            ratios = information_per_cost(analysis, analysis.position.covered_cells, layouts=layouts, cost_power=agent.options.cost_power)
            others = [c for c in sorted(ratios, key=lambda c: (-ratios[c], c)) if c != guess.cell][: squares - 1]
            seen["found"] = {"game": i, "position": str(analysis.position), "chosen": guess.cell, "others": others}
            raise _Decision
        seen["moves"] += 1

    agent = make_agent("exact", on_guess=on_guess)
    agent.on_analysis = lambda analysis: seen.__setitem__("analysis", analysis)
    with contextlib.suppress(_Decision):
        play(agent, new_game(suite, i), seed=agent_seed(suite, i))
    return seen.get("found")


def play_on(task) -> int:
    """Squares opened from the position on ``layout`` when ``first`` is opened first and the agent plays the rest."""
    text, layout, first, seed = task
    position = Position.from_string(text)
    game = Game.from_position(position, Board.from_layout(position.width, position.height, layout), rules="minesearch")
    before = game.opened + game.mines_opened
    game.apply(Action.open(first))
    if game.status == "playing":
        play(make_agent("exact"), game, seed=seed)
    return game.opened + game.mines_opened - before


def cross_validated_gain(costs: dict, chosen: int, seed: int) -> float:
    """The choice's cost minus that of the square best on one half of the layouts, judged on the other.

    >>> cross_validated_gain({1: [3, 3, 3, 3], 2: [2, 2, 2, 2]}, 1, seed=0)
    1.0
    """
    order = list(range(len(costs[chosen])))
    random.Random(seed).shuffle(order)
    halves = (order[: len(order) // 2], order[len(order) // 2 :])
    gain = 0.0
    for picking, judging in (halves, halves[::-1]):
        best = min(costs, key=lambda c: (sum(costs[c][j] for j in picking), c))
        gain += sum(costs[chosen][j] - costs[best][j] for j in judging) / len(judging)
    return gain / 2


def interval(values: list) -> str:
    """The mean of differences already paired, with the half-width of its 95% interval (the bench's own).

    >>> interval([0.1, 0.3])
    '+0.2000 (+-0.1960)'
    """
    paired = paired_means([0.0] * len(values), values)
    half = paired.high - paired.difference if len(values) > 1 else float("nan")  # one value: no interval
    return f"{paired.difference:+.4f} (+-{half:.4f})"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="10x10x10")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=1000, help="the first game of the bench's boards used")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--layouts", type=int, default=80, help="layouts drawn per decision (at least 2)")
    parser.add_argument("--squares", type=int, default=4, help="the agent's square and its runners-up, in all")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, help="JSON Lines of each decision's play-outs, resumed when it exists")
    args = parser.parse_args(argv)
    if args.layouts < 2 or args.squares < 2:
        parser.error("--layouts and --squares must be at least 2")
    if args.out is not None and not args.out.parent.is_dir():
        parser.error(f"--out: no folder {args.out.parent}")
    kept = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()] if args.out and args.out.exists() else []
    done = {d["game"] for d in kept}
    games = [i for i in range(args.first, args.first + args.games) if i not in done]
    suite = Suite.create(agents=["exact"], size=args.size, rules="minesearch", first_click="random-safe", games=args.first + args.games, seed=args.seed)
    counts = parallel_map(information_moves, [(suite, i) for i in games], workers=args.workers)
    tasks = [(suite, i, random.Random(i).randrange(n), args.squares) for i, n in zip(games, counts, strict=True) if n]
    found = [d for d in parallel_map(decision, tasks, workers=args.workers) if d is not None]
    print(f"{args.size} minesearch, {len(found)} decisions of {len(games)} games ({len(kept)} kept from before), "
          f"{args.layouts} layouts each", flush=True)
    for d in kept:
        print(line_of(d), flush=True)
    for d in found:
        layouts = sample_layouts(Position.from_string(d["position"]), args.layouts, seed=10**6 + d["game"])
        squares = [d["chosen"], *d["others"]]
        runs = [(d["position"], layout, square, j) for square in squares for j, layout in enumerate(layouts)]
        opened = parallel_map(play_on, runs, workers=args.workers, chunksize=8)
        d["costs"] = [opened[n * args.layouts : (n + 1) * args.layouts] for n in range(len(squares))]
        d["information_moves"] = counts[games.index(d["game"])]
        if args.out is not None:
            with args.out.open("a") as out:
                out.write(json.dumps(d) + "\n")
        kept.append(d)
        print(line_of(d), flush=True)
    if kept:
        differences, gains = [], []
        for d in kept:
            costs = dict(zip([d["chosen"], *d["others"]], d["costs"], strict=True))
            means = {square: statistics.fmean(values) for square, values in costs.items()}
            differences += [means[s] - means[d["chosen"]] for s in d["others"]]
            gains.append(cross_validated_gain(costs, d["chosen"], seed=d["game"]))
        moves = statistics.fmean(d["information_moves"] for d in kept)
        print(f"{len(kept)} decisions, {moves:.1f} information moves a game")
        print(f"runners-up minus the choice, squares opened: {interval(differences)}")
        print(f"gain of choosing by play-outs, cross-validated, a decision: {interval(gains)}; "
              f"times {moves:.1f} moves a game: {statistics.fmean(gains) * moves:+.3f}")
    return 0


def line_of(d: dict) -> str:
    """One decision's mean squares opened after each square."""
    means = [statistics.fmean(values) for values in d["costs"]]
    return f"game {d['game']}: chose {d['chosen']} ({means[0]:.2f} opened), " + ", ".join(
        f"{s}: {m:.2f}" for s, m in zip(d["others"], means[1:], strict=True)
    )


if __name__ == "__main__":
    sys.exit(main())
