"""``cspmines generate``: whole boards written as board JSON, no-guess ones among them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ...engine.budget import Stopwatch, check_board_size
from ...games import Board, draw_no_guess, parse_size
from ...games.board import FIRST_CLICKS, PRESETS
from ...games.noguess import DEFAULT_ATTEMPTS, NO_GUESS_CLICKS, Method
from ..options import Help, add_memory_option, whole

__all__ = ["add_parser", "run"]

#: What the summary says of each way of drawing.
_DRAWN = {
    None: "drawn uniformly under the first-click rule",
    Method.UNIFORM: "drawn uniformly among the boards the first click solves by exact reasoning with the mine total",
    Method.ADJUST: "adjusted (not uniform: mines were moved where play got stuck), each certified no-guess from its first click",
}


HELP = """\
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


def add_parser(commands) -> None:
    """The ``generate`` command's options, and :func:`run` to run it."""
    generate = commands.add_parser("generate", help="whole boards, no-guess ones with --no-guess, as board JSON files",
                                   description=HELP, formatter_class=Help)
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
    add_memory_option(generate, "a board and its check", counts=False)
    generate.set_defaults(run=run)


def run(args, out) -> int:
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
    watch, draws = Stopwatch(cpu=True), 0
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
        seconds = watch.seconds
        kind = "no-guess boards" if args.no_guess else "boards"
        how = _DRAWN[Method(args.method) if args.no_guess else None]
        cost = f"{draws / args.count:.1f} boards certified for each, " if args.no_guess else ""
        out.write(f"wrote {args.count} {kind} to {folder} ({width}x{height}, {mines} mines, first click {args.first_click}): "
                  f"{how}; {cost}{1000 * seconds / args.count:.1f} ms of CPU a board\n")
    return 0

