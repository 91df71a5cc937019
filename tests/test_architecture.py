"""The package's shape: imports run one way (an import-linter contract), and modules stay small."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cspmines"
MOST_LINES = 420  # "about 400": a module past this holds more than one subject


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """import-linter's check of the contract in ``root``'s pyproject.toml, on the package in ``root``."""
    command = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())",
               "--no-cache", "--config", str(root / "pyproject.toml")]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, env={"PYTHONPATH": str(root), "PATH": ""})


def test_imports_run_one_way():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(
    "module, planted",
    [
        ("engine/backends/auto.py", "from ...agents import make_agent  # planted"),  # the engine reaching up to agents
        ("games/game.py", "from ..agents.base import Action as _Planted  # planted"),  # games loading agents
        ("bench/runner.py", "from ..studies.chains import chain_game  # planted"),  # the bench importing a study it runs
        ("position.py", "from .present.picture import render_svg  # planted"),  # the old position/picture loop
        ("engine/constraints.py", "from .solver import solve  # planted"),  # an engine step reaching up a step
    ],
)
def test_a_planted_back_import_breaks_the_contract(tmp_path, module, planted):
    shutil.copytree(PACKAGE, tmp_path / "cspmines", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    target = tmp_path / "cspmines" / module
    lines = target.read_text().splitlines()
    first_import = next(i for i, line in enumerate(lines) if line.startswith("from ."))
    target.write_text("\n".join(lines[:first_import] + [planted] + lines[first_import:]) + "\n")
    result = lint_imports(tmp_path)
    assert result.returncode != 0 and "BROKEN" in result.stdout, result.stdout + result.stderr
    assert f"cspmines.{module[:-3].replace('/', '.')}" in result.stdout


def test_no_module_is_too_long():
    long = {str(path.relative_to(ROOT)): n for path in PACKAGE.rglob("*.py") if (n := len(path.read_text().splitlines())) > MOST_LINES}
    assert not long, f"modules over {MOST_LINES} lines: {long}"
