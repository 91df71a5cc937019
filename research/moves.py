"""How good each agent's single move is, judged by the exact engine on positions from real play.

Usage::

    python research/moves.py --games 100 --preset expert --every 5

Plays the shared boards (the same as ``cspmines bench`` with the same seed)
with the exact agent and keeps every ``--every``-th position it meets, and
every position where it has to guess. Each agent is then asked for its move
on each kept position (:func:`cspmines.agents.suggest`, its first move of a
game there) and the move is set beside the engine's exact probabilities:

* where some cell is proved safe: how often the agent opens one (or flags a
  proved mine), and the mean chance of a mine of what it opens;
* where no cell is proved safe (a guess is needed): the mean chance of a
  mine of the agent's move, its mean excess over the least chance on the
  board, and how often it picks a cell of the least chance;
* how many moves the agent called certain that the engine does not prove
  (a baseline's deductions are incomplete, never wrong, unless this is > 0).

Win rates (``cspmines bench``) fold many moves and luck together; this
measures one move at a time, on the same positions for every agent.
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from functools import partial

from guessing import board_arguments, suite_of  # the script beside this one

from cspmines import Position, solve
from cspmines.agents import agent_names, make_agent, suggest
from cspmines.bench import parallel_map, play_game, run_suite


class _Keeper:
    """The exact agent, keeping every ``every``-th position it is shown and each one where it guesses."""

    name = "exact"

    def __init__(self, every: int):
        self.player, self.every, self.kept, self.move = make_agent("exact"), every, [], 0

    def reset(self, *, rules: str, seed) -> None:
        self.player.reset(rules=rules, seed=seed)

    def act(self, position):
        action = self.player.act(position)
        if self.move % self.every == 0 or not action.certain:
            self.kept.append(str(position))
        self.move += 1
        return action


def positions_game(suite, agent: str, i: int, *, every: int) -> dict:
    """Game ``i`` played by the exact agent, with the positions it kept (a bench task)."""
    keeper = _Keeper(every)
    return {**play_game(suite, agent, i, player=keeper), "positions": keeper.kept}


def _judge(args) -> list:
    """(agent, a proved safe cell exists, open or flag, the cell's mine chance, the least chance,
    a certain claim the engine does not prove) per agent."""
    position, agents, seed = args
    analysis = solve(position)
    rows = []
    for agent in agents:
        suggestion = suggest(position, agent, seed=seed, analysis=analysis)
        least = suggestion.least
        rows.append((agent, least == 0, suggestion.action.kind, suggestion.mine_probability, least, not suggestion.claim_holds))
    return rows


def mean(values) -> float:
    values = list(values)
    return statistics.fmean(values) if values else float("nan")


def main(argv=None) -> int:
    parser = board_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]))
    parser.set_defaults(games=100)
    parser.add_argument("--every", type=int, default=5, help="keep every N-th position (guesses are always kept)")
    parser.add_argument("--agent", action="append", help="agents to judge (default: every registered agent)")
    args = parser.parse_args(argv)
    agents = args.agent or list(agent_names())
    suite = suite_of(args)
    played = run_suite(suite, workers=args.workers, progress=False, task=partial(positions_game, every=args.every))
    positions = [Position.from_string(text) for record in played.records for text in record["positions"]]
    judged = parallel_map(_judge, [(p, agents, args.seed + k) for k, p in enumerate(positions)], workers=args.workers, chunksize=8)
    by_agent = defaultdict(list)
    for rows in judged:
        for agent, *row in rows:
            by_agent[agent].append(row)
    with_safe = sum(1 for has_safe, *_ in by_agent[agents[0]] if has_safe)
    false_claims = {agent: sum(row[-1] for row in by_agent[agent]) for agent in agents}
    print(
        f"{len(positions)} positions from {args.games} classic {args.preset} games (first click {args.first_click}, "
        f"seed {args.seed}): {with_safe} with a proved safe cell, {len(positions) - with_safe} needing a guess"
    )
    print("a proved move opens a proved safe cell or flags a proved mine; mine chances are of the cells opened")
    print(f"{'':>16} | {'a safe cell exists':^24} | {'a guess is needed':^38}")
    header = f"{'agent':>16} | {'proved move':>11} {'mine chance':>11} | {'flags':>6} {'mine chance':>11} {'excess':>8} {'at least':>8}"
    print(header)
    print("-" * len(header))
    for agent in agents:
        rows = by_agent[agent]
        safe_rows = [(kind, chance) for has_safe, kind, chance, _, _ in rows if has_safe]
        guess_rows = [(kind, chance, least) for has_safe, kind, chance, least, _ in rows if not has_safe]
        proved = mean((chance == 0) if kind == "open" else (chance == 1) for kind, chance in safe_rows)
        opened = [(chance, least) for kind, chance, least in guess_rows if kind == "open"]
        print(
            f"{agent:>16} | {proved:>11.1%} {mean(float(c) for k, c in safe_rows if k == 'open'):>11.4f} | "
            f"{mean(kind == 'flag' for kind, _, _ in guess_rows):>6.1%} {mean(float(c) for c, _ in opened):>11.4f} "
            f"{mean(float(c - least) for c, least in opened):>8.4f} {mean(c == least for c, least in opened):>8.1%}"
        )
    print("moves claimed certain that the engine does not prove: " + ", ".join(f"{a} {n}" for a, n in false_claims.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
