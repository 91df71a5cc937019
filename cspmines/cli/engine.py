"""The engine's commands: ``solve``, ``sample`` and ``move``."""

from __future__ import annotations

import json
import sys
import time

from ..engine.clues import clue_spreads, covered_cells
from ..engine.engine import solve
from ..engine.insight import insight_of
from ..engine.question import Limit, time_left
from ..errors import BudgetExceededError
from ..position import Position
from ..present.answers import analysis_json, insight_json, moves_json, outcomes_json
from ..present.render import board_text, insight_text, outcomes_text, summary_text

__all__ = ["run_move", "run_sample", "run_solve"]


def run_solve(args, out) -> int:
    position = Position.from_file(args.file)
    started = time.monotonic()
    analysis = solve(
        position,
        backend=args.backend,
        mines=args.mines,
        density=args.density,
        limit=Limit(time=args.time_limit, nodes=args.node_limit, memory=args.memory),
    )
    spreads = _outcomes(analysis, args.outcomes or [], Limit(time=time_left(args.time_limit, started), memory=None))
    seen = _insight(analysis, args, started) if args.insight else None
    if args.svg:
        from ..present.picture import render_svg

        with open(args.svg, "w", encoding="utf-8") as handle:
            handle.write(render_svg(analysis, chains=args.outline))
    if args.png:
        from ..present.picture import render_png

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
    color = args.color == "always" or (args.color == "auto" and getattr(out, "isatty", lambda: False)())
    out.write(board_text(analysis, color=color, insight=seen) + "\n")
    out.write(summary_text(analysis, exact=args.exact) + "\n")
    if spreads:
        out.write(outcomes_text(position, spreads, exact=args.exact) + "\n")
    if seen is not None:
        out.write(insight_text(position, seen, exact=args.exact) + "\n")
    return 0


def _insight(analysis, args, started: float):
    """Dead cells, 50/50s and endgame chances (``--insight``), within what is left of ``--time-limit``."""
    if analysis.mines is None:
        raise ValueError("--insight needs the mine total (a layout count): pass --mines N, not --density")
    if analysis.model_count is None:
        raise ValueError("--insight needs every layout counted, and the budget cut counting short: raise --time-limit or pass none")
    return insight_of(analysis, limit=Limit(time=time_left(args.time_limit, started), memory=args.memory))


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


def run_sample(args, out) -> int:
    """Each layout as a whole board: the position format with mines as ``*``, or board JSON."""
    from ..engine.engine import sample_layouts
    from ..errors import BudgetExceededError
    from ..games.board import Board

    position = Position.from_file(args.file)
    cut_short = None
    try:
        layouts = sample_layouts(
            position, args.count, seed=args.seed, mines=args.mines, density=args.density,
            limit=Limit(time=args.time_limit, memory=args.memory),
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


def run_move(args, out) -> int:
    """Each agent's move, the chosen cell's exact chance of a mine, and the least chance on the board."""
    from ..agents.advice import NotCountedError, advise

    position = Position.from_file(args.file)
    if args.mines is not None:
        position = position.with_mines(args.mines)
    if position.mines is None:  # agents play games, where the total is known: a density will not do
        print("cspmines: error: the position's mine total is unknown: pass --mines N", file=sys.stderr)
        return 2
    try:
        advice = advise(position, args.agent or ["exact"], rules=args.rules, seed=args.seed, time_limit=args.time_limit,
                        explain=args.explain, memory=args.memory, move_timeout=args.move_timeout)
    except NotCountedError as error:
        within, more = ("--memory", "allow more memory (or none)") if error.memory else (
            f"--time-limit {args.time_limit:g} s", "allow more seconds (or none)")
        print(f"cspmines: error: the position was not counted within {within}, so no move can be judged exactly: {more}",
              file=sys.stderr)
        return 2
    analysis, suggestions = advice.analysis, advice.suggestions
    least = suggestions[0].least
    at_least = analysis.cells_where(lambda p: p == least)
    if args.json:
        json.dump(moves_json(advice, explain=args.explain), out)
        out.write("\n")
        return 0
    width = max(len(s.agent) for s in suggestions)
    for s in suggestions:
        row, col = position.row_col(s.action.cell)
        line = f"{s.agent:<{width}}  {s.action.kind} ({row},{col})  mine chance {float(s.mine_probability):.4f} ({s.mine_probability})"
        if s.reason is not None:
            line += f"  {s.reason}"
        if not s.claim_holds:
            line += "  (claimed certain; the engine disagrees)"
        out.write(line + "\n")
        if s.candidates:
            out.write(f"    {'cell':<9}{'safe':>7}{'safe twice':>12}{'progress':>10}{'50/50':>7}{'dead':>6}{'score':>8}\n")
            for view, score in s.candidates:
                where = "({},{})".format(*position.row_col(view.cell))
                out.write(f"    {where:<9}{view.safety:>7.4f}{view.secondary:>12.4f}{view.progress:>10.4f}"
                          f"{view.influence:>7.2f}{'yes' if view.dead else 'no':>6}{score:>8.4f}\n")
    out.write(f"least mine chance: {float(least):.4f} ({least}) at {len(at_least)} cell" + ("" if len(at_least) == 1 else "s") + "\n")
    return 0
