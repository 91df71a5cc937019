"""The board commands: ``generate`` (whole boards, no-guess ones among them) and ``certify`` (does a board need a guess)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from ..engine.question import check_board_size
from ..games import Board, BoardFormatError, certify, draw_no_guess, parse_size, read_boards
from ..games.board import FIRST_CLICKS, PRESETS
from ..games.certify import Certificate
from ..games.noguess import DEFAULT_ATTEMPTS, NO_GUESS_CLICKS, Method
from .parser import _Help, _memory_option, row_col, whole

__all__ = ["add_board_commands", "run_certify", "run_generate"]

#: What the summary says of each way of drawing.
_DRAWN = {
    None: "drawn uniformly under the first-click rule",
    Method.UNIFORM: "drawn uniformly among the boards the first click solves by exact reasoning with the mine total",
    Method.ADJUST: "adjusted (not uniform: mines were moved where play got stuck), each certified no-guess from its first click",
}


GENERATE_HELP = """\
Whole boards written as board JSON files (their first click in them), board i from
--seed and i alone. With --no-guess, only boards the first click solves without a
guess: from it, some covered cell is proved safe at every moment, by exact reasoning
with the mine total, until the board is won. They are drawn uniformly among all such
boards (boards drawn and certified until one needs no guess); --method adjust moves
mines where play got stuck instead, faster and not uniform (docs/format.md).

examples:
  cspmines generate --no-guess --preset expert --count 100 --seed 1 --out boards/
  cspmines generate --no-guess --preset expert --first-click opening --count 10 --out boards/
  cspmines generate --no-guess --size 30x16x130 --method adjust --out dense/
  cspmines generate --preset beginner --count 5 > boards.jsonl
  cspmines certify boards.jsonl
"""

CERTIFY_HELP = """\
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


def add_board_commands(commands) -> None:
    """``generate`` (boards, no-guess ones among them) and ``certify`` (does a board need a guess)."""
    generate = commands.add_parser("generate", help="whole boards, no-guess ones with --no-guess, as board JSON files",
                                   description=GENERATE_HELP, formatter_class=_Help)
    board = generate.add_mutually_exclusive_group()
    board.add_argument("--preset", choices=tuple(PRESETS), help="a standard board (default: expert)")
    board.add_argument("--size", metavar="WxHxM", help="width x height x mines")
    generate.add_argument("--no-guess", action="store_true", help="only boards the first click solves without a guess")
    generate.add_argument("--first-click", choices=FIRST_CLICKS, default="safe",
                          help=f"where the first click goes (with --no-guess: {' or '.join(NO_GUESS_CLICKS)})")
    generate.add_argument("--method", choices=Method.words(), default=Method.UNIFORM.value,
                          help="with --no-guess: uniform among no-guess boards, or adjust (faster, not uniform)")
    generate.add_argument("--count", type=whole(1), default=1, help="how many boards")
    generate.add_argument("--seed", type=whole(0), default=0, help="the boards' seed (board i from the seed and i)")
    generate.add_argument("--attempts", type=whole(1), default=DEFAULT_ATTEMPTS,
                          help="with --no-guess: boards certified for one before giving up")
    generate.add_argument("--out", metavar="DIR", help="write board-NNNNN.json files here (default: JSON lines on standard output)")
    _memory_option(generate, "a board and its check", counts=False)
    certify = commands.add_parser("certify", help="whether boards need a guess from their first click",
                                  description=CERTIFY_HELP, formatter_class=_Help)
    certify.add_argument("boards", nargs="+", metavar="BOARD",
                         help="board files (.json, JSON lines, .mbf, or the text format, one board or several), or - for standard input")
    certify.add_argument("--first-click", type=row_col, metavar="ROW,COL", help="the first click of boards that carry none")
    certify.add_argument("--json", action="store_true", help="print JSON: one object a board, a list for several")
    _memory_option(certify, "a board's check", counts=False)


def run_generate(args, out) -> int:
    width, height, mines = parse_size(args.size or args.preset or "expert")
    check_board_size(width, height, args.memory)  # before a board is drawn: a huge one would take the machine
    if args.method != "uniform" and not args.no_guess:
        raise ValueError("--method chooses how no-guess boards are drawn: add --no-guess")
    folder = Path(args.out) if args.out else None
    if folder is not None:
        if folder.exists() and not folder.is_dir():
            raise ValueError(f"--out {args.out}: a file is there, not a folder")
        folder.mkdir(exist_ok=True)
    digits = max(5, len(str(args.count - 1)))
    started, draws = time.process_time(), 0
    for i in range(args.count):
        rng = np.random.default_rng([args.seed, i])  # board i from the seed and i alone
        if args.no_guess:
            drawn = draw_no_guess((width, height, mines), seed=rng, first_click=args.first_click, method=args.method,
                                  attempts=args.attempts)
            board, draws = drawn.board, draws + drawn.attempts
        else:
            board, draws = Board.random((width, height, mines), seed=rng, first_click=args.first_click), draws + 1
        if folder is None:
            out.write(board.to_json() + "\n")
        else:
            (folder / f"board-{i:0{digits}d}.json").write_text(board.to_json() + "\n", encoding="utf-8")
    if folder is not None:
        seconds = time.process_time() - started
        kind = "no-guess boards" if args.no_guess else "boards"
        how = _DRAWN[Method(args.method) if args.no_guess else None]
        cost = f"{draws / args.count:.1f} boards certified for each, " if args.no_guess else ""
        out.write(f"wrote {args.count} {kind} to {folder} ({width}x{height}, {mines} mines, first click {args.first_click}): "
                  f"{how}; {cost}{1000 * seconds / args.count:.1f} ms of CPU a board\n")
    return 0


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


def run_certify(args, out) -> int:
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
