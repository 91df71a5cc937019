"""The tree passes the lint and type checks set in pyproject.toml ([tool.ruff], [tool.mypy])."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True, cwd=ROOT)


def test_ruff_finds_nothing():
    # pyflakes errors (unused names, undefined names), import order and statement style, bugbear's likely
    # bugs, pyupgrade, simplify and the complexity bound, over the package, the tests, the benchmarks,
    # research and the notebooks (the rules in pyproject.toml; docs/development.md)
    result = run("ruff", "check", "--no-cache", "--output-format", "concise", str(ROOT))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_type_checks():
    # the package ships py.typed: its annotations are a promise to the users' type checkers
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
