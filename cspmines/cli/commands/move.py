"""``cspmines move``: the move each agent would make on a position, judged by the exact engine."""

from __future__ import annotations

import json
import sys

from ...actions import RULES
from ...agents import agent_names
from ...position import Position
from ...present.answers import moves_json
from ..options import (
    DEFAULT_SECONDS,
    Help,
    add_memory_option,
    add_move_timeout,
    exact_options_text,
    limit_of,
    seconds_or_none,
    whole,
)

__all__ = ["add_parser", "run"]

HELP = """\
The move each agent would make on a position, beside the engine's exact chance
that the cell is a mine, and the least chance on the board.

agents: {agents}
  (options after a colon: exact:lookahead=3,endgame=0; players from outside:
  "cmd:COMMAND LINE" speaking docs/protocol.md, FILE.py:CLASS, an installed plugin's name)

{exact_options}

examples:
  cspmines move board.txt
  cspmines move board.txt --agent exact --agent greedy --explain
  cspmines move board.txt --agent "cmd:node examples/players/js/single_point.js"
"""


def add_parser(commands) -> None:
    """The ``move`` command's options, and :func:`run` to run it."""
    move = commands.add_parser("move", help="the move agents would make on a position, judged by the exact engine",
                               description=HELP.format(agents=', '.join(agent_names()), exact_options=exact_options_text()), formatter_class=Help)
    move.add_argument("file", help="position file, or - for standard input")
    move.add_argument("--agent", action="append", metavar="SPEC", help="NAME or NAME:key=value,... (repeat for several; default: exact)")
    move.add_argument("--rules", choices=RULES, default="classic", help="the game the agents play")
    move.add_argument("--seed", type=whole(0), help="the agents' random seed (the same seed, the same moves)")
    move.add_argument("--mines", type=whole(0), help="the mine total, overriding the file's header")
    move.add_argument("--time-limit", type=seconds_or_none, default=DEFAULT_SECONDS,
                      help="seconds allowed for counting the position, or none; moves are judged only once it is counted")
    add_memory_option(move, "each solve")
    move.add_argument("--explain", action="store_true", help="list the cells the exact agent's look-ahead weighed, with scores")
    add_move_timeout(move)
    move.add_argument("--json", action="store_true", help="print JSON (schema in docs/cli.md)")
    move.set_defaults(run=run)


def run(args, out) -> int:
    """Each agent's move, the chosen cell's exact chance of a mine, and the least chance on the board."""
    from ...agents.advice import NotCountedError, advise

    position = Position.from_file(args.file)
    if args.mines is not None:
        position = position.with_mines(args.mines)
    if position.mines is None:  # agents play games, where the total is known: a density will not do
        print("cspmines: error: the position's mine total is unknown: pass --mines N", file=sys.stderr)
        return 2
    try:
        advice = advise(position, args.agent or ["exact"], rules=args.rules, seed=args.seed, limit=limit_of(args),
                        explain=args.explain, move_timeout=args.move_timeout)
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
