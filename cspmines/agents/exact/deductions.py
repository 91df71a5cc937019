"""Single-clue deductions kept up to date between moves.

Between two full solves the exact agent opens the cells it has proved, and
each opening shows new clues. Most moves then need no engine: the rule of
:mod:`cspmines.engine.singleclue` (a clue whose covered neighbours must hold
no more mines makes them safe, one whose covered neighbours must all be mines
makes them mines) proves them. :class:`SingleClueWatch` reads only the clues
next to what changed since its last call (a move changes a few cells of
hundreds), and gives the same answer for everything that is new as
:func:`~cspmines.engine.singleclue.single_clue_deductions`, which reads every
clue at once.

>>> from cspmines import Position
>>> watch = SingleClueWatch()
>>> watch(Position.from_string("3x2x1\\n1..\\n1.."), set())   # nothing proved yet
(set(), set())
>>> watch(Position.from_string("3x2x1\\n1..\\n11."), set())   # (1, 1) opened: the corner 1 has one covered neighbour left
(set(), {1})
"""

from __future__ import annotations

import numpy as np

from ... import native
from ...engine.singleclue import contradicted, single_clue, single_clue_deductions
from ...position import COVERED, FLAG, MINE, Position

__all__ = ["SingleClueWatch"]


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
            self._contradicted = not (safe or mines) and contradicted(position, known_mines)
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
            proved = single_clue(need, covered)
            if proved is None:  # the flags contradict it: nothing is proved (as the full pass says)
                self._contradicted = True
                return set(), set()
            safe.update(proved[0])
            mines.update(proved[1])
        return safe, mines

