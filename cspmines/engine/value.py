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

The search runs within a :class:`~cspmines.engine.question.Limit` (time, work units, memory):
past it, the value is given as a proven lower and upper bound and marked NOT EXACT.

>>> from cspmines import Position
>>> found = value_of(Position.from_string("4x4x4\\n....\\n....\\n....\\n...."))
>>> found.wins, found.layouts, found.exact     # the empty 4x4 board with 4 mines
(961, 1820, True)
>>> [found.position.row_col(cell) for cell in found.best_cells]   # the cells beside the corners
[(0, 1), (0, 2), (1, 0), (1, 3), (2, 0), (2, 3), (3, 1), (3, 2)]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import prod

import numpy as np

from .. import native
from ..position import Position
from .layouts import MINE, LayoutTable, layout_table
from .question import Limit, read_limit

__all__ = ["CellValue", "PositionValue", "SearchInput", "ValueSearch", "best_play_moves", "run_search", "search_input", "value_of"]

#: Bytes each layout costs the search besides its row of codes: its place in the splits of every state
#: on the path being searched (a few levels of 4-byte indices) and its two fingerprint words.
_BYTES_PER_LAYOUT = 48
#: Seconds the listing of one layout may take, with its symmetries, at most (measured: about 2 us): a time
#: limit lists no more layouts than it leaves time to list twice over.
_LISTING_SECONDS = 4e-6
#: Bytes of one transposition-table slot (two fingerprint words, the layouts' count, two bounds).
SLOT_BYTES = 32
#: The share of the memory allowance the transposition table may take.
_TABLE_SHARE = 0.5
#: The most slots a table is given whatever the allowance (2**24 slots: 512 MiB).
_MOST_SLOTS = 1 << 24
#: The time is read once every this many states.
_CLOCK_EVERY = 256
#: The transposition table's first slots (it doubles once half are used, up to its allowance).
_FIRST_SLOTS = 1024
#: The most free cells opened at once (the others wait for the next state).
_MOST_FREE = 16
#: Slots tried from a fingerprint's home slot before one is replaced.
_PROBES = 4


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

    def value(self, cell: int) -> CellValue | None:
        """The :class:`CellValue` of a covered cell, None where it was not worked out."""
        return self.cells.get(cell)


@dataclass(frozen=True, eq=False)
class SearchInput:
    """What the search reads, as a Python caller holds it.

    Attributes
    ----------
    codes : numpy.ndarray
        ``(layouts, cells)`` bytes, :data:`~cspmines.engine.layouts.MINE` or the clue shown.
    neighbours : tuple of tuple of int
        For each column, the columns of the covered cells around it.
    symmetries : tuple of (numpy.ndarray, numpy.ndarray)
        For each symmetry of the board that maps the position to itself, other than the identity:
        where it sends each layout (a row index) and each cell (a column).
    node_limit : int or None
        The most states worked out; None: no limit.
    seconds : float or None
        The time the search may take; None: no limit.
    slots : int
        The transposition table's slots (a power of two).
    all_cells : bool
        Work out every covered cell's value, not only the best ones'.
    """

    codes: np.ndarray
    neighbours: tuple
    symmetries: tuple = ()
    node_limit: int | None = None
    seconds: float | None = None
    slots: int = 1 << 16
    all_cells: bool = False

    def with_budget(self, **changes) -> SearchInput:
        """The same layouts under another budget (``node_limit``, ``seconds``, ``slots``, ``all_cells``)."""
        return replace(self, **changes)


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


def _splitmix(values: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser over whole arrays of 64-bit words (the search's fingerprints)."""
    with np.errstate(over="ignore"):
        z = values.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def fingerprints(count: int) -> tuple[np.ndarray, np.ndarray]:
    """The two 64-bit words each layout adds to a state's fingerprint (the same in the kernel).

    >>> first, second = fingerprints(3)
    >>> first.dtype, len(set(first.tolist()) | set(second.tolist()))
    (dtype('uint64'), 6)
    """
    index = np.arange(count, dtype=np.uint64)
    return _splitmix(index * np.uint64(2)), _splitmix(index * np.uint64(2) + np.uint64(1))


class ValueSearch:
    """The search of :func:`value_of` over a table of layouts, in Python (the compiled
    ``value_search`` kernel takes the same steps, in the same order).

    Parameters
    ----------
    given : SearchInput

    Examples
    --------
    >>> from cspmines import Position
    >>> from cspmines.engine.layouts import layout_table
    >>> table = layout_table(Position.from_string("3x2x1\\n1..\\n1.."))   # the mine at (0,1) or (1,1)
    >>> search = ValueSearch(SearchInput(table.codes, ((1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2))))
    >>> answer = search.run()
    >>> answer["low"], answer["high"], answer["cells"]   # a 50/50: one layout of the two, whatever is opened
    (1, 1, [(1, 1), (1, 1), (1, 1), (1, 1)])
    """

    def __init__(self, given: SearchInput):
        self.codes = np.ascontiguousarray(given.codes, dtype=np.uint8)
        self.count, self.width = self.codes.shape
        self.neighbours = given.neighbours
        self.symmetries = given.symmetries
        self.node_limit = given.node_limit
        self.deadline = None if given.seconds is None else time.monotonic() + given.seconds
        self.all_cells = given.all_cells
        self.first, self.second = fingerprints(self.count)
        self.most_slots = given.slots
        self.mask = _FIRST_SLOTS - 1
        self.keys: list = [None] * _FIRST_SLOTS   # (first, second, layouts) of each slot's state
        self.bounds: list = [None] * _FIRST_SLOTS  # (low, high) of each slot's state
        self.used = 0
        self.states = 0
        self.stopped: str | None = None
        self.root_move: int | None = None  # the column the root's best lower bound was reached by
        self.first_move: int | None = None  # the column the search's first moves open first

    # -- the table -------------------------------------------------------------------------------

    def _key(self, members: np.ndarray) -> tuple[int, int, int]:
        """The state's fingerprint: the sums of its layouts' two words, the least over the board's symmetries."""
        best = (int(self.first[members].sum()), int(self.second[members].sum()))
        for layouts, _cells in self.symmetries:
            image = layouts[members]
            best = min(best, (int(self.first[image].sum()), int(self.second[image].sum())))
        return (*best, len(members))

    def _find(self, key) -> tuple[int, int] | None:
        home = key[0] & self.mask
        for probe in range(_PROBES):
            slot = (home + probe) & self.mask
            if self.keys[slot] == key:
                return self.bounds[slot]
            if self.keys[slot] is None:
                return None
        return None

    def _put(self, key, low: int, high: int) -> None:
        """Keep a state's bounds: in its own slot (narrowed), else an empty one, else in place of the
        smallest state probed if that is no larger (a large state costs more to work out again)."""
        home = key[0] & self.mask
        victim = None
        for probe in range(_PROBES):
            slot = (home + probe) & self.mask
            kept = self.keys[slot]
            if kept == key:
                old_low, old_high = self.bounds[slot]
                self.bounds[slot] = (max(low, old_low), min(high, old_high))
                return
            if kept is None:
                victim = slot
                break
            if kept[2] <= key[2] and (victim is None or kept[2] < self.keys[victim][2]):
                victim = slot
        if victim is not None:
            if self.keys[victim] is None:
                self.used += 1
            self.keys[victim] = key
            self.bounds[victim] = (low, high)

    def _store(self, key, low: int, high: int) -> None:
        """:meth:`_put`, then twice the slots once half are used (up to the most allowed), the entries
        put again in slot order."""
        self._put(key, low, high)
        slots = self.mask + 1
        if self.used * 2 <= slots or slots * 2 > self.most_slots:
            return
        keys, bounds = self.keys, self.bounds
        self.mask = slots * 2 - 1
        self.keys, self.bounds, self.used = [None] * (slots * 2), [None] * (slots * 2), 0
        for key_, bound in zip(keys, bounds, strict=True):
            if key_ is not None:
                self._put(key_, *bound)

    # -- the budget ------------------------------------------------------------------------------

    def _spend(self) -> bool:
        """Count one state worked out; False once the budget has run out."""
        self.states += 1
        if self.node_limit is not None and self.states > self.node_limit:
            self.stopped = "nodes"
        elif self.deadline is not None and self.states % _CLOCK_EVERY == 0 and time.monotonic() >= self.deadline:
            self.stopped = "time"
        return not self.stopped

    # -- one state -------------------------------------------------------------------------------

    def _split(self, members: np.ndarray, columns: list) -> list[np.ndarray]:
        """The safe layouts of ``members`` grouped by what ``columns`` show (the first ``_MOST_FREE``),
        in the order of what they show (the first column's clue first), then largest first."""
        columns = columns[:_MOST_FREE]
        shown = self.codes[np.ix_(members, columns)]
        safe = ~np.any(shown == MINE, axis=1)
        members, shown = members[safe], shown[safe]
        if not len(members):
            return []
        _, first_at, which = np.unique(shown, axis=0, return_index=True, return_inverse=True)
        groups = [members[which.ravel() == g] for g in range(len(first_at))]
        return sorted(groups, key=len, reverse=True)

    def _read(self, members: np.ndarray, active: list) -> tuple[dict, dict, list, list]:
        """(mines per active column, clues shown per active column, the free columns, the varying ones)."""
        rows = self.codes[np.ix_(members, active)]
        mines = dict(zip(active, np.count_nonzero(rows == MINE, axis=0).tolist(), strict=True))
        shown = dict(zip(active, _clues_shown(rows).tolist(), strict=True))
        n = len(members)
        free = [c for c in active if mines[c] == 0 and shown[c] > 1]
        varying = [c for c in active if (mines[c] == 0 and shown[c] > 1) or 0 < mines[c] < n]
        return mines, shown, free, varying

    def solve(self, members: np.ndarray, active: list, alpha: int, beta: int) -> tuple[int, int]:
        """Bounds ``(low, high)`` on the layouts of ``members`` that best play wins: exact when the
        value lies strictly between ``alpha`` and ``beta``, else at least one bound past the window.
        ``active``: the columns that may vary in the state (those that varied in its parent)."""
        n = len(members)
        if n <= 1:
            return n, n
        return self._solve_keyed(members, self._key(members), active, alpha, beta)

    def _solve_keyed(self, members: np.ndarray, key, active: list, alpha: int, beta: int) -> tuple[int, int]:
        n = len(members)
        kept = self._find(key)
        low, high = (0, n) if kept is None else kept
        if low == high or high <= alpha or low >= beta or self.stopped or not self._spend():
            return low, high
        mines, shown, free, varying = self._read(members, active)
        window = (max(alpha, low - 1), min(beta, high + 1))
        if free:  # safe, their clues still telling: opened for free, all at once (they risk nothing)
            if n == self.count:
                self.root_move = free[0]
            found = self.chance(self._split(members, free), varying, *window)
        else:
            doubtful = [c for c in varying if 0 < mines[c] < n]
            found = self._solve_closed(members, mines, shown, doubtful, varying, *window)
        low, high = max(low, found[0]), min(high, found[1])
        self._store(key, low, high)
        return low, high

    def _solve_closed(self, members, mines, shown, doubtful, varying, alpha: int, beta: int) -> tuple[int, int]:
        n = len(members)
        parts = self._parts(members, doubtful)
        if parts is not None:
            found = [self.solve(part, varying, -1, len(part) + 1) for part in parts]
            return prod(low for low, _ in found), prod(high for _, high in found)
        best, ceiling = 0, 0
        moves = self._moves(members, doubtful, mines, shown)
        for i, column in enumerate(moves):
            safe = n - mines[column]
            if safe <= best or safe <= alpha:  # a move wins at most its safe layouts: this one and the rest cannot help
                ceiling = max(ceiling, safe)
                break
            low, high = self.chance(self._split(members, [column]), varying, max(alpha, best), beta)
            if n == self.count and low > best:
                self.root_move = column
            best, ceiling = max(best, low), max(ceiling, high)
            if best >= beta:
                if i + 1 < len(moves):
                    ceiling = max(ceiling, n - mines[moves[i + 1]])
                break
        return best, max(ceiling, best)

    def chance(self, groups: list, active: list, alpha: int, beta: int) -> tuple[int, int]:
        """Bounds on the layouts won over ``groups`` (a move's safe layouts, split by what it shows),
        each played on at its best: exact when the sum lies strictly between ``alpha`` and ``beta``.

        What the table already knows of every group is read first: the groups not yet searched are
        bounded by it (else by their size), so a group whose value cannot change the verdict is never
        searched."""
        known = []
        for group in groups:
            n = len(group)
            key = self._key(group) if n > 1 else None
            found = None if key is None else self._find(key)
            known.append((key, *((n if n <= 1 else 0, n) if found is None else found)))
        rest_low = sum(low for _, low, _ in known)
        rest_high = sum(high for _, _, high in known)
        low_sum = high_sum = 0
        for group, (key, known_low, known_high) in zip(groups, known, strict=True):
            if high_sum + rest_high <= alpha or low_sum + rest_low >= beta:
                break  # decided without the rest
            rest_low -= known_low
            rest_high -= known_high
            floor, ceiling = alpha - low_sum - rest_high, beta - low_sum - rest_low
            if known_high <= floor or known_low >= ceiling or known_low == known_high:
                low, high = known_low, known_high  # the table's bounds decide it: not searched
            else:
                low, high = self._solve_keyed(group, key, active, floor, ceiling)
            low_sum += low
            high_sum += high
        return low_sum + rest_low, high_sum + rest_high

    def _moves(self, members, doubtful, mines, shown) -> list[int]:
        """The cells worth trying: the dead ones (a single clue wherever safe) only when every one is
        dead (a dead cell tells nothing but that it was safe, and can always wait), safest first, then
        the one whose clue tells most, then the first; of cells whose outcomes are the same in every
        layout, and of cells a symmetry that keeps the state maps onto each other, only the first."""
        keeping = [cells for layouts, cells in self.symmetries if _keeps(layouts, members)]
        if any(shown[c] > 1 for c in doubtful):
            doubtful = [c for c in doubtful if shown[c] > 1]
        order = sorted(doubtful, key=lambda column: (mines[column], -shown[column], column))
        seen: set = set()
        moves: list[int] = []
        for column in order:
            outcome = self.codes[members, column].tobytes()
            if outcome in seen or any(int(cells[column]) in moves for cells in keeping):
                continue
            seen.add(outcome)
            moves.append(column)
        return moves

    def _parts(self, members, doubtful) -> list | None:
        """The state's independent parts: groups of doubtful cells no two of which are neighbours,
        whose layouts combine freely; for each, the layouts that agree with the first one off it.
        None when there is one part."""
        groups = _touching_groups(doubtful, self.neighbours)
        if len(groups) < 2:
            return None
        rows = self.codes[np.ix_(members, doubtful)]
        at = {column: i for i, column in enumerate(doubtful)}
        distinct = [len(np.unique(rows[:, [at[c] for c in group]], axis=0)) for group in groups]
        if prod(distinct) != len(members):
            return None
        parts = []
        for group in groups:
            off = [at[c] for c in doubtful if c not in group]
            parts.append(members[np.all(rows[:, off] == rows[0, off], axis=1)])
        return parts

    # -- the root --------------------------------------------------------------------------------

    def first_moves(self, members: np.ndarray, active: list) -> int | None:
        """The layouts won by playing each time the free cells, else the search's first move (the safest
        telling cell): a lower bound on the value; None once the budget has run out."""
        n = len(members)
        if n <= 1:
            return n
        if not self._spend():
            return None
        mines, shown, free, varying = self._read(members, active)
        if free:
            columns = free
        else:
            doubtful = [c for c in varying if 0 < mines[c] < n]
            columns = self._moves(members, doubtful, mines, shown)[:1]
        if n == self.count:
            self.first_move = columns[0]
        won = 0
        for group in self._split(members, columns):
            part = self.first_moves(group, varying)
            if part is None:
                return None
            won += part
        return won

    def run(self) -> dict:
        """The search from every layout: ``{"low", "high", "move", "cells": [(low, high) per column],
        "floor", "states", "stopped"}``."""
        everything = np.arange(self.count, dtype=np.intp)
        every_column = list(range(self.width))
        floor = self.first_moves(everything, every_column) or 0
        low, high = self.solve(everything, every_column, floor - 1, self.count + 1)
        move = self.root_move
        if floor >= low:  # the search found nothing better than its first moves
            low, move = floor, self.first_move
        cells = self._cell_values(everything, low, high)
        return {"low": low, "high": high, "move": move, "cells": cells, "floor": floor, "states": self.states,
                "stopped": self.stopped}

    def _cell_values(self, everything: np.ndarray, low: int, high: int) -> list[tuple[int, int]]:
        """Each column's bounds when opened first: exact for the best cells (and for every cell with
        ``all_cells``), as the budget allows."""
        n = self.count
        mines = np.count_nonzero(self.codes == MINE, axis=0)
        every_column = list(range(self.width))
        values = []
        for column in range(self.width):
            safe = n - int(mines[column])
            if safe == 0:
                values.append((0, 0))
            elif safe == n:
                values.append((low, high))
            elif not self.all_cells and safe < low:
                values.append((0, safe))   # cannot be best
            else:
                alpha, beta = (-1, n + 1) if self.all_cells else (low - 1, high + 1)
                values.append(self.chance(self._split(everything, [column]), every_column, alpha, beta))
        return values


def _clues_shown(rows: np.ndarray) -> np.ndarray:
    """For each column of ``rows``, how many different clues it shows where it is safe."""
    counts = np.zeros((rows.shape[1], MINE + 1), dtype=np.int64)
    for clue in range(MINE):
        counts[:, clue] = np.count_nonzero(rows == clue, axis=0)
    return np.count_nonzero(counts[:, :MINE], axis=1)


def _keeps(layouts: np.ndarray, members: np.ndarray) -> bool:
    """Whether a symmetry (where it sends each layout) maps the state onto itself."""
    return bool(np.array_equal(np.sort(layouts[members]), members))


def _touching_groups(columns: list, neighbours: tuple) -> list[list[int]]:
    """``columns`` grouped by neighbourhood (joined when neighbours, through any chain of them),
    each group in column order, the groups in the order of their first column."""
    inside = set(columns)
    parent = {column: column for column in columns}

    def root(column: int) -> int:
        while parent[column] != column:
            parent[column] = parent[parent[column]]
            column = parent[column]
        return column

    for column in columns:
        for other in neighbours[column]:
            if other in inside:
                a, b = root(column), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict = {}
    for column in columns:
        groups.setdefault(root(column), []).append(column)
    return list(groups.values())


# -- the position's side ---------------------------------------------------------------------------


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
    column. Layouts are matched by their rows of codes, sorted once and looked up by bisection."""
    cells = table.cells
    column = {cell: k for k, cell in enumerate(cells)}
    rows = _row_keys(table.codes)
    order = np.argsort(rows, kind="stable")
    found = []
    for image in board_symmetries(table.position):
        columns = np.array([column[int(image[cell])] for cell in cells], dtype=np.intp)
        moved = np.empty_like(table.codes)
        moved[:, columns] = table.codes
        layouts = order[np.searchsorted(rows, _row_keys(moved), sorter=order)]
        found.append((layouts.astype(np.intp), columns))
    return tuple(found)


def _row_keys(codes: np.ndarray) -> np.ndarray:
    """Each row of codes as one comparable value (its bytes)."""
    rows = np.ascontiguousarray(codes)
    return rows.view(np.dtype((np.void, rows.shape[1]))).ravel()


def _neighbour_columns(table: LayoutTable) -> tuple:
    column = {cell: k for k, cell in enumerate(table.cells)}
    return tuple(tuple(column[n] for n in table.position.neighbours(cell) if n in column) for cell in table.cells)


def _table_slots(memory: int | None) -> int:
    """The transposition table's slots: a power of two within its share of the allowance."""
    if memory is None:
        return _MOST_SLOTS
    room = memory * _TABLE_SHARE // SLOT_BYTES
    slots = 1 << 10
    while slots * 2 <= min(room, _MOST_SLOTS):
        slots *= 2
    return slots


def value_of(position: Position, *, limit: Limit | None = None, all_cells: bool = False) -> PositionValue:
    """The value of ``position`` under best play: how many of its layouts are won, the best cells,
    and each covered cell's value (the best cells', or every cell's with ``all_cells``).

    Parameters
    ----------
    position : Position
        Its mine total must be known.
    limit : Limit, keyword-only
        The budget (time, work units as states searched, memory). Past it the answer holds proven
        bounds and ``exact`` is False.
    all_cells : bool, keyword-only
        Work out every covered cell's value exactly (slower: no cell is dropped as unable to be best).

    Returns
    -------
    PositionValue

    Examples
    --------
    >>> from cspmines import Position
    >>> found = value_of(Position.from_string("5x4x5\\n.....\\n.1...\\n.3...\\n....."))
    >>> found.wins, found.layouts, [found.position.row_col(c) for c in found.best_cells]
    (285, 360, [(0, 2)])
    >>> value_of(Position.from_string("3x2x1\\n1..\\n1.."), all_cells=True).value(2)   # safe: opened for free
    CellValue(low=1, high=1, layouts=2)
    >>> rough = value_of(Position.from_string("4x4x4\\n....\\n....\\n....\\n...."), limit=Limit(nodes=50))
    >>> rough.exact, rough.stopped_by, rough.wins <= 961 <= rough.wins_high
    (False, 'nodes', True)
    """
    limit = read_limit(limit)
    started = time.monotonic()
    by_memory = _layouts_within(limit.memory, len(position.covered_cells))
    by_time = None if limit.time is None else int(limit.time / _LISTING_SECONDS)
    cap = by_memory if by_time is None else by_time if by_memory is None else min(by_memory, by_time)
    table = layout_table(position, most=cap)
    if table is None:  # more layouts than the allowance can list (or the time can list and search a little)
        reason = "time" if by_time is not None and (by_memory is None or by_time < by_memory) else "layouts"
        return _unlisted(position, started, reason)
    if table.count == 1:  # everything is known: the game is won by opening every safe cell
        cells = {cell: CellValue(int(code != MINE), int(code != MINE), 1) for cell, code in zip(table.cells, table.codes[0], strict=True)}
        best = tuple(cell for cell, value in cells.items() if value.low)
        return PositionValue(position, 1, 1, 1, best, cells, exact=True, seconds=time.monotonic() - started)
    seconds = None if limit.time is None else max(1e-3, limit.time - (time.monotonic() - started))
    given = search_input(table, node_limit=limit.nodes, seconds=seconds, slots=_table_slots(limit.memory), all_cells=all_cells)
    answer = run_search(given, work_bytes=None if limit.memory is None else int(limit.memory * (1 - _TABLE_SHARE)))
    return _answer(table, answer, time.monotonic() - started)


def run_search(given: SearchInput, *, work_bytes: int | None = None) -> dict:
    """:meth:`ValueSearch.run`'s answer, by the compiled kernel where the kernels are on (its working
    space held within ``work_bytes``), else by the twin."""
    compiled = native.kernel("value_search")
    if compiled is None:
        return ValueSearch(given).run()
    count, width = given.codes.shape
    starts = np.zeros(width + 1, dtype=np.int32)
    starts[1:] = np.cumsum([len(around) for around in given.neighbours])
    columns = np.array([c for around in given.neighbours for c in around], dtype=np.int32)
    sym_layouts = np.array([layouts for layouts, _ in given.symmetries], dtype=np.int32).reshape(-1)
    sym_columns = np.array([cells for _, cells in given.symmetries], dtype=np.int32).reshape(-1)
    return compiled(np.ascontiguousarray(given.codes, dtype=np.uint8).tobytes(), count, width, starts.tobytes(),
                    columns.tobytes(), len(given.symmetries), sym_layouts.tobytes(), sym_columns.tobytes(),
                    -1 if given.node_limit is None else given.node_limit, -1.0 if given.seconds is None else given.seconds,
                    given.slots, -1 if work_bytes is None else work_bytes, given.all_cells)


def _layouts_within(memory: int | None, width: int) -> int | None:
    """The most layouts whose table and working space fit in what the allowance leaves the search."""
    if memory is None:
        return None
    return max(1, int(memory * (1 - _TABLE_SHARE)) // (width + _BYTES_PER_LAYOUT))


def _unlisted(position: Position, started: float, reason: str) -> PositionValue:
    return PositionValue(position, 0, 0, 0, (), {}, exact=False, stopped_by=reason, seconds=time.monotonic() - started)


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

