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
