"""What one clue proves alone: the rule every single-clue deduction of the package applies.

A clue needs some more mines among its covered neighbours (its number less the known mines around
it). When it needs none, they are all safe; when it needs as many as there are, they are all mines;
when it needs fewer than none or more than there are, the position contradicts it.
:func:`single_clue` is that rule for one clue, as the engine's settling rounds, the exact agent's
watch over the clues a move changed and a game's own deduction apply it; :func:`clue_needs` and
:func:`single_clue_deductions` apply it to every clue of a board at once.

>>> single_clue(0, (4, 5)), single_clue(2, (4, 5)), single_clue(1, (4, 5)), single_clue(3, (4, 5))
(((4, 5), ()), ((), (4, 5)), ((), ()), None)
>>> from cspmines import Position
>>> single_clue_deductions(Position.from_string("3x1x1\\n01."), set())
(set(), {2})
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ..neighbours import neighbour_sum
from ..position import COVERED, FLAG, MINE, Position

__all__ = ["clue_needs", "contradicted", "single_clue", "single_clue_deductions"]


def single_clue(need: int, covered: Sequence) -> tuple[Sequence, Sequence] | None:
    """(the safe cells, the mines) a clue proves of its ``covered`` neighbours, among which it needs
    ``need`` more mines; None where it cannot hold that many (a contradiction)."""
    if need < 0 or need > len(covered):
        return None
    if need == 0:
        return covered, ()
    if need == len(covered):
        return (), covered
    return (), ()


def clue_needs(grid: np.ndarray, known_mines: Iterable[int] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Every cell's (mines its clue still needs, covered neighbours), ``known_mines`` counted as flags:
    two arrays of the grid's shape; the need is 0 off the clues and the covered neighbours exclude the
    known mines.

    >>> need, covered = clue_needs(Position.from_string("3x1x1\\n.1.").grid)
    >>> need.tolist(), covered.tolist()
    ([[0, 1, 0]], [[0, 2, 0]])
    """
    known_mines = list(known_mines)
    if known_mines:
        grid = grid.copy()
        grid.flat[known_mines] = FLAG
    covered_around, known_around = neighbour_sum(np.stack((grid == COVERED, (grid == FLAG) | (grid == MINE))))
    clue = grid >= 0
    return np.where(clue, grid - known_around, 0), covered_around


def single_clue_deductions(position: Position, known_mines: set) -> tuple[set, set]:
    """(safe, mines) that single clues prove, counting ``known_mines`` as flags: :func:`single_clue` over
    every clue at once. (The engine's settling repeats it to a fixed point; one pass is what a move
    needs before the full solve.) A clue that the flags contradict gives nothing at all: the full
    solve reports it.

    >>> single_clue_deductions(Position.from_string("3x2x1\\n1..\\n1.."), set())
    (set(), set())
    """
    need, covered_around = clue_needs(position.grid, known_mines)
    clue = position.grid >= 0
    if (clue & ((need < 0) | (need > covered_around))).any():
        return set(), set()  # only a wrong flag of the caller's: the full solve reports it
    covered = position.grid == COVERED
    if known_mines:
        covered.flat[list(known_mines)] = False
    front = clue & (covered_around > 0)
    emptied, filled = neighbour_sum(np.stack((front & (need == 0), front & (need == covered_around))))
    safe = set(np.flatnonzero(covered & (emptied > 0)).tolist())
    mines = set(np.flatnonzero(covered & (filled > 0)).tolist())
    return safe, mines


def contradicted(position: Position, known_mines: Iterable[int] = ()) -> bool:
    """Whether some clue needs fewer mines than its flags (and ``known_mines``) hold, or more than it has
    room for.

    >>> contradicted(Position.from_string("3x1x1\\n.1.")), contradicted(Position.from_string("3x1x1\\n.1."), {0, 2})
    (False, True)
    """
    need, covered_around = clue_needs(position.grid, known_mines)
    return bool(((position.grid >= 0) & ((need < 0) | (need > covered_around))).any())
