"""Local deductions on a board being played: the cells that one clue, two clues or the mine total prove.

A no-guess check (:mod:`cspmines.games.certificate`) plays a board from its first click,
opening every cell that reasoning proves safe, and asks the exact engine only when
local reasoning is spent. Most cells of a board are proved by three rules that look
at one or two clues at a time; :func:`settle_board` applies them, opening what they
prove safe (an opened zero opens its neighbours, as in a game) and marking what they
prove a mine, until none applies:

* **one clue**: a clue whose known mines already make its number leaves its other
  covered neighbours safe; one whose covered neighbours are exactly the mines it
  still needs makes them all mines.
* **two clues**: for clues ``a`` and ``b`` within two cells of each other, with
  ``A`` and ``B`` their covered neighbours not known to be mines and ``I`` the cells
  both see, ``I`` holds at least ``need(a) - |A - I|`` mines and at most
  ``need(b)``; where those meet, ``B - I`` is safe and ``A - I`` all mines (the
  subset rule is the case ``A - I`` empty).
* **the total**: when the known mines make the total, every covered cell is
  safe; when the covered cells are exactly the mines left, they are all mines.

Every rule is sound, so each cell opened is truly safe and each mark truly a mine;
the board (its clues) is read only to show what an opened cell says. The compiled
kernel (:mod:`cspmines.native`) runs the same steps in the same order; this module is
the reference and what runs without it.

>>> from cspmines.games import Board
>>> board = Board([[False, False, False, False], [False, False, False, True]])
>>> clues, view = board_clues(board), covered_view(board)
>>> settle_board(clues, view, 4, 2, 1, start=0)   # the 0 at (0,0) opens, and stops at two 1s
(6, 0)
>>> bytes(view).hex()   # ff: (0,3) and (1,3) still covered, one mine between them: a guess
'000001ff000001ff'
>>> board = Board([[False, False, False], [False, False, False], [False, False, True]])
>>> clues, view = board_clues(board), covered_view(board)
>>> settle_board(clues, view, 3, 3, 1, start=0), bytes(view).hex()   # the last cell is the mine: marked (fe)
((8, 1), '0000000001010001fe')
"""

from __future__ import annotations

import functools

import numpy as np

from .. import native
from ..engine.singleclue import single_clue
from ..errors import CspminesError
from ..neighbours import neighbour_sum, neighbour_table
from ..position import COVERED, FLAG

__all__ = ["MINE_CLUE", "VIEW_COVERED", "VIEW_FLAG", "board_clues", "covered_view", "layout_clues", "settle_board", "DeductionError"]

#: What :func:`layout_clues` writes for a mine: no clue is ever 9.
MINE_CLUE = 9

#: A covered cell and a known mine as the bytes of a view hold them (the position's codes, unsigned).
VIEW_COVERED, VIEW_FLAG = COVERED & 0xFF, FLAG & 0xFF


class DeductionError(CspminesError, RuntimeError):
    """A rule opened a mine: the view does not belong to the board (it never happens to a view of it)."""


def layout_clues(mines: np.ndarray) -> bytes:
    """The clues of a ``(height, width)`` mine layout, flat, :data:`MINE_CLUE` on a mine: what
    :func:`settle_board` reads.

    >>> layout_clues(np.array([[True, False, False]])).hex()
    '090100'
    """
    clues = neighbour_sum(mines).ravel()
    clues[mines.ravel()] = MINE_CLUE
    return clues.astype(np.uint8).tobytes()


def board_clues(board) -> bytes:
    """Each cell's clue of ``board``, flat, :data:`MINE_CLUE` for a mine (:func:`layout_clues` of its mines)."""
    return layout_clues(board.mines)


def covered_view(board) -> bytearray:
    """A view of ``board`` with every cell covered: one signed byte a cell, the position's codes."""
    return bytearray([VIEW_COVERED]) * board.size


def settle_board(clues: bytes, view: bytearray, width: int, height: int, mines: int, *, start: int = -1) -> tuple[int, int]:
    """Open every cell the three rules prove safe and mark every cell they prove a mine, in ``view``.

    Parameters
    ----------
    clues : bytes
        The board's clues, flat (:func:`board_clues`).
    view : bytearray
        What the player sees, one signed byte a cell: -1 covered, -2 a known mine, 0-8 an opened
        cell's clue; changed in place.
    width, height, mines : int
        The board and its mine total.
    start : int, keyword-only
        A cell to open first (the first click), or -1.

    Returns
    -------
    (opened, marked) : tuple of int
        The cells opened and the mines marked.

    Raises
    ------
    DeductionError
        A rule would open a mine (the view is not one of this board's).
    """
    compiled = native.kernel("settle_board")
    if compiled is not None:
        try:
            return compiled(clues, view, width, height, mines, start)
        except ValueError as error:
            raise DeductionError(str(error)) from None
    return _Settler(clues, view, width, height, mines).run(start)


@functools.lru_cache(maxsize=16)
def _partners(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each cell, the cells within two rows and two columns of it (itself left out), row by row."""
    table = []
    for row in range(height):
        for col in range(width):
            table.append(tuple(r * width + c for r in range(max(0, row - 2), min(height, row + 3))
                               for c in range(max(0, col - 2), min(width, col + 3)) if (r, c) != (row, col)))
    return tuple(table)




class _Settler:
    """:func:`settle_board` step by step: two stacks of clues to look at again (one rule, two rules), each
    clue pushed when a cell around it changes; the one-clue stack is emptied before each two-clue step."""

    def __init__(self, clues: bytes, view: bytearray, width: int, height: int, mines: int):
        self.clues, self.view, self.mines = clues, view, mines
        self.neighbours = neighbour_table(width, height)
        self.partners = _partners(width, height)
        size = width * height
        self.single: list[int] = []
        self.pair: list[int] = []
        self.in_single = bytearray(size)
        self.in_pair = bytearray(size)
        self.covered = sum(1 for code in view if code == VIEW_COVERED)
        self.marked_total = sum(1 for code in view if code == VIEW_FLAG)
        self.opened = self.marked = 0
        for cell in range(size):
            if view[cell] <= 8:
                self._push(cell)

    def _push(self, cell: int) -> None:
        if not self.in_single[cell]:
            self.in_single[cell] = 1
            self.single.append(cell)
        if not self.in_pair[cell]:
            self.in_pair[cell] = 1
            self.pair.append(cell)

    def _touched(self, cell: int) -> None:
        """A cell changed: the clues around it (and it, when opened) are looked at again."""
        view = self.view
        if view[cell] <= 8:
            self._push(cell)
        for other in self.neighbours[cell]:
            if view[other] <= 8:
                self._push(other)

    def _open(self, cell: int) -> None:
        view, clues = self.view, self.clues
        stack = [cell]
        while stack:
            current = stack.pop()
            if view[current] != VIEW_COVERED:
                continue
            clue = clues[current]
            if clue > 8:
                raise DeductionError(f"cell {current} was proved safe but is a mine: the view is not this board's")
            view[current] = clue
            self.opened += 1
            self.covered -= 1
            self._touched(current)
            if clue == 0:
                stack.extend(other for other in self.neighbours[current] if view[other] == VIEW_COVERED)

    def _mark(self, cell: int) -> None:
        if self.clues[cell] <= 8:
            raise DeductionError(f"cell {cell} was proved a mine but is safe: the view is not this board's")
        self.view[cell] = VIEW_FLAG
        self.marked += 1
        self.marked_total += 1
        self.covered -= 1
        self._touched(cell)

    def _unknown(self, cell: int) -> tuple[list, int]:
        """The covered neighbours of clue ``cell`` and the mines it still needs among them."""
        view = self.view
        covered, known = [], 0
        for other in self.neighbours[cell]:
            code = view[other]
            if code == VIEW_COVERED:
                covered.append(other)
            elif code == VIEW_FLAG:
                known += 1
        return covered, view[cell] - known

    def _one_clue(self, cell: int) -> None:
        covered, need = self._unknown(cell)
        proved = single_clue(need, covered) if covered else None
        if proved is None:
            return
        safe, mines = proved
        for other in safe:
            self._open(other)
        for other in mines:
            if self.view[other] == VIEW_COVERED:
                self._mark(other)

    def _two_clues(self, cell: int) -> None:
        mine, need = self._unknown(cell)
        if not mine:
            return
        view = self.view
        for partner in self.partners[cell]:
            if view[partner] > 8:
                continue
            theirs, their_need = self._unknown(partner)
            shared = [c for c in mine if c in theirs]
            if not shared:
                continue
            if need - (len(mine) - len(shared)) == their_need:
                safe, full = [c for c in theirs if c not in shared], [c for c in mine if c not in shared]
            elif their_need - (len(theirs) - len(shared)) == need:
                safe, full = [c for c in mine if c not in shared], [c for c in theirs if c not in shared]
            else:
                continue
            if safe or full:
                for other in full:
                    if view[other] == VIEW_COVERED:
                        self._mark(other)
                for other in safe:
                    self._open(other)
                return  # the cells around this clue changed: it is looked at again from the stack

    def _total(self) -> bool:
        """The mine total's rule; True when it settled something."""
        left = self.mines - self.marked_total
        if not self.covered or (left and left != self.covered):
            return False
        for cell in range(len(self.view)):
            if self.view[cell] == VIEW_COVERED:
                self._mark(cell) if left else self._open(cell)
        return True

    def run(self, start: int) -> tuple[int, int]:
        if start >= 0:
            self._open(start)
        while True:
            while self.single:
                cell = self.single.pop()
                self.in_single[cell] = 0
                self._one_clue(cell)
            if self.pair:
                cell = self.pair.pop()
                self.in_pair[cell] = 0
                self._two_clues(cell)
                continue
            if not self._total():
                return self.opened, self.marked
