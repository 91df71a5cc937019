"""The endgame search, timed on positions from real games.

Usage::

    python research/endgame.py --games 300 --limit 150 --limit 1000 --limit 5000

Plays ``--games`` expert games with the exact agent at its defaults and
keeps every position the engine solved with at most the largest limit of
layouts (the positions where a larger ``endgame=`` would search). For each
limit it then lists the layouts and searches the game tree
(:func:`cspmines.agents.exact.endgame.best_move`), and prints how many positions
were searched, how many passed the state budget, and the time spent
listing and searching (total, and the slowest position).
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial

from cspmines import Position
from cspmines.agents import make_agent
from cspmines.agents.exact.endgame import list_layouts, search_layouts
from cspmines.bench import Suite, play_game, run_suite


def late_positions_game(suite, agent: str, i: int, *, most: int) -> dict:
    """Game ``i`` with the positions the engine solved with 2 to ``most`` layouts (a bench task)."""
    kept = []

    def keep(analysis):
        if analysis.model_count is not None and 2 <= analysis.model_count <= most:
            kept.append(str(analysis.position))

    player = make_agent(agent)
    player.on_analysis = keep
    return {**play_game(suite, agent, i, player=player), "late": kept}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="expert games of the exact agent, safe corner")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--limit", type=int, action="append", help="most layouts to search (repeatable)")
    parser.add_argument("--budget", type=int, default=200_000, help="most game-tree states per search")
    args = parser.parse_args(argv)
    limits = sorted(args.limit or [150, 1000, 5000])
    suite = Suite.create(agents=["exact"], size="expert", games=args.games, seed=args.seed)
    played = run_suite(suite, workers=args.workers, progress=False, task=partial(late_positions_game, most=limits[-1]))
    positions = [Position.from_string(text) for record in played.records for text in record["late"]]
    print(f"{len(positions)} positions with 2 to {limits[-1]} layouts from {args.games} expert games")
    print(f"{'limit':>6} {'searched':>9} {'past budget':>12} {'listing s':>10} {'search s':>9} {'slowest s':>10}")
    for limit in limits:
        searched = past_budget = 0
        listing = searching = slowest = 0.0
        for position in positions:
            started = time.perf_counter()
            layouts = list_layouts(position, limit=limit)
            listed = time.perf_counter()
            listing += listed - started
            if not layouts or len(layouts) < 2:
                continue
            found = search_layouts(position, layouts, budget=args.budget)
            took = time.perf_counter() - listed
            searching += took
            slowest = max(slowest, took)
            searched += found is not None
            past_budget += found is None
        print(f"{limit:>6} {searched:>9} {past_budget:>12} {listing:>10.2f} {searching:>9.2f} {slowest:>10.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
