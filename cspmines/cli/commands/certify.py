"""``cspmines certify``: whether boards need a guess from their first click."""

from __future__ import annotations

import json
import sys

from ...engine.budget import check_board_size
from ...games import Board, BoardFormatError, certify, read_boards
from ...games.certificate import Certificate
from ..options import Help, add_memory_option, row_col

__all__ = ["add_parser", "certificate_json", "certificate_text", "run"]

HELP = """\
Whether each board needs a guess from its first click: played from it by exact
reasoning with the mine total, opening only cells proved safe. Exit status 0 when no
board needs one, 1 when one does (the report names the first position where a guess
is needed, its proved mines flagged, and its least risky cells), 2 on bad input.
Boards: board JSON (with its first click, as generate writes it), MBF, or the text
format with every mine marked (* or F). A file of several (JSON lines, as generate
prints them; text boards one after another, as sample prints them) is certified
board by board, each named by its file and line (boards.jsonl:3); - reads standard
input.

examples:
  cspmines certify boards/*.json
  cspmines certify boards.jsonl
  cspmines generate --no-guess --count 5 | cspmines certify -
  cspmines certify board.mbf --first-click 0,0
  cspmines certify board.json --json
"""


def add_parser(commands) -> None:
    """The ``certify`` command's options, and :func:`run` to run it."""
    command = commands.add_parser("certify", help="whether boards need a guess from their first click",
                                  description=HELP, formatter_class=Help)
    command.add_argument("boards", nargs="+", metavar="BOARD",
                         help="board files (.json, JSON lines, .mbf, or the text format, one board or several), or - for standard input")
    command.add_argument("--first-click", type=row_col, metavar="ROW,COL", help="the first click of boards that carry none")
    command.add_argument("--json", action="store_true", help="print JSON: one object a board, a list for several")
    add_memory_option(command, "a board's check", counts=False)
    command.set_defaults(run=run)


def run(args, out) -> int:
    answers, bad = [], 0
    boards = _named_boards(args.boards)
    many = len(args.boards) > 1 or len(boards) > 1
    for name, board in boards:
        try:
            if isinstance(board, Exception):
                raise board
            check_board_size(board.width, board.height, args.memory)
            click = _first_click(board, args.first_click)
            certificate = certify(board, click)
        except (BoardFormatError, OSError, ValueError) as error:
            if not many:
                raise
            bad += 1
            message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            print(f"cspmines: error: {message if message.startswith(name + ':') else f'{name}: {message}'}", file=sys.stderr)
            answers.append({"file": name, "error": message})
            continue
        answers.append(certificate_json(name, certificate))
        if not args.json:
            out.write(certificate_text(name, certificate) + "\n")
    if args.json:
        json.dump(answers if many else answers[0], out)
        out.write("\n")
    if bad:
        return 2
    return 0 if all(answer["no_guess"] for answer in answers) else 1


def _named_boards(names: list) -> list:
    """``(name, board)`` for every board in the files named (:func:`~cspmines.games.read_boards`: a board of a
    file of several named by its line), ``(name, error)`` for a file that cannot be read."""
    boards: list = []
    for name in names:
        try:
            boards.extend(read_boards(name))
        except (BoardFormatError, OSError, ValueError) as error:
            boards.append((name, error))
    return boards

def _first_click(board: Board, asked) -> int:
    """The board's own first click, else the option's (checked to be on the board)."""
    if board.first_click is not None:
        return board.first_click
    if asked is None:
        raise BoardFormatError("the board carries no first click: give one, --first-click ROW,COL")
    row, col = asked
    if not (row < board.height and col < board.width):
        raise BoardFormatError(f"--first-click {row},{col} is outside the {board.width}x{board.height} board")
    return row * board.width + col

def _cell(position, cell: int) -> str:
    row, col = position.row_col(cell)
    return f"({row},{col})"

def certificate_text(name: str, certificate: Certificate) -> str:
    """The report of one board: the verdict, and where a guess is needed, the position and its least risky cells."""
    position = certificate.position
    click = _cell(position, certificate.first_click)
    if certificate.no_guess:
        steps = certificate.exact_steps
        asked = "never asked" if not steps else "asked once" if steps == 1 else f"asked {steps} times"
        return (f"{name}: no guess needed from {click}: each of its {certificate.opened} safe cells is proved safe in turn "
                f"(the exact engine {asked}, one or two clues and the total proving the rest)")
    if certificate.first_click_mine:
        return f"{name}: a guess is needed from {click}: the first click is a mine"
    least, cells = certificate.least, certificate.least_cells
    assert least is not None  # a board that needs a guess, past its first click: its least chance is known
    more = f", and {len(cells) - 1} more cell{'s' if len(cells) > 2 else ''} at that chance" if len(cells) > 1 else ""
    lines = [f"{name}: a guess is needed from {click}: with {certificate.opened} safe cells open, no covered cell is provably safe",
             f"  least risky: {_cell(position, cells[0])} at {least} ({float(least):.4f}){more}",
             "  the position (proved mines flagged F):"]
    lines += ["  " + line for line in str(position).splitlines()]
    return "\n".join(lines)

def certificate_json(name: str, certificate: Certificate) -> dict:
    """One board's verdict as JSON (docs/cli.md)."""
    position = certificate.position
    return {
        "file": name,
        "first_click": list(position.row_col(certificate.first_click)),
        "no_guess": certificate.no_guess,
        "first_click_mine": certificate.first_click_mine,
        "opened": certificate.opened,
        "exact_steps": certificate.exact_steps,
        "least": None if certificate.least is None else str(certificate.least),
        "least_cells": [list(position.row_col(cell)) for cell in certificate.least_cells],
        "position": str(position),
    }
