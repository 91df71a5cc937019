"""``cspmines optimal``: best play's exact chance of winning whole small boards, beside every agent's."""

from __future__ import annotations

import sys

from ..options import (
    Help,
    add_memory_option,
    limit_of,
    seconds_or_none,
    whole,
)

__all__ = ["add_parser", "run", "read_counts", "read_board"]

HELP = """\
Best play's exact chance of winning an empty board, for every mine count asked, under
three first-click rules:
  none        every layout equally likely: the first click may be a mine
  protected   the player picks the first cell; the board is drawn among the layouts
              with it safe (the best first cells are those of none)
  corner      the game opens the top-left corner, drawn safe (bench's --first-click safe)
and beside it every agent's win rate on the same boards under the same rule, and its
gap to the optimum in points: every layout played once where there are at most
--exhaustive, else --sample games drawn the same for every agent.

--report-only computes nothing and writes the report and figures from what DIR holds of the
boards asked (the results of several runs, each with its own budget or sample).

Each board gets the whole --time-limit, --node-limit and --memory; past them its
value is proven bounds, not exact. A mine count whose layouts the budget cannot list
is refused at once (without --mines: left out, and said so). Results go to DIR as
JSON lines as they are found (optimum.jsonl, agents.jsonl, pieces.jsonl with
--method clues); stopped at any moment, the same command goes on from there. Then
DIR/report.md (the table, and what each board cost) and DIR/gaps.png and .svg (each
agent's gap against the density, a panel per rule and board size).

examples:
  cspmines optimal --size 4x4 --out results/optimal
  cspmines optimal --size 5x5 --mines 1-5,18-24 --time-limit 900 --out results/optimal
  cspmines optimal --size 4x4 --mines 4 --agent exact --agent set-theory --out results/four
"""


def add_parser(commands) -> None:
    """The ``optimal`` command's options, and :func:`run` to run it."""
    optimal = commands.add_parser("optimal", help="best play's exact chance of winning whole small boards, and the agents' gaps to it",
                                  description=HELP, formatter_class=Help)
    optimal.add_argument("--size", action="append", required=True, metavar="WxH", help="a board (repeat for more)")
    optimal.add_argument("--mines", metavar="COUNTS",
                         help="mine counts, as 4 or 1-15 or 1-5,20-24 (default: every count the budget can list)")
    optimal.add_argument("--out", required=True, metavar="DIR", help="the folder for the results, report.md and the figures")
    optimal.add_argument("--rule", action="append", choices=("none", "protected", "corner"),
                         help="the agents' first-click rules (default: all three; the optimum is given under each)")
    optimal.add_argument("--agent", action="append", metavar="NAME", help="an agent to play (default: every built-in one)")
    optimal.add_argument("--no-agents", action="store_true", help="the optimum alone")
    optimal.add_argument("--time-limit", type=seconds_or_none, default=600.0, metavar="S",
                         help="seconds a board's value may take (none: no limit)")
    optimal.add_argument("--node-limit", type=whole(1), metavar="N", help="search states a board's value may take")
    add_memory_option(optimal, "a board's value search")
    optimal.add_argument("--method", choices=("board", "clues"), default="board",
                         help="one search of the board, or one per first cell and clue (slower, resumable piece by piece)")
    optimal.add_argument("--exhaustive", type=whole(1), default=20_000, metavar="N",
                         help="play every layout where a rule draws from at most N")
    optimal.add_argument("--sample", type=whole(1), default=2_000, metavar="N", help="games drawn where there are more")
    optimal.add_argument("--seed", type=whole(0), default=0, help="the sample's and the agents' seed")
    optimal.add_argument("--report-only", action="store_true",
                         help="compute nothing: the report and figures from what DIR holds of these boards (several runs' results)")
    optimal.add_argument("--quiet", action="store_true", help="no line as each result is found")
    optimal.set_defaults(run=run)


def read_board(text: str) -> tuple[int, int]:
    """``WxH`` as (width, height).

    >>> read_board("5x4")
    (5, 4)
    >>> read_board("5x4x3")
    Traceback (most recent call last):
    ...
    ValueError: --size takes a board as WxH (the mines go in --mines), got '5x4x3'
    """
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(part.isdigit() and int(part) > 0 for part in parts):
        raise ValueError(f"--size takes a board as WxH (the mines go in --mines), got {text!r}")
    return int(parts[0]), int(parts[1])


def read_counts(text: str) -> tuple[int, ...]:
    """Mine counts as ``4``, ``1-15`` or ``1-5,20-24``, in order, each once.

    >>> read_counts("1-3,7,2")
    (1, 2, 3, 7)
    >>> read_counts("3-x")
    Traceback (most recent call last):
    ...
    ValueError: --mines takes counts as 4, 1-15 or 1-5,20-24, got '3-x'
    """
    counts: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        ends = part.split("-")
        if len(ends) > 2 or not all(end.isdigit() for end in ends):
            raise ValueError(f"--mines takes counts as 4, 1-15 or 1-5,20-24, got {text!r}")
        counts.update(range(int(ends[0]), int(ends[-1]) + 1))
    if not counts:
        raise ValueError(f"--mines takes counts as 4, 1-15 or 1-5,20-24, got {text!r}")
    return tuple(sorted(counts))


def run(args, out) -> int:
    from pathlib import Path

    from ...agents import agent_names
    from ...studies.optimal.report import write_report
    from ...studies.optimal.table import TablePlan, counts_beyond, counts_within, gather_table, run_table

    folder = Path(args.out)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {args.out}: a file is there, not a folder")
    limit = limit_of(args)
    boards, left_out = [], []
    for size in args.size:
        width, height = read_board(size)
        counts = read_counts(args.mines) if args.mines else counts_within(width, height, limit)
        if not args.mines:
            left_out += _say_left_out(width, height, counts_beyond(width, height, limit), args.quiet)
        boards.append((width, height, counts))
    agents = () if args.no_agents else tuple(args.agent or agent_names())
    plan = TablePlan(boards=tuple(boards), agents=agents, rules=tuple(args.rule or ("none", "protected", "corner")), limit=limit,
                     method=args.method, exhaustive=args.exhaustive, sample=args.sample, seed=args.seed)
    if args.report_only:
        result = gather_table(plan, folder)
        found = {o.key for o in result.optima}
        left_out += [(w, h, m, "not computed (no result in the folder)") for w, h, counts in boards for m in counts if (w, h, m) not in found]
    else:
        result = run_table(plan, folder, tell=None if args.quiet else lambda line: print(line, file=sys.stderr, flush=True))
    written = _write(write_report, result, agents, folder, _command(args, boards), left_out)
    out.write(f"{len(result.optima)} boards, {len(result.rates)} agents' rates ({result.computed_now} found now); wrote "
              + ", ".join(str(path) for path in written) + "\n")
    return 0


def _command(args, boards: list) -> str:
    """The command that makes the same table, its options written out (the counts as ranges)."""
    import shlex

    from ...engine.budget import format_bytes

    words = ["cspmines", "optimal"]
    for width, height, _ in boards:
        words += ["--size", f"{width}x{height}"]
    counts = sorted({count for _, _, board in boards for count in board})
    if len({board for _, _, board in boards}) == 1:
        words += ["--mines", _ranges(counts)]
    words += ["--time-limit", "none" if args.time_limit is None else f"{args.time_limit:g}"]
    words += [] if args.node_limit is None else ["--node-limit", str(args.node_limit)]
    words += ["--memory", "none" if args.memory is None else format_bytes(args.memory).replace(" ", "").replace("iB", "")]
    words += [] if args.method == "board" else ["--method", args.method]
    for option in ("rule", "agent"):
        for value in getattr(args, option) or ():
            words += [f"--{option}", value]
    words += ["--no-agents"] if args.no_agents else []
    words += ["--report-only"] if args.report_only else []
    words += ["--exhaustive", str(args.exhaustive), "--sample", str(args.sample), "--seed", str(args.seed), "--out", args.out]
    return " ".join(shlex.quote(word) for word in words)


def _ranges(counts: list) -> str:
    """Counts as ranges: ``1-5,18-24``.

    >>> _ranges([1, 2, 3, 5, 7, 8])
    '1-3,5,7-8'
    """
    parts, start = [], None
    for k, count in enumerate(counts):
        start = count if start is None else start
        if k + 1 == len(counts) or counts[k + 1] != count + 1:
            parts.append(str(count) if start == count else f"{start}-{count}")
            start = None
    return ",".join(parts)


def _say_left_out(width: int, height: int, beyond: list, quiet: bool) -> list:
    """Without --mines, the counts the budget cannot list are left out: say which (refuse a board with none
    left), and give them back as (width, height, mines, why) for the report."""
    from ...errors import TooLargeError

    if len(beyond) == width * height:
        raise TooLargeError(f"a {width}x{height} board: no mine count has layouts few enough for the budget to list; raise --memory")
    if beyond and not quiet:
        print(f"{width}x{height}: mine counts {_ranges([row[2] for row in beyond])} left out (more layouts than the budget "
              "lets the value search list)", file=sys.stderr)
    return beyond


def _write(write_report, result, agents, folder, command, left_out) -> list:
    """The report, and the figures where matplotlib is there (said where it is not)."""
    import importlib.util

    from ...extras import install_hint

    figure = importlib.util.find_spec("matplotlib") is not None
    if not figure:
        print(f"cspmines: no figures: they need matplotlib: {install_hint('plot')}", file=sys.stderr)
    return write_report(result.optima, result.rates, agents, folder, command=command, figure=figure, left_out=left_out)
