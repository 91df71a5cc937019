"""The exact optimal win probability of a whole empty board under each first-click rule.

Every rule comes from one number per first cell c: W(c), the layouts best play wins when c is opened
first, summed over the clues c can show (each clue's layouts valued by
:func:`~cspmines.engine.value.value_of` on the board with c open showing it). A layout with c safe is
as likely as any other in all three rules, so W(c) counts the same games in each; only what it is out of
differs:

* ``none``: the best W(c) out of every layout, C(n, k);
* ``protected``: the best W(c) out of the layouts with c safe, C(n - 1, k): the same best cells, and the
  value n / (n - k) times that of ``none``;
* ``corner``: W(corner) out of C(n - 1, k).

Two ways to find W(c), the same numbers (``tests/test_optimal.py`` holds them equal):

* ``board`` (the default): one search of the empty board with every cell's value
  (``value_of(cells="all")``). Its transposition table is shared by all first cells, whose games meet
  the same states once two cells are open (5x5 with 5 mines: 26 s where the clues take 78 s);
* ``clues``: the definition as it reads, one search per distinct first cell and clue, the board's budget
  shared among them; each piece is kept as it finishes, so a long board resumes where it stopped.

>>> found = board_optimum(4, 4, 4)
>>> [(found.rule(rule).low, found.rule(rule).layouts) for rule in FirstClickRule], found.exact
([(961, 1820), (961, 1365), (949, 1365)], True)
>>> [divmod(cell, 4) for cell in found.rule("none").best_cells][:3]   # the edge cells beside the corners
[(0, 1), (0, 2), (1, 0)]
>>> BoardOptimum.from_record(found.record()) == found
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from math import comb

from ...engine.budget import SLIVER, Limit, PeakMemory, Stopwatch, format_bytes, read_limit
from ...engine.value import CellValue, board_symmetries, listing_cap, value_of
from ...errors import TooLargeError
from ...position import Position
from .rules import CORNER, FirstClickRule, check_mines, distinct_cells, empty_board

__all__ = ["METHODS", "BoardOptimum", "FirstCell", "Piece", "RuleValue", "board_optimum", "check_budget", "clue_pieces"]

#: The ways to find each first cell's value (see the module).
METHODS = ("board", "clues")


@dataclass(frozen=True)
class FirstCell:
    """A first cell and those the board's symmetries send it to (``cells``): the layouts best play wins when
    it is opened first, at least ``low`` and at most ``high`` (equal when exact)."""

    cells: tuple
    low: int
    high: int

    @property
    def exact(self) -> bool:
        return self.low == self.high


@dataclass(frozen=True)
class RuleValue(CellValue):
    """The optimal game under a first-click rule: best play wins at least ``low`` and at most ``high`` (equal
    when exact) of the ``layouts`` it is drawn from (a :class:`~cspmines.engine.value.CellValue`), from the
    first cells ``best_cells``: those that may be best, which are those that are once every first cell's
    value is exact (for ``corner``, the corner)."""

    rule: FirstClickRule = FirstClickRule.NONE
    best_cells: tuple = ()


@dataclass(frozen=True)
class Piece:
    """One clue of one first cell (``clues`` method): the board with ``cell`` open showing ``clue``, its
    ``layouts``, and what best play wins of them, ``low`` to ``high`` (unknown until valued)."""

    cell: int
    clue: int
    layouts: int
    low: int = 0
    high: int | None = None
    stopped_by: str | None = None
    states: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    peak_memory: int | None = None

    @property
    def valued(self) -> bool:
        return self.high is not None

    def record(self) -> dict:
        """The piece as one JSON object (what :meth:`from_record` reads)."""
        return asdict(self)

    @classmethod
    def from_record(cls, record: dict) -> Piece:
        return cls(**{name: record[name] for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class BoardOptimum:
    """The value of each distinct first cell of an empty ``width`` x ``height`` board with ``mines`` mines,
    what stopped the search short (None when it ran to the end), the states searched, its wall and CPU
    seconds and its peak resident memory in bytes (None where it could not be read)."""

    width: int
    height: int
    mines: int
    first_cells: tuple
    method: str = "board"
    stopped_by: str | None = None
    states: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    peak_memory: int | None = None

    @property
    def exact(self) -> bool:
        return all(first.exact for first in self.first_cells)

    @property
    def key(self) -> tuple[int, int, int]:
        return self.width, self.height, self.mines

    def record(self) -> dict:
        """The optimum as one JSON object: its fields (:meth:`from_record` reads them back), each rule's
        value (``rules``: wins at least and at most, of how many layouts, the best cells as [row, col])."""
        rules = {}
        for rule in FirstClickRule:
            value = self.rule(rule)
            rules[str(rule)] = {"low": value.low, "high": value.high, "layouts": value.layouts,
                                "best_cells": [list(divmod(cell, self.width)) for cell in value.best_cells]}
        first_cells = [{"cells": list(first.cells), "low": first.low, "high": first.high} for first in self.first_cells]
        return {**asdict(self), "first_cells": first_cells, "exact": self.exact, "rules": rules}

    @classmethod
    def from_record(cls, record: dict) -> BoardOptimum:
        fields = {name: record[name] for name in cls.__dataclass_fields__}
        first_cells = tuple(FirstCell(tuple(first["cells"]), first["low"], first["high"]) for first in record["first_cells"])
        return cls(**{**fields, "first_cells": first_cells})

    def rule(self, rule: FirstClickRule | str) -> RuleValue:
        """The optimal chance of winning under ``rule`` (see the module)."""
        chosen: FirstClickRule = FirstClickRule.check(rule, "the first-click rule")
        n, k = self.width * self.height, self.mines
        if chosen is FirstClickRule.CORNER:
            corner = next(first for first in self.first_cells if CORNER in first.cells)
            return RuleValue(corner.low, corner.high, comb(n - 1, k), rule=chosen, best_cells=(CORNER,))
        low = max(first.low for first in self.first_cells)
        high = max(first.high for first in self.first_cells)
        # every cell whose bound leaves it in the running: those that reach the value, once every value is exact
        best = sorted(cell for first in self.first_cells if first.high >= low for cell in first.cells)
        return RuleValue(low, high, comb(n, k) if chosen is FirstClickRule.NONE else comb(n - 1, k), rule=chosen, best_cells=tuple(best))


def check_budget(width: int, height: int, mines: int, limit: Limit | None = None) -> None:
    """Refuse, before any work, a board whose layouts are more than ``limit`` lets the value search list
    (:func:`~cspmines.engine.value.listing_cap`), and a mine count with nothing to decide.

    >>> check_budget(6, 6, 12, Limit(memory="1G"))
    Traceback (most recent call last):
    ...
    cspmines.errors.TooLargeError: a 6x6 board with 12 mines has 1,251,677,700 layouts, more than the 2,581,110 a memory allowance of 1 GiB lets the value search list
    """
    check_mines(width, height, mines)
    limit = read_limit(limit)
    cap, reason = listing_cap(limit, width * height, _empty_board_symmetries(width, height))
    layouts = comb(width * height, mines)
    if cap is not None and layouts > cap:
        what = f"a memory allowance of {format_bytes(limit.memory or 0)}" if reason == "layouts" else f"a time limit of {limit.time:g} s"
        raise TooLargeError(f"a {width}x{height} board with {mines} mines has {layouts:,} layouts, more than the {cap:,} "
                            f"{what} lets the value search list")


def _empty_board_symmetries(width: int, height: int) -> int:
    """How many symmetries the value search is given for the empty board (the identity left out)."""
    return len(board_symmetries(Position.from_string(f"{width}x{height}\n" + "\n".join(["." * width] * height))))


def board_optimum(width: int, height: int, mines: int, *, limit: Limit | None = None, method: str = "board",
                  known: tuple = (), keep: Callable[[Piece], None] | None = None) -> BoardOptimum:
    """Each distinct first cell's value on the empty board, within ``limit`` (the whole board's budget).

    Parameters
    ----------
    limit : Limit
        Time, states and memory for the board: past them the values are bounds (``exact`` False).
    method : {"board", "clues"}
        How (see the module).
    known, keep
        ``clues`` only: pieces already valued (not valued again; their time counts against the budget), and
        a function given each piece as it is valued.

    Examples
    --------
    >>> rough = board_optimum(4, 4, 6, limit=Limit(nodes=100))
    >>> rough.exact, rough.stopped_by, rough.rule("none").low <= 1584 <= rough.rule("none").high
    (False, 'nodes', True)
    """
    check_mines(width, height, mines)
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    limit = read_limit(limit)
    if method == "board":
        return _by_board(width, height, mines, limit)
    return _by_clues(width, height, mines, limit, known, keep)


def _by_board(width: int, height: int, mines: int, limit: Limit) -> BoardOptimum:
    """One search of the empty board, every cell's value asked for."""
    with PeakMemory() as memory, Stopwatch(cpu=True) as cpu:
        found = value_of(empty_board(width, height, mines), limit=limit, cells="all")
    safe = comb(width * height - 1, mines)
    first_cells = []
    for orbit in distinct_cells(width, height):
        value = found.value(orbit[0])
        first_cells.append(FirstCell(orbit, 0, safe) if value is None else FirstCell(orbit, value.low, value.high))
    return BoardOptimum(width, height, mines, tuple(first_cells), "board", found.stopped_by, found.states, found.seconds,
                        cpu.seconds, memory.peak)


def clue_pieces(width: int, height: int, mines: int) -> list[Piece]:
    """Every (distinct first cell, clue) with a layout, fewest layouts first (the small ones finish at once and
    leave their share of the budget to the large).

    >>> [(p.cell, p.clue, p.layouts) for p in clue_pieces(3, 3, 1)]
    [(0, 1, 3), (1, 0, 3), (0, 0, 5), (1, 1, 5), (4, 1, 8)]
    """
    board = empty_board(width, height, mines)
    n = width * height
    pieces = []
    for orbit in distinct_cells(width, height):
        degree = len(board.neighbours(orbit[0]))
        for clue in range(min(degree, mines) + 1):
            layouts = comb(degree, clue) * comb(n - 1 - degree, mines - clue)
            if layouts:
                pieces.append(Piece(orbit[0], clue, layouts))
    return sorted(pieces, key=lambda piece: piece.layouts)


def _by_clues(width: int, height: int, mines: int, limit: Limit, known: tuple, keep) -> BoardOptimum:
    """One search per distinct first cell and clue, the budget shared out as the pieces go."""
    todo = clue_pieces(width, height, mines)
    valued = {(piece.cell, piece.clue): piece for piece in known if piece.valued}
    for piece in todo:
        if (piece.cell, piece.clue) not in valued:
            left = sum((p.cell, p.clue) not in valued for p in todo)
            valued[piece.cell, piece.clue] = found = _value_piece(width, height, mines, piece, _share(limit, valued.values(), left))
            if keep is not None:
                keep(found)
    pieces = [valued[piece.cell, piece.clue] for piece in todo]
    first_cells = tuple(FirstCell(orbit, sum(p.low for p in pieces if p.cell == orbit[0]), sum(p.high for p in pieces if p.cell == orbit[0]))
                        for orbit in distinct_cells(width, height))
    stopped = next((p.stopped_by for p in pieces if p.stopped_by), None)
    peaks = [p.peak_memory for p in pieces if p.peak_memory is not None]
    return BoardOptimum(width, height, mines, first_cells, "clues", stopped, sum(p.states for p in pieces), sum(p.seconds for p in pieces),
                        sum(p.cpu_seconds for p in pieces), max(peaks, default=None))


def _share(limit: Limit, spent, left: int) -> Limit:
    """A piece's budget: what the pieces valued so far left of the board's time and states, shared evenly
    among the ``left`` pieces still to value (the memory allowance whole: the pieces run one at a time)."""
    time = None if limit.time is None else max(SLIVER, (limit.time - sum(p.seconds for p in spent)) / left)
    nodes = None if limit.nodes is None else max(1, (limit.nodes - sum(p.states for p in spent)) // left)
    return replace(limit, time=time, nodes=nodes)


def _value_piece(width: int, height: int, mines: int, piece: Piece, limit: Limit) -> Piece:
    """``piece`` valued within ``limit``: its layouts best play wins (bounds past the budget)."""
    grid = empty_board(width, height, mines).grid.copy()
    grid.flat[piece.cell] = piece.clue
    with PeakMemory() as memory, Stopwatch(cpu=True) as cpu:
        found = value_of(Position(grid, mines=mines), limit=limit, cells="one")
    low, high = (found.wins, found.wins_high) if found.layouts else (0, piece.layouts)  # not listed: nothing proven
    return replace(piece, low=low, high=high, stopped_by=found.stopped_by, states=found.states, seconds=found.seconds,
                   cpu_seconds=cpu.seconds, peak_memory=memory.peak)
