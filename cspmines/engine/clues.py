"""What a covered cell will show when opened: the exact distribution of its clue.

Opening a cell ends in one of ten ways: it is a mine, or it is safe and
shows a clue from 0 to 8. :func:`clue_spread` counts the layouts of each,
exactly, as integers over the position's model count (so they sum to it).
The clue of a cell is the number of mines around it: the mines already known
there (flags, opened mines, cells every layout mines), plus those among its
undecided neighbours.

Where the cell and all its undecided neighbours lie off the front (no clue
touches them), the count has a closed form: with the front's layouts ``F[j]``
holding ``j`` mines, ``R`` cells off the front and ``M`` mines left, the
cell safe and ``i`` of its ``a`` undecided neighbours mines are

    sum_j F[j] * C(a, i) * C(R - 1 - a, M - j - i)

layouts (``R - a`` when the cell itself was settled safe): no counting at
all, and cells with the same ``a`` share it. Anywhere else each clue is
revealed in thought (:func:`~cspmines.engine.reveal.layouts_revealed`, which
counts only the chains the clue touches, and only the layouts).

>>> from cspmines import Position, solve
>>> analysis = solve(Position.from_string("3x1x1\\n..."))   # one mine in three cells
>>> spread = clue_spread(analysis, 0)
>>> spread.mine, spread.clues[:2], spread.total   # the corner is the mine once; safe, it sees it once
(1, (1, 1), 3)
>>> spread.probabilities()[:3]
(Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from ..errors import BudgetExceededError, MissingTotalError
from ..neighbours import neighbour_sum
from ..position import COVERED, FLAG, MINE
from .budget import Budget, Limit, read_limit
from .combine import convolve
from .reveal import layouts_revealed

__all__ = ["ClueSpread", "clue_spread", "clue_spreads", "covered_cells", "off_front_spreads"]

#: The most mines a clue can see.
MAX_CLUE = 8


@dataclass(frozen=True)
class ClueSpread:
    """How opening ``cell`` ends, in layouts of the position: ``mine`` of them with the cell a mine,
    ``clues[k]`` with it safe showing ``k`` (k from 0 to 8); they sum to ``total``, the model count."""

    cell: int
    mine: int
    clues: tuple
    total: int

    def probabilities(self) -> tuple:
        """(a mine, then clue 0 to 8) as Fractions: what opening the cell ends in."""
        return tuple(Fraction(w, self.total) for w in (self.mine, *self.clues))

    def floats(self) -> list:
        """The same as floats, each correctly rounded (an integer division)."""
        return [w / self.total for w in (self.mine, *self.clues)]


def clue_spread(analysis, cell, *, limit: Limit | None = None) -> ClueSpread:
    """The exact distribution of what opening covered ``cell`` (a flat index or a ``(row, col)`` pair) of
    ``analysis`` shows (a :class:`ClueSpread`), counted by the engine that solved it, within the ``limit``'s
    time as :func:`clue_spreads`.

    Raises
    ------
    MissingTotalError
        The analysis has no mine total (a density weighs layouts; it has no count to share).
    KeyError
        The cell is not covered.
    CellError
        The cell is off the board, or not a cell (:func:`cspmines.position.cell_index`).

    Examples
    --------
    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
    >>> spread = clue_spread(analysis, 1)   # beside both 1s: a mine half the time, else 5 is
    >>> spread.mine, spread.clues[1:3], spread.total   # then the rest's one mine is beside it half the time
    (4, (2, 2), 8)
    """
    flat = analysis.position.index(cell)
    return clue_spreads(analysis, [flat], limit=limit)[flat]


def covered_cells(position, pairs) -> list[int]:
    """The flat cells of ``(row, col)`` pairs whose outcomes are asked, each checked to lie on the board
    and be covered (``ValueError`` naming the pair; the front ends put their option's name before it).

    >>> from cspmines import Position
    >>> covered_cells(Position.from_string("3x1x1\\n.1."), [(0, 2)])
    [2]
    >>> covered_cells(Position.from_string("3x1x1\\n.1."), [(0, 1)])
    Traceback (most recent call last):
    ...
    ValueError: 0,1: the cell is not covered
    >>> covered_cells(Position.from_string("3x1x1\\n.1."), [(1, 0)])
    Traceback (most recent call last):
    ...
    ValueError: 1,0: outside the 3x1 board (rows 0 to 0, columns 0 to 2)
    """
    cells = []
    for row, col in pairs:
        if not (0 <= row < position.height and 0 <= col < position.width):
            raise ValueError(f"{row},{col}: outside the {position.width}x{position.height} board "
                             f"(rows 0 to {position.height - 1}, columns 0 to {position.width - 1})")
        if position.grid[row, col] != COVERED:
            raise ValueError(f"{row},{col}: the cell is not covered")
        cells.append(position.cell(row, col))
    return cells


def clue_spreads(analysis, cells, *, limit: Limit | None = None) -> dict:
    """:func:`clue_spread` of each of ``cells`` (flat indices or ``(row, col)`` pairs), by flat cell: the
    closed form where it holds, the other cells' clues revealed and counted (what the position is read for
    is read once).

    A reveal counts the chains its clue touches as a solve does; the ``limit``'s time, checked
    before each, stops a long run (a cell on a wide front takes up to nine counts of its chain)
    with :class:`~cspmines.errors.BudgetExceededError` naming the cell (its other fields are not
    used).

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("3x1x1\\n..."))
    >>> [spread.clues[:2] for spread in clue_spreads(analysis, [0, 1]).values()]   # the middle sees the mine whenever it is safe
    [(1, 1), (0, 2)]
    """
    budget = read_limit(limit).start()
    cells = [analysis.position.index(cell) for cell in cells]  # each checked before any work
    state = _State.of(analysis)
    spreads = {}
    for cell in cells:
        analysis.probability(cell)  # a KeyError naming the cell when it is not covered
        spreads[cell] = state.closed_form(cell) or state.revealed(cell, budget)
    return spreads


def off_front_spreads(analysis, cells) -> dict:
    """:func:`clue_spread` of each of ``cells`` that it gives in closed form (the cell and its
    undecided neighbours off the front, or the cell certain), by cell; the others are left out.

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("5x2x2\\n1....\\n1...."))
    >>> sorted(off_front_spreads(analysis, [1, 2, 3, 4]))   # 1 is the 1s'; 2 borders them
    [3, 4]
    """
    state = _State.of(analysis)
    spreads = {}
    for cell in cells:
        spread = state.closed_form(cell)
        if spread is not None:
            spreads[cell] = spread
    return spreads


class _State:
    """What the closed form reads from a solve, gathered once per analysis: for every cell at
    once, the mines known around it, its undecided neighbours, and whether any is on the front."""

    def __init__(self, analysis, kept):
        if analysis.model_count is None or analysis.mines is None:
            raise MissingTotalError("a clue's distribution needs the mine total and an exact count (a density or a budget gives none)")
        self.analysis = analysis
        self.position = position = analysis.position
        self.total = analysis.model_count
        self.shared: dict = {}  # (undecided neighbours, cell off the front) -> clue counts
        # none kept (a budget that ran out, cut chains): nothing settled, no cell known off the front,
        # so no closed form: every cell by revealing
        self.safe = kept.settled.safe_cells if kept else frozenset()
        self.mines = kept.settled.mine_cells if kept else frozenset()
        rest = kept.rest if kept else ()
        self.rest_size, self.mines_left = len(rest), (kept.mines_left if kept else 0)
        flat = position.grid.ravel()
        known = (flat == FLAG) | (flat == MINE)
        known[list(self.mines)] = True
        undecided = flat == COVERED
        undecided[list(self.mines | self.safe)] = False
        in_rest = np.zeros(position.size, dtype=bool)
        in_rest[list(rest)] = True
        shape = (position.height, position.width)
        self.known_around = neighbour_sum(known.reshape(shape)).ravel().tolist()
        self.undecided_around = neighbour_sum(undecided.reshape(shape)).ravel().tolist()
        by_front = neighbour_sum((undecided & ~in_rest).reshape(shape)).ravel() > 0
        # a cell whose clue the closed form gives: itself off the front or settled safe, no undecided neighbour on it
        self.closed = ((in_rest | (flat == COVERED) & ~undecided) & ~by_front).tolist()
        self.in_rest = in_rest.tolist()
        front = [1]
        for count in kept.counts if kept else ():
            front = convolve(front, count.models)
        self.front = front

    @classmethod
    def of(cls, analysis):
        return cls(analysis, analysis.engine.cache.kept.get(analysis))  # what its engine kept

    def clue_range(self, cell: int) -> tuple[int, int]:
        """The fewest and most mines ``cell`` can see."""
        known = self.known_around[cell]
        return known, known + self.undecided_around[cell]

    def closed_form(self, cell: int) -> ClueSpread | None:
        """The cell's spread without counting, or None where a clue could join chains."""
        if cell in self.mines:
            return ClueSpread(cell, self.total, (0,) * (MAX_CLUE + 1), self.total)
        if not self.closed[cell]:
            return None
        inside = self.in_rest[cell]
        key = (self.undecided_around[cell], inside)
        counts = self.shared.get(key)
        if counts is None:
            counts = self.shared[key] = self._counts(*key)
        known = self.known_around[cell]
        clues = [0] * (MAX_CLUE + 1)
        clues[known : known + len(counts)] = counts
        return ClueSpread(cell, self.total - sum(counts) if inside else 0, tuple(clues), self.total)

    def revealed(self, cell: int, budget: Budget | None = None) -> ClueSpread:
        """The cell's spread by revealing each clue it can show and counting its layouts (within ``budget``'s
        time, checked before each)."""
        analysis = self.analysis
        clues = [0] * (MAX_CLUE + 1)
        low, high = self.clue_range(cell)
        for clue in range(low, high + 1):
            if budget is not None and budget.expired():
                row, col = self.position.row_col(cell)
                raise BudgetExceededError(f"the time limit ran out while counting the clues of ({row},{col})")
            clues[clue] = layouts_revealed(analysis, cell, clue)
        mine = analysis.probability(cell) * self.total  # a whole number: the layouts with the cell a mine
        return ClueSpread(cell, int(mine), tuple(clues), self.total)

    def _counts(self, size: int, inside: bool) -> list:
        """Layouts with the cell safe and ``i`` mines among ``size`` undecided neighbours off the front, for each i."""
        others = self.rest_size - size - inside  # off the front, neither the cell nor beside it
        left = self.mines_left
        return [
            comb(size, i) * sum(f * comb(others, left - j - i) for j, f in enumerate(self.front) if f and 0 <= left - j - i <= others)
            for i in range(size + 1)
        ]
