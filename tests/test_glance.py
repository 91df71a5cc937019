"""The glance (cspmines.engine.glance) against each covered cell's chance: the same proved safe cells
and the same least chances, on random positions, on the boards a look-ahead imagines, and on expert
boards, with the compiled kernel and with its twin."""

from __future__ import annotations

from contextlib import nullcontext

import numpy as np
import pytest

from cspmines import InconsistentPositionError, Limit, Position, native, solve
from cspmines.engine.glance import BoxChances, Glance, clue_is_settled, glance, glance_boxes
from cspmines.engine.reveal import solve_revealed
from cspmines.neighbours import neighbour_sum
from cspmines.position import COVERED, FLAG

from randompositions import random_position


def read_cell_by_cell(analysis, count: int, living: bool) -> Glance:
    """What the glance must be, from each covered cell's own chance: the cells of chance 0 (not
    estimated), and the least chances below 1 of the living cells, else of all."""
    position = analysis.position
    covered = [cell for cell in range(position.size) if position.grid.flat[cell] == COVERED]
    chance = {cell: analysis.probability(cell) for cell in covered}
    safe = frozenset(cell for cell in covered if chance[cell] == 0 and cell not in analysis.inexact_cells)
    below = [cell for cell in covered if chance[cell] < 1]
    pool = [cell for cell in below if not settled_by_sets(analysis, chance, cell)] if living else []
    least = sorted(float(chance[cell]) for cell in pool or below)  # the Fraction rounded once
    return Glance(safe, tuple(least[:count]))


def settled_by_sets(analysis, chance: dict, cell: int) -> bool:
    """Whether ``cell``'s clue is already known, as clue_is_settled defines it, worked out anew with
    sets: its covered neighbours not proved (chance 0 or 1, not estimated) are none, or are exactly
    those of some clue on the board."""
    position = analysis.position
    flat = position.grid.ravel()

    def doubtful(of: int) -> set:
        return {n for n in position.neighbours(of) if flat[n] == COVERED and (chance[n] not in (0, 1) or n in analysis.inexact_cells)}

    around = doubtful(cell)
    row, col = position.row_col(cell)  # a clue sharing a neighbour with the cell lies within two steps of it
    near = [position.cell(r, c) for r in range(max(0, row - 2), min(position.height, row + 3))
            for c in range(max(0, col - 2), min(position.width, col + 3))]
    return not around or any(doubtful(clue) == around for clue in near if flat[clue] >= 0)


def expert_boards(seed: int, count: int) -> list:
    """Expert boards opened part way (some flags), with their total."""
    rng = np.random.default_rng(seed)
    boards = []
    for opened in np.linspace(40, 360, count).astype(int):
        mines = np.zeros(480, dtype=bool)
        mines[rng.choice(480, size=99, replace=False)] = True
        grid = np.where(mines, COVERED, neighbour_sum(mines.reshape(16, 30)).ravel()).astype(np.int8)
        grid[rng.choice(np.flatnonzero(~mines), size=480 - 99 - int(opened), replace=False)] = COVERED
        grid[rng.choice(np.flatnonzero(mines), size=int(rng.integers(0, 15)), replace=False)] = FLAG
        boards.append(Position(grid.reshape(16, 30), mines=99))
    return boards


def analyses(seed: int) -> list:
    """Analyses of random small positions (with a total and without), of expert boards (some with
    chains cut short, some with a budget cut), and of boards each with one more clue revealed as a
    look-ahead reveals it."""
    rng = np.random.default_rng(seed)
    found = [solve(board, limit=limit) for board in expert_boards(seed + 1, 8) for limit in (Limit(max_chain=3), Limit(nodes=40))]
    for position in [random_position(rng, max_covered=int(rng.integers(2, 18))) for _ in range(400)] + expert_boards(seed, 12):
        try:  # a position without a total at a density: its chances are Fractions, read cell by cell
            analysis = solve(position, density=None if position.mines is not None else 0.3)
        except InconsistentPositionError:
            continue
        found.append(analysis)
        covered = np.flatnonzero(position.grid.ravel() == COVERED)
        for cell in rng.choice(covered, size=min(3, len(covered)), replace=False).tolist():
            for clue in range(9):
                try:
                    found.append(solve_revealed(analysis, cell, clue))
                except InconsistentPositionError:
                    continue
    return found


@pytest.mark.parametrize("kernels", ["compiled", "twin"])
def test_the_glance_reads_what_the_analysis_says(kernels):
    if kernels == "compiled" and native.kernel("glance_boxes") is None:
        pytest.skip("built without a C compiler: the twin runs")
    met = {"boxes": 0, "dead": 0, "all dead": 0, "chains cut": 0, "budget cut": 0, "density": 0}
    with native.pure_python() if kernels == "twin" else nullcontext():
        for analysis in analyses(seed=3):
            for count in (0, 1, 2, 3):
                for living in (True, False):
                    seen = glance(analysis, count, living=living)
                    assert seen == read_cell_by_cell(analysis, count, living), (analysis.position, count, living)
            for kind, what in _kinds(analysis).items():
                met[kind] += what
    # the boxes' path was taken, every way round it too, and dead cells and boards with only dead cells
    # below certainty were met
    assert met["boxes"] > 1000 and met["dead"] > 300 and met["all dead"] > 20, met
    assert met["chains cut"] >= 4 and met["budget cut"] >= 4 and met["density"] > 100, met


def _kinds(analysis) -> dict:
    """Which kinds of board ``analysis`` is: one with box chances over one denominator, with a dead
    cell, with every cell below certainty dead."""
    settled = clue_is_settled(analysis)
    covered = np.flatnonzero(analysis.position.grid.ravel() == COVERED).tolist()
    living_least = analysis.least_probabilities(1, below=1, keep=lambda c: not settled(c))
    combination = analysis.combination
    return {
        "boxes": combination is not None and combination.denominator is not None and not analysis.approximate,
        "chains cut": analysis.approximate,
        "budget cut": combination is None,
        "density": combination is not None and combination.denominator is None,
        "dead": any(settled(c) for c in covered),
        "all dead": not living_least and bool(analysis.least_probabilities(1, below=1)),
    }


def test_a_glance_at_a_won_board_has_no_chance_to_read():
    analysis = solve(Position.from_string("2x1x1\n1."))  # the one covered cell left is the mine
    assert glance(analysis, 2) == Glance(frozenset(), ())


def test_a_glance_refuses_a_negative_count():
    with pytest.raises(ValueError, match="count must be >= 0"):
        glance(solve(Position.from_string("3x1x1\n.1.")), -1)


@pytest.mark.parametrize("kernels", ["compiled", "twin"])
def test_the_glance_of_boxes_refuses_what_is_not_a_board_in_one_clear_error(kernels):
    read = native.kernel("glance_boxes") if kernels == "compiled" else glance_boxes
    if read is None:
        pytest.skip("built without a C compiler: the twin runs")
    grid = np.full((2, 3), COVERED, dtype=np.int8)
    fine = ([[1, 2]], [((0, 1), (2,))], (3, 4, 5), 1, (), (), 4, grid, 3, 2, 2, True)

    def read_all(*given):  # the boxes' ten fields, then the count and living
        return read(BoxChances(*given[:10]), *given[10:])

    assert read_all(*fine) == (frozenset(), (1, 1))
    wrong = {
        "cell 6 is not on the board": {1: [((0, 6), (2,))]},
        "cell -1 is not on the board": {4: (-1,)},
        "a chain's boxes and chances differ in number": {0: [[1]]},
        "one tuple of boxes and one list of chances a chain": {0: []},
        "the grid's bytes do not match": {8: 4},
        "count must be >= 0": {10: -1},
    }
    for message, changes in wrong.items():
        given = list(fine)
        for place, value in changes.items():
            given[place] = value
        with pytest.raises(ValueError, match=message):
            read_all(*given)
    for width, height in ((-3, -2), (-2, -3), (-1, -6), (-6, -1), (0, 6), (6, 0)):  # sides whose product fits the bytes, or not
        with pytest.raises(ValueError, match="the grid's bytes do not match its width and height"):
            read_all(*fine[:8], width, height, *fine[10:])
    assert read_all(*fine[:8], 6, 1, *fine[10:])[1] == (1, 1)  # one row of the same six bytes: a board all the same
    with pytest.raises(ValueError):  # a view that is not one block of memory
        read_all(*fine[:7], np.full((2, 6), COVERED, dtype=np.int8)[:, ::2], *fine[8:])
    assert read_all(*fine[:10], 10**12, True)[1] == (1, 1, 1, 1, 1, 2)  # a count past the cells: every cell's chance, no more memory


def test_a_glance_refuses_what_is_not_an_analysis_or_a_count_in_one_clear_error():
    position = Position.from_string("3x1x1\n.1.")
    with pytest.raises(TypeError, match="glance reads an Analysis"):
        glance(position, 2)
    for count in (2.0, "2", True):
        with pytest.raises(TypeError, match="count must be a whole number"):
            glance(solve(position), count)
