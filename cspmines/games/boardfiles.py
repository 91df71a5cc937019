"""Board files: every board a file holds, each named by where it is.

A file of one board (MBF, a board JSON object, the position format with every mine
marked) is named by its name. A file of several names each board by the file and
the line it starts on, ``boards.jsonl:3``: JSON lines, one board a line, as
``cspmines generate`` and ``cspmines sample --json`` print them, or text boards one
after another (each from its header ``WxHxM``), as ``cspmines sample`` prints them.
``-`` reads standard input. Bytes that are not UTF-8 text are named by file and line.

>>> one, two = Board.random("beginner", seed=1), Board.random("beginner", seed=2)
>>> [(name, board == one) for name, board in boards_of_text(one.to_json() + "\\n" + two.to_json(), "b.jsonl")]
[('b.jsonl:1', True), ('b.jsonl:2', False)]
>>> [name for name, _ in boards_of_text(str(one) + "\\n\\n" + str(two), "b.txt")]
['b.txt:1', 'b.txt:12']
>>> [name for name, _ in boards_of_text(one.to_json(), "b.json")]
['b.json']
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from ..errors import PositionFormatError
from ..position import decode_text
from .board import Board, BoardFormatError

__all__ = ["boards_of_text", "read_boards", "read_board"]

#: A text board's header: where each board of a file of several starts.
_HEADER = re.compile(r"\s*\d+x\d+(x\d+)?\s*")


def read_boards(path) -> list[tuple[str, Board]]:
    """Every board in the file ``path`` (``-``: standard input), each with its name (see the module).

    Raises
    ------
    BoardFormatError
        A board that cannot be read, or bytes that are not text; named by file and line.
    OSError
        The file cannot be read.
    """
    if str(path) == "-":
        return boards_of_text(_text(sys.stdin.buffer.read(), "<stdin>"), "<stdin>")
    path = Path(path)
    if path.suffix.lower() == ".mbf":
        return [(str(path), Board.from_mbf(path.read_bytes(), source=str(path)))]
    return boards_of_text(_text(path.read_bytes(), str(path)), str(path))


def boards_of_text(text: str, source: str) -> list[tuple[str, Board]]:
    """Every board in ``text``, the contents of the file ``source`` (JSON or the text format)."""
    if text.lstrip().startswith("{"):
        return _json_boards(text, source)
    lines = text.splitlines()
    starts = [number for number, line in enumerate(lines) if _HEADER.fullmatch(line)]
    if len(starts) <= 1:
        return [(source, _text_board(text, source, source))]
    ends = starts[1:] + [len(lines)]
    # each board's lines where they are in the file (blank before), so that an error names the file's line
    return [(f"{source}:{start + 1}", _text_board("\n" * start + "\n".join(lines[start:end]), source, f"{source}:{start + 1}"))
            for start, end in zip(starts, ends, strict=True)]


def _text(data: bytes, source: str) -> str:
    try:
        return decode_text(data, source, "a board file")
    except PositionFormatError as error:
        raise BoardFormatError(str(error)) from None


def _json_boards(text: str, source: str) -> list[tuple[str, Board]]:
    """One board JSON object (on any number of lines), or JSON lines of them, each named by its line."""
    try:
        json.loads(text)
    except json.JSONDecodeError:  # more than one object: a board a line
        return [(f"{source}:{number}", Board.from_json(line, source=f"{source}:{number}"))
                for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    return [(source, Board.from_json(text, source=source))]


def _text_board(text: str, source: str, name: str) -> Board:
    """A board in the text format; an error names ``name`` (the file, or its board's first line)."""
    try:
        return Board.from_position_text(text, source=source)
    except PositionFormatError as error:
        raise BoardFormatError(str(error)) from None
    except BoardFormatError as error:
        raise BoardFormatError(f"{name}: {str(error).removeprefix(source + ': ')}") from None


def read_board(path) -> Board:
    """Read a file of one board: ``.mbf`` (binary), board JSON, or a position text file with the mines
    marked (a file of several: :func:`read_boards`).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "b.mbf")
    >>> _ = open(path, "wb").write(Board.random("beginner", seed=1).to_mbf())
    >>> read_board(path).n_mines
    10
    """
    boards = read_boards(path)
    if len(boards) != 1:
        raise BoardFormatError(f"{path}: it holds {len(boards)} boards: read them with cspmines.games.read_boards")
    return boards[0][1]
