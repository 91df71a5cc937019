"""Soak the web server on this machine: many clients, a hostile mix, bounded in requests and time.

Usage::

    python research/soak.py                          # 6 clients for 40 s, at most 20,000 requests
    python research/soak.py --clients 8 --seconds 60 --time-limit 2

Starts ``cspmines serve`` on 127.0.0.1 (a free port) in a process of its own and
sends it, from ``--clients`` threads, a mix of requests: solves of reference
positions (some with every cell's outcomes), a 41x41 lattice no budget counts exactly, malformed and binary
bodies, an 8 MB body, new games, clicks and agent moves in them, replays of a
bench record, replay files, unknown paths and wrong methods. Only 127.0.0.1 is
ever addressed. Printed: requests held, answers by status, answers that were
not JSON, dropped connections, latency percentiles overall and of the counting
requests (which must answer within the budget plus 3 s), the server's memory
(resident set) before, during and after, and the latency of a solve sent once
the load is over.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
COUNTING = {"solve", "lattice", "outcomes", "lattice-outcomes", "move", "agent", "replay", "replays"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def lattice() -> str:
    rows = ["".join("2" if r % 2 and c % 2 else "." for c in range(41)) for r in range(41)]
    return "41x41x300\n" + "\n".join(rows) + "\n"


def bench_record() -> str:
    from cspmines.bench import Suite, play_game

    return json.dumps(play_game(Suite.create(agents=["exact"], size="beginner", games=1, seed=3), "exact", 0))


def replay_file() -> bytes:
    try:
        from cspmines.replays.writer import evf_bytes

        return evf_bytes([[0, 0, 1], [0, 0, 0]], [("open", 0, 0), ("open", 1, 2)])
    except ImportError:  # no replays extra: the request still goes, and must answer 400
        return b"not a replay"


class Soak:
    def __init__(self, url: str, seconds: float, most: int, seed: int):
        self.url, self.deadline, self.most = url, time.monotonic() + seconds, most
        self.positions = [p.read_text() for p in sorted(DATA.glob("*.txt")) if p.name.startswith(("expert", "intermediate"))]
        self.lattice, self.record, self.replay = lattice(), bench_record(), replay_file()
        self.big = b"." * (8 * 1024 * 1024)
        self.lock = threading.Lock()
        self.sent = 0
        self.statuses: Counter = Counter()
        self.not_json = 0
        self.dropped = 0
        self.latency: list = []
        self.counting_latency: list = []
        self.games: list = []
        self.rng = random.Random(seed)

    def request(self, client: httpx.Client) -> tuple[str, str, str, dict]:
        kind = self.rng.choice(["solve"] * 4 + ["lattice", "outcomes", "lattice-outcomes", "move", "malformed", "binary", "big", "game", "click", "agent",
                                                "replay", "replays", "unknown", "method", "badseed"])
        asked = self._on_a_board(kind)
        if asked is None:  # the rest name a game (one the soak started, once there is one)
            game = self.rng.choice(self.games) if self.games else "1"
            asked = self._on_a_game(kind, game)
        return (kind, *asked)

    def _on_a_board(self, kind: str) -> tuple[str, str, dict] | None:
        """(method, url, body) of a request on a position or a new game; None for the kinds that name a game."""
        base = self.url
        if kind == "solve":
            return "POST", f"{base}/api/solve", {"content": self.rng.choice(self.positions)}
        if kind == "lattice":
            return "POST", f"{base}/api/solve", {"content": self.lattice}
        if kind == "outcomes":  # every covered cell's outcomes: the clues by the front counted within the budget
            return "POST", f"{base}/api/solve?outcomes=all", {"content": self.rng.choice(self.positions)}
        if kind == "lattice-outcomes":
            return "POST", f"{base}/api/solve?outcomes=all", {"content": self.lattice}
        if kind == "move":
            return "POST", f"{base}/api/move?agent=exact", {"content": self.rng.choice(self.positions)}
        if kind == "malformed":
            return "POST", f"{base}/api/solve", {"content": "3x1x1\n.9.\n"}
        if kind == "binary":
            return "POST", f"{base}/api/games", {"content": bytes(self.rng.randrange(256) for _ in range(300))}
        if kind == "big":
            return "POST", f"{base}/api/solve", {"content": self.big}
        if kind == "game":
            return "POST", f"{base}/api/games", {"json": {"size": "beginner", "seed": self.rng.randrange(10**6)}}
        return None

    def _on_a_game(self, kind: str, game: str) -> tuple[str, str, dict]:
        """(method, url, body) of a request on ``game``, or of one the server must refuse."""
        base = self.url
        if kind == "click":
            return "POST", f"{base}/api/games/{game}/moves", {"json": {"row": self.rng.randrange(9), "col": self.rng.randrange(9)}}
        if kind == "agent":
            return "POST", f"{base}/api/games/{game}/agent", {"json": {"agent": "exact"}}
        if kind == "badseed":
            return "POST", f"{base}/api/games/{game}/agent", {"json": {"seed": "abc"}}
        if kind == "replay":
            return "POST", f"{base}/api/replay", {"content": self.record}
        if kind == "replays":
            return "POST", f"{base}/api/replays?name=game.evf", {"content": self.replay}
        if kind == "unknown":
            return "POST", f"{base}/api/nothing-here", {}
        return "GET", f"{base}/api/solve", {}

    def client(self) -> None:
        with httpx.Client(timeout=60) as client:
            while time.monotonic() < self.deadline:
                with self.lock:
                    if self.sent >= self.most:
                        return
                    self.sent += 1
                    kind, method, url, options = self.request(client)
                started = time.monotonic()
                try:
                    answer = client.request(method, url, **options)
                except httpx.HTTPError:
                    with self.lock:
                        self.dropped += 1
                    continue
                took = time.monotonic() - started
                try:
                    body = answer.json()
                    is_json = isinstance(body, dict)
                except ValueError:
                    body, is_json = None, False
                with self.lock:
                    self.statuses[answer.status_code] += 1
                    self.not_json += not is_json
                    self.latency.append(took)
                    if kind in COUNTING and answer.status_code != 503:
                        self.counting_latency.append(took)
                    if kind == "game" and answer.status_code == 200 and body:
                        self.games.append(body["id"])


def percentiles(values: list) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return f"p50 {pick(0.5) * 1e3:.0f} ms, p90 {pick(0.9) * 1e3:.0f} ms, p99 {pick(0.99) * 1e3:.0f} ms, max {ordered[-1] * 1e3:.0f} ms"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--requests", type=int, default=20_000, help="at most this many requests in all")
    parser.add_argument("--time-limit", type=float, default=2.0, help="the server's budget a request")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "cspmines", "serve", "--port", str(port), "--time-limit", str(args.time_limit)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(f"{url}/", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        before = resident_mb(server.pid)
        soak = Soak(url, args.seconds, args.requests, args.seed)
        threads = [threading.Thread(target=soak.client) for _ in range(args.clients)]
        samples = []
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            samples.append(resident_mb(server.pid))
            time.sleep(1)
        for thread in threads:
            thread.join()
        after = resident_mb(server.pid)
        started = time.monotonic()
        final = httpx.post(f"{url}/api/solve", content="3x1x1\n.1.", timeout=30)
        after_load = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=10)
    held = sum(soak.statuses.values())
    server_errors = sum(n for status, n in soak.statuses.items() if status >= 500 and status != 503)
    print(f"{args.clients} clients for {args.seconds:g} s against 127.0.0.1:{port} (budget {args.time_limit:g} s a request)")
    print(f"requests answered: {held:,} (sent {soak.sent:,}); dropped connections: {soak.dropped}")
    print("answers by status: " + ", ".join(f"{status}: {n:,}" for status, n in sorted(soak.statuses.items())))
    print(f"5xx other than 503: {server_errors}; answers not JSON: {soak.not_json}")
    print(f"latency, all: {percentiles(soak.latency)}")
    print(f"latency, counting requests: {percentiles(soak.counting_latency)} (budget + 3 s = {(args.time_limit + 3) * 1e3:.0f} ms)")
    peak = max(samples) if samples else float("nan")
    print(f"server memory: {before:.0f} MB before, {peak:.0f} MB at most during, {after:.0f} MB after")
    if len(samples) >= 4:  # a flat run holds about the same at each quarter once warm
        quarters = [samples[min(len(samples) - 1, k * len(samples) // 4)] for k in (1, 2, 3)] + [samples[-1]]
        print("server memory at each quarter of the run: " + ", ".join(f"{mb:.0f} MB" for mb in quarters))
    print(f"a solve after the load: {final.status_code} in {after_load * 1e3:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
