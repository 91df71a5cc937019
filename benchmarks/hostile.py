"""Hostile sizes under an address-space cap: time, peak memory and outcome of each, the command line and the server.

Usage::

    python benchmarks/hostile.py                      # this tree
    python benchmarks/hostile.py --cap 2.5G --time-limit 5
    python benchmarks/hostile.py --tree /tmp/old       # another checkout's package (git worktree add /tmp/old REV)

Each case runs in a child process whose address space is capped (``RLIMIT_AS``, 2.5 GiB by
default), so a case that would take the machine ends in the child instead. For each it prints
the wall time, the child's peak resident memory (``wait4``'s ``ru_maxrss``), its exit status
and the last line it wrote. The cases:

* ``lattice300``, ``lattice200``, ``lattice120``: a 1 on every other cell of every other row,
  one chain over the whole board (90 KB, 40 KB and 14 KB of text), ``solve --time-limit``;
* ``covered3000``: an all-covered 3000x3000 board (9 MB), ``solve``;
* ``bench-huge``: ``bench --size 100000x100000x10 --games 1``;
* ``server``: ``serve --time-limit 2`` (as a child, capped, on 127.0.0.1), the 300x300 lattice
  posted to ``/api/solve``, then a small position: both answers' status, time, and the
  server's peak resident memory (``VmHWM``) after each.

Only this machine is contacted; every request is bounded in count and time.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from cspmines.engine.budget import format_bytes, parse_bytes


def lattice(side: int, mines: int) -> str:
    rows = ["".join("1" if col % 2 == 0 else "." for col in range(side)) if row % 2 == 0 else "." * side
            for row in range(side)]
    return f"{side}x{side}x{mines}\n" + "\n".join(rows) + "\n"


def capped(cap: int):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    return limit


TREE: dict = {}  # cwd and environment of the children, when --tree names another checkout


def run_capped(argv: list[str], cap: int, timeout: float) -> tuple[float, int, int, str]:
    """(seconds, peak resident bytes, exit status, last line) of ``python -m cspmines argv`` under the cap."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as sink:  # not a pipe: a child writing a large board would wait for a reader
        child = subprocess.Popen([sys.executable, "-m", "cspmines", *argv], stdout=sink, stderr=subprocess.STDOUT,
                                 preexec_fn=capped(cap), **TREE)
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.02)
        seconds = time.perf_counter() - started
        sink.seek(0)
        output = sink.read().decode(errors="replace").strip().splitlines()
    code = os.waitstatus_to_exitcode(status)
    return seconds, usage.ru_maxrss * 1024, code, (output[-1] if output else "")[:150]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post(url: str, body: bytes, timeout: float) -> tuple[int, float, str]:
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, method="POST"), timeout=timeout) as answer:
            status, text = answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    return status, time.perf_counter() - started, text[:100]


def high_water(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def serve_case(body: Path, cap: int) -> None:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "cspmines", "serve", "--port", str(port), "--time-limit", "2"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=capped(cap), **TREE)
    try:
        url = f"http://127.0.0.1:{port}/api/solve"
        for _ in range(100):  # up to 10 s for it to listen
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.1)
        for name, data in ((body.stem, body.read_bytes()), ("small", b"3x1x1\n.1.")):
            status, seconds, text = post(url, data, timeout=60)
            print(f"{'server ' + name:16s} {seconds:7.2f} s {format_bytes(high_water(server.pid)):>10s}  HTTP {status}  {text}")
    finally:
        server.terminate()
        server.wait(timeout=10)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", default="2.5G", help="the address-space cap of each child")
    parser.add_argument("--time-limit", default="5", help="solve's --time-limit")
    parser.add_argument("--tree", help="run the cspmines of this checkout instead (its root folder)")
    parser.add_argument("--sides", default="300,200,120", help="the lattices' sides (the first is posted to the server)")
    args = parser.parse_args(argv)
    if args.tree:
        root = str(Path(args.tree).resolve())
        TREE.update(cwd=root, env={**os.environ, "PYTHONPATH": root})
    cap = parse_bytes(args.cap)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        sides = [int(side) for side in args.sides.split(",")]
        for side in sides:  # about 1 mine a 12 cells: the lattice's clues can all be met
            (folder / f"lattice{side}.txt").write_text(lattice(side, side * side // 12))
        (folder / "covered3000.txt").write_text("3000x3000x1800000\n" + "\n".join("." * 3000 for _ in range(3000)) + "\n")
        print(f"each case capped at {format_bytes(cap)} of address space; solve --time-limit {args.time_limit}")
        print(f"{'case':16s} {'time':>9s} {'peak RSS':>10s}  exit  last line")
        cases = [(name, ["solve", str(folder / f"{name}.txt"), "--time-limit", args.time_limit])
                 for name in [f"lattice{side}" for side in sides] + ["covered3000"]]
        cases.append(("bench-huge", ["bench", "--size", "100000x100000x10", "--games", "1", "--quiet"]))
        for name, command in cases:
            seconds, peak, code, last = run_capped(command, cap, timeout=180)
            print(f"{name:16s} {seconds:7.2f} s {format_bytes(peak):>10s}  {code:4d}  {last}")
        serve_case(folder / f"lattice{sides[0]}.txt", cap)
    return 0


if __name__ == "__main__":
    sys.exit(main())
