"""``cspmines compare``: paired differences between agents from ``bench --out`` files."""

from __future__ import annotations

import json

from ..options import (
    Help,
)
from ..tables import results_text, write_csv

__all__ = ["add_parser", "run"]

HELP = """\
The paired table of `cspmines bench` from its result files (--out), so runs made
apart (other machines, other revisions of the code, games added later) are compared
board by board. Games are matched by their number; every file must come from the
same suite (board size, rules, withheld clues, first click, seed). Every agent is
paired with the baseline: the first agent the bench was given (the first file's),
or --against; the line above the paired table names it. An agent whose games
appear in two files under the same numbers (the same agent from two runs) is
named after its file in each, "exact (run-b)", and the two are paired.

examples:
  cspmines compare exact.jsonl greedy.jsonl
  cspmines compare before.jsonl after.jsonl --against "exact (before)"
  cspmines compare part1.jsonl part2.jsonl --json
"""


def add_parser(commands) -> None:
    """The ``compare`` command's options, and :func:`run` to run it."""
    compare = commands.add_parser("compare", help="paired differences between agents from bench --out files",
                                  description=HELP, formatter_class=Help)
    compare.add_argument("files", nargs="+", metavar="FILE", help="result files of cspmines bench --out (JSON lines)")
    compare.add_argument("--against", metavar="NAME", help="pair every other agent with this one (default: the bench's first agent)")
    compare.add_argument("--json", action="store_true", help='print {"results": [...], "paired": [...]}')
    compare.add_argument("--csv", help="save the paired table as CSV here")
    compare.set_defaults(run=run)


def run(args, out) -> int:
    from ...bench import summarize
    from ...bench.compare import baseline_text, paired_table, paired_text, read_result_files
    from ...bench.judged import judged_tables, judged_text

    records = read_result_files(args.files)  # each file's agents in its bench's order: the first is the baseline
    rows = summarize(records)
    paired = paired_table(records, against=args.against)
    judged = judged_tables(records, against=args.against)
    baseline = baseline_text(records, paired, args.against)
    if args.csv:
        if not paired:
            raise ValueError("--csv: nothing to pair: the files hold the games of one agent")
        write_csv(args.csv, [{**row, "ci95": " ".join(f"{v:.6f}" for v in row["ci95"])} for row in paired])
    if args.json:
        base = args.against or (paired[0]["against"] if paired else rows[0]["agent"])
        json.dump({"results": rows, "baseline": base, "paired": paired, **({"judged": judged} if judged else {})}, out)
        out.write("\n")
        return 0
    out.write(results_text(rows, rows[0]["rules"]) + "\n")
    if paired:
        out.write(baseline + "\n" + paired_text(paired) + "\n")
    else:
        out.write("nothing to pair: the files hold the games of one agent\n")
    if judged:
        out.write(judged_text(judged) + "\n")
    return 0
