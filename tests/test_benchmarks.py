"""Every benchmark and research script runs, on a few games, and prints its table (the figures are not
checked: tests never assert on time; this keeps the scripts from rotting as the package changes)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
RESEARCH = BENCHMARKS.parent / "research"
EXPERIMENTS = {"divergence.py", "playouts.py", "value_step.py", "rollouts.py", "optimum.py", "losses.py", "bounded.py",
               "guessing.py", "moves.py", "agent_parts.py", "count_cache.py", "protocol.py", "sampling.py",
               "scaling.py", "soak.py"}  # research/: questions asked once, their answers in docs
DATA = Path(__file__).resolve().parent / "data"

# script, its arguments ({tmp}: a scratch folder), a line its output must contain
RUNS = [
    ("agent_time.py", ["--games", "2", "--rounds", "1"], "this tree"),
    ("agent_parts.py", ["--games", "2", "--preset", "beginner", "--hill", "{tmp}"], "peer not run"),
    ("backends.py", ["--filter", "expert-5-013", "--min-seconds", "0.01", "--time-limit", "0.5"], "auto vs best"),
    ("bounded.py", ["--games", "3", "--error-games", "2", "--limits", "5", "--preset", "beginner"], "max_chain"),
    ("count_cache.py", ["--games", "2", "--rounds", "1"], "counts made"),
    ("engine.py", ["--filter", "expert-5-013", "--no-peer", "--min-runs", "1", "--min-seconds", "0"], "all exact: True"),
    ("hostile.py", ["--sides", "40", "--time-limit", "1"], "server small"),
    ("games.py", ["--agent", "exact", "--agent", "greedy", "--preset", "beginner", "--games", "3"], "greedy"),
    ("insight.py", ["--games", "2", "--preset", "beginner", "--every", "2"], "all three"),
    ("guessing.py", ["--games", "4", "--preset", "beginner", "--workers", "1", "--option=", "--option", "lookahead=0"], "lookahead=0 against defaults"),
    ("memory.py", ["--filter", "expert-5-013", "--games", "1"], "held after them all"),
    ("noguess.py", ["--boards", "2", "--draws", "20"], "only exact"),
    ("moves.py", ["--games", "2", "--preset", "beginner", "--workers", "1", "--agent", "exact", "--agent", "greedy"], "a guess is needed"),
    ("optimum.py", ["--size", "3x3x2", "--boards", "3", "--agents", "risk-score,exact"], "beyond the optimum"),
    ("losses.py", ["--games", "4", "--preset", "beginner", "--workers", "1"], "lost games by the number of the fatal guess"),
    ("divergence.py", ["--games", "3", "--preset", "beginner", "--against", "exact:lookahead=0", "--layouts", "2"], "points lost"),
    ("divergence.py", ["--games", "1", "--preset", "beginner", "--hill", "{tmp}"], "peer not run"),
    ("divergence.py", ["--games", "1", "--preset", "beginner", "--hill", "{tmp}", "--along", "hill"], "peer not run"),
    ("peers.py", ["--games", "2", "--preset", "beginner", "--hill", "{tmp}"], "peer not run"),
    ("protocol.py", ["--games", "3", "--preset", "beginner"], "the same moves"),
    ("replays.py", ["--make", "2"], "agree within 1e-6"),
    ("soak.py", ["--clients", "2", "--seconds", "3", "--time-limit", "1"], "answers not JSON: 0"),
    ("rollouts.py", ["--games", "6", "--layouts", "3", "--workers", "1", "--preset", "intermediate"], "close calls"),
    ("playouts.py", ["--size", "5x5x3", "--games", "2", "--layouts", "2", "--workers", "1"], "cross-validated"),
    ("value_step.py", ["--size", "5x5x3", "--fit-games", "4", "--games", "2", "--workers", "1"], "minus exact"),
    ("value.py", ["--games", "4", "--least", "2", "--positions", "1", "--budget", "5", "--hill", "{tmp}"], "peer not run"),
    ("web.py", ["--filter", "expert-5-013", "--repeats", "1"], "a request"),
    ("sampling.py", ["--positions", "{tmp}", "--layouts", "3"], "expert-5-013"),
    ("scaling.py", ["--games", "4"], "speed-up on 2 workers"),
]


@pytest.mark.slow
@pytest.mark.parametrize("script, arguments, expected", RUNS, ids=[run[0] for run in RUNS])
def test_benchmark_script_runs(script, arguments, expected, tmp_path):
    shutil.copy(DATA / "expert-5-013.txt", tmp_path)  # the one position sampling.py reads
    folder = RESEARCH if script in EXPERIMENTS else BENCHMARKS
    command = [sys.executable, str(folder / script), *(a.replace("{tmp}", str(tmp_path)) for a in arguments)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=folder, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert expected in result.stdout, result.stdout


def test_every_benchmark_script_is_run_here():
    assert {run[0] for run in RUNS} == {path.name for path in BENCHMARKS.glob("*.py")} | EXPERIMENTS
    assert {path.name for path in RESEARCH.glob("*.py")} == EXPERIMENTS


def test_benchmarks_hold_only_what_is_run_again_after_changes():
    """At most a dozen scripts in benchmarks/ (speed, memory and strength beside the peers); a question asked
    once is research, and the research README says what each asked and where its answer is."""
    assert len(list(BENCHMARKS.glob("*.py"))) <= 12
    table = (RESEARCH / "README.md").read_text()
    assert all(f"| `{name}` |" in table for name in EXPERIMENTS)
