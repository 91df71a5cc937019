"""A cell's clue distribution (cspmines.engine.clues) against brute force and against revealing each clue."""

from __future__ import annotations

from pathlib import Path

import pytest

from cspmines import InconsistentPositionError, Limit, MissingTotalError, Position, solve
from cspmines.engine.clues import _State, clue_spread, clue_spreads, off_front_spreads
from cspmines.engine.reveal import solve_revealed
from cspmines.position import FLAG, MINE

from bruteforce import mine_layouts
from randompositions import solved_with_total

DATA = Path(__file__).parent / "data"


def test_spreads_count_the_layouts_brute_force_lists():
    cells = closed = 0
    for position, analysis in solved_with_total(250, 7, max_covered=12):
        layouts = mine_layouts(position)
        flat = position.grid.ravel()
        known = {c for c in range(position.size) if flat[c] in (FLAG, MINE)}
        off_front = off_front_spreads(analysis, position.covered_cells)
        for cell in position.covered_cells:
            expected = [0] * 10  # a mine, then clue 0..8
            for layout in layouts:
                if cell in layout:
                    expected[0] += 1
                else:
                    expected[1 + sum(1 for n in position.neighbours(cell) if n in layout or n in known)] += 1
            spread = clue_spread(analysis, cell)
            assert [spread.mine, *spread.clues] == expected and spread.total == len(layouts)
            if cell in off_front:
                assert off_front[cell] == spread
                closed += 1
            cells += 1
    assert cells > 600 and closed > 300  # both routes taken many times


@pytest.mark.parametrize("name", ["expert-5-012.txt", "beginner-2-003.txt", "intermediate-4-007.txt"])
def test_closed_form_is_what_revealing_each_clue_counts(name):
    # boards too big for brute force: the closed form against the reveal it replaces
    path = DATA / name
    if not path.exists():
        path = sorted(DATA.glob(name.split("-")[0] + "*.txt"))[0]
    analysis = solve(Position.from_file(path))
    state = _State.of(analysis)
    off_front = off_front_spreads(analysis, analysis.position.covered_cells)
    assert off_front
    for cell, spread in list(off_front.items())[:12]:
        low, high = state.clue_range(cell)
        for clue in range(low, high + 1):
            try:
                count = solve_revealed(analysis, cell, clue).model_count
            except InconsistentPositionError:
                count = 0
            assert spread.clues[clue] == count
        assert sum(spread.clues) + spread.mine == spread.total
        assert spread.mine == analysis.probability(cell) * analysis.model_count
        assert sum(spread.probabilities()) == 1 and abs(sum(spread.floats()) - 1) < 1e-12


def test_a_density_has_no_count_to_share_and_a_cell_must_be_covered():
    with pytest.raises(MissingTotalError, match="mine total"):
        clue_spread(solve(Position.from_string("3x1\n.1."), density=0.2), 0)
    with pytest.raises(KeyError, match="not covered"):
        clue_spread(solve(Position.from_string("3x1x1\n.1.")), 1)


def test_spreads_of_a_revealed_board_are_those_of_the_board_solved_afresh():
    # a look-ahead's analysis keeps its chains for the next reveal; the closed form reads them
    from cspmines import Engine

    checked = 0
    for position, analysis in solved_with_total(150, 11, max_covered=12):
        for cell in position.covered_cells[:2]:
            low, high = _State.of(analysis).clue_range(cell)
            for clue in range(low, high + 1):
                try:
                    after = solve_revealed(analysis, cell, clue)
                except InconsistentPositionError:
                    continue
                fresh = Engine().solve(after.position)  # an engine of its own: nothing kept from the reveal
                expected = clue_spreads(fresh, after.position.covered_cells)
                assert clue_spreads(after, after.position.covered_cells) == expected
                checked += 1
    assert checked > 100


def test_a_time_limit_stops_the_reveals_and_names_the_cell():
    from cspmines.errors import BudgetExceededError

    analysis = solve(Position.from_string("5x2x2\n1....\n1...."))
    gone = Limit(time=1e-9)  # spent before the first reveal
    assert set(clue_spreads(analysis, [3, 4], limit=gone)) == {3, 4}  # the closed form counts nothing
    with pytest.raises(BudgetExceededError, match=r"the clues of \(0,1\)"):
        clue_spreads(analysis, [3, 1], limit=gone)


def test_with_nothing_kept_every_cell_is_revealed_to_the_same_answer():
    # a solve that kept no chains (here: nothing settled) gives no closed form; the reveals agree
    checked = 0
    for position, analysis in solved_with_total(120, 13, max_covered=10):
        bare = solve(position, settle=False)
        assert off_front_spreads(bare, position.covered_cells) == {}
        assert clue_spreads(bare, position.covered_cells) == clue_spreads(analysis, position.covered_cells)
        checked += 1
    assert checked > 40


# -- a cell argument: a flat index or a (row, col) pair, everywhere -------------------------------------------

def _cell_takers():
    """Each public function taking a cell, as ``name -> f(cell)`` on one board: 3x2 with one mine, (0,2) covered
    and beside the 1 at (0,1)."""
    from cspmines import Engine, clue_spread, insight_of
    from cspmines.games import Board

    engine = Engine()
    analysis = engine.solve(Position.from_string("3x2x1\n.1.\n..."))
    endgame = insight_of(analysis).endgame
    board = Board([[False, False, True], [False, False, False]])
    position = analysis.position
    return {
        "Analysis.probability": analysis.probability,
        "cspmines.clue_spread": lambda cell: clue_spread(analysis, cell),
        "clue_spreads": lambda cell: list(clue_spreads(analysis, [cell]).values()),
        "Engine.spread": lambda cell: engine.spread(analysis, cell),
        "Engine.after": lambda cell: engine.after(analysis, cell, 1).probabilities(exact=True).tolist(),
        "solve_revealed": lambda cell: solve_revealed(analysis, cell, 1).probabilities(exact=True).tolist(),
        "PositionValue.value": endgame.value,
        "Position.row_col": position.row_col,
        "Position.neighbours": position.neighbours,
        "Position.code": position.code,
        "Board.is_mine": board.is_mine,
        "Board.clue": board.clue,
    }


@pytest.mark.parametrize("name", sorted(_cell_takers()))
def test_every_public_function_taking_a_cell_reads_a_flat_index_or_a_row_col_pair_alike(name):
    import numpy as np

    taker = _cell_takers()[name]
    answers = [taker(cell) for cell in (2, (0, 2), [0, 2], np.int64(2), (np.int64(0), np.int64(2)))]
    assert all(answer == answers[0] for answer in answers), answers
    assert taker(5) == taker((1, 2))  # (row, col): (2, 1) is off this board of two rows, refused below


@pytest.mark.parametrize("name", sorted(_cell_takers()))
@pytest.mark.parametrize("cell, words", [
    (6, r"cell 6 is outside the 3x2 board \(cells 0 to 5\)"),
    (-1, r"cell -1 is outside the 3x2 board \(cells 0 to 5\)"),
    ((2, 0), r"\(2, 0\) is outside the 3x2 board \(rows 0 to 1, columns 0 to 2\)"),
    ((0, 3), r"\(0, 3\) is outside the 3x2 board"),
    ((-1, 0), r"\(-1, 0\) is outside the 3x2 board"),
    ((0, -1), r"\(0, -1\) is outside the 3x2 board"),
])
def test_a_cell_off_the_board_is_refused_in_one_line_wherever_it_is_taken(name, cell, words):
    from cspmines.errors import CellError

    with pytest.raises(IndexError, match=words) as raised:
        _cell_takers()[name](cell)
    assert isinstance(raised.value, CellError) and "\n" not in str(raised.value)


@pytest.mark.parametrize("name", sorted(_cell_takers()))
@pytest.mark.parametrize("cell", [True, False, 2.0, "2", None, (0,), (0, 1, 2), (True, 1), (0, 2.0), ("0", "2"), {0: 2}])
def test_what_is_not_a_cell_is_refused_as_such_wherever_a_cell_is_taken(name, cell):
    from cspmines.errors import CellError

    with pytest.raises(TypeError, match=r"a cell is a flat index or a \(row, col\) pair of whole numbers, got") as raised:
        _cell_takers()[name](cell)
    assert isinstance(raised.value, CellError)
