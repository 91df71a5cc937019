"""Boards: where the mines are, generated from a seed or loaded from a file.

The same seed gives the same board on every machine: generation draws only
from ``numpy.random.default_rng(seed)``.

Examples
--------
>>> board = Board.random("beginner", seed=1)
>>> board.width, board.height, board.n_mines
(9, 9, 10)
>>> board.is_mine(board.first_click)   # the safe policy's corner is never a mine
False
>>> Board.random("beginner", seed=1) == board
True
>>> Board.random("5x4x3", seed=2, first_click="opening").clue(Board.random("5x4x3", seed=2, first_click="opening").first_click)
0
"""

from __future__ import annotations

import functools
import json

import numpy as np

from ..actions import Vocabulary
from ..errors import CspminesError
from ..neighbours import neighbour_sum
from ..position import FLAG, MINE, Position, cell_index, neighbour_table

__all__ = ["Board", "PRESETS", "FIRST_CLICKS", "FirstClick", "check_first_click", "parse_size", "BoardFormatError"]

#: name -> (width, height, mines)
PRESETS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}


class FirstClick(Vocabulary):
    """Where a game's first click goes, and what it is promised (:meth:`Board.random`)."""

    SAFE = "safe"  # the top-left corner, never a mine
    OPENING = "opening"  # (3,3) on expert, (2,2) on smaller boards, always a zero
    UNSAFE = "unsafe"  # wherever the agent clicks, a mine or not
    RANDOM_SAFE = "random-safe"  # a safe cell drawn once the mines are placed
    HIGHEST = "highest"  # a safe cell of the highest clue, drawn once the mines are placed


#: The first-click rules' words, in order.
FIRST_CLICKS = FirstClick.words()


class BoardFormatError(CspminesError, ValueError):
    """A board file or size that cannot be read; says what and where."""


def parse_size(spec: str | tuple[int, int, int]) -> tuple[int, int, int]:
    """A preset name or ``WxHxM`` as (width, height, mines).

    >>> parse_size("expert"), parse_size("8x6x5")
    ((30, 16, 99), (8, 6, 5))
    >>> parse_size("8x6")
    Traceback (most recent call last):
    ...
    cspmines.games.board.BoardFormatError: board size '8x6' is neither a preset (beginner, intermediate, expert) nor WxHxM
    """
    if isinstance(spec, (tuple, list)) and len(spec) == 3:
        width, height, mines = (int(v) for v in spec)
    elif isinstance(spec, str) and spec in PRESETS:
        width, height, mines = PRESETS[spec]
    else:
        parts = str(spec).split("x")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            raise BoardFormatError(f"board size {spec!r} is neither a preset ({', '.join(PRESETS)}) nor WxHxM")
        width, height, mines = (int(p) for p in parts)
    if width < 1 or height < 1 or not 0 <= mines <= width * height:
        raise BoardFormatError(f"a {width}x{height} board cannot hold {mines} mines")
    return width, height, mines


def check_first_click(width: int, height: int, mines: int, policy: str) -> None:
    """Raise :class:`BoardFormatError` when a board of that size and mines cannot give the first
    click ``policy`` promises: every policy but ``unsafe`` opens a safe cell, so one must be left.

    >>> check_first_click(3, 3, 8, "safe")   # one safe cell: the corner
    >>> check_first_click(3, 3, 9, "unsafe")   # the agent clicks first, whatever it finds
    >>> check_first_click(3, 3, 9, "safe")
    Traceback (most recent call last):
    ...
    cspmines.games.board.BoardFormatError: a 3x3 board with 9 mines has no safe cell for the first click 'safe'
    """
    if policy not in FIRST_CLICKS:
        raise BoardFormatError(f"first_click must be one of {', '.join(FIRST_CLICKS)}, got {policy!r}")
    if policy != FirstClick.UNSAFE and mines >= width * height:
        counted = f"{mines} mine" + ("s" if mines != 1 else "")
        raise BoardFormatError(f"a {width}x{height} board with {counted} has no safe cell for the first click {policy!r}")


def _first_click_cell(width: int, height: int, policy: str) -> int | None:
    """Where the game makes the first click: the corner for ``safe`` (the convention of
    the published classic win rates), (3,3) on expert and (2,2) on smaller boards for
    ``opening`` (the "modern" convention); none for ``unsafe`` (the agent clicks first)."""
    if policy == FirstClick.SAFE:
        return 0
    if policy == FirstClick.OPENING:
        k = 3 if (width, height) == (30, 16) else 2
        row, col = min(k, height - 1), min(k, width - 1)
        return row * width + col
    if policy in (FirstClick.UNSAFE, FirstClick.RANDOM_SAFE, FirstClick.HIGHEST):
        return None  # none, or chosen once the mines are placed
    raise ValueError(f"first_click must be one of {', '.join(FIRST_CLICKS)}, got {policy!r}")


def _drawn_first_click(mines: np.ndarray, policy: str, rng: np.random.Generator) -> int:
    """The first click drawn once the mines are placed: any safe cell (``random-safe``), or a
    safe cell of the highest clue (``highest``), uniformly among them."""
    safe = np.flatnonzero(~mines.ravel())
    if policy == FirstClick.HIGHEST:
        clues = neighbour_sum(mines).ravel()
        safe = safe[clues[safe] == clues[safe].max()]
    return int(safe[rng.integers(len(safe))])


class Board:
    """The truth of a game: which cells are mines.

    Parameters
    ----------
    mines : array_like of bool, shape (height, width)
    first_click : int or None, keyword-only
        The cell the game opens first (``None``: the agent chooses).

    Examples
    --------
    >>> board = Board([[False, True, False], [False, False, False]])
    >>> print(board)
    3x2x1
    1*1
    111
    >>> board.n_mines, board.is_mine(1), board.clue(3)
    (1, True, 1)
    """

    def __init__(self, mines, *, first_click: int | None = None):
        array = np.array(mines, dtype=bool, copy=True)
        if array.ndim != 2 or array.size == 0:
            raise BoardFormatError(f"a board must be a non-empty 2-D array, got shape {array.shape}")
        array.setflags(write=False)
        self._mines = array
        self.first_click = first_click
        self._clues = neighbour_sum(array).ravel()  # every cell's count of neighbouring mines, flat
        self._clues.setflags(write=False)

    @classmethod
    def random(cls, size: str | tuple[int, int, int] = "beginner", *, seed: int | np.random.Generator | None = None, first_click: str = "safe") -> Board:
        """A uniformly random board given the first-click policy.

        Parameters
        ----------
        size : str or (width, height, mines)
            A preset (beginner 9x9/10, intermediate 16x16/40, expert 30x16/99) or ``"WxHxM"``.
        seed : int or numpy.random.Generator
        first_click : {"safe", "opening", "unsafe", "random-safe", "highest"}
            ``safe``: the corner click is never a mine. ``opening``: the click at
            (3,3) on expert, (2,2) otherwise, opens a zero (when the board has room).
            ``unsafe``: no guarantee, the agent clicks first (seed 001's random
            first click is its agent's own). ``random-safe``: the mines are placed
            uniformly, then the game opens a cell drawn uniformly from the safe
            ones (seed 004's "safe" square). ``highest``: the mines are placed
            uniformly, then the game opens a safe cell whose clue is the board's
            highest, drawn uniformly among ties (seed 000: "the initial square,
            which is guaranteed to have the highest possible label value").
        """
        width, height, n_mines = parse_size(size)
        check_first_click(width, height, n_mines, first_click)
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        click = _first_click_cell(width, height, first_click)
        excluded = set()
        if click is not None:
            excluded.add(click)
            if first_click == FirstClick.OPENING:
                excluded.update(neighbour_table(width, height)[click])
        candidates = np.array([c for c in range(width * height) if c not in excluded], dtype=np.int64)
        if n_mines > len(candidates):  # too dense for an opening: fall back to a safe click
            candidates = np.array([c for c in range(width * height) if c != click], dtype=np.int64)
        chosen = rng.choice(candidates, size=n_mines, replace=False)
        mines = np.zeros(width * height, dtype=bool)
        mines[chosen] = True
        if first_click in (FirstClick.RANDOM_SAFE, FirstClick.HIGHEST) and n_mines < width * height:
            click = _drawn_first_click(mines.reshape(height, width), first_click, rng)
        return cls(mines.reshape(height, width), first_click=click)

    # -- loading -------------------------------------------------------------
    @classmethod
    def from_position_text(cls, text: str, *, source: str = "<string>") -> Board:
        """A whole board in the shared position format: ``*`` or ``F`` marks every mine."""
        position = Position.from_string(text, source=source)
        mines = (position.grid == MINE) | (position.grid == FLAG)
        if position.mines is not None and int(mines.sum()) != position.mines:
            raise BoardFormatError(f"{source}: the header says {position.mines} mines but {int(mines.sum())} are marked")
        return cls(mines)

    @classmethod
    def from_json(cls, text: str, *, source: str = "<string>") -> Board:
        """``{"width": W, "height": H, "mines": [[row, col], ...]}``, and ``"first_click": [row, col]`` where
        the board carries one (a no-guess board's)."""
        try:
            data = json.loads(text)
            width, height = int(data["width"]), int(data["height"])
            cells = [(int(r), int(c)) for r, c in data["mines"]]
            click = data.get("first_click")
            click = None if click is None else tuple(int(v) for v in click)
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise BoardFormatError(f"{source}: not a board JSON object with width, height, mines: {error}") from None
        mines = np.zeros((height, width), dtype=bool)
        for r, c in cells:
            if not (0 <= r < height and 0 <= c < width):
                raise BoardFormatError(f"{source}: mine ({r}, {c}) is outside the {width}x{height} board")
            mines[r, c] = True
        if click is not None and not (len(click) == 2 and 0 <= click[0] < height and 0 <= click[1] < width):
            raise BoardFormatError(f"{source}: the first click {list(click)} is not a [row, col] of the {width}x{height} board")
        return cls(mines, first_click=None if click is None else click[0] * width + click[1])

    def to_json(self) -> str:
        """This board as :meth:`from_json` reads it (its first click too, where it has one).

        >>> board = Board([[False, True], [False, False]])
        >>> board.to_json()
        '{"width": 2, "height": 2, "mines": [[0, 1]]}'
        >>> Board.from_json(board.to_json()) == board
        True
        >>> Board(board.mines, first_click=2).to_json()
        '{"width": 2, "height": 2, "mines": [[0, 1]], "first_click": [1, 0]}'
        """
        cells = [list(divmod(int(cell), self.width)) for cell in np.flatnonzero(self._mines.ravel())]
        data: dict = {"width": self.width, "height": self.height, "mines": cells}
        if self.first_click is not None:
            data["first_click"] = list(divmod(int(self.first_click), self.width))
        return json.dumps(data)

    @classmethod
    def from_layout(cls, width: int, height: int, cells) -> Board:
        """The ``width`` x ``height`` board with mines in the flat ``cells`` (a layout as
        :func:`cspmines.sample_layouts` draws it).

        >>> print(Board.from_layout(3, 2, {1, 5}))
        3x2x2
        1*2
        12*
        >>> Board.from_layout(3, 2, {6})
        Traceback (most recent call last):
        ...
        cspmines.games.board.BoardFormatError: mine cell 6 is outside the 3x2 board
        """
        mines = np.zeros(width * height, dtype=bool)
        for cell in cells:
            if not 0 <= cell < mines.size:
                raise BoardFormatError(f"mine cell {cell} is outside the {width}x{height} board")
            mines[cell] = True
        return cls(mines.reshape(height, width))

    @classmethod
    def from_mbf(cls, data: bytes, *, source: str = "<bytes>") -> Board:
        """The MBF binary format: width, height (one byte each), mine count (two bytes,
        big-endian), then one (x, y) byte pair per mine."""
        if len(data) < 4:
            raise BoardFormatError(f"{source}: an MBF file has at least 4 bytes, got {len(data)}")
        width, height, count = data[0], data[1], int.from_bytes(data[2:4], "big")
        if len(data) != 4 + 2 * count:
            raise BoardFormatError(f"{source}: MBF header says {count} mines, which needs {4 + 2 * count} bytes, got {len(data)}")
        mines = np.zeros((height, width), dtype=bool)
        for i in range(count):
            x, y = data[4 + 2 * i], data[5 + 2 * i]
            if not (x < width and y < height):
                raise BoardFormatError(f"{source}: MBF mine {i} at x={x}, y={y} is outside the {width}x{height} board")
            mines[y, x] = True
        return cls(mines)

    def to_mbf(self) -> bytes:
        """This board in the MBF binary format (boards up to 255x255)."""
        cells = np.flatnonzero(self._mines.ravel())
        out = bytearray([self.width, self.height]) + len(cells).to_bytes(2, "big")
        for cell in cells:
            y, x = divmod(int(cell), self.width)
            out += bytes([x, y])
        return bytes(out)

    # -- reading -------------------------------------------------------------
    @property
    def width(self) -> int:
        return self._mines.shape[1]

    @property
    def height(self) -> int:
        return self._mines.shape[0]

    @property
    def size(self) -> int:
        return self._mines.size

    @functools.cached_property
    def n_mines(self) -> int:  # the mines are read-only: counted once (a game asks every move)
        return int(self._mines.sum())

    @property
    def mines(self) -> np.ndarray:
        """Read-only ``(height, width)`` bool array."""
        return self._mines

    def index(self, cell) -> int:
        """The flat index of ``cell``, a flat index or a ``(row, col)`` pair, checked (:func:`~cspmines.position.cell_index`)."""
        if type(cell) is int and 0 <= cell < self._clues.size:  # the common case, read without a call
            return cell
        return cell_index(cell, self.width, self.height)

    def is_mine(self, cell) -> bool:
        """Whether ``cell`` (a flat index or a ``(row, col)`` pair) is a mine."""
        return bool(self._mines.flat[self.index(cell)])

    def clue(self, cell) -> int:
        """The number of mines around ``cell`` (a flat index or a ``(row, col)`` pair)."""
        return int(self._clues[self.index(cell)])

    def __eq__(self, other) -> bool:
        return isinstance(other, Board) and np.array_equal(self._mines, other._mines) and self.first_click == other.first_click

    def __hash__(self) -> int:
        return hash((self._mines.tobytes(), self._mines.shape, self.first_click))

    def __repr__(self) -> str:
        return f"<Board {self.width}x{self.height} with {self.n_mines} mines, first click {self.first_click}>"

    def __str__(self) -> str:
        """The whole board in the shared format, mines as ``*``."""
        rows = ["".join("*" if m else str(self.clue(r * self.width + c)) for c, m in enumerate(row)) for r, row in enumerate(self._mines)]
        return "\n".join([f"{self.width}x{self.height}x{self.n_mines}", *rows])
