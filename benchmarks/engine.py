"""Time ``cspmines.solve`` on the reference positions, beside ms-toollib when it is installed.

Usage::

    python benchmarks/engine.py                 # every reference position
    python benchmarks/engine.py --filter lattice --peer-timeout 60
    python benchmarks/engine.py --json results.json

Each figure is the median of repeated runs (at least ``--min-runs``, and until
``--min-seconds`` have passed), twice: **cold**, each run in a fresh
``Engine`` (nothing counted before: a user's one-off query, the engine's speed
as the docs quote it), and **warm**, ``solve`` run again and again in one
engine, whose every run after the first reads its chains' counts from the
engine's memory (what a player's next move meets). A solve works its chances
out when one is first read, so a third figure, **read**, is the cold solve
with every chance read (``probabilities()``): the work ms-toollib's one call
does. ms-toollib (``pip install ms-toollib``; its
``cal_probability_onboard`` is a Rust port of JSMinesweeper's engine) runs in
a child process with a timeout, because its cost follows the number of
layouts and a Rust call cannot be interrupted: lattice15 takes it minutes.
Both programs' answers are checked against the reference fractions.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

import cspmines
from cspmines.position import COVERED, FLAG, MINE

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
MID_GAME = ("beginner", "intermediate", "expert", "dense", "sparse")
WIDE = ("lattice", "scatter", "checker", "chain")


def family(name: str) -> str:
    return name.split("-")[0].rstrip("0123456789s").rstrip("0123456789")


def median_seconds(function, *, min_runs: int, min_seconds: float) -> float:
    function()  # warm caches (neighbour tables, imports)
    times = []
    started = time.perf_counter()
    while len(times) < min_runs or time.perf_counter() - started < min_seconds:
        t = time.perf_counter()
        function()
        times.append(time.perf_counter() - t)
        if len(times) >= 10_000:
            break
    return statistics.median(times)


def peer_board(position: cspmines.Position) -> list:
    """ms-toollib's encoding: 10 covered, 11 flagged, clues as they are."""
    grid = position.grid.astype(int)
    return np.where(grid == COVERED, 10, np.where((grid == FLAG) | (grid == MINE), 11, grid)).tolist()


def _peer_worker(text: str, min_runs: int, min_seconds: float, queue) -> None:
    import ms_toollib

    position = cspmines.Position.from_string(text)
    board = peer_board(position)
    ms_toollib.cal_probability_onboard([[10, 1], [10, 1]], 1.0)  # load the library before timing
    result = {}

    def run():
        result["p"] = ms_toollib.cal_probability_onboard(board, float(position.mines))[0]

    seconds = median_seconds(run, min_runs=min_runs, min_seconds=min_seconds)
    queue.put((seconds, result["p"]))


def time_peer(position, *, timeout: float, min_runs: int, min_seconds: float):
    """(median seconds, probabilities) from ms-toollib, or (None, None) past the timeout."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    process = context.Process(target=_peer_worker, args=(str(position), min_runs, min_seconds, queue))
    process.start()
    process.join(timeout)
    if process.is_alive():
        process.kill()
        process.join()
        return None, None
    return queue.get() if not queue.empty() else (None, None)


def check(position, reference, ours, peer) -> tuple[bool, float | None]:
    exact = ours.probabilities(exact=True)
    ok = ours.model_count == int(reference["solutions"])
    worst_peer = 0.0
    for r, row in enumerate(reference["probability_fractions"]):
        for c, value in enumerate(row):
            want = None if value is None else Fraction(*value)
            ok &= exact[r, c] == want
            if peer is not None and want is not None:
                worst_peer = max(worst_peer, abs(peer[r][c] - float(want)))
    return ok, (worst_peer if peer is not None else None)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="folder of NAME.txt/NAME.json reference pairs")
    parser.add_argument("--filter", default="", help="only positions whose name contains this")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--min-runs", type=int, default=5)
    parser.add_argument("--min-seconds", type=float, default=0.3)
    parser.add_argument("--no-peer", action="store_true", help="do not run ms-toollib")
    parser.add_argument("--peer-timeout", type=float, default=30.0, help="seconds before ms-toollib is stopped")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args(argv)

    try:
        import ms_toollib  # noqa: F401

        have_peer = not args.no_peer
    except ImportError:
        have_peer = False
        print("ms-toollib is not installed (pip install ms-toollib): timing cspmines alone")

    rows = []
    print(f"{'position':22} {'cells':>5} {'comps':>5} {'cold ms':>10} {'warm ms':>10} {'read ms':>10} {'ms-toollib ms':>14} {'cold/ms-t':>7}  exact")
    for path in sorted(args.data.glob("*.txt")):
        if args.filter not in path.stem:
            continue
        position = cspmines.Position.from_file(path)
        reference = json.loads(path.with_suffix(".json").read_text())
        analysis = cspmines.solve(position, backend=args.backend)
        cold = median_seconds(
            lambda position=position: cspmines.Engine(args.backend).solve(position), min_runs=args.min_runs, min_seconds=args.min_seconds
        )
        warm = median_seconds(
            lambda position=position: cspmines.solve(position, backend=args.backend), min_runs=args.min_runs, min_seconds=args.min_seconds
        )
        read = median_seconds(
            lambda position=position: cspmines.Engine(args.backend).solve(position).probabilities(), min_runs=args.min_runs, min_seconds=args.min_seconds
        )
        peer_seconds, peer_p = (None, None)
        if have_peer:
            peer_seconds, peer_p = time_peer(
                position, timeout=args.peer_timeout, min_runs=args.min_runs, min_seconds=args.min_seconds
            )
        ok, peer_error = check(position, reference, analysis, peer_p)
        ratio = cold / peer_seconds if peer_seconds else None
        peer_text = f"{peer_seconds * 1e3:14.3f}" if peer_seconds else (f"{'>' + format(args.peer_timeout, 'g') + ' s':>14}" if have_peer else f"{'-':>14}")
        print(
            f"{path.stem:22} {len(position.covered_cells):5d} {len(analysis.chains):5d} {cold * 1e3:10.3f} {warm * 1e3:10.3f} {read * 1e3:10.3f} "
            f"{peer_text} {f'{ratio:7.2f}' if ratio else '      -'}  {'yes' if ok else 'NO'}"
        )
        rows.append(
            {
                "position": path.stem,
                "family": family(path.stem),
                "covered": len(position.covered_cells),
                "components": len(analysis.chains),
                "cspmines_seconds": cold,
                "cspmines_warm_seconds": warm,
                "cspmines_read_seconds": read,
                "peer_seconds": peer_seconds,
                "peer_max_abs_error": peer_error,
                "exact": bool(ok),
            }
        )

    def summary(title, keep, key, what):
        chosen = [r for r in rows if keep(r)]
        if not chosen:
            return
        ours = statistics.median(r[key] for r in chosen) * 1e3
        line = f"{title}, {what}: {len(chosen)} positions, cspmines median {ours:.3f} ms, max {max(r[key] for r in chosen) * 1e3:.1f} ms"
        timed = [r for r in chosen if r["peer_seconds"]]
        if timed:
            peer = statistics.median(r["peer_seconds"] for r in timed) * 1e3
            ratios = [r[key] / r["peer_seconds"] for r in timed]
            line += f"; ms-toollib median {peer:.3f} ms (ratio of medians {ours / peer:.2f}, median ratio {statistics.median(ratios):.2f})"
            slow = len(chosen) - len(timed)
            if slow:
                line += f"; ms-toollib timed out on {slow}"
        print(line)

    print()
    for key, what in (("cspmines_seconds", "cold"), ("cspmines_warm_seconds", "warm"), ("cspmines_read_seconds", "cold, every chance read")):
        summary("mid-game", lambda r: r["family"] in MID_GAME, key, what)
        summary("wide fronts", lambda r: r["family"] in WIDE, key, what)
    print(f"all exact: {all(r['exact'] for r in rows)}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0 if all(r["exact"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
