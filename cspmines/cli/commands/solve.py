"""``cspmines solve``: exact mine probabilities of a position file, and what opening a cell ends in."""

from __future__ import annotations

import json
import sys

from ...actions import Vocabulary
from ...engine.backends import backend_names
from ...engine.budget import Limit
from ...engine.clues import clue_spreads, covered_cells
from ...engine.engine import solve
from ...engine.insight import insight_of
from ...errors import BudgetExceededError
from ...position import Position
from ...present.answers import analysis_json, insight_json, outcomes_json
from ...present.render import board_text, insight_text, outcomes_text, summary_text
from ..options import (
    DEFAULT_SECONDS,
    Help,
    add_memory_option,
    add_total_or_density,
    limit_of,
    row_col,
    seconds_or_none,
    whole,
)

__all__ = ["Colour", "add_parser", "run"]


class Colour(Vocabulary):
    """Whether the board's chances are coloured: on a terminal (``auto``), always, or never."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"

HELP = """\
Exact mine probabilities of a position file (the text format: a header WxHxM, then
the rows; `.` covered, 0-8 clues, F flags, * opened mines, ? withheld clues).

The board is printed with row and column numbers. Each covered cell shows its
chance of being a mine in percent (S: certainly safe, M: certainly a mine, <1 and
>99 near the ends); clues are in brackets, [2]. Below it: the proved safe cells and
mines as (row,col), the least mine chance and where, the chains of influence.
--exact adds the number of mine layouts and every chance as an exact fraction.
--insight marks d dead cells, h unavoidable and p pseudo 50/50s after their chance
(a legend under the board says so), and where the layouts can be searched within
the budget each cell's chance of winning with best play (a-b: bounds), M a proved
mine (docs/engine.md).

examples:
  cspmines solve board.txt
  cspmines solve board.txt --exact
  cspmines solve board.txt --outcomes 3,4
  cspmines solve board.txt --insight
  cat board.txt | cspmines solve - --density 0.2 --json
"""


def add_parser(commands) -> None:
    """The ``solve`` command's options, and :func:`run` to run it."""
    solve = commands.add_parser("solve", help="mine probabilities of a position file", description=HELP, formatter_class=Help)
    solve.add_argument("file", help="position file, or - for standard input")
    solve.add_argument("--backend", default="auto", choices=backend_names(), help="the counting engine")
    add_total_or_density(solve)
    solve.add_argument("--time-limit", type=seconds_or_none, default=DEFAULT_SECONDS,
                       help="seconds allowed for counting, or none; past them the chances are estimates, marked NOT EXACT")
    solve.add_argument("--node-limit", type=whole(1), help="work units allowed for counting")
    add_memory_option(solve, "a solve")
    solve.add_argument("--exact", action="store_true", help="add the model count and exact fractions")
    solve.add_argument("--outcomes", type=row_col, action="append", metavar="ROW,COL",
                       help="also what opening this covered cell ends in, exactly: a mine, or each clue it shows (repeatable)")
    solve.add_argument("--insight", action="store_true", help="also mark dead cells (d) and 50/50s (h unavoidable, p pseudo) after their chance, "
                       "and every cell's chance of winning with best play, where the budget allows its search")
    solve.add_argument("--json", action="store_true", help="print JSON (schema in docs/cli.md)")
    solve.add_argument("--color", choices=Colour.words(), default=Colour.AUTO.value, help="colour the chances")
    solve.add_argument("--svg", help="also draw the board as SVG into this .svg file")
    solve.add_argument("--png", help="also draw the board as PNG into this .png file (needs matplotlib)")
    solve.add_argument("--outline", action="store_true", help="outline the chains of influence in the picture")
    solve.set_defaults(run=run)


def run(args, out) -> int:
    position = Position.from_file(args.file)
    budget = limit_of(args).start()
    analysis = solve(position, backend=args.backend, mines=args.mines, density=args.density, limit=budget.rest())
    spreads = _outcomes(analysis, args.outcomes or [], budget.rest(memory=None))
    seen = _insight(analysis, budget.rest()) if args.insight else None
    if args.svg:
        from ...present.picture import render_svg

        with open(args.svg, "w", encoding="utf-8") as handle:
            handle.write(render_svg(analysis, chains=args.outline))
    if args.png:
        from ...present.picture import render_png

        if position.size > 2500:  # matplotlib draws cell by cell: say why the wait
            print(f"cspmines: drawing {position.size:,} cells into {args.png} ...", file=sys.stderr)
        render_png(analysis, args.png, chains=args.outline)
    if args.json:
        result = analysis_json(analysis, exact=args.exact)
        if args.outcomes:
            result["outcomes"] = outcomes_json(position, spreads, exact=args.exact)
        if seen is not None:
            result["insight"] = insight_json(position, seen)
        json.dump(result, out)
        out.write("\n")
        return 0
    color = args.color == Colour.ALWAYS or (args.color == Colour.AUTO and getattr(out, "isatty", lambda: False)())
    out.write(board_text(analysis, color=color, insight=seen) + "\n")
    out.write(summary_text(analysis, exact=args.exact) + "\n")
    if spreads:
        out.write(outcomes_text(position, spreads, exact=args.exact) + "\n")
    if seen is not None:
        out.write(insight_text(position, seen, exact=args.exact) + "\n")
    return 0


def _insight(analysis, limit: Limit):
    """Dead cells, 50/50s and endgame chances (``--insight``), within what is left of ``--time-limit``."""
    if analysis.mines is None:
        raise ValueError("--insight needs the mine total (a layout count): pass --mines N, not --density")
    if analysis.model_count is None:
        raise ValueError("--insight needs every layout counted, and the budget cut counting short: raise --time-limit or pass none")
    return insight_of(analysis, limit=limit)

def _outcomes(analysis, cells: list, limit: Limit) -> dict:
    """The clue spreads ``--outcomes`` asks for, each cell checked first, by flat cell, within
    what is left of ``--time-limit``."""
    if not cells:
        return {}
    position = analysis.position
    if analysis.mines is None:
        raise ValueError("--outcomes needs the mine total (a layout count): pass --mines N, not --density")
    if analysis.model_count is None:  # a count cut short (estimates), whether or not any cell is uncertain
        raise ValueError("--outcomes needs every layout counted, and the budget cut counting short: raise --time-limit or pass none")
    try:
        flat = covered_cells(position, cells)
    except ValueError as error:
        raise ValueError(f"--outcomes {error}") from None
    try:
        return clue_spreads(analysis, flat, limit=limit)  # by the engine that solved it
    except BudgetExceededError as error:
        raise BudgetExceededError(f"--outcomes: {error}: raise --time-limit or pass none") from None
