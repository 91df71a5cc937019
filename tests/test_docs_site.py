"""The documentation site builds with no warning (every cross-reference resolved: Sphinx's nitpicky mode,
warnings as errors), and a broken reference fails the build."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("sphinx")
pytest.importorskip("myst_nb")
pytest.importorskip("numpydoc")


def build(source: Path, out: Path) -> subprocess.CompletedProcess:
    """The documented command: ``python -m sphinx -W --keep-going -b html docs docs/_build/html``."""
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(source), str(out)]
    return subprocess.run(command, capture_output=True, text=True, timeout=900)


@pytest.mark.slow
def test_the_site_builds_with_no_warning(tmp_path):
    result = build(ROOT / "docs", tmp_path / "html")  # (the API pages' sources are generated in docs/generated)
    assert result.returncode == 0, result.stdout + result.stderr
    html = tmp_path / "html"
    assert (html / "index.html").exists() and (html / "notebooks" / "01-quick-start.html").exists()
    value = (html / "generated" / "cspmines.engine.value.html").read_text()
    assert "value_of" in value and "PositionValue" in value  # the API reference, from the docstrings
    engine = (html / "engine.html").read_text()
    assert 'href="benchmarks.html#' in engine  # a page's link to another's heading, resolved


@pytest.mark.parametrize("broken, mended", [
    ("[the budget](engine.md#no-such-heading)", "[the budget](engine.md#the-budget)"),  # a heading that is not there
    ("{py:data}`cspmines.cells.NO_SUCH_CODE`", "{py:data}`cspmines.cells.COVERED`"),  # an object the API does not have
])
def test_a_broken_reference_fails_the_build(tmp_path, broken, mended):
    source = tmp_path / "docs"
    source.mkdir()
    shutil.copy(ROOT / "docs" / "conf.py", source)
    (source / "index.md").write_text("# Home\n\n```{toctree}\nengine\n```\n")
    documented = "```{eval-rst}\n.. autodata:: cspmines.cells.COVERED\n```\n"
    (source / "engine.md").write_text(f"# Engine\n\n## The budget\n\n{documented}\nSee {broken}.\n")
    result = build(source, tmp_path / "html")
    assert result.returncode != 0 and "WARNING" in result.stdout + result.stderr
    (source / "engine.md").write_text(f"# Engine\n\n## The budget\n\n{documented}\nSee {mended}.\n")
    mended_build = build(source, tmp_path / "html2")
    assert mended_build.returncode == 0, mended_build.stdout + mended_build.stderr  # the same page, the reference mended
