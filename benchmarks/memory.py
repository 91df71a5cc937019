"""Cache: the most the engine holds at once, on the reference positions and in play.

Usage::

    python benchmarks/memory.py --games 20

For every reference position (``tests/data``, as ``engine.py``) it prints the
peak of Python's allocations (``tracemalloc``) while ``solve`` counts it from
scratch (the cache of recent counts emptied first) and while
``sample_layouts`` draws its first layout (the kept forward passes are what a
draw needs), then the largest and the median per family. Then it plays
``--games`` classic expert games with the default ``exact`` agent and prints
the peak during a game, and what stays allocated after them all: the cache of
the last 2,048 components' counts that ``solve`` keeps. Tracing makes
everything slower; the figures are bytes, not times.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tracemalloc
from collections import defaultdict
from pathlib import Path

from cspmines import Position, sample_layouts, solve
from cspmines.agents import make_agent
from cspmines.bench import Suite, agent_seed, new_game
from cspmines.engine.engine import default_engine
from cspmines.games import play

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
MIB = 1024 * 1024


def peak_of(work) -> int:
    """Bytes allocated at the peak while ``work()`` runs, above what was held before."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    work()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak - before


def fresh_solve(position: Position) -> None:
    default_engine().cache.counts.clear()  # count every chain, as a first look at the position would
    solve(position)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="folder of reference positions (*.txt)")
    parser.add_argument("--filter", default="", help="only positions whose name contains this")
    parser.add_argument("--games", type=int, default=20, help="expert games played under tracing")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    families = defaultdict(list)
    print(f"{'position':20s} {'solve peak':>11s} {'first layout peak':>18s}")
    for path in sorted(args.data.glob("*.txt")):
        if args.filter not in path.stem:
            continue
        position = Position.from_file(path)
        solving = peak_of(lambda position=position: fresh_solve(position))
        drawing = peak_of(lambda position=position: sample_layouts(position, 1, seed=0))
        families[path.stem.rsplit("-", 1)[0].rstrip("0123456789-")].append((solving, drawing))
        print(f"{path.stem:20s} {solving / MIB:7.2f} MiB {drawing / MIB:14.2f} MiB")
    print()
    print(f"{'family':14s} {'solve: median':>14s} {'max':>9s} {'layout: median':>15s} {'max':>9s}")
    for family, rows in sorted(families.items()):
        solving, drawing = [r[0] / MIB for r in rows], [r[1] / MIB for r in rows]
        print(
            f"{family:14s} {statistics.median(solving):10.2f} MiB {max(solving):5.2f} MiB"
            f" {statistics.median(drawing):11.2f} MiB {max(drawing):5.2f} MiB"
        )

    if args.games:
        default_engine().cache.counts.clear()
        tracemalloc.start()
        held_before = tracemalloc.get_traced_memory()[0]
        peaks = []
        suite = Suite.create(agents=["exact"], size="expert", games=args.games, seed=args.seed)
        for i in range(args.games):
            tracemalloc.reset_peak()
            start = tracemalloc.get_traced_memory()[0]
            play(make_agent("exact"), new_game(suite, i), seed=agent_seed(suite, i))
            peaks.append(tracemalloc.get_traced_memory()[1] - start)
        held_after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        print()
        print(
            f"{args.games} expert games: peak during a game {statistics.median(peaks) / MIB:.2f} MiB median, "
            f"{max(peaks) / MIB:.2f} MiB max; held after them all {(held_after - held_before) / MIB:.2f} MiB "
            f"(chiefly solve's counts of the last {len(default_engine().cache.counts):,} components, at most {default_engine().cache.counts.limit:,})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
