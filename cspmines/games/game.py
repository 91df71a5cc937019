"""The game simulator: a board, the rules, and what the player sees.

Rules (combinable with withheld clues):

``classic``
    Opening a mine ends the game, lost; opening every safe cell wins.
``minesearch`` (seeds 000 and 004)
    Opening a mine marks it found (``*``) and play goes on until every mine
    is found. A cell opens only when the player opens it: a zero shows
    itself alone (its neighbours are known safe, and the player may open
    them or not), as both seeds mine one square at a time. The measure is
    the fraction of cells the player opened, mines included, the first
    (safe) square too (lower is better).
``score`` (seed 001)
    Opening a mine sets it off (``*``) and play goes on until every cell is
    opened or flagged; the score is the fraction of mines flagged correctly,
    identified without setting them off.

Withheld clues (seed 001, section 5): an opened safe cell shows its clue
with probability ``1 - withheld``, otherwise ``?``. A withheld zero does not
open its neighbours: the player cannot know it is a zero.

Examples
--------
>>> from cspmines.games import Board, Game
>>> game = Game(Board.random("4x3x2", seed=3))
>>> game.status, game.opened > 0      # the safe first click is made by the game
('playing', True)
>>> print(game.position)
4x3x2
1...
....
....
"""

from __future__ import annotations

import numpy as np

from ..actions import Action, ActionKind, Rules, Vocabulary
from ..errors import CspminesError
from ..position import COVERED, FLAG, MINE, WITHHELD, Position, neighbour_table
from .board import Board

__all__ = ["Game", "IllegalMoveError", "BoardMismatchError", "Status"]


class IllegalMoveError(CspminesError, ValueError):
    """A move on a cell that is not covered, outside the board, or after the game ended."""


class BoardMismatchError(CspminesError, ValueError):
    """A board that cannot show a position: another size or total, or a cell it would show otherwise."""


class Status(Vocabulary):
    """Where a game stands: still playing, won, lost, or finished (score rules: over, not every mine flagged)."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    FINISHED = "finished"


# members read on every move, read off their classes once: in Python 3.11 a member read off its Enum
# class goes through the metaclass's __getattr__ hook, several times the cost of a global
_PLAYING, _CLASSIC, _MINESEARCH, _FLAG_KIND = Status.PLAYING, Rules.CLASSIC, Rules.MINESEARCH, ActionKind.FLAG


class Game:
    """One game in progress.

    Parameters
    ----------
    board : Board
    rules : {"classic", "minesearch", "score"}, keyword-only
    withheld : float, keyword-only
        Chance that an opened safe cell's clue is withheld.
    seed : int or numpy.random.Generator, keyword-only
        Drives the withholding only (the board is already fixed).

    Examples
    --------
    >>> game = Game(Board([[False, True, False], [False, False, False]]))
    >>> game.apply(Action.open(2)); print(game.position)   # no first click was made: the agent makes it
    3x2x1
    ..1
    ...
    >>> for cell in (0, 3, 4, 5):
    ...     game.apply(Action.open(cell))
    >>> game.status, game.opened
    ('won', 5)
    """

    def __init__(self, board: Board, *, rules: str = "classic", withheld: float = 0.0, seed: int | np.random.Generator | None = None):
        rules = Rules.check(rules)
        if not 0 <= withheld < 1:
            raise ValueError(f"withheld must lie in [0, 1), got {withheld!r}")
        self.board = board
        self.rules = rules
        self.withheld = withheld
        self._rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self._view = np.full(board.size, COVERED, dtype=np.int8)
        self._neighbours = neighbour_table(board.width, board.height)
        self.opened = 0  # safe cells opened
        self.mines_opened = 0  # mines opened (found in minesearch, set off in score)
        self.moves = 0
        self.status = Status.PLAYING
        self._position: Position | None = None
        if board.first_click is not None:
            self._open(board.first_click)  # ends the game itself when it leaves nothing to do
        else:
            self._check_end()  # a board with nothing left to do (no safe cell in classic, no mine in minesearch) is won

    @classmethod
    def from_position(cls, position: Position, board: Board, *, rules: str = "classic", withheld: float = 0.0, seed: int | np.random.Generator | None = None) -> Game:
        """The game on ``board`` as it stands when the player sees ``position``: play on from there.

        Every opened cell shows its clue (or stays withheld, ``?``), flags
        stay (under minesearch they are lifted: a mine is found only by
        opening it, which a flag forbids), an opened mine counts as opened
        (a classic game showing one is lost). A board drawn by :func:`cspmines.sample_layouts` from the
        position always fits; one that does not raises an error naming the
        first cell it would show otherwise. ``rules``, ``withheld`` and
        ``seed`` are as for :class:`Game` and apply to the moves from here.

        >>> from cspmines import Position
        >>> position = Position.from_string("3x2x1\\n1..\\n...")
        >>> game = Game.from_position(position, Board([[False, True, False], [False, False, False]]))
        >>> game.apply(Action.open(5)); print(game.position)
        3x2x1
        1..
        ..1
        >>> Game.from_position(position, Board([[False, False, False], [False, False, True]]))
        Traceback (most recent call last):
        ...
        cspmines.games.game.BoardMismatchError: the board cannot show this position: (0, 0) shows 1, the board's clue there is 0
        """
        if (position.width, position.height) != (board.width, board.height):
            raise BoardMismatchError(
                f"the board is {board.width}x{board.height}, the position {position.width}x{position.height}"
            )
        if position.mines is not None and position.mines != board.n_mines:
            raise BoardMismatchError(f"the board has {board.n_mines} mines, the position's total is {position.mines}")
        game = cls(Board(board.mines), rules=rules, withheld=withheld, seed=seed)  # no first click: the position has it
        game.board = board
        for cell, code in enumerate(position.grid.ravel().tolist()):
            mine = board.is_mine(cell)
            where = position.row_col(cell)
            if code >= 0 or code == WITHHELD:
                if mine:
                    raise BoardMismatchError(f"the board cannot show this position: {where} is open, the board has a mine there")
                if code >= 0 and board.clue(cell) != code:
                    raise BoardMismatchError(
                        f"the board cannot show this position: {where} shows {code}, the board's clue there is {board.clue(cell)}"
                    )
                game.opened += 1
            elif code == FLAG and not mine:
                raise BoardMismatchError(f"the board cannot show this position: {where} is flagged, the board has no mine there")
            elif code == MINE:
                if not mine:
                    raise BoardMismatchError(f"the board cannot show this position: {where} shows a mine, the board has none there")
                game.mines_opened += 1
            # under minesearch a mine is found only by opening it, which a flag would forbid: lift the flags
            game._view[cell] = COVERED if code == FLAG and rules == Rules.MINESEARCH else code
        if rules == Rules.CLASSIC and game.mines_opened:
            game.status = Status.LOST
        else:
            game._check_end()
        return game

    # -- what the player sees ------------------------------------------------
    @property
    def position(self) -> Position:
        """The board as the player sees it, with the mine total in the header."""
        if self._position is None:
            # the view holds valid codes and at most the total in flags and mines (apply sees to
            # both), so the copy needs none of the constructor's checks: this runs every move
            grid = self._view.reshape(self.board.height, self.board.width).copy()
            self._position = Position._trusted(grid, self.board.n_mines)
        return self._position

    @property
    def safe_cells(self) -> int:
        return self.board.size - self.board.n_mines

    @property
    def won(self) -> bool:
        return self.status == Status.WON

    @property
    def opened_fraction(self) -> float:
        """Cells opened, mines included, over all cells (the minesearch measure: under minesearch
        every opened cell was opened by the player, since nothing cascades)."""
        return (self.opened + self.mines_opened) / self.board.size

    @property
    def score(self) -> float:
        """Mines flagged correctly over all mines (the score-mode measure)."""
        if self.board.n_mines == 0:
            return 1.0
        flagged = np.flatnonzero(self._view == FLAG)
        return sum(1 for cell in flagged.tolist() if self.board.is_mine(cell)) / self.board.n_mines

    # -- moves ---------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Carry out an agent's action.

        >>> game = Game(Board.random("4x3x2", seed=3))
        >>> game.apply(Action.flag(11)); int(game.position.grid[2, 3])  # FLAG
        -2
        >>> game.apply(Action.open(0))
        Traceback (most recent call last):
        ...
        cspmines.games.game.IllegalMoveError: cell 0 is not covered (flagged or open): it cannot be opened
        """
        if self.status != _PLAYING:
            raise IllegalMoveError(f"the game is over ({self.status})")
        if not 0 <= action.cell < self.board.size:
            raise IllegalMoveError(f"cell {action.cell} is outside the {self.board.width}x{self.board.height} board")
        code = self._view[action.cell]
        self.moves += 1
        if action.kind == _FLAG_KIND:
            if code not in (COVERED, FLAG):
                raise IllegalMoveError(f"cell {action.cell} is not covered: it cannot be flagged")
            known = int(np.count_nonzero((self._view == FLAG) | (self._view == MINE)))
            if code == COVERED and known >= self.board.n_mines:
                # a position's flags are known mines: more than the total could not be shown
                raise IllegalMoveError(f"cell {action.cell}: flags and found mines would exceed the {self.board.n_mines} mines")
            self._view[action.cell] = FLAG if code == COVERED else COVERED  # a second flag removes it
            self._position = None
            self._check_end()
            return
        if code != COVERED:
            raise IllegalMoveError(f"cell {action.cell} is not covered (flagged or open): it cannot be opened")
        self._open(action.cell)

    def _open(self, cell: int) -> None:
        self._position = None
        if self.board.is_mine(cell):
            self.mines_opened += 1
            self._view[cell] = MINE
            if self.rules == _CLASSIC:
                self.status = Status.LOST
                return
            self._check_end()
            return
        cascades = self.rules != _MINESEARCH  # minesearch opens one square a move
        stack = [cell]
        while stack:
            current = stack.pop()
            if self._view[current] != COVERED:
                continue
            self.opened += 1
            clue = self.board.clue(current)
            shown = not (self.withheld and self._rng.random() < self.withheld)
            self._view[current] = clue if shown else WITHHELD
            if shown and clue == 0 and cascades:
                stack.extend(n for n in self._neighbours[current] if self._view[n] == COVERED)
        self._check_end()

    def _check_end(self) -> None:
        if self.rules == _CLASSIC:
            if self.opened == self.safe_cells:
                self.status = Status.WON
        elif self.rules == _MINESEARCH:
            if self.mines_opened == self.board.n_mines:
                self.status = Status.WON
        else:  # score: ends when nothing is left covered
            if not np.any(self._view == COVERED):
                self.status = Status.WON if self.mines_opened == 0 and self.score == 1.0 else Status.FINISHED
