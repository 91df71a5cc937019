"""The value of a position: how many of its layouts best play wins, exactly.

Under the classic rules with the mine total known, every layout the position allows is equally
likely; opening a safe cell shows its clue (a 0 opens its neighbourhood, as the game does), a
mine ends the game, and the game is won once every safe cell is open. The **value** of a
position is the number of its layouts that best play wins, out of all of them; a cell's value is
the same number when that cell is opened first and play is best after it. Both are whole
numbers, found by a search of the game tree over the layouts themselves
(:mod:`cspmines.engine.layouts` lists them):

* a state is the set of layouts still possible: which cells were opened to reach it does not
  matter, once what they showed is known. A cell that is a mine in none of them and whose clue
  still varies is opened first, for free (it risks nothing, and what it tells can only help: a 0's
  neighbourhood is such a cell too);
* the value of a state is the best, over the cells that are a mine in some of its layouts and not
  in others, of the sum of the values of the states its clues split the safe layouts into; one
  layout left is a won game;
* a transposition table keeps each state's value (or its bounds) under a 128-bit fingerprint of
  its layouts, taken the same under the board's symmetries where the position has any;
* moves are tried safest first, and a move is dropped once it cannot beat the best found: a move
  wins at most its safe layouts, and each clue's state at most its own layouts (a search with
  bounds, as alpha-beta's over the chance of each clue);
* where the cells still in doubt fall into groups that no clue joins and whose layouts combine
  freely (every layout of one group with every layout of another), the value is the product of
  the groups' own values;
* before the search, the game played safest cell first (its value worked out over every layout)
  gives a lower bound, the window the search starts from.

The search runs within a :class:`~cspmines.engine.budget.Limit` (time, work units, memory):
past it, the value is given as a proven lower and upper bound and marked NOT EXACT.

>>> from cspmines import Position
>>> found = value_of(Position.from_string("4x4x4\\n....\\n....\\n....\\n...."))
>>> found.wins, found.layouts, found.exact     # the empty 4x4 board with 4 mines
(961, 1820, True)
>>> [found.position.row_col(cell) for cell in found.best_cells]   # the cells beside the corners
[(0, 1), (0, 2), (1, 0), (1, 3), (2, 0), (2, 3), (3, 1), (3, 2)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .. import native
from ..position import Position
from .budget import Budget, Limit, read_limit
from .layouts import MINE, LayoutTable, layout_table
from .valuesearch import SearchInput, ValueCells, search_value

__all__ = ["CellValue", "PositionValue", "best_play_moves", "board_symmetries", "listing_cap", "run_search", "search_input",
           "value_of"]

#: Bytes each layout costs the search besides its row of codes: its two fingerprint words (16), its place in
#: the splits' sort space (two 16-byte entries while the root is split) and in the splits of every state on the
#: path being searched (a few levels of 4-byte indices).
_BYTES_PER_LAYOUT = 80

#: Of those, the two fingerprint words (held by the search for the whole of it, beside its working space).
_FINGERPRINT_BYTES = 16

#: Seconds the listing of one layout may take, with its symmetries, at most (measured: about 2 us): a time
#: limit lists no more layouts than it leaves time to list twice over.
_LISTING_SECONDS = 4e-6

#: Bytes of one transposition-table slot (two fingerprint words, the layouts' count, two bounds).
SLOT_BYTES = 32

#: The share of the memory allowance the transposition table may take.
_TABLE_SHARE = 0.5

#: The most slots a table is given whatever the allowance (2**24 slots: 512 MiB).
_MOST_SLOTS = 1 << 24


@dataclass(frozen=True)
class CellValue:
    """The layouts won when a cell is opened first and play is best after: at least ``low``, at most
    ``high`` (equal when exact), of ``layouts``."""

    low: int
    high: int
    layouts: int

    @property
    def exact(self) -> bool:
        return self.low == self.high

    @property
    def probability(self) -> Fraction | None:
        """The chance of winning, exactly; None when only bounds are known."""
        return Fraction(self.low, self.layouts) if self.exact else None

    @property
    def bounds(self) -> tuple[Fraction, Fraction]:
        """The chance of winning, at least and at most (equal when exact)."""
        return Fraction(self.low, self.layouts), Fraction(self.high, self.layouts)


@dataclass(frozen=True)
class PositionValue:
    """The value of a position under best play (:func:`value_of`).

    Attributes
    ----------
    position : Position
    layouts : int
        Every layout the position allows (0 when they were not listed: too many for the budget).
    wins, wins_high : int
        The layouts best play wins: at least ``wins``, at most ``wins_high`` (equal when exact).
    best_cells : tuple of int
        The cells to open for that value: every such cell when exact, else the best one found.
    cells : dict
        Each covered cell's :class:`CellValue`, where it was worked out.
    exact : bool
    stopped_by : str or None
        What stopped the search short: ``"time"``, ``"nodes"``, ``"memory"`` or ``"layouts"`` (too
        many to list within the memory allowance); None when it ran to the end.
    states : int
        The game-tree states the search worked out.
    seconds : float
    """

    position: Position
    layouts: int
    wins: int
    wins_high: int
    best_cells: tuple
    cells: dict = field(repr=False)
    exact: bool
    stopped_by: str | None = None
    states: int = 0
    seconds: float = 0.0

    @property
    def probability(self) -> Fraction | None:
        """The chance of winning with best play, exactly; None when only bounds are known."""
        return Fraction(self.wins, self.layouts) if self.exact and self.layouts else None

    @property
    def bounds(self) -> tuple[Fraction, Fraction]:
        """The chance of winning with best play, at least and at most (equal when exact)."""
        if not self.layouts:
            return Fraction(0), Fraction(1)
        return Fraction(self.wins, self.layouts), Fraction(self.wins_high, self.layouts)

    def value(self, cell) -> CellValue | None:
        """The :class:`CellValue` of a covered ``cell`` (a flat index or a ``(row, col)`` pair), None where it
        was not worked out (a cell not covered, or a search that listed no layout)."""
        return self.cells.get(self.position.index(cell))


def search_input(table: LayoutTable, **budget) -> SearchInput:
    """What the search reads of a table of layouts: its codes, each column's neighbours and the board's
    symmetries, under ``budget`` (:class:`SearchInput`'s other fields).

    >>> from cspmines import Position
    >>> from cspmines.engine.layouts import layout_table
    >>> given = search_input(layout_table(Position.from_string("3x3x1\\n...\\n...\\n...")), node_limit=10)
    >>> given.codes.shape, len(given.symmetries), given.node_limit   # 9 layouts; the square's 7 other symmetries
    ((9, 9), 7, 10)
    """
    return SearchInput(table.codes, _neighbour_columns(table), _layout_symmetries(table), **budget)


def board_symmetries(position: Position) -> list[np.ndarray]:
    """Where each cell goes under each symmetry of the board (reflections, and the quarter turns of a
    square board) that maps the position to itself, the identity left out.

    >>> from cspmines import Position
    >>> len(board_symmetries(Position.from_string("4x4x4\\n....\\n....\\n....\\n....")))
    7
    >>> len(board_symmetries(Position.from_string("3x2x1\\n1..\\n1..")))   # only the top-bottom flip
    1
    """
    grid = position.grid
    height, width = grid.shape
    index = np.arange(height * width).reshape(height, width)
    moves = [np.fliplr(index), np.flipud(index), np.rot90(index, 2)]
    if height == width:
        moves += [index.T, np.rot90(index, 1), np.rot90(index, 3), np.rot90(index, 2).T]
    kept = []
    for moved in moves:
        source = moved.ravel()   # cell i of the image is cell source[i] of the board
        if np.array_equal(grid.ravel()[source], grid.ravel()):
            image = np.empty_like(source)
            image[source] = np.arange(len(source))
            kept.append(image)
    return kept


def _layout_symmetries(table: LayoutTable) -> tuple:
    """The search's view of the board's symmetries: for each, where it sends each layout and each
    column. Layouts are matched by their mines (the codes follow from them): a symmetry of the position
    sends its layouts onto its layouts, so the layouts' keys and their images' keys, each sorted once,
    pair off in order."""
    cells = table.cells
    images = board_symmetries(table.position)
    if not images:
        return ()
    column = {cell: k for k, cell in enumerate(cells)}
    by_column = np.equal(table.codes.T, MINE, order="C")  # a row of each column's mines: read a column at a time
    order = np.argsort(_mine_keys(by_column, np.arange(len(cells))), kind="stable")
    found = []
    for image in images:
        columns = np.array([column[int(image[cell])] for cell in cells], dtype=np.intp)
        layouts = np.empty(table.count, dtype=np.intp)
        layouts[np.argsort(_mine_keys(by_column, columns), kind="stable")] = order
        found.append((layouts, columns))
    return tuple(found)


def _mine_keys(by_column: np.ndarray, places: np.ndarray) -> np.ndarray:
    """Each layout's mines as one comparable value, column ``c`` (a row of ``by_column``) put in place
    ``places[c]``: a whole number of bits where the columns fit in 64, else the bits' bytes (sorting whole
    numbers is many times quicker than sorting bytes).

    >>> _mine_keys(np.array([[1, 0], [0, 1], [1, 1]], dtype=bool), np.array([0, 1, 2]))   # 2 layouts, 3 columns
    array([5, 6], dtype=uint64)
    >>> _mine_keys(np.ones((70, 2), dtype=bool), np.arange(70)).dtype
    dtype('V9')
    """
    width, count = by_column.shape
    if width <= 64:
        keys = np.zeros(count, dtype=np.uint64)
        for mines, place in zip(by_column, places.tolist(), strict=True):
            keys |= mines.astype(np.uint64) << np.uint64(place)
        return keys
    moved = np.empty((count, width), dtype=bool)
    moved[:, places] = by_column.T
    bits = np.packbits(moved, axis=1)
    return bits.view(np.dtype((np.void, bits.shape[1]))).ravel()


def _neighbour_columns(table: LayoutTable) -> tuple:
    column = {cell: k for k, cell in enumerate(table.cells)}
    return tuple(tuple(column[n] for n in table.position.neighbours(cell) if n in column) for cell in table.cells)


def _table_slots(memory: int | None) -> int:
    """The transposition table's slots: a power of two within its share of the allowance, counted at its peak:
    while it doubles, the table it leaves (half the slots) is held beside the new one."""
    if memory is None:
        return _MOST_SLOTS
    room = int(memory * _TABLE_SHARE) * 2 // (3 * SLOT_BYTES)
    slots = 1 << 10
    while slots * 2 <= min(room, _MOST_SLOTS):
        slots *= 2
    return slots


def value_of(position: Position, *, limit: Limit | None = None, cells: ValueCells | str = ValueCells.BEST) -> PositionValue:
    """The value of ``position`` under best play: how many of its layouts are won, the best cells,
    and the values of the covered cells asked for.

    Parameters
    ----------
    position : Position
        Its mine total must be known.
    limit : Limit, keyword-only
        The budget (time, work units as states searched, memory). Past it the answer holds proven
        bounds and ``exact`` is False.
    cells : {"best", "one", "all"}, keyword-only
        Which covered cells' values are worked out exactly beside the position's: every cell of the best value
        (``best``), the one best move the search found (``one``: the cheapest), or every covered cell (``all``:
        slower, no cell is dropped as unable to be best). Any other is bounded by its safe layouts.

    Returns
    -------
    PositionValue

    Examples
    --------
    >>> from cspmines import Position
    >>> found = value_of(Position.from_string("5x4x5\\n.....\\n.1...\\n.3...\\n....."))
    >>> found.wins, found.layouts, [found.position.row_col(c) for c in found.best_cells]
    (285, 360, [(0, 2)])
    >>> value_of(Position.from_string("3x2x1\\n1..\\n1.."), cells="all").value(2)   # safe: opened for free
    CellValue(low=1, high=1, layouts=2)
    >>> rough = value_of(Position.from_string("4x4x4\\n....\\n....\\n....\\n...."), limit=Limit(nodes=50))
    >>> rough.exact, rough.stopped_by, rough.wins <= 961 <= rough.wins_high
    (False, 'nodes', True)
    """
    limit = read_limit(limit)
    budget = limit.start()
    cap, reason = listing_cap(limit, len(position.covered_cells), len(board_symmetries(position)))
    table = layout_table(position, most=cap, budget=budget)
    if table is None:  # more layouts than the allowance can list (or the time can list and search a little)
        return _unsearched(position, budget, "time" if budget.expired() else reason)
    if table.count == 1:  # everything is known: the game is won by opening every safe cell
        known = {cell: CellValue(int(code != MINE), int(code != MINE), 1) for cell, code in zip(table.cells, table.codes[0], strict=True)}
        best = tuple(cell for cell, value in known.items() if value.low)
        return PositionValue(position, 1, 1, 1, best, known, exact=True, seconds=budget.elapsed())
    given = search_input(table, node_limit=limit.nodes, slots=_table_slots(limit.memory), cells=ValueCells.check(cells, "cells"))
    if budget.expired():  # the layouts' symmetries took what was left: listed, not searched
        return _unsearched(position, budget, "time", table.count)
    given = given.with_budget(seconds=budget.rest().time)  # the search's own clock starts now, with what is left
    answer = run_search(given, work_bytes=_working_space(limit.memory, table.count, len(table.cells), len(board_symmetries(position))))
    return _answer(table, answer, budget.elapsed())


def listing_cap(limit: Limit, covered: int, symmetries: int = 0) -> tuple[int | None, str]:
    """The most layouts :func:`value_of` lists for a position of ``covered`` covered cells and ``symmetries``
    symmetries (the identity left out) within ``limit`` (None: no cap), and what sets it: ``"layouts"`` (the
    memory allowance) or ``"time"`` (a layout's listing, at most 4 microseconds, twice over within the time).

    >>> listing_cap(Limit(memory="1G"), 16), listing_cap(Limit(time=1, memory=None), 16)
    ((5592405, 'layouts'), (250000, 'time'))
    >>> listing_cap(Limit(memory="1G"), 16, symmetries=7)   # each symmetry keeps where it sends each layout
    (2855696, 'layouts')
    """
    by_memory = _layouts_within(limit.memory, covered, symmetries)
    by_time = None if limit.time is None else int(limit.time / _LISTING_SECONDS)
    if by_time is not None and (by_memory is None or by_time < by_memory):
        return by_time, "time"
    return by_memory, "layouts"


def _layouts_within(memory: int | None, width: int, symmetries: int = 0) -> int | None:
    """The most layouts whose table, symmetries and working space fit in what the allowance leaves the search."""
    if memory is None:
        return None
    return max(1, int(memory * (1 - _TABLE_SHARE)) // (width + _BYTES_PER_LAYOUT + _layout_symmetry_bytes(symmetries)))


def _working_space(memory: int | None, count: int, width: int, symmetries: int) -> int | None:
    """Bytes the search's working space may take (its arenas, column bits and sort space): the allowance's share
    left by the table, less what the listing holds (the layouts' codes, their fingerprint words, the symmetries)."""
    if memory is None:
        return None
    return max(0, int(memory * (1 - _TABLE_SHARE)) - count * (width + _FINGERPRINT_BYTES + _layout_symmetry_bytes(symmetries)))


def _layout_symmetry_bytes(symmetries: int) -> int:
    """Bytes a layout costs the board's symmetries: where each sends it (8 bytes, and 4 more in the compiled
    search's copy) and its place in the rows' order (8), none without a symmetry."""
    return 12 * symmetries + 8 if symmetries else 0


def _unsearched(position: Position, budget: Budget, reason: str, layouts: int = 0) -> PositionValue:
    """The answer of a search that never ran: its ``layouts`` listed (none where they could not be), at most
    every one of them won."""
    return PositionValue(position, layouts, 0, layouts, (), {}, exact=False, stopped_by=reason, seconds=budget.elapsed())


def _answer(table: LayoutTable, answer: dict, seconds: float) -> PositionValue:
    n = table.count
    cells = {cell: CellValue(low, high, n) for cell, (low, high) in zip(table.cells, answer["cells"], strict=True)}
    low, high = answer["low"], answer["high"]
    exact = low == high
    if exact:
        best = tuple(cell for cell, value in cells.items() if value.exact and value.low == low)
    else:  # bounds only: the cell that reached the lower bound
        best = () if answer["move"] is None else (table.cells[answer["move"]],)
    return PositionValue(table.position, n, low, high, best, cells, exact=exact, stopped_by=answer["stopped"],
                         states=answer["states"], seconds=seconds)


def best_play_moves(position: Position, *, limit: Limit | None = None) -> tuple[int, ...] | None:
    """The cells best play opens next, or None when the value was not found within ``limit``.

    >>> from cspmines import Position
    >>> best_play_moves(Position.from_string("7x1x2\\n.1...1."))   # the free cell between two 50/50s
    (3,)
    """
    found = value_of(position, limit=limit)
    return found.best_cells if found.exact else None


def run_search(given: SearchInput, *, work_bytes: int | None = None) -> dict:
    """:func:`~cspmines.engine.valuesearch.search_value`'s answer, by the compiled kernel where the kernels
    are on (its working space held within ``work_bytes``), else by the twin."""
    search = native.kernel("value_search") or search_value
    return search(given, work_bytes)
