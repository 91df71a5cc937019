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


def import_graph(package: Path):
    """Every import between the package's modules, those inside functions included (networkx DiGraph)."""
    import ast

    import networkx as nx

    def name_of(path: Path) -> str:
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    modules = {name_of(path): path for path in package.rglob("*.py")}
    graph = nx.DiGraph()
    for name, path in modules.items():
        home = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = ".".join(home.split(".")[: len(home.split(".")) - node.level + 1]) if node.level else ""
                module = ".".join(part for part in (base, node.module) if part)
                targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module for alias in node.names]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                continue
            for target in targets:
                while target not in modules and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in modules and target != name:
                    graph.add_edge(name, target)
    return graph


def import_circles(package: Path) -> list:
    import networkx as nx

    return sorted(sorted(circle) for circle in nx.strongly_connected_components(import_graph(package)) if len(circle) > 1)


def test_no_import_circle_not_even_inside_a_function():
    assert import_circles(PACKAGE) == []


def test_a_planted_function_level_back_import_is_a_circle(tmp_path):
    shutil.copytree(PACKAGE, tmp_path / "cspmines", ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "cspmines" / "games" / "board.py"
    target.write_text(target.read_text() + "\n\ndef _planted():\n    from .noguess import draw_no_guess  # planted\n    return draw_no_guess\n")
    assert import_circles(tmp_path / "cspmines") == [["cspmines.games.board", "cspmines.games.certificate", "cspmines.games.noguess"]]


def test_no_package_name_hides_one_of_its_modules():
    """``cspmines.games.play`` is one thing: a package's attribute named like one of its modules (a function
    imported over it) would make ``import`` and attribute access disagree, and the API reference with them."""
    import importlib
    import pkgutil
    import types

    import cspmines

    hidden = []
    for found in pkgutil.walk_packages(cspmines.__path__, "cspmines."):
        if found.ispkg or found.name == "cspmines":
            package = importlib.import_module(found.name)
            for module in pkgutil.iter_modules(package.__path__):
                attribute = getattr(package, module.name, None)
                if attribute is not None and not isinstance(attribute, types.ModuleType):
                    hidden.append(f"{found.name}.{module.name}")
    assert hidden == []


def functions(package: Path):
    """(module path, function node) for every function and method in the package."""
    import ast

    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield path.relative_to(package.parent), node


def clock_readers(package: Path) -> set[str]:
    """The modules that name a clock of ``time`` (``time.monotonic``, ``perf_counter``, ``process_time``, ``time.time``), called or
    kept to call."""
    import ast

    clocks = {"monotonic", "perf_counter", "process_time", "time", "monotonic_ns", "perf_counter_ns"}
    found = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in clocks and getattr(node.value, "id", None) == "time":
                found.add(str(path.relative_to(package.parent)))
            if isinstance(node, ast.ImportFrom) and node.module == "time" and clocks & {alias.name for alias in node.names}:
                found.add(str(path.relative_to(package.parent)))
    return found


def test_every_deadline_is_read_through_the_budget():
    """Time limits are read through ``Budget`` alone; the gym's window paces its frames by the clock too."""
    assert clock_readers(PACKAGE) == {"cspmines/engine/budget.py", "cspmines/gym/window.py"}


def test_a_planted_clock_is_found(tmp_path):
    shutil.copytree(PACKAGE, tmp_path / "cspmines", ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "cspmines" / "engine" / "solver.py"
    target.write_text(target.read_text() + "\n\ndef _planted():\n    from time import perf_counter\n    return perf_counter()\n")
    assert "cspmines/engine/solver.py" in clock_readers(tmp_path / "cspmines")


def test_no_public_function_takes_more_than_seven_parameters():
    """What travels together is a value (a Limit, a record): a long signature says it is not yet one."""
    def count(node) -> int:
        arguments = node.args
        names = [a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]
        return len([name for name in names if name not in ("self", "cls")])

    long = [f"{path}:{node.name}" for path, node in functions(PACKAGE) if not node.name.startswith("_") and count(node) > 7]
    assert long == []


def test_at_most_four_functions_run_past_sixty_lines():
    long = sorted(f"{path}:{node.name}" for path, node in functions(PACKAGE) if node.end_lineno - node.lineno + 1 > 60)
    assert len(long) <= 4, long


def test_a_cold_solve_does_not_import_networkx():
    # networkx takes about half of a cold start; the engine imports it only where a graph is built (a chain's
    # box graph, the counting order's race on wide chains) or a seed read by its convention (sampling)
    code = ("import sys, cspmines, cspmines.cli.parser\n"
            "cspmines.solve(cspmines.Position.from_string('4x4x3\\n1...\\n....\\n....\\n...1'))\n"
            "print('networkx' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
