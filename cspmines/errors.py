"""The exception hierarchy: everything cspmines raises derives from :class:`CspminesError`.

Examples
--------
>>> from cspmines import Position, PositionFormatError
>>> try:
...     Position.from_string("2x1\\n19")
... except PositionFormatError as error:
...     print(error)
<string>:2:2: clue 9 is above 8: '19'
>>> issubclass(PositionFormatError, ValueError)
True
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CspminesError",
    "PositionFormatError",
    "InconsistentPositionError",
    "BackendUnavailableError",
    "UnknownBackendError",
    "BudgetExceededError",
    "MemoryBudgetError",
    "TooLargeError",
    "MissingTotalError",
    "CellError",
    "OffBoardError",
    "CellTypeError",
]


#: The most characters of a line an error quotes (the rest cut, marked ``...``).
QUOTED = 60


class CspminesError(Exception):
    """Root of every error cspmines raises on purpose."""


class PositionFormatError(CspminesError, ValueError):
    """Malformed position text; says where (source, line, column) and quotes the line.

    Attributes
    ----------
    source : str
        File name, or ``"<string>"``.
    line, column : int
        1-based line and column of the fault (column 0 when it is the whole line).
    text : str
        The offending line as read (the message quotes its first ``QUOTED`` characters, 60).
    reason : str
        What is wrong, in words.
    """

    def __init__(self, reason: str, *, source: str = "<string>", line: int = 0, column: int = 0, text: str = ""):
        self.reason = reason
        self.source = source
        self.line = line
        self.column = column
        self.text = text
        where = f"{source}:{line}:{column}" if column else f"{source}:{line}"
        shown = text if len(text) <= QUOTED else text[: QUOTED - 3] + "..."  # a line of a JSON file is no row to read
        quoted = f": {shown!r}" if text else ""
        super().__init__(f"{where}: {reason}{quoted}")


class InconsistentPositionError(CspminesError, ValueError):
    """A well-formed position that no mine layout fits.

    Attributes
    ----------
    clues : tuple of (row, column)
        The clue cells involved (a small conflicting set where one was found);
        empty when the conflict is with the mine total alone.

    Examples
    --------
    >>> from cspmines import Position, solve
    >>> try:
    ...     solve(Position.from_string("8x1x3\\n.2.0.1.."))   # the 2 needs both its cells, the 0 forbids one
    ... except InconsistentPositionError as error:
    ...     print(error.clues)
    ((0, 1), (0, 3))
    """

    def __init__(self, reason: str, *, clues: tuple[tuple[int, int], ...] = ()):
        self.reason = reason
        self.clues = tuple(clues)
        if self.clues:
            named = " ".join(f"({row},{col})" for row, col in self.clues)  # as the board and the cell lists write cells
            super().__init__(f"inconsistent position: {reason}; clue(s) at {named}")
        else:
            super().__init__(f"inconsistent position: {reason}")


class BackendUnavailableError(CspminesError, ImportError):
    """A backend whose optional solver package is not installed; says how to install it."""


class UnknownBackendError(CspminesError, ValueError):
    """A backend name that is not registered."""


class BudgetExceededError(CspminesError):
    """Work stopped at a time or node limit; :func:`cspmines.solve` catches it per chain.

    So a bounded solve does not raise: it says what it could not count exactly.

    >>> from importlib.resources import files
    >>> from cspmines import Limit, Position, solve
    >>> wide = Position.from_file(files("cspmines") / "data" / "examples" / "lattice13.txt")
    >>> analysis = solve(wide, limit=Limit(nodes=100))
    >>> analysis.exact, analysis.model_count, len(analysis.inexact_cells) > 0
    (False, None, True)
    """

    #: what was done by then, where that is worth keeping (:func:`cspmines.sample_layouts`: the layouts
    #: drawn, as sets; :func:`cspmines.engine.sampling.sample_mines`: as rows of a boolean array)
    layouts: Any = None


class MemoryBudgetError(BudgetExceededError):
    """Work stopped because it would pass its memory allowance (``Limit(memory=...)``).

    A structure is sized before it is built, so the allowance is not passed first and noticed after;
    a solve that meets this answers NOT EXACT, as a time cut does.

    >>> from cspmines import Limit, Position, solve
    >>> rows = ["1." * 30 if row % 2 == 0 else ".." * 30 for row in range(60)]   # a lattice of 1s
    >>> lattice = Position.from_string("60x60x400\\n" + "\\n".join(rows))
    >>> analysis = solve(lattice, limit=Limit(memory="8M"))   # its chain's states need far more
    >>> analysis.exact, analysis.chains[0].stats["cut"]
    (False, 'memory')
    """


class TooLargeError(CspminesError, ValueError):
    """A board or position too large to work on within the memory allowance; says by how much and how to
    raise it. Raised before any work starts."""


class MissingTotalError(CspminesError, ValueError):
    """The mine total is unknown and neither ``mines=`` nor ``density=`` was given.

    >>> from cspmines import Position, solve
    >>> solve(Position.from_string("3x1\\n.1.")).model_count
    Traceback (most recent call last):
    ...
    cspmines.errors.MissingTotalError: the position's mine total is unknown: pass mines= or density=
    >>> solve(Position.from_string("3x1\\n.1."), mines=1).model_count
    2
    """


class CellError(CspminesError):
    """A cell argument that names no cell of the board: :class:`OffBoardError` or :class:`CellTypeError`
    (:func:`cspmines.position.cell_index` reads every cell a public function takes)."""


class OffBoardError(CellError, IndexError):
    """A flat index or a ``(row, col)`` pair outside the board."""


class CellTypeError(CellError, TypeError):
    """A cell that is neither a flat index nor a ``(row, col)`` pair of whole numbers (a bool, a float, a
    string, a triple...)."""
