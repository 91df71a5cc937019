"""Each backend's time against component size, on every component of the reference positions.

Usage::

    python benchmarks/backends.py [--time-limit 2] [--min-seconds 0.2]

Prints, per size bucket (boxes in the component), the median time of each
backend and which is fastest: that table sets ``auto``'s crossovers
(``cspmines/engine/backends/auto.py``). Then, per reference family, the total solve
time of each backend and of ``auto``, with auto's excess over the best
single backend. A backend cut by the time limit counts as the limit.

Ganak (``pip install pyganak``), an exact model counter, runs beside them as
a peer where it is installed (``--no-ganak`` leaves it out): each component's
clues as CNF (one variable a cell, sequential-counter cardinality encodings),
its models projected on the cells, which is the component's layout count
(``tests/test_ganak.py`` checks it on every reference chain). It counts layouts
only, not each box's tally, so it does less than a backend; it cannot be
stopped within a count, so a component is timed once and the tables say
where it took longer than the time limit.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import cspmines
from cspmines.engine.backends import backend_names, get_backend
from cspmines.engine.backends.ordering import front_width
from cspmines.engine.backends.sat import ganak_layouts
from cspmines.engine.budget import Limit
from cspmines.engine.chains import split_chains
from cspmines.engine.constraints import ConstraintSystem
from cspmines.errors import BudgetExceededError

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
BUCKETS = [(1, 2), (3, 5), (6, 10), (11, 20), (21, 40), (41, 80), (81, 10_000)]


def time_count(backend, component, *, limit: float, min_seconds: float) -> float:
    """Median seconds of ``backend.count``; ``limit`` when it does not finish within it."""
    times = []
    started = time.perf_counter()
    while not times or (time.perf_counter() - started < min_seconds and len(times) < 200):
        t = time.perf_counter()
        try:
            backend.count(component, budget=Limit(time=limit, memory=None).start())
        except BudgetExceededError:
            return limit
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def ganak_counter():
    """A function counting a chain's layouts with Ganak, or None where pyganak is not installed."""
    return ganak_layouts if importlib.util.find_spec("pyganak") is not None else None


def time_ganak(count, component, *, min_seconds: float) -> float:
    """Median seconds of Ganak's count, its answer checked against the dp backend's; a count that took
    a second or more is timed once."""
    times = []
    started = time.perf_counter()
    while not times or (time.perf_counter() - started < min_seconds and len(times) < 200 and times[0] < 1.0):
        t = time.perf_counter()
        layouts = count(component)
        times.append(time.perf_counter() - t)
    if layouts != get_backend("dp").count(component).total:
        raise AssertionError(f"Ganak counts {layouts} layouts on a chain of {component.n_cells} cells, the engine another number")
    return statistics.median(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=2.0, help="seconds per backend and component")
    parser.add_argument("--min-seconds", type=float, default=0.2, help="repeat each timing at least this long")
    parser.add_argument("--filter", default="")
    parser.add_argument("--no-ganak", action="store_true", help="leave the Ganak peer out")
    args = parser.parse_args(argv)
    names = [n for n in backend_names() if n != "auto"]
    backends = {n: get_backend(n) for n in names}
    ganak = None if args.no_ganak else ganak_counter()
    if ganak is None and not args.no_ganak:
        print("pyganak is not installed (pip install pyganak): the Ganak peer is left out")
    peers = names + (["ganak"] if ganak is not None else [])

    rows = timed_components(args, backends, ganak)
    print(f"components: {len(rows)} from {len({r['position'] for r in rows})} positions; medians in ms")
    print_by_size(rows, peers)
    print_by_family(rows, names, args, with_ganak=ganak is not None)
    if ganak is not None:
        print_ganak_on_wide(rows)
    return 0


def timed_components(args, backends: dict, ganak) -> list[dict]:
    """One row a chain of every reference position (its size, and each backend's median seconds)."""
    rows = []
    for path in sorted(DATA.glob("*.txt")):
        if args.filter not in path.stem:
            continue
        position = cspmines.Position.from_file(path)
        for component in split_chains(ConstraintSystem.from_position(position)):
            row = {
                "position": path.stem,
                "family": path.stem.split("-")[0].rstrip("0123456789s").rstrip("0123456789"),
                "boxes": component.n_boxes,
                "rules": component.n_rules,
                "width": front_width(component),
            }
            for name, backend in backends.items():
                row[name] = time_count(backend, component, limit=args.time_limit, min_seconds=args.min_seconds)
            if ganak is not None:
                row["ganak"] = time_ganak(ganak, component, min_seconds=args.min_seconds)
            rows.append(row)
    return rows


def print_by_size(rows: list[dict], peers: list[str]) -> None:
    """Each backend's median by the chains' number of boxes, and which was fastest how often."""
    print(f"{'boxes':>10} {'n':>4} {'width':>6} " + " ".join(f"{n:>10}" for n in peers) + "  fastest")
    for low, high in BUCKETS:
        chosen = [r for r in rows if low <= r["boxes"] <= high]
        if not chosen:
            continue
        medians = {n: statistics.median(r[n] for r in chosen) for n in peers}
        wins = defaultdict(int)
        for r in chosen:
            wins[min(peers, key=lambda n: r[n])] += 1
        label = f"{low}-{high}" if high < 10_000 else f">{low - 1}"
        width = statistics.median(r["width"] for r in chosen)
        print(
            f"{label:>10} {len(chosen):4d} {width:6.1f} "
            + " ".join(f"{medians[n] * 1e3:10.3f}" for n in peers)
            + "  "
            + ", ".join(f"{n} {wins[n]}" for n in peers if wins[n])
        )


def print_by_family(rows: list[dict], names: list[str], args, *, with_ganak: bool) -> None:
    """Each backend's total over a family of positions, beside the automatic choice's."""
    print("\nper family: total seconds of counting every component (a cut backend counts as the limit)")
    auto = get_backend("auto")
    families = sorted({r["family"] for r in rows})
    print(f"{'family':>13} " + " ".join(f"{n:>10}" for n in names) + f" {'auto':>10} {'auto vs best':>13}")
    for family in families:
        totals = {n: sum(r[n] for r in rows if r["family"] == family) for n in names}
        auto_total = 0.0
        for path in sorted(DATA.glob(f"{family}*.txt")):
            if args.filter not in path.stem:
                continue
            for component in split_chains(ConstraintSystem.from_position(cspmines.Position.from_file(path))):
                auto_total += time_count(auto, component, limit=args.time_limit, min_seconds=args.min_seconds)
        best = min(totals.values())
        print(
            f"{family:>13} "
            + " ".join(f"{totals[n]:10.4f}" for n in names)
            + f" {auto_total:10.4f} {100 * (auto_total / best - 1):+12.1f}%"
            + (f"   ganak {sum(r['ganak'] for r in rows if r['family'] == family):.4f}" if with_ganak else "")
        )


def print_ganak_on_wide(rows: list[dict]) -> None:
    """Ganak against the dp backend on the chains of more than 40 boxes."""
    wide = [r for r in rows if r["boxes"] > 40]
    slower = [r for r in wide if r["ganak"] < r["dp"]]
    print(f"\nGanak against dp on the {len(wide)} components of more than 40 boxes: dp faster on {len(wide) - len(slower)}"
          + (f"; Ganak faster on {', '.join(sorted({r['position'] for r in slower}))}" if slower else ""))
    for r in sorted(wide, key=lambda r: -r["ganak"]):
        print(f"  {r['position']:22} {r['boxes']:5d} boxes  dp {r['dp'] * 1e3:10.3f} ms  ganak {r['ganak'] * 1e3:10.3f} ms"
              f"  ({r['ganak'] / r['dp']:.0f}x)")

if __name__ == "__main__":
    sys.exit(main())
