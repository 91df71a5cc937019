"""Single-clue deductions: the cells one clue alone proves, kept up to date between moves.

Between two full solves the exact agent opens the cells it has proved, and
each opening shows new clues. Most moves then need no engine: a clue whose
covered neighbours must hold no more mines makes them safe, and one whose
covered neighbours must all be mines makes them mines.
:func:`single_clue_deductions` reads every clue of a position at once;
:class:`SingleClueWatch` reads only the clues next to what changed since its
last call (a move changes a few cells of hundreds), and gives the same
answer for everything that is new.

>>> from cspmines import Position
>>> single_clue_deductions(Position.from_string("3x1x1\\n01."), set())
(set(), {2})
>>> watch = SingleClueWatch()
>>> watch(Position.from_string("3x2x1\\n1..\\n1.."), set())   # nothing proved yet
(set(), set())
>>> watch(Position.from_string("3x2x1\\n1..\\n11."), set())   # (1, 1) opened: the corner 1 has one covered neighbour left
(set(), {1})
"""

from __future__ import annotations

import numpy as np

from ... import native
from ...engine.constraints import neighbour_sum
from ...position import COVERED, FLAG, MINE, Position

__all__ = ["SingleClueWatch", "single_clue_deductions"]


def single_clue_deductions(position: Position, known_mines: set) -> tuple[set, set]:
    """(safe, mines) that single clues prove, counting ``known_mines`` as flags.

    A clue whose covered neighbours must hold no more mines makes them safe;
    one whose covered neighbours must all be mines makes them mines. (The
    engine's :func:`~cspmines.engine.constraints.settle_forced` repeats this to a
    fixed point; one pass is what a move needs before the full solve.) A clue
    that the flags contradict gives nothing at all: the full solve reports it.

    >>> single_clue_deductions(Position.from_string("3x2x1\\n1..\\n1.."), set())
    (set(), set())
    >>> single_clue_deductions(Position.from_string("3x1x1\\n01."), set())
    (set(), {2})
    """
    grid = position.grid
    if known_mines:
        grid = grid.copy()
        grid.flat[list(known_mines)] = FLAG
    # the rules' cells and needs, for every clue at once (no rule objects: this runs every few moves)
    covered = grid == COVERED
    covered_around, known_around = neighbour_sum(np.stack((covered, (grid == FLAG) | (grid == MINE))))
    clue = grid >= 0
    need = np.where(clue, grid - known_around, 0)
    if (clue & ((need < 0) | (need > covered_around))).any():
        return set(), set()  # only a wrong flag of the caller's: the full solve reports it
    front = clue & (covered_around > 0)
    emptied, filled = neighbour_sum(np.stack((front & (need == 0), front & (need == covered_around))))
    safe = set(np.flatnonzero(covered & (emptied > 0)).tolist())
    mines = set(np.flatnonzero(covered & (filled > 0)).tolist())
    return safe, mines


class SingleClueWatch:
    """:func:`single_clue_deductions` for a game seen move after move, reading only the clues
    next to a cell that changed (or became a known mine) since the last call.

    What it returns is what the full pass proves from those clues; what the
    other clues prove was returned before and is still true, so a caller
    that keeps every answer (as the agent keeps its proved cells) knows all
    the full pass knows. A cell covered again (an undo) is a change like any
    other: the clues around it are read again. The full pass runs instead on
    the first call, on a new board, when known mines were forgotten, and
    while some clue contradicts the flags (then nothing is proved, as the
    full pass says).

    >>> watch = SingleClueWatch()
    >>> watch(Position.from_string("3x1x1\\n0.."), set())   # the 0 proves its neighbour safe
    ({1}, set())
    >>> watch(Position.from_string("3x1x1\\n01."), set())   # that neighbour shows 1: the last cell is the mine
    (set(), {2})
    """

    def __init__(self) -> None:
        self._grid: np.ndarray | None = None  # the grid of the last call
        self._mines: frozenset = frozenset()  # the known mines of the last call
        self._contradicted = False  # a clue contradicted the flags last time: read them all again

    def __call__(self, position: Position, known_mines: set) -> tuple[set, set]:
        grid = position.grid
        last, last_mines = self._grid, self._mines
        changed = None
        if last is not None and last.shape == grid.shape and not self._contradicted and last_mines <= known_mines:
            changed = np.flatnonzero(grid != last).tolist()  # flat indices: the cells that changed
        self._grid, self._mines = grid.copy(), frozenset(known_mines)
        if changed is None:
            safe, mines = single_clue_deductions(position, known_mines)
            self._contradicted = not (safe or mines) and _contradicted(position, known_mines)
            return safe, mines
        changed.extend(known_mines - last_mines)  # a new known mine lowers its clues' needs
        compiled = native.kernel("single_clues")
        if compiled is not None:  # the same clues read in C: the same cells
            found = compiled(grid, position.width, position.height, changed, known_mines)
            if found is None:
                self._contradicted = True
                return set(), set()
            return found
        return self._read_around(position, grid.ravel().tolist(), changed, known_mines)

    def _read_around(self, position: Position, view: list, changed: list, known_mines: set) -> tuple[set, set]:
        table = position.neighbours
        clues = set()
        for cell in changed:
            if view[cell] >= 0:
                clues.add(cell)
            clues.update(n for n in table(cell) if view[n] >= 0)
        safe: set = set()
        mines: set = set()
        for clue in clues:
            covered = []
            need = view[clue]
            for n in table(clue):
                state = view[n]
                if state in (FLAG, MINE) or (state == COVERED and n in known_mines):
                    need -= 1
                elif state == COVERED:
                    covered.append(n)
            if need < 0 or need > len(covered):  # the flags contradict it: nothing is proved (as the full pass says)
                self._contradicted = True
                return set(), set()
            if covered and need == 0:
                safe.update(covered)
            elif covered and need == len(covered):
                mines.update(covered)
        return safe, mines


def _contradicted(position: Position, known_mines: set) -> bool:
    """Whether some clue needs fewer mines than its flags (and ``known_mines``) hold, or more than it has room for."""
    grid = position.grid
    if known_mines:
        grid = grid.copy()
        grid.flat[list(known_mines)] = FLAG
    covered_around, known_around = neighbour_sum(np.stack((grid == COVERED, (grid == FLAG) | (grid == MINE))))
    need = grid - known_around
    return bool(((grid >= 0) & ((need < 0) | (need > covered_around))).any())
