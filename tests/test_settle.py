"""settle_position, worked on the grid, against settle_forced over the rules: the same answer, errors included."""

from __future__ import annotations

import numpy as np
import pytest

from cspmines import Position
from cspmines.engine.constraints import ConstraintSystem, settle_forced, settle_position
from cspmines.errors import InconsistentPositionError

from randompositions import random_position


def outcome(settle, *args):
    try:
        return settle(*args)
    except InconsistentPositionError as error:
        return ("error", str(error))


@pytest.mark.parametrize("corrupt", [False, True])
def test_the_grid_settles_as_the_rules_do(corrupt):
    rng = np.random.default_rng(41 if corrupt else 40)
    settled_some = unchanged = errors = 0
    for _ in range(1500):
        position = random_position(rng, max_covered=int(rng.integers(3, 30)), corrupt=corrupt)
        mines = None if rng.random() < 0.7 else int(rng.integers(0, 12))
        if position.mines is None and mines is None and rng.random() < 0.5:
            mines = int(rng.integers(0, 8))
        expected = outcome(lambda position=position, mines=mines: settle_forced(ConstraintSystem.from_position(position, mines=mines)))
        found = outcome(lambda position=position, mines=mines: settle_position(position, mines=mines))
        assert found == expected, (position, mines)
        if isinstance(expected, tuple):
            errors += 1
        elif expected.safe_cells or expected.mine_cells:
            settled_some += 1
        else:
            unchanged += 1
    assert min(settled_some, unchanged) > 100 and errors > (100 if corrupt else 10)  # every way was taken


def test_a_round_that_contradicts_itself_leaves_the_system_as_it_is():
    position = Position.from_string("3x2\n1.0\n...")  # the 0 clears (0,1), which the 1 then needs... elsewhere
    assert settle_position(position) == settle_forced(ConstraintSystem.from_position(position))
    clash = Position.from_string("3x1x1\n0.1")  # the 0 says (0,1) is safe, the 1 that it is a mine
    assert settle_position(clash).system.rules == ConstraintSystem.from_position(clash).rules
    assert not settle_position(clash).safe_cells


def test_the_reference_positions_settle_alike():
    from pathlib import Path

    for path in sorted((Path(__file__).parent / "data").glob("*.txt")):
        position = Position.from_file(path)
        assert outcome(settle_position, position) == outcome(lambda p: settle_forced(ConstraintSystem.from_position(p)), position), path.name


def test_the_single_clue_rule_at_its_edges():
    """One rule for every single-clue deduction: none needed makes the covered cells safe, as many as there
    are makes them mines, fewer than none or more than there are is a contradiction, and anything between
    proves nothing."""
    from cspmines.engine.singleclue import single_clue

    cells = (3, 7, 9)
    assert single_clue(0, cells) == (cells, ())
    assert single_clue(3, cells) == ((), cells)
    assert single_clue(1, cells) == single_clue(2, cells) == ((), ())
    assert single_clue(-1, cells) is None and single_clue(4, cells) is None
    assert single_clue(0, ()) == ((), ())  # no covered neighbour: nothing to prove, nothing contradicted
