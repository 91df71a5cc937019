"""Server-side time of the web API's /api/solve on the reference positions (median of repeats).

Usage::

    python benchmarks/web.py [--filter expert] [--repeats 20]

Each request goes through the whole application (routing, parsing, solving,
JSON) in this process via Starlette's test client, so the figure is the
server's share of a request, the network aside. The engine alone
(``cspmines.solve``) is timed beside it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from starlette.testclient import TestClient

from cspmines import Position, solve
from cspmines.web import create_app

POSITIONS = Path(__file__).resolve().parent.parent / "tests" / "data"


def median_ms(call, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e3


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--filter", default="expert")
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args(argv)
    client = TestClient(create_app())
    print(f"{'position':>16} {'/api/solve ms':>14} {'solve() ms':>11}")
    served = []
    for path in sorted(POSITIONS.glob(f"*{args.filter}*.txt")):
        text = path.read_text()
        position = Position.from_string(text)
        assert client.post("/api/solve", content=text).status_code == 200
        api = median_ms(lambda text=text: client.post("/api/solve", content=text), args.repeats)
        engine = median_ms(lambda position=position: solve(position), args.repeats)
        served.append(api)
        print(f"{path.stem:>16} {api:14.2f} {engine:11.2f}")
    if served:
        print(f"median over {len(served)} positions: {statistics.median(served):.2f} ms a request (target: under 50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
