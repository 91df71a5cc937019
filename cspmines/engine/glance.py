"""A glance at a position: its proved safe cells and its least chances, read straight off the boxes.

A look-ahead imagines, for each cell it weighs and each clue that cell could
show, a board, and reads of each board only two things: which cells it proves
safe, and the least mine chances among the cells a next move could open that
can still tell something. :func:`glance` reads just that, in one pass over the
chances of the boxes (the cells of a box share one chance, and finding the
least needs every box's), without making each cell's chance, the proved sets or the chances' order that
:attr:`~cspmines.engine.analysis.Analysis.decided` and
:meth:`~cspmines.engine.analysis.Analysis.least_probabilities` make for any
reader; a compiled kernel (``glance_boxes``) does the pass where there is one.

:func:`clue_is_settled` is the test of a cell that can tell nothing that the
glance uses (a sufficient one, cheap enough for every board a look-ahead
imagines).

>>> from cspmines import Position, solve
>>> analysis = solve(Position.from_string("3x2x1\\n1..\\n1.."))
>>> glance(analysis, 2)   # 2 and 5 are safe but can only show 1: the least chances are the 1s' neighbours'
Glance(safe=frozenset({2, 5}), least=(0.5, 0.5))
>>> glance(analysis, 2, living=False).least
(0.0, 0.0)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .. import native
from ..cells import COVERED
from ..neighbours import neighbour_table
from ..position import is_whole
from .analysis import Analysis

__all__ = ["BoxChances", "Glance", "clue_is_settled", "glance", "glance_boxes"]


@dataclass(frozen=True)
class Glance:
    """What :func:`glance` reads of a position.

    Attributes
    ----------
    safe : frozenset
        The covered cells proved safe (``analysis.decided[0]``).
    least : tuple of float
        The ``count`` least mine chances below certainty, least first, one a cell, among the cells
        that can still tell something (with ``living``) or, where none can, among all covered cells;
        floats as :meth:`~cspmines.engine.analysis.Analysis.probability` reads them. Empty when every
        covered cell is a certain mine.
    """

    safe: frozenset
    least: tuple


class BoxChances(NamedTuple):
    """A position's cells grouped by chance, as :func:`glance_boxes` reads them (a named tuple: one is
    made for every glance, and its fields go to the compiled kernel in their order).

    Attributes
    ----------
    chances : list of list of int
        ``[chain][box]``: the layouts with a mine in one cell of the box.
    cells : list of tuple
        ``[chain][box]``: the box's cells (flat indices).
    rest : tuple of int
        The covered cells no clue touches, each a mine in ``rest_chance`` layouts.
    rest_chance : int or None
    settled_safe, settled_mines : iterable of int
        The cells single clues settled.
    certain : int
        The layouts in all (a chance of ``certain``: a mine).
    grid : array_like
        The board's cell codes, one signed byte a cell (anything with a C-contiguous buffer).
    width, height : int
    """

    chances: list
    cells: list
    rest: tuple
    rest_chance: int | None
    settled_safe: Iterable
    settled_mines: Iterable
    certain: int
    grid: object
    width: int
    height: int

    @classmethod
    def of(cls, analysis) -> BoxChances:
        """The boxes of an exact ``analysis`` with a mine total (its chances over one denominator)."""
        combination, parts, position = analysis.combination, analysis.parts, analysis.position
        return cls(combination.box_chances, [chain.box_cells for chain in parts.chains], parts.rest, combination.rest_chance,
                   parts.settled.safe_cells, parts.settled.mine_cells, combination.denominator,
                   np.ascontiguousarray(position.grid), position.width, position.height)


def glance(analysis, count: int, *, living: bool = True) -> Glance:
    """The proved safe cells of ``analysis`` and its ``count`` least chances below certainty.

    With ``living`` the chances are sought among the cells whose clue is not already known
    (:func:`clue_is_settled`), and among all covered cells where no such cell is left below
    certainty. The same as ``analysis.decided[0]`` and
    ``analysis.least_probabilities(count, below=1, keep=..., exact=False)``, worked out from the
    boxes' chances alone.

    >>> from cspmines import Position, solve
    >>> glance(solve(Position.from_string("4x1x1\\n.1..")), 3)   # 3 is safe and can tell where the mine is; 0 and 2 cannot
    Glance(safe=frozenset({3}), least=(0.0,))
    >>> glance(solve(Position.from_string("3x1x1\\n.1.")), 3)   # no cell can: the least of them all
    Glance(safe=frozenset(), least=(0.5, 0.5))
    >>> glance(Position.from_string("3x1x1\\n.1."), 3)
    Traceback (most recent call last):
    ...
    TypeError: glance reads an Analysis (what solve returns), got Position
    """
    if not isinstance(analysis, Analysis):
        raise TypeError(f"glance reads an Analysis (what solve returns), got {type(analysis).__name__}")
    if not is_whole(count):
        raise TypeError(f"count must be a whole number, got {count!r}")
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    combination = analysis.combination
    if combination is None or combination.denominator is None or analysis.approximate or analysis.inexact_cells:
        # no exact box chances over one denominator (a budget cut the counting, a density, chains cut short)
        return _glance_of_cells(analysis, count, living)
    read = native.kernel("glance_boxes") or glance_boxes
    safe, least = read(BoxChances.of(analysis), count, living)
    denominator = combination.denominator  # an integer division rounds correctly, as float() of the Fraction does
    return Glance(safe, tuple(chance / denominator for chance in least))


def _glance_of_cells(analysis, count: int, living: bool) -> Glance:
    """:func:`glance` through the analysis's own readers (chances as Fractions, or estimates)."""
    least: tuple = ()
    if living:
        settled = clue_is_settled(analysis)
        least = analysis.least_probabilities(count, below=1, keep=lambda cell: not settled(cell), exact=False)
    if not least:
        least = analysis.least_probabilities(count, below=1, exact=False)
    return Glance(analysis.decided[0], least)


def glance_boxes(boxes: BoxChances, count: int, living: bool) -> tuple[frozenset, tuple]:
    """(the proved safe cells, the ``count`` least chances below ``boxes.certain``, least first) of
    ``boxes``; with ``living``, least among the cells :func:`clue_is_settled` passes, where there is one
    below certainty. The twin of the compiled ``glance_boxes``, step for step, its checks included.

    >>> import numpy as np
    >>> grid = np.array([[-1, 1, -1, -1]], dtype=np.int8)   # ".1.." with one mine: it is at 0 or 2, 3 is safe
    >>> glance_boxes(BoxChances([[1, 1]], [((0,), (2,))], (3,), 0, (), (), 2, grid, 4, 1), 2, True)
    (frozenset({3}), (0,))
    """
    chances, cells, rest, rest_chance, certain = boxes.chances, boxes.cells, boxes.rest, boxes.rest_chance, boxes.certain
    grid, width, height = boxes.grid, boxes.width, boxes.height
    settled_safe, settled_mines = boxes.settled_safe, boxes.settled_mines
    flat = _cell_codes(grid, width, height)
    if count < 0:
        raise ValueError("glance_boxes: count must be >= 0")
    groups = _groups(chances, cells, rest, rest_chance, settled_safe, settled_mines, certain, width * height)
    safe = {cell for box, chance in groups if chance == 0 for cell in box}
    decided = safe.union(*(box for box, chance in groups if chance == certain))
    least: tuple = ()
    if living:
        settled = _settled_test(flat, decided, neighbour_table(width, height))
        least = _least(groups, certain, count, lambda cell: not settled(cell))
    if not least:
        least = _least(groups, certain, count, None)
    return frozenset(safe), least


def _cell_codes(grid, width: int, height: int) -> list:
    """The board's cell codes as a list, read as the compiled kernel reads them: its buffer's bytes, signed."""
    view = memoryview(grid)
    if not view.c_contiguous:  # as the kernel's request for the buffer refuses it
        raise ValueError("glance_boxes: the grid is not one C-contiguous block")
    codes = view.cast("B")
    if width <= 0 or height <= 0 or len(codes) != width * height:
        raise ValueError("glance_boxes: the grid's bytes do not match its width and height")
    return np.frombuffer(codes, dtype=np.int8).tolist()


def _groups(chances, cells, rest, rest_chance, settled_safe, settled_mines, certain, size: int) -> list:
    """(cells, chance) groups in the kernel's order: the boxes chain by chain, the settled safe and mines, the rest."""
    chances, cells = tuple(chances), tuple(cells)
    if len(chances) != len(cells):
        raise ValueError("glance_boxes: one tuple of boxes and one list of chances a chain")
    groups: list = []
    for chain_boxes, chain_chances in zip(cells, chances, strict=True):
        chain_boxes, chain_chances = tuple(chain_boxes), tuple(chain_chances)
        if len(chain_boxes) != len(chain_chances):
            raise ValueError("glance_boxes: a chain's boxes and chances differ in number")
        groups += zip(chain_boxes, chain_chances, strict=True)
    groups += [(settled_safe, 0), (settled_mines, certain)]
    if rest:
        groups.append((rest, rest_chance))
    return [(_on_board(box, size), chance) for box, chance in groups]


def _on_board(cells, size: int) -> tuple:
    """``cells`` as a tuple of ints, each checked to be one of the board's ``size`` cells."""
    checked = tuple(operator.index(cell) for cell in cells)
    for cell in checked:
        if not 0 <= cell < size:
            raise ValueError(f"glance_boxes: cell {cell} is not on the board")
    return checked


def _least(groups: list, certain: int, count: int, keep: Callable[[int], bool] | None) -> tuple:
    """The ``count`` least chances below ``certain`` of the cells of ``groups`` that ``keep`` passes (every
    cell without it), least first: each group's cells are asked only while its chance could still be among them."""
    found: list = []
    if not count:
        return ()
    for box, chance in groups:
        if chance >= certain or (len(found) == count and chance >= found[-1]):
            continue
        for cell in box:
            if keep is None or keep(cell):
                found.append(chance)
                found.sort()
                del found[count:]
                if len(found) == count and chance >= found[-1]:
                    break  # no more of this group's cells can come in
    return tuple(found)


def clue_is_settled(analysis) -> Callable[[int], bool]:
    """A test of whether a covered cell's clue is already known, so opening it tells nothing.

    It is when each of its covered neighbours is proved (a mine or safe), or
    when the neighbours still in doubt are exactly those of one clue, whose
    number then fixes how many mines they hold. (A sufficient test, cheap
    enough for every position a look-ahead imagines; a cell can be dead
    for subtler reasons: :func:`~cspmines.engine.insight.dead_cells` finds them all.)

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("3x2x1\\n1..\\n1.."))
    >>> settled = clue_is_settled(analysis)
    >>> settled(2), settled(5)   # safe, and their doubtful neighbours are the 1s': they will show 1
    (True, True)
    >>> settled(1)   # safe only when 4 is the mine, so it would show 1 too, but this test cannot see that
    False
    """
    position = analysis.position
    safe, mines = analysis.decided
    # a list reads a cell several times faster than an array
    return _settled_test(position.grid.ravel().tolist(), safe | mines, neighbour_table(position.width, position.height))


def _settled_test(flat: list, decided, table) -> Callable[[int], bool]:
    """:func:`clue_is_settled`'s test over the board's cells ``flat``, the ``decided`` cells and the neighbour ``table``."""

    def doubtful(cell: int) -> frozenset:
        return frozenset(n for n in table[cell] if flat[n] == COVERED and n not in decided)

    def settled(cell: int) -> bool:
        around = doubtful(cell)
        if not around:
            return True
        anchor = next(iter(around))
        # a clue holding all of them is a neighbour of each, so of this one
        return any(flat[c] >= 0 and doubtful(c) == around for c in table[anchor])

    return settled
