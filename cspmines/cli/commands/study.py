"""``cspmines study``: a study file (TOML) played, its results and report written."""

from __future__ import annotations

import sys

from ..options import (
    Help,
    whole,
)

__all__ = ["add_parser", "run"]

HELP = """\
Play every suite of a study file and write DIR/results.jsonl (every game, with its
suite and point), DIR/report.md (each suite's table with 95% intervals and the
paired differences) and each suite's figure as PNG and SVG. Stopped at any moment,
the same command goes on from where it stopped; the report is the same either way.
The file is checked whole before any game: an unknown key, a wrong type, a missing
field or an unknown agent option is one line naming the file, the line and the key.
The format: docs/studies.md; the studies behind README's tables are in studies/.

examples:
  cspmines study studies/classic.toml --out results/classic
  cspmines study studies/seeds.toml --out results/seeds --workers 2
"""


def add_parser(commands) -> None:
    """The ``study`` command's options, and :func:`run` to run it."""
    study = commands.add_parser("study", help="play a study file (TOML) and write its results and report",
                                description=HELP, formatter_class=Help)
    study.add_argument("file", metavar="FILE.toml", help="the study: its suites, agents, games and seed")
    study.add_argument("--out", required=True, metavar="DIR", help="the folder for results.jsonl, report.md and the figures")
    study.add_argument("--workers", type=whole(1), help="processes or Ray tasks (default: the study's, else 1)")
    study.add_argument("--executor", choices=("process", "ray"), help="where games run (default: the study's)")
    study.add_argument("--address", help="Ray cluster address (default: the study's, else a local instance)")
    study.add_argument("--quiet", action="store_true", help="no progress bars")
    study.set_defaults(run=run)


def run(args, out) -> int:
    import shlex
    from pathlib import Path

    from ...studies import read_study, write_report
    from ...studies import run_study as play_study
    from ...studies.report import suite_text

    study = read_study(args.file)
    folder = Path(args.out)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {args.out}: a file is there, not a folder")
    result = play_study(study, folder, workers=args.workers, executor=args.executor, address=args.address,
                        progress=False if args.quiet else None)
    records = list(result.records)
    if result.interrupted:
        print(f"cspmines: interrupted; {len(records)} games are kept in {folder}: run the same command to go on",
              file=sys.stderr)
        return 130
    written = write_report(study, records, folder, command=f"cspmines study {shlex.quote(args.file)} --out {shlex.quote(args.out)}")
    for suite in study.suites:
        out.write(suite_text(suite, records) + "\n\n")
    out.write(f"{len(records)} games ({result.played_now} played now, {result.seconds:.1f} s); wrote {folder / 'results.jsonl'}, "
              + ", ".join(str(path) for path in written) + "\n")
    return 0
