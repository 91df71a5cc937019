"""The compiled kernels against the Python they replace: the same answers, budget cut-offs included.

Without a compiler the package runs its Python kernels and these tests say so by skipping; CI builds
with one (``cspmines --version`` names the build), so there they run.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from cspmines import Position, native
from cspmines.agents.exact.endgame import list_layouts
from cspmines.agents.exact.objectives import MINES, OPENINGS, Prices, _CostSearch, search_cost
from cspmines.position import COVERED, FLAG

from randompositions import random_position

compiled = pytest.mark.skipif(native.kernels is None, reason="built without a C compiler: the Python kernels run")


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


def python_search(position, layouts, prices, budget):
    try:
        return _CostSearch(position, layouts, prices, budget).best((1 << len(layouts)) - 1)
    except TimeoutError:
        return "timeout"


def compiled_search(position, layouts, prices, budget):
    search = _CostSearch(position, layouts, prices, budget)
    try:
        return native.kernels.cost_search(search.cells, (1 << len(layouts)) - 1, prices.mine, prices.safe, budget)
    except TimeoutError:
        return "timeout"


@compiled
@pytest.mark.parametrize("prices", [OPENINGS, MINES, Prices(mine=0.7, safe=0.3)])
def test_the_compiled_cost_search_answers_as_the_python_one(prices):
    outcomes = set()
    for n, (position, layouts) in enumerate(searches(150, seed=7)):
        for budget in (1, 5, 40, 20_000):
            expected = python_search(position, layouts, prices, budget)
            assert compiled_search(position, layouts, prices, budget) == expected, (position, len(layouts), budget)
            outcomes.add("timeout" if expected == "timeout" else "answer")
    assert outcomes == {"timeout", "answer"}  # both ways were taken


def test_search_cost_gives_the_same_answer_either_way(monkeypatch):
    answers = [search_cost(position, layouts, OPENINGS) for position, layouts in searches(40, seed=8)]
    monkeypatch.setattr(native, "kernels", None)
    assert [search_cost(position, layouts, OPENINGS) for position, layouts in searches(40, seed=8)] == answers


def test_the_build_is_named_and_ci_builds_the_kernels():
    assert native.BUILD == ("compiled kernels" if native.kernels is not None else "pure Python")
    if os.environ.get("CI") and not os.environ.get("CSPMINES_PURE_PYTHON"):
        assert native.kernels is not None, "CI has a C compiler: the kernels should have been built"


def python_win(position, layouts, budget, cells=None):
    from cspmines.engine.endgame import WinSearch

    try:
        return WinSearch(position, layouts, budget, cells=cells).best((1 << len(layouts)) - 1)
    except TimeoutError:
        return "timeout"


def compiled_win(position, layouts, budget, cells=None):
    from cspmines.engine.endgame import WinSearch

    try:
        return native.kernels.win_search(WinSearch(position, layouts, budget, cells=cells).cells, len(layouts), budget)
    except TimeoutError:
        return "timeout"


def many_layouts(count: int, seed: int):
    """(position, layouts) with 2 to 300 layouts: past one 64-bit word, as the classic endgame meets."""
    return searches(count, seed, most=300, max_covered=20)


@compiled
def test_the_compiled_endgame_search_answers_as_the_python_one():
    outcomes, widest = set(), 0
    for position, layouts in many_layouts(200, seed=9):
        widest = max(widest, len(layouts))
        for budget in (1, 3, 30, 200_000):
            expected = python_win(position, layouts, budget)
            assert compiled_win(position, layouts, budget) == expected, (position, len(layouts), budget)
            outcomes.add("timeout" if expected == "timeout" else "answer")
    assert outcomes == {"timeout", "answer"} and widest > 128  # both ways, and layouts over several words


def test_the_endgame_and_pocket_moves_are_the_same_either_way(monkeypatch):
    from cspmines import solve
    from cspmines.agents.exact.endgame import best_move, pocket_move

    positions = [position for position, _ in many_layouts(60, seed=10)]
    analyses = [solve(position) for position in positions]

    def answers():
        return [best_move(p, limit=300) for p in positions], [pocket_move(a) for a in analyses]

    found = answers()
    monkeypatch.setattr(native, "kernels", None)
    assert answers() == found
    assert any(move is not None for move in found[1])  # some of them were pockets


def counted_both_ways(component):
    from cspmines.engine.backends.dynamic import DynamicProgrammingBackend
    from cspmines.engine.memory import Memory

    compiled = DynamicProgrammingBackend(Memory()).count(component)
    kernels, native.kernels = native.kernels, None
    try:
        python = DynamicProgrammingBackend(Memory()).count(component)
    finally:
        native.kernels = kernels
    figures = lambda count: (count.models, count.tallies, count.stats["peak_states"], count.stats["states"])  # noqa: E731
    return figures(compiled), figures(python)


@compiled
def test_the_compiled_passes_count_as_the_python_ones_on_wide_chains():
    """Reference positions and raw (unsettled) fronts of random expert boards: chains of up to a hundred
    cells and more, counts past 64 bits, keys past 64 bits, and some too wide for the kernel."""
    from pathlib import Path

    from cspmines import Position
    from cspmines.engine.components import chains_of
    from cspmines.engine.constraints import neighbour_sum
    from cspmines.position import COVERED

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
    widest = past_64_bits = 0
    for position in positions:
        for component in chains_of(position):
            compiled, python = counted_both_ways(component)
            assert compiled == python, (position, component.n_cells)
            widest = max(widest, component.n_cells)
            past_64_bits += max(compiled[0]) >= 1 << 64
    assert widest > 100 and past_64_bits > 0


@compiled
def test_the_compiled_greedy_order_is_the_python_one():
    from pathlib import Path

    from cspmines import Position
    from cspmines.engine.backends.ordering import greedy_order
    from cspmines.engine.components import chains_of

    chains = [c for path in sorted((Path(__file__).parent / "data").glob("*.txt")) for c in chains_of(Position.from_file(path))]
    rng = np.random.default_rng(12)
    while len(chains) < 400:
        chains.extend(chains_of(random_position(rng, max_covered=20)))
    starts = lambda chain: (None, 0, len(chain.boxes) - 1)  # noqa: E731
    compiled_orders = [greedy_order(chain, start=start) for chain in chains for start in starts(chain)]
    kernels, native.kernels = native.kernels, None
    try:
        python_orders = [greedy_order(chain, start=start) for chain in chains for start in starts(chain)]
    finally:
        native.kernels = kernels
    assert compiled_orders == python_orders
    assert max(len(order) for order in compiled_orders) > 100


@compiled
def test_the_compiled_chain_length_is_the_python_one():
    from cspmines.engine.components import box_diameter

    rng = np.random.default_rng(13)
    chains = []
    while len(chains) < 300:
        chains.extend(c for c in components_of_random(rng) if c.n_boxes > 1)
    for chain in chains:
        assert native.kernels.box_diameter(chain.n_boxes, [rule.boxes for rule in chain.rules]) == box_diameter(chain.n_boxes, chain.rules)
    assert max(box_diameter(c.n_boxes, c.rules) for c in chains) >= 5


def components_of_random(rng):
    from cspmines.engine.components import chains_of

    return chains_of(random_position(rng, max_covered=25))


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
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-x", "-m", "not slow", *PURE_PYTHON_SUITE],
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
    from cspmines.engine.constraints import neighbour_sum

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


@compiled
def test_the_compiled_settling_is_the_python_one():
    """``settle_clues`` gives _clue_rows and _settle_rounds' rules, safe and mine cells where it answers,
    and settle_position the same Settled (or the same error) with the kernel as without."""
    from cspmines.engine.constraints import ConstraintSystem, _clue_rows, _settle_rounds

    positions = settling_positions()
    compiled_answers = [settled_or_error(position) for position in positions]
    declined = 0
    for position in positions:
        found = native.kernels.settle_clues(position.grid, position.width, position.height)
        try:
            rounds = _settle_rounds(list(zip(*_clue_rows(position))))
        except Exception:  # a clue that cannot be met: the kernel leaves it to the Python
            assert found is None
            declined += 1
            continue
        if rounds is None:  # a round contradicts itself: so does the kernel
            assert found is None
            declined += 1
            continue
        rules, safe, mines = rounds
        assert found[:3] == (rules, safe, mines), position
        assert found[3] == tuple(c for c in position.covered_cells if c not in safe | mines)
        front = frozenset().union(*(cells for cells, _, _ in rules))
        assert found[4] == tuple(c for c in found[3] if c not in front)
        assert found[5:] == (len(position.covered_cells), len(position.known_mine_cells))
    kernels, native.kernels = native.kernels, None
    try:
        python_answers = [settled_or_error(position) for position in positions]
    finally:
        native.kernels = kernels
    assert compiled_answers == python_answers
    rests = [(a.system.unconstrained_cells, ConstraintSystem(a.system.rules, a.system.cells, a.system.mines_left).unconstrained_cells)
             for a in compiled_answers if not isinstance(a, tuple)]
    assert all(given == worked_out for given, worked_out in rests)
    errors = sum(isinstance(answer, tuple) for answer in python_answers)
    settled = sum(not isinstance(answer, tuple) and bool(answer.mine_cells or answer.safe_cells) for answer in python_answers)
    assert declined > 20 and errors > 20 and settled > 500  # every way was taken


@compiled
def test_the_compiled_split_is_the_python_one():
    """``split_rules`` gives _split_layout's chains, boxes, rules and local numbering, on the raw and the
    settled systems of the boards above (one chain to hundreds, fronts of one cell to the whole board)."""
    from cspmines.engine.components import _split_layout, _without_duplicate_rules
    from cspmines.engine.constraints import ConstraintSystem, settle_position

    systems = []
    for position in settling_positions():
        try:
            systems += [ConstraintSystem.from_position(position), settle_position(position).system]
        except Exception:  # an inconsistent board: no system to split
            continue
    systems = [_without_duplicate_rules(system) for system in systems]
    compiled_layouts = [_split_layout(system) for system in systems]
    kernels, native.kernels = native.kernels, None
    try:
        python_layouts = [_split_layout(system) for system in systems]
    finally:
        native.kernels = kernels
    assert compiled_layouts == python_layouts
    chains = [len(layout) for layout in python_layouts]
    assert min(chains) == 0 and max(chains) >= 10 and max(len(chain[0]) for layout in python_layouts for chain in layout) > 100


@compiled
def test_the_compiled_single_clue_reading_is_the_python_one():
    """``single_clues`` proves what SingleClueWatch._read_around proves, move after move of random
    games (cells opened in random order, known mines some true and some wrong, flags here and there),
    contradictions included."""
    from cspmines.agents.exact.deductions import SingleClueWatch
    from cspmines.games import Board

    rng = np.random.default_rng(17)
    answers = {"compiled": [], "python": []}
    for game in range(60):
        board = Board.random(str(rng.choice(["beginner", "intermediate", "expert"])), seed=game)
        truth = np.array([board.is_mine(cell) for cell in range(board.size)])
        grid = np.full(board.size, COVERED, dtype=np.int8)
        clues = neighbour_values(truth.reshape(board.height, board.width))
        order = rng.permutation(np.flatnonzero(~truth))[: int(rng.integers(10, 200))]
        watches = {"compiled": SingleClueWatch(), "python": SingleClueWatch()}
        known: set = set()
        for step, cell in enumerate(order):
            grid[cell] = clues[cell]
            if rng.random() < 0.05:  # a flag on a covered cell, right or wrong
                grid[int(rng.choice(np.flatnonzero(grid == COVERED)))] = FLAG
            if rng.random() < 0.3:
                covered = np.flatnonzero(grid == COVERED)
                wrong = rng.random() < 0.1
                pool = covered[~truth[covered]] if wrong else covered[truth[covered]]
                if len(pool):
                    known = known | {int(rng.choice(pool))}
            position = Position(grid.reshape(board.height, board.width).copy(), mines=board.n_mines)
            for build, watch in watches.items():
                kernels = native.kernels
                if build == "python":
                    native.kernels = None
                try:
                    answers[build].append(watch(position, set(known)))
                finally:
                    native.kernels = kernels
    assert answers["compiled"] == answers["python"]
    found = answers["python"]
    assert sum(bool(safe) for safe, _ in found) > 500 and sum(bool(mines) for _, mines in found) > 10
    assert sum(not safe and not mines for safe, mines in found) > 100  # contradictions and nothing to prove


def neighbour_values(mines: np.ndarray) -> np.ndarray:
    from cspmines.engine.constraints import neighbour_sum

    return neighbour_sum(mines).ravel()


@compiled
def test_the_compiled_combination_is_the_python_one():
    """``combine_chances`` gives combine_with_total's box chances (integers of up to a hundred digits
    and more) on the chains of the boards above, with the board's total and with others."""
    from cspmines.engine.backends import get_backend
    from cspmines.engine.combine import combine_with_total
    from cspmines.engine.components import split_chains
    from cspmines.engine.constraints import settle_position

    cases = []
    for position in settling_positions():
        try:
            system = settle_position(position).system
        except Exception:  # an inconsistent board: nothing to combine
            continue
        components = split_chains(system)
        counts = [get_backend("dp").count(component) for component in components]
        sizes = [[box.size for box in component.boxes] for component in components]
        rest = len(system.unconstrained_cells)
        for mines_left in {system.mines_left, len(system.cells) // 5, len(system.cells) // 2} - {None}:
            cases.append((counts, sizes, rest, mines_left))

    def chances():
        found = []
        for counts, sizes, rest, mines_left in cases:
            combination = combine_with_total(counts, sizes, rest_size=rest, mines_left=mines_left)
            found.append((combination.model_count, combination.box_chances, combination.rest_chance))
        return found

    compiled_chances = chances()
    kernels, native.kernels = native.kernels, None
    try:
        python_chances = chances()
    finally:
        native.kernels = kernels
    assert compiled_chances == python_chances
    assert sum(count > 0 for count, _, _ in python_chances) > 500 and max(count for count, _, _ in python_chances) > 10**90


@compiled
def test_the_compiled_places_of_fifty_fifties_are_the_python_ones():
    """``closed_off_places`` marks the pairs and blocks _closed_off_places marks, on the boards above
    with their proved mines as known mines and without, board edges and flags included."""
    from cspmines.agents.exact.fifty_fifty import _closed_off_places
    from cspmines.engine.constraints import settle_position

    cases = []
    for position in settling_positions():
        try:
            known = settle_position(position).mine_cells
        except Exception:  # an inconsistent board: its places without known mines only
            known = frozenset()
        cases += [(position.grid, frozenset()), (position.grid, known)]
    compiled_places = [_closed_off_places(grid, known) for grid, known in cases]
    kernels, native.kernels = native.kernels, None
    try:
        python_places = [_closed_off_places(grid, known) for grid, known in cases]
    finally:
        native.kernels = kernels
    for compiled_three, python_three in zip(compiled_places, python_places):
        assert all(np.array_equal(c, p) for c, p in zip(compiled_three, python_three))
    assert all(sum(int(places[k].sum()) for places in python_places) > 50 for k in range(3))  # each kind found


@compiled
def test_remembered_in_c_works_out_once_and_keeps_as_the_python_one_does():
    from dataclasses import dataclass

    from cspmines.engine.memory import _Remembered

    for kind in (native.kernels.remembered, _Remembered):
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
        assert (square.area, square.area, made) == (9, 9, [3])  # worked out on the first read only
        assert square.__dict__["area"] == 9 and Square.area.__doc__ == "The side squared."
        assert isinstance(Square.area, kind) and Square.area.name == "area"

        class Failing:
            @kind
            def broken(self):
                raise KeyError("inside")

        with pytest.raises(KeyError, match="inside"):
            Failing().broken
        assert "broken" not in Failing().__dict__
