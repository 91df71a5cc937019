"""What a drawn layout costs, on the reference positions.

Usage::

    python research/sampling.py --layouts 200

For every reference position in ``tests/data`` (or ``--positions``)
times :func:`cspmines.sample_layouts`: one layout (the count of each chain
of influence, kept for the draws, plus one draw) and then ``--layouts``
more (draws only), and prints both per position and the median and largest
per family (the name before its first dash).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from pathlib import Path

from cspmines import Position, sample_layouts

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"  # the reference positions, bundled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=DATA, help="a folder of positions (*.txt)")
    parser.add_argument("--layouts", type=int, default=200, help="layouts drawn after the first")
    args = parser.parse_args()
    families = defaultdict(list)
    sample_layouts(Position.from_string("3x1x1\n.1."), 2, seed=0)  # warm up: the first call's one-time costs are no position's
    print(f"{'position':20s} {'first layout':>14s} {'each after':>12s}")
    for path in sorted(args.positions.glob("*.txt")):
        position = Position.from_file(path)
        started = time.perf_counter()
        sample_layouts(position, 1, seed=0)
        first = time.perf_counter() - started
        started = time.perf_counter()
        sample_layouts(position, args.layouts + 1, seed=0)
        each = max(0.0, time.perf_counter() - started - first) / args.layouts
        families[path.stem.split("-")[0]].append((first, each))
        print(f"{path.stem:20s} {first * 1e3:11.1f} ms {each * 1e3:9.3f} ms")
    print()
    print(f"{'family':14s} {'first: median':>14s} {'max':>10s} {'each: median':>14s} {'max':>10s}")
    for family, rows in sorted(families.items()):
        firsts, eaches = [r[0] * 1e3 for r in rows], [r[1] * 1e3 for r in rows]
        print(
            f"{family:14s} {statistics.median(firsts):11.1f} ms {max(firsts):7.1f} ms"
            f" {statistics.median(eaches):11.3f} ms {max(eaches):7.3f} ms"
        )


if __name__ == "__main__":
    main()
