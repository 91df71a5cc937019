"""Positions: a Minesweeper board as a player sees it.

A :class:`Position` is an immutable grid of cell codes plus an optional mine
total. Cells are flat integers ``row * width + column``; :meth:`Position.cell`
and :meth:`Position.row_col` convert. The text format is the one in
``docs/format.md`` (a superset of JSMinesweeper's and Hill's ``.mine``).

Examples
--------
>>> from cspmines import Position
>>> p = Position.from_string('''
... 3x2x1
... 1..
... 1..
... ''')
>>> p.width, p.height, p.mines
(3, 2, 1)
>>> p.covered_cells
(1, 2, 4, 5)
>>> p.row_col(4)
(1, 1)
>>> print(p)
3x2x1
1..
1..
>>> p == eval(repr(p))
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from .cells import COVERED, FLAG, MINE, WITHHELD  # cell codes in Position.grid; clues are their own value 0..8
from .drawing import render_svg
from .errors import CellTypeError, OffBoardError, PositionFormatError
from .neighbours import neighbour_array, neighbour_table, neighbours_of

__all__ = ["Position", "COVERED", "FLAG", "MINE", "WITHHELD", "cell_index", "is_whole", "neighbour_table", "neighbour_array",
           "neighbours_of"]

_CHAR_TO_CODE = {".": COVERED, "H": COVERED, "h": COVERED, "F": FLAG, "*": MINE, "?": WITHHELD}
_CHAR_TO_CODE.update({str(d): d for d in range(9)})
_CODE_TO_CHAR = {COVERED: ".", FLAG: "F", MINE: "*", WITHHELD: "?"}
_CODE_TO_CHAR.update({d: str(d) for d in range(9)})


def is_whole(value) -> bool:
    """Whether ``value`` is a whole number: an int (numpy's too), not a bool, float or string. Counts,
    totals, seeds and cells are checked with it wherever they come from a caller.

    >>> is_whole(3), is_whole(np.int64(3)), is_whole(True), is_whole(3.0), is_whole("3")
    (True, True, False, False, False)
    """
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def cell_index(cell, width: int, height: int) -> int:
    """The flat index of a cell argument on a ``width`` x ``height`` board: the one reader of every cell a
    public function takes. A cell is a flat index ``row * width + col`` or a ``(row, col)`` pair (a tuple or
    a list of two), of whole numbers (:func:`is_whole`: numpy's too, never a bool).

    Raises
    ------
    OffBoardError
        A cell off the board (an ``IndexError`` too).
    CellTypeError
        Neither a flat index nor a pair of whole numbers (a ``TypeError`` too).

    >>> cell_index(5, 3, 2), cell_index((1, 2), 3, 2), cell_index([1, 2], 3, 2)
    (5, 5, 5)
    >>> cell_index((2, 0), 3, 2)
    Traceback (most recent call last):
    ...
    cspmines.errors.OffBoardError: (2, 0) is outside the 3x2 board (rows 0 to 1, columns 0 to 2)
    >>> cell_index(True, 3, 2)
    Traceback (most recent call last):
    ...
    cspmines.errors.CellTypeError: a cell is a flat index or a (row, col) pair of whole numbers, got True
    """
    if is_whole(cell):
        if not 0 <= cell < width * height:
            raise OffBoardError(f"cell {cell} is outside the {width}x{height} board (cells 0 to {width * height - 1})")
        return int(cell)
    if isinstance(cell, (tuple, list)) and len(cell) == 2 and all(is_whole(value) for value in cell):
        row, col = int(cell[0]), int(cell[1])
        if not (0 <= row < height and 0 <= col < width):
            raise OffBoardError(f"({row}, {col}) is outside the {width}x{height} board "
                                f"(rows 0 to {height - 1}, columns 0 to {width - 1})")
        return row * width + col
    raise CellTypeError(f"a cell is a flat index or a (row, col) pair of whole numbers, got {cell!r}")


class Position:
    """An immutable Minesweeper position.

    Parameters
    ----------
    grid : array_like of int, shape (height, width)
        Cell codes: 0..8 a revealed clue, :data:`~cspmines.cells.COVERED`, :data:`~cspmines.cells.FLAG`,
        :data:`~cspmines.cells.MINE` (an opened mine) or :data:`~cspmines.cells.WITHHELD` (opened, clue withheld).
    mines : int or None, keyword-only
        The total number of mines on the board, flags and opened mines
        included; ``None`` when unknown.

    Raises
    ------
    PositionFormatError
        Unknown codes, an empty grid, a total out of range or below the known mines.

    Examples
    --------
    >>> position = Position([[1, COVERED, COVERED], [COVERED, COVERED, COVERED]], mines=1)
    >>> position.covered_cells, position.clue_cells, position.row_col(4)
    ((1, 2, 3, 4, 5), (0,), (1, 1))
    >>> print(position)
    3x2x1
    1..
    ...
    >>> position
    Position.from_string('3x2x1\\n1..\\n...')
    >>> Position.from_string(str(position)) == position
    True
    """

    def __init__(self, grid: Iterable, *, mines: int | None = None):
        array = np.array(grid, dtype=np.int8, copy=True)
        if array.ndim != 2 or array.size == 0:
            raise PositionFormatError(f"a grid must be a non-empty 2-D array, got shape {array.shape}")
        valid = (array >= WITHHELD) & (array <= 8)
        if not valid.all():
            row, col = map(int, np.argwhere(~valid)[0])
            raise PositionFormatError(f"unknown cell code {int(array[row, col])} at row {row}, column {col}")
        if mines is not None:
            if not is_whole(mines):
                raise PositionFormatError(f"the mine total must be an int, got {mines!r}")
            mines = int(mines)
            known = int(np.count_nonzero((array == FLAG) | (array == MINE)))
            if not known <= mines <= array.size:
                raise PositionFormatError(
                    f"the mine total {mines} must lie between the {known} known mines and the {array.size} cells"
                )
        array.setflags(write=False)
        self._grid = array
        self._mines = mines
        self._hash: int | None = None

    @classmethod
    def _trusted(cls, array: np.ndarray, mines: int | None) -> Position:
        """A position over ``array`` (int8, 2-D, valid codes, a total that fits) with no checks and
        no copy: for grids the library has just made itself, many times a move (a game's view, a
        look-ahead's imagined clue). ``array`` must not be written to afterwards."""
        position = cls.__new__(cls)
        array.setflags(write=False)
        position._grid = array
        position._mines = mines
        position._hash = None
        return position

    def _with_cell(self, cell: int, code: int) -> Position:
        """A copy with flat ``cell`` showing ``code`` and the same total, unchecked: for the library's
        own one-cell changes of a valid position (a clue revealed in thought, a cell flagged to see
        what follows), where ``code`` keeps it valid."""
        grid = self._grid.copy()
        grid.flat[cell] = code
        return Position._trusted(grid, self._mines)

    # -- reading and writing -------------------------------------------------
    @classmethod
    def from_string(cls, text: str, *, source: str = "<string>") -> Position:
        """Read a position in the shared text format.

        Parameters
        ----------
        text : str
            Header ``WxH`` or ``WxHxM``, then H rows of W characters; lines
            starting with ``#`` and blank lines are skipped.
        source : str, keyword-only
            Name used in error messages (a file name).

        Raises
        ------
        PositionFormatError
            Names the line and column and quotes the line.

        Examples
        --------
        >>> Position.from_string("2x1x1\\nF1").known_mine_cells
        (0,)
        >>> Position.from_string("2x1x1\\nF1.")
        Traceback (most recent call last):
        ...
        cspmines.errors.PositionFormatError: <string>:2:3: row has 3 cells, the header says 2: 'F1.'
        """
        if not isinstance(text, str):
            raise TypeError(f"Position.from_string() needs the position's text as a str, got {type(text).__name__}")
        lines = [
            (number, line.rstrip("\r\n").rstrip())
            for number, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
        if not lines:
            raise PositionFormatError("no header line 'WxH' or 'WxHxM' found", source=source, line=1)
        header_number, header = lines[0]
        width, height, mines = _parse_header(header, source=source, line=header_number)

        def header_error(reason: str, column: int) -> PositionFormatError:
            return PositionFormatError(reason, source=source, line=header_number, column=column, text=header)

        rows = lines[1:]
        if len(rows) > height:  # point at the first row too many
            number, row = rows[height]
            raise PositionFormatError(
                f"the header says {height} rows but {len(rows)} follow", source=source, line=number, text=row
            )
        if len(rows) < height:  # point at the height in the header
            raise header_error(f"the header says {height} rows but {len(rows)} follow", header.index("x") + 2)
        grid = _read_rows(rows, width, source)
        if mines is not None:
            known = int(np.count_nonzero((grid == FLAG) | (grid == MINE)))
            total_column = header.rfind("x") + 2
            if known > mines:
                raise header_error(f"{known} known mine{'' if known == 1 else 's'} (flags and opened mines) exceed the total of {mines}", total_column)
            if mines > width * height:
                raise header_error(f"a total of {mines} mines does not fit in {width * height} cells", total_column)
        return cls(grid, mines=mines)

    @classmethod
    def from_file(cls, path) -> Position:
        """Read a position file (``-`` reads standard input).

        >>> import tempfile, os
        >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        ...     _ = f.write("2x1x1\\n1.\\n")
        >>> Position.from_file(f.name).covered_cells
        (1,)
        >>> os.unlink(f.name)
        """
        if str(path) == "-":
            import sys

            return cls.from_string(decode_text(sys.stdin.buffer.read(), "<stdin>"), source="<stdin>")
        path = Path(path)
        return cls.from_string(decode_text(path.read_bytes(), str(path)), source=str(path))

    def __str__(self) -> str:
        header = f"{self.width}x{self.height}" + ("" if self._mines is None else f"x{self._mines}")
        rows = ("".join(_CODE_TO_CHAR[int(code)] for code in row) for row in self._grid)
        return "\n".join([header, *rows])

    def __repr__(self) -> str:
        return f"Position.from_string({str(self)!r})"

    def _repr_svg_(self) -> str:
        """Draws itself in a notebook (:func:`cspmines.drawing.render_svg`)."""
        return render_svg(self)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._mines == other._mines and np.array_equal(self._grid, other._grid)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._grid.shape, self._grid.tobytes(), self._mines))
        return self._hash

    def __reduce__(self):
        # Pickle as text: compact, and the same validation runs on the way back in.
        return (_rebuild, (str(self),))

    # -- shape and cells -----------------------------------------------------
    @property
    def grid(self) -> np.ndarray:
        """The read-only ``(height, width)`` int8 array of cell codes."""
        return self._grid

    @property
    def width(self) -> int:
        return self._grid.shape[1]

    @property
    def height(self) -> int:
        return self._grid.shape[0]

    @property
    def size(self) -> int:
        """Number of cells."""
        return self._grid.size

    @property
    def mines(self) -> int | None:
        """The board's total number of mines, or ``None`` when unknown."""
        return self._mines

    def cell(self, row: int, col: int) -> int:
        """The flat cell index of ``(row, col)``.

        >>> Position.from_string("3x2\\n...\\n...").cell(1, 2)
        5
        """
        return cell_index((row, col), self.width, self.height)

    def index(self, cell) -> int:
        """The flat index of ``cell``, a flat index or a ``(row, col)`` pair, checked (:func:`cell_index`).

        >>> Position.from_string("3x2\\n...\\n...").index((1, 2))
        5
        """
        if type(cell) is int and 0 <= cell < self._grid.size:  # the common case, read without a call
            return cell
        return cell_index(cell, self.width, self.height)

    def row_col(self, cell) -> tuple[int, int]:
        """The ``(row, col)`` of a cell (a flat index, or a pair: checked and given back)."""
        return divmod(self.index(cell), self.width)

    def neighbours(self, cell) -> tuple[int, ...]:
        """The flat indices of the up to 8 cells around ``cell`` (a flat index or a ``(row, col)`` pair)."""
        if type(cell) is not int or not 0 <= cell < self._grid.size:  # the common case read inline: a game asks often
            cell = cell_index(cell, self.width, self.height)
        return neighbour_table(self.width, self.height)[cell]

    def code(self, cell) -> int:
        """The code of one cell (a clue 0..8, or one of the negative constants)."""
        return int(self._grid.flat[self.index(cell)])

    def _cells_where(self, mask: np.ndarray) -> tuple[int, ...]:
        return tuple(np.flatnonzero(mask).tolist())  # Python ints, converted in C

    @functools.cached_property
    def covered_cells(self) -> tuple[int, ...]:
        """Covered cells (the unknowns), in flat order."""
        return self._cells_where(self._grid == COVERED)

    @functools.cached_property
    def known_mine_cells(self) -> tuple[int, ...]:
        """Flags and opened mines: cells taken as known mines."""
        return self._cells_where((self._grid == FLAG) | (self._grid == MINE))

    @functools.cached_property
    def clue_cells(self) -> tuple[int, ...]:
        """Revealed clues (0..8)."""
        return self._cells_where(self._grid >= 0)

    def with_mines(self, mines: int | None) -> Position:
        """The same board with another mine total (``None``: unknown)."""
        return Position(self._grid, mines=mines)


def decode_text(data: bytes, source: str, what: str = "a position file") -> str:
    """The text of a file (``what`` it should be): UTF-8, a leading byte-order mark allowed; anything else is named.

    >>> decode_text(b"\\xef\\xbb\\xbf2x1\\n..", "f.txt")
    '2x1\\n..'
    >>> decode_text(b"\\x7fELF\\x02\\x00", "/bin/ls")
    Traceback (most recent call last):
    ...
    cspmines.errors.PositionFormatError: /bin/ls:1: not a position file: it is not UTF-8 text (a binary file?)
    """
    if b"\x00" in data[:4096]:
        raise PositionFormatError(f"not {what}: it is not UTF-8 text (a binary file?)", source=source, line=1)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise PositionFormatError(f"not {what}: it is not UTF-8 text (a binary file?)", source=source, line=line) from None


def _rebuild(text: str) -> Position:
    return Position.from_string(text)


def _parse_header(header: str, *, source: str, line: int) -> tuple[int, int, int | None]:
    parts = header.strip().split("x")
    if len(parts) not in (2, 3):
        raise PositionFormatError(
            "the header must be 'WxH' or 'WxHxM'", source=source, line=line, column=1, text=header
        )
    numbers = []
    column = 1
    for part in parts:
        if not part.isdigit():
            raise PositionFormatError(
                f"{part!r} is not a whole number in the header", source=source, line=line, column=column, text=header
            )
        numbers.append(int(part))
        column += len(part) + 1
    width, height = numbers[0], numbers[1]
    if width < 1 or height < 1:
        raise PositionFormatError("the board must be at least 1x1", source=source, line=line, column=1, text=header)
    return width, height, (numbers[2] if len(numbers) == 3 else None)


def _read_rows(rows: list[tuple[int, str]], width: int, source: str) -> np.ndarray:
    """The grid of the position format's rows (each with its line number), every character and every row's
    length checked."""
    grid = np.empty((len(rows), width), dtype=np.int8)
    for r, (number, row) in enumerate(rows):
        row = row.strip()
        for c, char in enumerate(row):
            code = _CHAR_TO_CODE.get(char)
            if code is None:
                reason = f"clue {char} is above 8" if char == "9" else f"unknown character {char!r}"
                raise PositionFormatError(reason, source=source, line=number, column=c + 1, text=row)
            if c < width:
                grid[r, c] = code
        if len(row) != width:
            raise PositionFormatError(
                f"row has {len(row)} cells, the header says {width}",
                source=source,
                line=number,
                column=min(len(row), width) + 1,
                text=row,
            )
    return grid
