"""The ``cspmines`` command line: a thin layer over the Python API.

Exit status: 0 on success, 2 on bad input (malformed or inconsistent
position, bad option), 130 when interrupted. Errors are one line on standard
error, never a traceback.

Examples
--------
>>> from importlib.resources import files
>>> example = files("cspmines") / "data" / "examples" / "tiny.txt"
>>> main(["solve", str(example), "--color", "never"])
 50  1  50
safe: none
mines: none
least risk: 0.5000 at 2 cell(s), first (0,0)
components: 1 (cells: 2)
0
"""

from __future__ import annotations

import argparse
import json
import sys

from . import __version__
from .backends import backend_names
from .errors import CspminesError
from .position import Position
from .render import analysis_json, board_text, summary_text
from .solve import solve

__all__ = ["main"]


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cspmines", description="Exact Minesweeper analysis.")
    parser.add_argument("--version", action="version", version=f"cspmines {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    solve_cmd = commands.add_parser("solve", help="mine probabilities of a position file")
    solve_cmd.add_argument("file", help="position file in the shared text format, or - for standard input")
    solve_cmd.add_argument("--backend", default="auto", choices=backend_names())
    solve_cmd.add_argument("--mines", type=int, help="the mine total, overriding the file's header")
    solve_cmd.add_argument("--density", type=float, help="mine density when the total is unknown")
    solve_cmd.add_argument("--time-limit", type=float, help="seconds allowed for counting")
    solve_cmd.add_argument("--node-limit", type=int, help="work units allowed for counting")
    solve_cmd.add_argument("--exact", action="store_true", help="add the model count and exact fractions")
    solve_cmd.add_argument("--json", action="store_true", help="print JSON (schema in README)")
    solve_cmd.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    return parser


def _run_solve(args, out) -> int:
    position = Position.from_file(args.file)
    analysis = solve(
        position,
        backend=args.backend,
        mines=args.mines,
        density=args.density,
        time_limit=args.time_limit,
        node_limit=args.node_limit,
    )
    if args.json:
        json.dump(analysis_json(analysis, exact=args.exact), out)
        out.write("\n")
        return 0
    color = args.color == "always" or (args.color == "auto" and getattr(out, "isatty", lambda: False)())
    out.write(board_text(analysis, color=color) + "\n")
    out.write(summary_text(analysis, exact=args.exact) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    parser = _build_parser()
    out = sys.stdout
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its usage message
        return int(exit_.code or 0)
    try:
        if args.command == "solve":
            return _run_solve(args, out)
    except (CspminesError, ValueError) as error:
        print(f"cspmines: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"cspmines: error: {error.strerror or error}: {getattr(error, 'filename', '')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cspmines: interrupted", file=sys.stderr)
        return 130
    parser.error(f"unknown command {args.command}")  # unreachable: argparse checks choices
    return 2


def entry_point() -> None:
    """The ``cspmines`` console script."""
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
