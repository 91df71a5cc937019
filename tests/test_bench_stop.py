"""A bench run stopped by SIGTERM or SIGINT ends its workers, keeps every finished game, and resumes."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from processes import alive, descendants


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads worker processes from /proc (Linux)")
@pytest.mark.parametrize("stop, executor", [(signal.SIGTERM, "process"), (signal.SIGINT, "process"), (signal.SIGTERM, "ray")])
def test_a_stopped_bench_ends_its_workers_keeps_its_games_and_resumes(stop, executor, tmp_path):
    if executor == "ray":
        pytest.importorskip("ray")  # ray is in the test extra: this runs in CI
    out = tmp_path / "run.jsonl"
    command = [sys.executable, "-m", "cspmines", "bench", "--agent", "exact", "--agent", "greedy", "--preset", "intermediate",
               "--games", "60", "--workers", "2", "--seed", "9", "--quiet", "--out", str(out), "--executor", executor]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 6):
        time.sleep(0.1)
    workers = descendants(run.pid)
    assert workers, "the bench runs its games in worker processes"
    run.send_signal(stop)
    _, err = run.communicate(timeout=30)
    assert run.returncode == 130, err
    assert "interrupted" in err
    deadline = time.monotonic() + 15  # Ray's own processes take a few seconds to go
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.5)
    assert [pid for pid in workers if alive(pid)] == []  # none left running
    kept = [json.loads(line) for line in out.read_text().splitlines()]
    assert 6 <= len(kept) < 120 and all("error" not in record for record in kept)
    resumed = subprocess.run(command + ["--resume"], capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((r["agent"], r["game"]) for r in records) == sorted((a, g) for a in ("exact", "greedy") for g in range(60))
