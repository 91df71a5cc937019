"""``cspmines sample``: mine layouts drawn uniformly from those a position allows."""

from __future__ import annotations

import sys

from ...position import Position
from ..options import (
    DEFAULT_SECONDS,
    Help,
    add_memory_option,
    add_total_or_density,
    limit_of,
    seconds_or_none,
    whole,
)

__all__ = ["add_parser", "run"]

HELP = """\
Whole boards drawn uniformly from the mine layouts a position allows, exactly
(each layout with the same chance), one board a block, or JSON lines.

examples:
  cspmines sample board.txt --count 3 --seed 1
  cspmines sample board.txt --count 100 --json > layouts.jsonl
"""


def add_parser(commands) -> None:
    """The ``sample`` command's options, and :func:`run` to run it."""
    sample = commands.add_parser("sample", help="mine layouts drawn uniformly from those a position allows",
                                 description=HELP,
                                 formatter_class=Help)
    sample.add_argument("file", help="position file, or - for standard input")
    sample.add_argument("--count", type=whole(1), default=1, help="how many layouts")
    sample.add_argument("--seed", type=whole(0), help="the same seed draws the same layouts")
    add_total_or_density(sample)
    sample.add_argument("--time-limit", type=seconds_or_none, default=DEFAULT_SECONDS,
                        help="seconds allowed, or none; the layouts drawn by then are printed")
    add_memory_option(sample, "the count and the layouts")
    sample.add_argument("--json", action="store_true", help="one board JSON object per line (as Board.from_json reads)")
    sample.set_defaults(run=run)


def run(args, out) -> int:
    """Each layout as a whole board: the position format with mines as ``*``, or board JSON."""
    from ...engine.engine import sample_layouts
    from ...errors import BudgetExceededError
    from ...games.board import Board

    position = Position.from_file(args.file)
    cut_short = None
    try:
        layouts = sample_layouts(
            position, args.count, seed=args.seed, mines=args.mines, density=args.density,
            limit=limit_of(args),
        )
    except BudgetExceededError as error:
        layouts, cut_short = error.layouts or [], error
    for index, layout in enumerate(layouts):
        board = Board.from_layout(position.width, position.height, layout)
        if args.json:
            out.write(board.to_json() + "\n")
        else:
            out.write(("\n" if index else "") + str(board) + "\n")
    if cut_short is not None:
        print(f"cspmines: cut short: {cut_short}", file=sys.stderr)
    return 0
