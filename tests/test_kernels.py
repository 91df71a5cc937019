"""Every compiled kernel against its Python twin, through the table (:data:`cspmines.native.KERNELS`):
the same answers, budget cut-offs included.

Each kernel has one parity case below (``@parity("name")``), run with the kernels on (the kernel
reached through :func:`cspmines.native.kernel`, counted) and again inside
:func:`cspmines.native.pure_python`. A kernel the compiled module exports without a row in the table,
a row without a case, or a case that never reaches its kernel fails here. Without a compiler the
package runs its twins and the cases say so by skipping; CI builds with one (``cspmines --version``
names the build), so there they run.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from cspmines import Position, native
from cspmines.agents.exact.layoutsets import list_layouts
from cspmines.agents.exact.objectives import MINES, OPENINGS, Prices, search_cost
from cspmines.engine.engine import default_engine
from cspmines.native import table
from cspmines.position import COVERED, FLAG

from randompositions import random_position

compiled = pytest.mark.skipif(native.kernels is None, reason="built without a C compiler: the Python kernels run")

CASES: dict = {}  # kernel name -> its parity case: () -> (answers with the kernel, answers with its twin)


def parity(name: str):
    """Register a parity case of kernel ``name``."""
    def register(case):
        CASES[name] = case
        return case
    return register


def both_ways(monkeypatch, name: str, run):
    """(``run()`` with the kernels on, ``run()`` with them off): with them on, the kernel ``name`` is
    reached, through the table, at least once."""
    calls = []
    compiled_function = native.kernel(name)
    assert compiled_function is not None

    def counted(*args):
        calls.append(1)
        return compiled_function(*args)

    default_engine().forget()  # the thread's memory emptied each way: nothing reused
    with monkeypatch.context() as patched:
        patched.setitem(table._ON, name, counted)
        on = run()
    assert calls, f"the parity case of {name} never reached the kernel"
    default_engine().forget()
    with native.pure_python():
        assert native.kernel(name) is None
        off = run()
    return on, off


def test_the_table_lists_every_compiled_kernel_and_each_has_a_twin_and_a_parity_case():
    names = [row.name for row in native.KERNELS]
    assert len(set(names)) == len(names) and set(CASES) == set(names)
    for row in native.KERNELS:
        assert callable(row.resolve_twin()), row
    if native.kernels is not None:
        exported = {name for name in dir(native.kernels) if not name.startswith("_") and callable(getattr(native.kernels, name))}
        assert exported == {row.compiled for row in native.KERNELS}


def test_each_twin_takes_what_a_python_caller_holds_and_the_row_adapts_it():
    """A twin takes a few arguments (records, where there is more to say); where the compiled function takes
    them flat, the row's adapter makes them so, and the kernel answers the twin's own call."""
    import inspect

    for row in native.KERNELS:
        twin = row.resolve_twin()
        if inspect.isclass(twin) or row.name == "remembered":
            continue
        parameters = [p for p in inspect.signature(twin).parameters.values() if p.name != "self"]
        assert len(parameters) <= 7, (row.name, len(parameters))
    adapted = {row.name for row in native.KERNELS if row.adapt is not None}
    assert adapted == {"value_search", "combine_chances", "glance_boxes"}
    if native.kernels is not None:
        for name in adapted:  # the engine's call goes through the adapter to the compiled function
            assert native.kernel(name) is not getattr(native.kernels, table.BY_NAME[name].compiled)


def test_the_engine_docs_table_has_a_row_for_every_kernel():
    from pathlib import Path

    table = (Path(__file__).resolve().parent.parent / "docs" / "engine.md").read_text()
    assert all(f"| `{row.name}` |" in table for row in native.KERNELS)


def test_the_c_file_header_describes_every_kernel():
    from pathlib import Path

    source = (Path(native.__file__).parent / "_kernels.c").read_text()
    header = source[: source.index("*/")]
    assert all(f" {row.compiled}:" in header for row in native.KERNELS)


def test_each_kernel_lives_in_the_file_the_header_names_and_every_file_is_built():
    """The header groups the kernels by file (one file a family); each is defined where it says, and
    setup.py compiles every C file there is, so a new family cannot be left out of the build."""
    import re
    from pathlib import Path

    folder = Path(native.__file__).parent
    header = (folder / "_kernels.c").read_text()
    header = header[: header.index("*/")]
    place, places = None, {}
    for line in header.splitlines():
        if found := re.match(r" \* (\w+\.c)\b", line):
            place = found.group(1)
        elif found := re.match(r" \*  (\w+):", line):
            places[found.group(1)] = place
    for name, file in places.items():
        if name != "remembered":
            assert re.search(rf"^PyObject \*{name}\(PyObject", (folder / file).read_text(), re.M), (name, file)
    for search in ("search.c", "value.c"):  # the game-tree searches keep their states in the one memo table
        assert '#include "memo.h"' in (folder / search).read_text()
    setup = (folder.parent.parent / "setup.py").read_text()
    built = set(re.findall(r'"(\w+)"', setup[setup.index("KERNEL_FILES"):setup.index("]", setup.index("KERNEL_FILES"))]))
    assert built == {path.stem for path in folder.glob("*.c")}


def test_code_reaches_the_compiled_module_only_through_the_table():
    """One dispatch point: no module outside cspmines.native reads the compiled module itself, so
    :func:`cspmines.native.pure_python` and the table's checks cover every kernel called."""
    from pathlib import Path

    package = Path(native.__file__).parent.parent
    readers = [str(path.relative_to(package)) for path in package.rglob("*.py") if path.parent.name != "native"
               and ("native.kernels" in path.read_text(encoding="utf-8") or "_kernels" in path.read_text(encoding="utf-8"))]
    assert readers == []


def test_pure_python_turns_every_kernel_off_for_its_block_only():
    before = {row.name: native.kernel(row.name) for row in native.KERNELS}
    with native.pure_python():
        assert all(native.kernel(row.name) is None for row in native.KERNELS)
    assert {row.name: native.kernel(row.name) for row in native.KERNELS} == before
    with pytest.raises(KeyError, match="cost_searches"):
        native.kernel("cost_searches")


@compiled
@pytest.mark.parametrize("row", native.KERNELS, ids=[row.name for row in native.KERNELS])
def test_the_kernel_answers_as_its_python_twin(row, monkeypatch):
    on, off = both_ways(monkeypatch, row.name, CASES[row.name])
    assert on == off


def searches(count: int, seed: int, *, most: int = 64, max_covered: int = 16):
    """(position, layouts) with 2 to ``most`` layouts, from random small positions."""
    rng = np.random.default_rng(seed)
    found = 0
    while found < count:
        position = random_position(rng, max_covered=int(rng.integers(4, max_covered)))
        if position.mines is None:
            continue
        try:
            layouts = list_layouts(position, limit=most)
        except Exception:
            continue
        if layouts and len(layouts) >= 2:
            found += 1
            yield position, layouts


@parity("cost_search")
def cost_searches():
    """search_cost on random small positions, with three prices and budgets that cut it off and not."""
    outcomes, answers = set(), []
    cases = list(searches(150, seed=7))
    for prices in (OPENINGS, MINES, Prices(mine=0.7, safe=0.3)):
        for position, layouts in cases:
            for budget in (1, 5, 40, 20_000):
                answers.append(search_cost(position, layouts, prices, budget=budget))
                outcomes.add("timeout" if answers[-1] is None else "answer")
    assert outcomes == {"timeout", "answer"}  # both ways were taken
    return answers


def test_the_build_is_named_and_ci_builds_the_kernels():
    assert ("compiled kernels" if native.kernels is not None else "pure Python") == native.BUILD
    if os.environ.get("CI") and not os.environ.get("CSPMINES_PURE_PYTHON"):
        assert native.kernels is not None, "CI has a C compiler: the kernels should have been built"


def many_layouts(count: int, seed: int):
    """(position, layouts) with 2 to 300 layouts: past one 64-bit word, as the classic endgame meets."""
    return searches(count, seed, most=300, max_covered=20)


@parity("value_search")
def value_searches():
    """The value search on random small positions and on empty boards (their symmetries kept), every cell's
    value and the best ones', with tables small enough to fill and budgets of states that cut it off."""
    from cspmines.engine.layouts import layout_table
    from cspmines.engine.value import run_search, search_input
    from cspmines.engine.valuesearch import SearchInput, ValueCells

    tables = [layout_table(position, most=3000) for position, _ in many_layouts(120, seed=12)]
    tables += [layout_table(Position.from_string(f"{w}x{h}x{m}\n" + "\n".join("." * w for _ in range(h))))
               for w, h, m in ((3, 3, 2), (4, 3, 3), (4, 4, 3))]
    answers = []
    for table_ in tables:
        given = search_input(table_)
        assert isinstance(given, SearchInput)
        for nodes in (1, 7, 60, None):
            for cells in ValueCells:
                answers.append(run_search(given.with_budget(node_limit=nodes, cells=cells)))
    assert {answer["stopped"] for answer in answers} == {None, "nodes"}
    assert any(given.symmetries for given in map(search_input, tables))
    return answers


def wide_chains() -> list:
    """The chains of the reference positions and of raw (unsettled) fronts of random expert boards: up
    to a hundred cells and more, counts past 64 bits, keys past 64 bits, and some too wide for the kernel."""
    from pathlib import Path

    from cspmines.engine.chains import chains_of
    from cspmines.neighbours import neighbour_sum

    positions = [Position.from_file(path) for path in sorted((Path(__file__).parent / "data").glob("*.txt"))]
    rng = np.random.default_rng(3)
    for opened in (60, 90, 120, 150, 180, 220):  # expert boards with clues scattered: long raw fronts
        mines = np.zeros(480, dtype=bool)
        mines[rng.choice(480, size=99, replace=False)] = True
        clues = neighbour_sum(mines.reshape(16, 30)).ravel()
        grid = np.full(480, COVERED, dtype=np.int8)
        shown = rng.choice(np.flatnonzero(~mines), size=opened, replace=False)
        grid[shown] = clues[shown]
        positions.append(Position(grid.reshape(16, 30), mines=99))
    return [component for position in positions for component in chains_of(position)]


def chain_counts():
    """Each wide chain's models, tallies, peak states and states as the dp backend counts them."""
    from cspmines.engine.backends.dynamic import DynamicProgrammingBackend

    chains = wide_chains()
    counts = [DynamicProgrammingBackend().count(component) for component in chains]
    figures = [(count.models, count.tallies, count.stats["peak_states"], count.stats["states"]) for count in counts]
    assert max(c.n_cells for c in chains) > 100 and any(max(models) >= 1 << 64 for models, *_ in figures)
    return figures


# both count kernels serve one count: a chain counted whole (count_ordered), or, where planning races the
# greedy order, the passes over the planned steps (count_passes)
parity("count_ordered")(chain_counts)
parity("count_passes")(chain_counts)


def random_chains(seed: int, count: int) -> list:
    from pathlib import Path

    from cspmines.engine.chains import chains_of

    chains = [c for path in sorted((Path(__file__).parent / "data").glob("*.txt")) for c in chains_of(Position.from_file(path))]
    rng = np.random.default_rng(seed)
    while len(chains) < count:
        chains.extend(chains_of(random_position(rng, max_covered=25)))
    return chains


@parity("greedy_order")
def greedy_orders():
    from cspmines.engine.backends.ordering import greedy_order

    chains = random_chains(12, 400)
    orders = [greedy_order(chain, start=start) for chain in chains for start in (None, 0, len(chain.boxes) - 1)]
    assert max(len(order) for order in orders) > 100
    return orders


@parity("box_diameter")
def chain_lengths():
    lengths = [chain.length for chain in random_chains(13, 300)]  # made afresh: a chain keeps its length once worked out
    assert max(lengths) >= 5
    return lengths


PURE_PYTHON_SUITE = ["tests/test_engine.py", "tests/test_backends.py", "tests/test_sampling.py", "tests/test_objectives.py",
                     "tests/test_chains.py", "tests/test_settle.py", "tests/test_reveal.py", "cspmines/engine", "cspmines/agents"]


@pytest.mark.slow
def test_the_engine_and_agent_tests_pass_in_the_pure_python_build_too():
    """The suite runs on the compiled kernels; the engine's and the agents' tests run again here
    without them (about half a minute), so both builds are tested on every run."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    environment = {**os.environ, "CSPMINES_PURE_PYTHON": "1"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-x", "-m", "not slow", *PURE_PYTHON_SUITE],
                          cwd=root, env=environment, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
    build = subprocess.run([sys.executable, "-c", "import cspmines.native as n; print(n.BUILD)"], cwd=root, env=environment,
                           capture_output=True, text=True, check=True)
    assert build.stdout.strip() == "pure Python"  # the run above had no kernels


def settled_or_error(position):
    """settle_position's answer, or the error it raises as (type, message)."""
    from cspmines.engine.constraints import settle_position

    try:
        return settle_position(position)
    except Exception as error:  # compared by type and message: the two builds must raise alike
        return type(error).__name__, str(error)


def settling_positions():
    """Random small positions (some inconsistent: bumped clues), random expert boards and the
    reference positions: boards whose settling contradicts itself, raises, or settles most clues."""
    from pathlib import Path

    from cspmines import Position
    from cspmines.neighbours import neighbour_sum

    rng = np.random.default_rng(21)
    positions = [random_position(rng, max_covered=int(rng.integers(3, 30)), corrupt=bool(i % 3 == 0)) for i in range(1500)]
    positions += [Position.from_file(path) for path in sorted((Path(__file__).parent / "data").glob("*.txt"))]
    for opened in range(40, 380, 20):
        mines = np.zeros(480, dtype=bool)
        mines[rng.choice(480, size=99, replace=False)] = True
        grid = np.where(mines, COVERED, neighbour_sum(mines.reshape(16, 30)).ravel()).astype(np.int8)
        hidden = rng.choice(np.flatnonzero(~mines), size=480 - 99 - opened, replace=False)
        grid[hidden] = COVERED
        grid[rng.choice(np.flatnonzero(mines), size=int(rng.integers(0, 20)), replace=False)] = FLAG
        positions.append(Position(grid.reshape(16, 30), mines=99))
    return positions


@parity("settle_clues")
def settlings():
    """settle_position's Settled (or its error, by type and message) on boards that settle most clues,
    contradict themselves or raise."""
    from cspmines.engine.constraints import ConstraintSystem

    answers = [settled_or_error(position) for position in settling_positions()]
    rests = [(a.system.unconstrained_cells, ConstraintSystem(a.system.rules, a.system.cells, a.system.mines_left).unconstrained_cells)
             for a in answers if not isinstance(a, tuple)]
    assert all(given == worked_out for given, worked_out in rests)
    errors = sum(isinstance(answer, tuple) for answer in answers)
    settled = sum(not isinstance(answer, tuple) and bool(answer.mine_cells or answer.safe_cells) for answer in answers)
    assert errors > 20 and settled > 500  # every way was taken
    return answers


@compiled
def test_the_compiled_settling_gives_the_twins_rules_and_cells():
    """``settle_clues`` gives _clue_rows and _settle_rounds' rules, safe and mine cells where it answers,
    and declines (None) where they raise or a round contradicts itself."""
    from cspmines.engine.constraints import _clue_rows, _settle_rounds

    settle_clues = native.kernel("settle_clues")
    declined = 0
    for position in settling_positions():
        found = settle_clues(position.grid, position.width, position.height)
        try:
            rounds = _settle_rounds(list(zip(*_clue_rows(position), strict=True)))
        except Exception:  # a clue that cannot be met: the kernel leaves it to the Python
            rounds = None
        if rounds is None:  # raised, or a round contradicts itself: so does the kernel
            assert found is None
            declined += 1
            continue
        rules, safe, mines = rounds
        assert found[:3] == (rules, safe, mines), position
        assert found[3] == tuple(c for c in position.covered_cells if c not in safe | mines)
        front = frozenset().union(*(cells for cells, _, _ in rules))
        assert found[4] == tuple(c for c in found[3] if c not in front)
        assert found[5:] == (len(position.covered_cells), len(position.known_mine_cells))
    assert declined > 20


@parity("split_rules")
def splits():
    """_split_layout's chains, boxes, rules and local numbering, on the raw and the settled systems of
    the boards above (one chain to hundreds, fronts of one cell to the whole board)."""
    from cspmines.engine.chains import _split_layout, _without_duplicate_rules
    from cspmines.engine.constraints import ConstraintSystem, settle_position

    systems = []
    with native.pure_python():  # the same systems both ways: only the split is compared
        for position in settling_positions():
            try:
                systems += [ConstraintSystem.from_position(position), settle_position(position).system]
            except Exception:  # an inconsistent board: no system to split
                continue
    layouts = [_split_layout(_without_duplicate_rules(system)) for system in systems]
    chains = [len(layout) for layout in layouts]
    assert min(chains) == 0 and max(chains) >= 10 and max(len(chain[0]) for layout in layouts for chain in layout) > 100
    return layouts


@parity("single_clues")
def single_clue_readings():
    """What SingleClueWatch proves move after move of random games (cells opened in random order, known
    mines some true and some wrong, flags here and there), contradictions included."""
    from cspmines.agents.exact.deductions import SingleClueWatch
    from cspmines.games import Board

    rng = np.random.default_rng(17)
    found = []
    for game in range(60):
        board = Board.random(str(rng.choice(["beginner", "intermediate", "expert"])), seed=game)
        truth = np.array([board.is_mine(cell) for cell in range(board.size)])
        grid = np.full(board.size, COVERED, dtype=np.int8)
        clues = neighbour_values(truth.reshape(board.height, board.width))
        order = rng.permutation(np.flatnonzero(~truth))[: int(rng.integers(10, 200))]
        watch = SingleClueWatch()
        known: set = set()
        for cell in order:
            grid[cell] = clues[cell]
            if rng.random() < 0.05:  # a flag on a covered cell, right or wrong
                grid[int(rng.choice(np.flatnonzero(grid == COVERED)))] = FLAG
            if rng.random() < 0.3:
                covered = np.flatnonzero(grid == COVERED)
                wrong = rng.random() < 0.1
                pool = covered[~truth[covered]] if wrong else covered[truth[covered]]
                if len(pool):
                    known = known | {int(rng.choice(pool))}
            found.append(watch(Position(grid.reshape(board.height, board.width).copy(), mines=board.n_mines), set(known)))
    assert sum(bool(safe) for safe, _ in found) > 500 and sum(bool(mines) for _, mines in found) > 10
    assert sum(not safe and not mines for safe, mines in found) > 100  # contradictions and nothing to prove
    return found


def neighbour_values(mines: np.ndarray) -> np.ndarray:
    from cspmines.neighbours import neighbour_sum

    return neighbour_sum(mines).ravel()


@parity("combine_chances")
def combinations():
    """combine_with_total's box chances (integers of up to a hundred digits and more) on the chains of
    the boards above, with the board's total and with others."""
    from cspmines.engine.backends import get_backend
    from cspmines.engine.chains import split_chains
    from cspmines.engine.combine import combine_with_total
    from cspmines.engine.constraints import settle_position

    found = []
    for position in settling_positions():
        try:
            system = settle_position(position).system
        except Exception:  # an inconsistent board: nothing to combine
            continue
        components = split_chains(system)
        counts = [get_backend("dp").count(component) for component in components]
        sizes = [[box.size for box in component.boxes] for component in components]
        rest = len(system.unconstrained_cells)
        for mines_left in sorted({system.mines_left, len(system.cells) // 5, len(system.cells) // 2} - {None}):
            combination = combine_with_total(counts, sizes, rest_size=rest, mines_left=mines_left)
            found.append((combination.model_count, combination.box_chances, combination.rest_chance))
    assert sum(count > 0 for count, _, _ in found) > 500 and max(count for count, _, _ in found) > 10**90
    return found


@parity("glance_boxes")
def glances():
    """The proved safe cells and the least chances (none to three, among living cells and all) of the
    boards above with a total, and of each with one more clue at a covered cell."""
    from cspmines.engine.glance import glance
    from cspmines.engine.reveal import solve_revealed

    found = []
    for index, position in enumerate(settling_positions()[::3]):
        if position.mines is None:
            continue
        try:
            analysis = default_engine().solve(position)
        except Exception:  # an inconsistent board: nothing to glance at
            continue
        covered = np.flatnonzero(position.grid.ravel() == COVERED)
        boards = [analysis]
        for clue in range(3):
            try:
                boards.append(solve_revealed(analysis, int(covered[index % len(covered)]), clue))
            except Exception:  # no layout shows it
                continue
        found += [glance(board, count, living=living) for board in boards for count in (0, 1, 2, 3) for living in (True, False)]
    assert sum(bool(seen.safe) for seen in found) > 300 and sum(len(seen.least) == 3 for seen in found) > 300
    return found


@parity("closed_off_places")
def places_of_fifty_fifties():
    """The pairs and blocks _closed_off_places marks, on the boards above with their proved mines as
    known mines and without, board edges and flags included."""
    from cspmines.agents.exact.fifty_fifty import _closed_off_places
    from cspmines.engine.constraints import settle_position

    found = []
    for position in settling_positions():
        try:
            known = settle_position(position).mine_cells
        except Exception:  # an inconsistent board: its places without known mines only
            known = frozenset()
        for mines in (frozenset(), known):
            found.append(tuple(places.tolist() for places in _closed_off_places(position.grid, mines)))
    assert all(sum(np.sum(places[k]) for places in found) > 50 for k in range(3))  # each kind found
    return found


@parity("settle_board")
def local_rules():
    """A game's deduction (the one- and two-clue rules from a cell) on random boards: the cells it
    opens and marks, and the view it leaves."""
    from cspmines.games.certificate import layout_clues
    from cspmines.games.deduce import settle_board

    rng = np.random.default_rng(11)
    found = []
    for _ in range(600):
        width, height = int(rng.integers(2, 31)), int(rng.integers(2, 17))
        mines = int(rng.integers(0, width * height // 3 + 1))
        layout = np.zeros(width * height, dtype=bool)
        layout[rng.choice(width * height, size=mines, replace=False)] = True
        clues = layout_clues(layout.reshape(height, width))
        safe = np.flatnonzero(~layout)
        start = int(safe[rng.integers(len(safe))]) if len(safe) else -1
        view = bytearray([COVERED & 0xFF]) * layout.size
        found.append((settle_board(clues, view, width, height, mines, start=start), bytes(view)))
    assert sum(opened > 10 for (opened, _), _ in found) > 100
    return found


@parity("remembered")
def remembered_reads():
    """A property made with the descriptor the table gives (the C one, else the twin): worked out on
    the first read only, kept in the instance's dictionary, its doc and name kept, an error raised
    through and nothing kept."""
    from dataclasses import dataclass

    from cspmines.engine.cache import _Remembered

    kind = native.kernel("remembered") or _Remembered
    made = []

    @dataclass(frozen=True)
    class Square:
        side: int

        @kind
        def area(self):
            """The side squared."""
            made.append(self.side)
            return self.side**2

    square = Square(3)
    reads = (square.area, square.area, list(made), square.__dict__["area"], Square.__dict__["area"].__doc__,
             Square.__dict__["area"].name)

    class Failing:
        @kind
        def broken(self):
            raise KeyError("inside")

    failing = Failing()
    with pytest.raises(KeyError, match="inside"):
        _ = failing.broken
    assert reads == (9, 9, [3], 9, "The side squared.", "area")
    return reads, "broken" in failing.__dict__
