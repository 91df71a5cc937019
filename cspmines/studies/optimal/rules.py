"""The first-click rules of the optimal-play table, the layouts each draws a board from, and the cells the
board's symmetries leave distinct.

* ``none``: every layout of the board equally likely; the player's first click may be a mine;
* ``protected``: the player picks the first cell and the board is drawn uniformly among the layouts with
  that cell safe (first-click protection as most implementations state it);
* ``corner``: the game opens the top-left corner, drawn safe: the simulator's ``first_click="safe"``
  (:class:`~cspmines.games.Board`), the convention of the published classic win rates.

>>> [layouts_under(4, 4, 4, rule) for rule in FirstClickRule]   # C(16, 4), then C(15, 4) twice
[1820, 1365, 1365]
>>> [[divmod(cell, 4) for cell in orbit] for orbit in distinct_cells(4, 4)]
[[(0, 0), (0, 3), (3, 0), (3, 3)], [(0, 1), (0, 2), (1, 0), (1, 3), (2, 0), (2, 3), (3, 1), (3, 2)], [(1, 1), (1, 2), (2, 1), (2, 2)]]
"""

from __future__ import annotations

from math import comb

from ...actions import Vocabulary
from ...engine.value import board_symmetries
from ...games.board import BoardFormatError
from ...position import COVERED, Position

__all__ = ["CORNER", "FirstClickRule", "check_mines", "distinct_cells", "empty_board", "layout_at", "layouts_under"]

#: The cell the ``corner`` rule opens first: the top-left one, as the simulator's ``safe`` first click does.
CORNER = 0


class FirstClickRule(Vocabulary):
    """How the first click of a game on a whole board is made (see the module)."""

    NONE = "none"
    PROTECTED = "protected"
    CORNER = "corner"


def check_mines(width: int, height: int, mines: int) -> None:
    """Refuse a mine count that leaves no safe cell to open first (under ``protected`` and ``corner`` there
    would be no layout to draw). No mine is allowed: every game is won, a check of the table.

    >>> check_mines(4, 4, 0), check_mines(4, 4, 15)
    (None, None)
    >>> check_mines(4, 4, 16)
    Traceback (most recent call last):
    ...
    cspmines.games.board.BoardFormatError: a 4x4 board takes 0 to 15 mines here (a safe cell to open first), got 16
    """
    if not 0 <= mines < width * height:
        raise BoardFormatError(f"a {width}x{height} board takes 0 to {width * height - 1} mines here (a safe cell to open first), "
                               f"got {mines}")


def layouts_under(width: int, height: int, mines: int, rule: FirstClickRule | str) -> int:
    """How many layouts a game under ``rule`` is drawn from, each equally likely: every layout of the board
    (``none``), or those with the first cell safe (``protected``, ``corner``)."""
    cells = width * height
    return comb(cells, mines) if FirstClickRule.check(rule, "the first-click rule") is FirstClickRule.NONE else comb(cells - 1, mines)


def empty_board(width: int, height: int, mines: int) -> Position:
    """The board before any click: every cell covered, the mine total known."""
    return Position([[COVERED] * width for _ in range(height)], mines=mines)


def distinct_cells(width: int, height: int) -> list[tuple[int, ...]]:
    """The board's cells grouped by its symmetries (reflections, and quarter turns of a square): each group's
    cells have the same value as a first click, so one of each is valued. Groups in the order of their first
    cell, each sorted."""
    moves = board_symmetries(empty_board(width, height, 0))
    groups: dict[int, tuple[int, ...]] = {}
    for cell in range(width * height):
        orbit = tuple(sorted({cell, *(int(image[cell]) for image in moves)}))
        groups.setdefault(orbit[0], orbit)
    return [groups[first] for first in sorted(groups)]


def layout_at(rank: int, cells: tuple | list, mines: int) -> tuple[int, ...]:
    """The ``rank``-th way (from 0) to put ``mines`` mines in ``cells``, in the lexicographic order of
    ``itertools.combinations``: so every layout is played once by ranks 0 to C(len(cells), mines) - 1,
    and a uniform rank draws a uniform layout.

    >>> import itertools
    >>> all(layout_at(r, range(6), 3) == c for r, c in enumerate(itertools.combinations(range(6), 3)))
    True
    >>> layout_at(0, (1, 2, 3), 3), layout_at(2, (5, 7, 9), 1)
    ((1, 2, 3), (9,))
    """
    if not 0 <= rank < comb(len(cells), mines):
        raise ValueError(f"rank {rank} is not below C({len(cells)}, {mines})")
    chosen = []
    start = 0
    for left in range(mines, 0, -1):
        # the layouts whose next mine is cells[start] come first: C(cells after it, mines still to place) of them
        while rank >= (block := comb(len(cells) - start - 1, left - 1)):
            rank -= block
            start += 1
        chosen.append(cells[start])
        start += 1
    return tuple(chosen)
