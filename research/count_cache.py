"""What reusing recent chains' counts saves in play.

Usage::

    python research/count_cache.py --games 60 --rounds 3

Plays the same ``--games`` classic expert games (safe corner, default
``exact`` agent) with ``solve``'s cache of recent counts on and off, in
alternating rounds (this machine's speed drifts), and prints for each: the
counts the backends made, the CPU time, and the median and mean CPU
milliseconds per game. The moves are the same either way (checked).
"""

from __future__ import annotations

import argparse
import statistics
import time

from cspmines.agents import make_agent
from cspmines.bench import Suite, agent_seed, new_game
from cspmines.engine.backends.dynamic import DynamicProgrammingBackend
from cspmines.engine.engine import default_engine
from cspmines.games import play


def run(games: int, *, cache: bool) -> tuple[list, int, list]:
    """(each game's moves, counts made, CPU seconds per game)."""
    default_engine().cache.counts.limit = 2048 if cache else 0
    default_engine().cache.counts.clear()
    made = 0
    original = DynamicProgrammingBackend.count

    def counted(self, component, *, budget=None):
        nonlocal made
        made += 1
        return original(self, component, budget=budget)

    DynamicProgrammingBackend.count = counted
    try:
        moves, seconds = [], []
        suite = Suite.create(agents=["exact"], size="expert", games=games, seed=0)
        for i in range(games):
            started = time.process_time()
            record = play(make_agent("exact"), new_game(suite, i), seed=agent_seed(suite, i))
            seconds.append(time.process_time() - started)
            moves.append([(move.action.kind, move.action.cell) for move in record.history])
    finally:
        DynamicProgrammingBackend.count = original
        default_engine().cache.counts.limit = 2048
    return moves, made, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    totals = {True: [0, []], False: [0, []]}
    reference = None
    for _ in range(args.rounds):
        for cache in (False, True):
            moves, made, seconds = run(args.games, cache=cache)
            reference = reference or moves
            assert moves == reference, "the cache changed a game"
            totals[cache][0] += made
            totals[cache][1] += seconds
    print(f"{args.games} expert games x {args.rounds} rounds, default exact agent, CPU time")
    print(f"{'cache':>6} {'counts made':>12} {'CPU s':>8} {'median ms/game':>15} {'mean ms/game':>13}")
    for cache in (False, True):
        made, seconds = totals[cache]
        print(
            f"{'on' if cache else 'off':>6} {made // args.rounds:12d} {sum(seconds) / args.rounds:8.1f}"
            f" {statistics.median(seconds) * 1e3:15.1f} {statistics.mean(seconds) * 1e3:13.1f}"
        )


if __name__ == "__main__":
    main()
