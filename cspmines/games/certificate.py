"""Whether a board needs a guess: played from its first click by exact reasoning with the mine total.

A board is **no-guess** from a first click when a player who opens only cells
proved safe wins it: from the first click, some covered cell is provably safe at
every moment until every safe cell is open. *Provably safe* is exact: safe in every
mine layout that fits what is shown and the mine total (the engine's
``safe_cells``). Opening a proved cell only adds to what is known, and a cell
proved safe stays so, so the order in which proved cells are opened does not
matter: the board's verdict, and the first position where a guess is needed when
one is, are the board's own.

:func:`certify` plays so: the first click, then the local rules of
:mod:`cspmines.games.deduce` (one clue, two clues, the total: the compiled kernel
where it was built) until they are spent, then the exact engine on what is shown;
its proved cells are opened and the local rules go on, until the board is won or
the engine proves nothing: the position where a guess is needed, with its least
risky cells.

>>> from cspmines.games import Board
>>> board = Board([[False, False, False], [False, False, False], [False, False, True]], first_click=0)
>>> certify(board).no_guess
True
>>> certificate = certify(Board([[False, False, False, False], [False, False, False, True]]), first_click=0)
>>> certificate.no_guess, certificate.least, [certificate.position.row_col(c) for c in certificate.least_cells]
(False, Fraction(1, 2), [(0, 3), (1, 3)])
>>> print(certificate.position)   # the first position that needs a guess: a 50/50
4x2x1
001.
001.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..engine.analysis import Analysis
from ..engine.engine import solve
from ..errors import CspminesError
from ..position import Position
from .board import Board
from .deduce import MINE_CLUE, VIEW_COVERED, VIEW_FLAG, layout_clues, settle_board

__all__ = ["Certificate", "NoFirstClickError", "certify", "certify_layout", "layout_clues"]



class NoFirstClickError(CspminesError, ValueError):
    """A board that carries no first click, certified without one."""


@dataclass(frozen=True)
class Certificate:
    """A board's verdict from its first click.

    Attributes
    ----------
    first_click : int
        The cell clicked first (flat).
    no_guess : bool
        Every safe cell is opened by reasoning alone.
    position : Position
        Where play stopped: the board won, or the first position where a guess is needed, with
        every proved mine flagged.
    opened : int
        The safe cells open in ``position``.
    least : Fraction or None
        Where a guess is needed, the least mine chance of a covered cell there (the exact chance);
        None otherwise.
    least_cells : tuple of int
        The covered cells at that chance, in flat order.
    exact_steps : int
        The times the exact engine was asked (the local rules settled the rest).
    first_click_mine : bool
        The first click is a mine: the board is lost at once.
    """

    first_click: int
    no_guess: bool
    position: Position
    opened: int
    least: Fraction | None = None
    least_cells: tuple = ()
    exact_steps: int = 0
    first_click_mine: bool = False


def certify(board: Board, first_click: int | None = None) -> Certificate:
    """The board's verdict from ``first_click`` (a flat cell; the board's own when None).

    Raises
    ------
    NoFirstClickError
        Neither the board nor the call gives a first click.
    """
    click = board.first_click if first_click is None else first_click
    if click is None:
        raise NoFirstClickError("the board carries no first click: give one")
    if not 0 <= click < board.size:
        raise NoFirstClickError(f"the first click {click} is outside the {board.width}x{board.height} board")
    return certify_layout(layout_clues(board.mines), board.width, board.height, board.n_mines, click)


def certify_layout(clues: bytes, width: int, height: int, mines: int, click: int, *, stop: bool = False,
                   view: bytearray | None = None):
    """:func:`certify` on a layout's clues (:func:`layout_clues`); with ``stop``, only whether the board is
    no-guess (True or False), at the first position that needs a guess, without its least risky cells.

    ``view`` plays on from a view of the board (as :func:`~cspmines.games.deduce.settle_board` takes it, its
    opened cells and marked mines taken as proved) instead of from the first click."""
    if view is None:
        view = bytearray([VIEW_COVERED]) * (width * height)
        if clues[click] == MINE_CLUE:
            return False if stop else _stuck(view, width, height, mines, click, None, 0, mine=True)
        settle_board(clues, view, width, height, mines, start=click)
    else:
        settle_board(clues, view, width, height, mines)
    safe_cells = width * height - mines
    steps = 0
    while _opened(view) < safe_cells:
        position = _position(view, width, height, mines)
        analysis = solve(position, explain=False)
        steps += 1
        safe = analysis.safe_cells
        if not safe:
            return False if stop else _stuck(view, width, height, mines, click, analysis, steps)
        for cell in analysis.mine_cells:
            view[cell] = VIEW_FLAG
        for cell in safe:
            view[cell] = clues[cell]  # the local rules open around a zero, as the game would
        settle_board(clues, view, width, height, mines)
    if stop:
        return True
    return Certificate(click, True, _position(view, width, height, mines), safe_cells, exact_steps=steps)


def _opened(view: bytearray) -> int:
    return len(view) - view.count(VIEW_COVERED) - view.count(VIEW_FLAG)


def _position(view: bytearray, width: int, height: int, mines: int) -> Position:
    grid = np.frombuffer(bytes(view), dtype=np.int8).reshape(height, width).copy()
    return Position._trusted(grid, mines)


def _stuck(view: bytearray, width: int, height: int, mines: int, click: int, analysis: Analysis | None, steps: int,
           *, mine: bool = False) -> Certificate:
    """The certificate of a board that needs a guess where ``view`` stands (every proved mine flagged)."""
    if analysis is None:  # the first click set off a mine: nothing was shown, every cell alike
        position = _position(view, width, height, mines)
        return Certificate(click, False, position, 0, Fraction(mines, width * height), tuple(range(width * height)),
                           first_click_mine=mine)
    for cell in analysis.mine_cells:
        view[cell] = VIEW_FLAG
    (least,) = analysis.least_probabilities(1)
    return Certificate(click, False, _position(view, width, height, mines), _opened(view), least, analysis.best_cells(),
                       exact_steps=steps)
