"""``cspmines bench``: seeded benchmark suites of agents, one suite or a sweep of them."""

from __future__ import annotations

import os
import sys

from ...actions import RULES
from ...agents import agent_names
from ..options import (
    Help,
    add_board_options,
    add_move_timeout,
    chance,
    exact_options_text,
)
from ..tables import check_boards, print_results, sweep_points, write_results_csv

__all__ = ["add_parser", "run"]

HELP = """\
Play seeded games: every agent meets the same boards (game i's board depends on
--seed and i alone), so agents are compared board by board.

agents: {agents}
  (players from outside: "cmd:COMMAND LINE" speaking docs/protocol.md, one process
  a worker, named in the tables as it names itself; FILE.py:CLASS; a plugin's name)

{exact_options}

examples:
  cspmines bench --preset expert --games 1000
  cspmines bench --agent exact --agent greedy --size 10x10x10 --rules minesearch
  cspmines bench --agent greedy --agent exact --against greedy --games 500
  cspmines bench --agent exact --agent set-theory --judge --games 200
  cspmines bench --agent exact --size 10x10x10 --density-sweep 0.1,0.2,0.3 --plot sweep.png
  cspmines bench --agent exact --agent "cmd:node examples/players/js/single_point.js" --move-timeout 5
"""


def add_parser(commands) -> None:
    """The ``bench`` command's options, and :func:`run` to run it."""
    bench = commands.add_parser("bench", help="play seeded benchmark suites of agents",
                                description=HELP.format(agents=', '.join(agent_names()), exact_options=exact_options_text()), formatter_class=Help)
    bench.add_argument("--agent", action="append", metavar="SPEC", help="NAME or NAME:key=value,... (repeat for several; default: exact)")
    add_move_timeout(bench)
    add_board_options(bench, os.cpu_count() or 1)
    bench.add_argument("--rules", choices=RULES, default="classic", help="the game: its measure heads the table")
    bench.add_argument("--withheld", type=chance, default=0.0, help="chance an opened cell's clue is withheld")
    bench.add_argument("--executor", choices=("process", "ray"), default="process", help="where games run")
    bench.add_argument("--address", help="Ray cluster address (none: a local instance)")
    bench.add_argument("--out", help="append each finished game to this JSONL file")
    bench.add_argument("--resume", action="store_true", help="skip the games already in --out")
    bench.add_argument("--json", action="store_true", help='print {"results": [...]} to standard output')
    bench.add_argument("--plot", help="save a figure here (PNG, SVG or PDF; needs matplotlib)")
    bench.add_argument("--csv", help="save the results table as CSV here (a sweep: a row per agent and point)")
    bench.add_argument("--against", metavar="NAME", help="pair every other agent with this one (default: the first --agent)")
    bench.add_argument("--judge", action="store_true",
                       help="judge every open exactly (guesses, needless guesses, blunders, excess risk, survival; docs/studies.md)")
    bench.set_defaults(run=run)


def run(args, out) -> int:
    from dataclasses import replace

    from ...agents.external import table_name
    from ...bench import ResultsFile, Suite, SuiteVariant, Workers, run_suite
    from ...bench.compare import paired_table
    from ...bench.judged import judged_tables
    from ...engine.budget import Limit
    from ...present.plots import plot_summary

    size = args.size or args.preset or "expert"
    suite = Suite.create(
        agents=args.agent or ["exact"],
        size=size,
        rules=args.rules,
        first_click=args.first_click,
        games=args.games,
        seed=args.seed,
        variant=SuiteVariant(withheld=args.withheld, move_timeout=args.move_timeout),
    )
    names = tuple(table_name(spec) for spec in suite.agents)  # a command's player goes by the name it gave
    if args.against is not None:
        args.against = _against_name(args.against, suite.agents, names)
    progress = False if args.quiet else None
    options = dict(workers=Workers(args.workers, args.executor, args.address), progress=progress, judge=args.judge,
                   limit=Limit(memory=args.memory))
    if args.density_sweep or args.size_sweep:
        return _run_sweep(args, suite, names, options, out)
    result = run_suite(suite, out=ResultsFile(args.out, args.resume) if args.out else None, **options)
    suite = replace(suite, agents=names)  # played as specs, shown by name from here on
    asked = [row for row in result.summary if row["agent"] in suite.agents]  # --resume may hold other agents' games
    paired = paired_table(result.records, against=args.against, agents=suite.agents)
    judged = judged_tables([r for r in result.records if r["agent"] in suite.agents], against=args.against, agents=suite.agents)
    print_results(asked, paired, result.seconds, result.played_now, args, out, judged)
    if args.csv and asked:
        write_results_csv(args.csv, asked)
    if args.plot and asked:
        plot_summary(asked, args.plot)
    if result.interrupted:
        print(f"cspmines: interrupted; {len(result.records)} games are in the results", file=sys.stderr)
        return 130
    return _went_wrong(asked)


#: The exit status of a bench where every game of some player went wrong: its table says nothing of its play.
WENT_WRONG = 1

def _went_wrong(rows: list) -> int:
    """:data:`WENT_WRONG`, each such player said on standard error, when every game of a player failed or was
    lost by its fault (over every point of a sweep); else 0."""
    totals: dict = {}
    for row in rows:
        failed, faults, games = totals.get(row["agent"], (0, 0, 0))
        totals[row["agent"]] = (failed + row["errors"] - row["faults"], faults + row["faults"], games + row["games"])
    wrong = [(agent, failed, faults) for agent, (failed, faults, games) in totals.items() if faults == games and failed + faults]
    for agent, failed, faults in wrong:
        how = ", ".join(part for part in (f"{failed} failed" if failed else "", f"{faults} lost by a fault" if faults else "") if part)
        print(f"cspmines: error: every game of {agent} went wrong ({how}): its results say nothing of its play", file=sys.stderr)
    return WENT_WRONG if wrong else 0

def _against_name(against: str, specs: tuple, names: tuple) -> str:
    """The table name of the player ``--against`` names (by its spec or its name), checked to be one of them."""
    if against not in specs and against not in names:
        raise ValueError(f"--against {against}: name one of the --agent players ({', '.join(names)})")
    return names[specs.index(against)] if against in specs else against

def _run_sweep(args, suite, names: tuple, options: dict, out) -> int:
    """``bench --density-sweep`` or ``--size-sweep``: ``suite`` played at each point of the sweep (its agents
    as specs), the tables shown with each point's x and the agents by their ``names``."""
    from ...bench import run_suite
    from ...bench.compare import paired_table
    from ...bench.judged import judged_tables
    from ...present.plots import plot_sweep

    if args.out or args.resume:
        raise ValueError("--out and --resume go with a single suite, not a sweep")
    points = sweep_points(args, suite)
    check_boards(points, args.memory)
    x_label = "mine density" if args.density_sweep else "cells (grid area)"
    rows: list[dict] = []
    paired: list[dict] = []
    swept: dict = {"results": [], "paired": []}  # the judged tables, each point's rows with its x
    seconds, played = 0.0, 0
    for x, point in points:
        result = run_suite(point, **options)
        seconds += result.seconds
        played += result.played_now
        rows.extend({"x": x, **row} for row in result.summary)
        paired.extend({"x": x, **row} for row in paired_table(result.records, against=args.against, agents=names))
        for key, found in (judged_tables(result.records, against=args.against, agents=names) or {}).items():
            swept[key].extend({"x": x, **row} for row in found)
        if result.interrupted:
            break
    if args.csv:
        write_results_csv(args.csv, rows)
    print_results(rows, paired, seconds, played, args, out, swept if swept["results"] else None)
    if args.plot:
        plot_sweep(rows, args.plot, x_label=x_label, paired=paired)
    return _went_wrong(rows)
