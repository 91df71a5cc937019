"""The search behind :func:`cspmines.engine.value.value_of`, over a table of layouts: in Python here
(:class:`ValueSearch`, run by :func:`search_value`), the same steps compiled in the ``value_search`` kernel
(``native/value.c``), which takes the same arguments; :func:`cspmines.engine.value.run_search` runs
whichever the build has.

A state is a set of layouts (their indices, in order). Its fingerprint is the sum of two random 64-bit
words a layout (:func:`~cspmines.engine.transposition.fingerprints`), the least over the board's
symmetries; a :class:`~cspmines.engine.transposition.BoundsTable` keeps each state's bounds under it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import prod

import numpy as np

from ..actions import Vocabulary
from .budget import Limit
from .layouts import MINE
from .transposition import BoundsTable, fingerprints

__all__ = ["SearchInput", "StopReason", "ValueCells", "ValueSearch", "search_value"]

_CLOCK_EVERY = 256  # the time is read at least once this many states ...
_CLOCK_WORK = 1 << 16  # ... and this many layouts: a state costs about its layouts (a root of millions, seconds)
_MOST_FREE = 16  # the most free cells opened at once (the others wait for the next state)


class ValueCells(Vocabulary):
    """Which covered cells' values a search works out beside the position's: the move that reaches its value
    alone (``one``), every cell that does (``best``), or every covered cell (``all``)."""

    ONE = "one"
    BEST = "best"
    ALL = "all"


class StopReason(Vocabulary):
    """Why a search stopped before its answer was exact: its node limit, its time, or its memory."""

    NODES = "nodes"
    TIME = "time"
    MEMORY = "memory"


_TIME = StopReason.TIME  # read once: a member read off its Enum class costs a metaclass hook in Python 3.11


@dataclass(frozen=True, eq=False)
class SearchInput:
    """What the search reads, as a Python caller holds it.

    ``codes``: ``(layouts, cells)`` bytes, :data:`~cspmines.engine.layouts.MINE` or the clue shown;
    ``neighbours``: each column's neighbouring columns; ``symmetries``: for each symmetry of the board that
    maps the position to itself but the identity, where it sends each layout (a row) and each column;
    ``node_limit`` and ``seconds``: the states and time allowed (None: no limit); ``slots``: the most slots
    of the transposition table (a power of two); ``cells``: which cells' values are worked out
    (:class:`ValueCells`: the best move's alone, every best cell's, or every cell's).
    """

    codes: np.ndarray
    neighbours: tuple
    symmetries: tuple = ()
    node_limit: int | None = None
    seconds: float | None = None
    slots: int = 1 << 16
    cells: ValueCells = ValueCells.BEST

    def __post_init__(self):
        object.__setattr__(self, "cells", ValueCells.check(self.cells, "cells"))

    def with_budget(self, **changes) -> SearchInput:
        """The same layouts under another budget (``node_limit``, ``seconds``, ``slots``, ``cells``)."""
        return replace(self, **changes)


def search_value(given: SearchInput, work_bytes: int | None = None) -> dict:
    """The search over ``given``'s layouts, in Python: :meth:`ValueSearch.run`'s answer. The twin of the
    compiled ``value_search``, which takes the same arguments and holds its working space within
    ``work_bytes`` (here Python's own objects hold it, bounded by the table's ``slots``).

    >>> import numpy as np
    >>> codes = np.array([[9, 1], [1, 9]], dtype=np.uint8)   # two cells, one mine: a 50/50
    >>> search_value(SearchInput(codes, ((1,), (0,))))["low"]
    1
    """
    return ValueSearch(given).run()


class ValueSearch:
    """The search of :func:`~cspmines.engine.value.value_of` over a table of layouts, in Python (the compiled
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
        self.clock = None if given.seconds is None else Limit(time=given.seconds, memory=None).start()
        self.wanted = ValueCells.check(given.cells, "cells")
        self.first, self.second = fingerprints(self.count)
        self.table = BoundsTable(given.slots)
        self.states = 0
        self.work = self.next_clock = 0  # layouts in the states worked out; when the clock is next read
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

    # -- the budget ------------------------------------------------------------------------------

    def _spend(self, layouts: int) -> bool:
        """Count one state of ``layouts`` layouts worked out; False once the budget has run out."""
        self.states += 1
        self.work += layouts
        if self.node_limit is not None and self.states > self.node_limit:
            self.stopped = StopReason.NODES
        elif self.clock is not None and (self.states % _CLOCK_EVERY == 0 or self.work >= self.next_clock):
            self.next_clock = self.work + _CLOCK_WORK
            if self.clock.expired():
                self.stopped = _TIME
        return not self.stopped

    def _out_of_time(self) -> bool:
        """Whether the time is up: the search stopped on it, or the deadline has passed since (stopped so, if it ran)."""
        if self.clock is not None and self.clock.expired():
            self.stopped = self.stopped or _TIME
            return True
        return self.stopped == _TIME

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
        kept = self.table.find(key)
        low, high = (0, n) if kept is None else kept
        if low == high or high <= alpha or low >= beta or self.stopped or not self._spend(n):
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
        self.table.store(key, low, high)
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
            if safe <= best or safe <= alpha or self.stopped == _TIME:  # a move wins at most its safe layouts: this one
                # and the rest cannot help (or are not searched: time is up)
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

        What the table already knows of every group is read first, and a group it does not know is
        bounded by its own columns (``_ceiling``): so a group whose value cannot change the verdict is
        never searched."""
        known = []
        for group in groups:
            n = len(group)
            key = self._key(group) if n > 1 else None
            found = None if key is None else self.table.find(key)
            if found is None:
                found = (n, n) if n <= 1 else (0, self._ceiling(group, active))
            known.append((key, *found))
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

    def _ceiling(self, members: np.ndarray, active: list) -> int:
        """At most how many layouts of a state best play wins, read off its columns: all of them where a free
        cell is left, else its safest doubtful cell's safe layouts (every move risks the layouts where its
        cell is a mine)."""
        n = len(members)
        mines, _, free, _ = self._read(members, active)
        if free:
            return n
        return max((n - mines[c] for c in active if 0 < mines[c] < n), default=0) or n

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
        if not self._spend(n):
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
        cells = self._cell_values(everything, low, high, move)
        return {"low": low, "high": high, "move": move, "cells": cells, "floor": floor, "states": self.states,
                "stopped": self.stopped}

    def _cell_values(self, everything: np.ndarray, low: int, high: int, move: int | None) -> list[tuple[int, int]]:
        """Each column's bounds when opened first: exact, as the budget allows, for the cells asked for (the
        best move's alone, every best cell's or every cell's); a column not worked out is bounded by its
        safe layouts."""
        n = self.count
        mines = np.count_nonzero(self.codes == MINE, axis=0)
        every_column = list(range(self.width))
        values = []
        for column in range(self.width):
            safe = n - int(mines[column])
            if safe == 0:
                values.append((0, 0))
            elif safe == n or column == move and self.wanted == ValueCells.ONE:
                values.append((low, high))
            elif self.wanted == ValueCells.ONE or (self.wanted == ValueCells.BEST and safe < low):
                values.append((0, safe))   # not asked for, or cannot be best
            elif self._out_of_time():  # no more splits
                values.append((low if self._like(column, move) else 0, min(safe, high)))
            else:
                alpha, beta = (-1, n + 1) if self.wanted == ValueCells.ALL else (low - 1, high + 1)
                values.append(self.chance(self._split(everything, [column]), every_column, alpha, beta))
        return values


    def _like(self, column: int, move: int | None) -> bool:
        """Whether ``column`` is ``move`` or a symmetry's image of it (the same value)."""
        return move is not None and (column == move or any(int(cells[column]) == move for _, cells in self.symmetries))


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

