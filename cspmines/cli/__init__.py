"""The ``cspmines`` command line: a thin layer over the Python API.

Exit status: 0 on success, 2 on bad input (malformed or inconsistent
position, bad option), 130 when interrupted, 1 (silently) when the reader of
standard output goes away, as in ``cspmines solve ... | head``. Errors are
one line on standard error, never a traceback.

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
import os
import sys

from .. import __version__
from ..backends import backend_names
from ..errors import CspminesError, MissingTotalError
from ..games.board import FIRST_CLICKS
from .engine import run_move, run_sample, run_solve
from .suites import run_bench, run_chains

__all__ = ["main"]

BROKEN_PIPE = 1  # the exit status when standard output is closed under us (Python's own choice)


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
    solve_cmd.add_argument("--svg", help="also write the picture as SVG here")
    solve_cmd.add_argument("--png", help="also write the picture as PNG here (needs matplotlib)")
    solve_cmd.add_argument("--outline", action="store_true", help="outline the components in the picture")

    sample = commands.add_parser("sample", help="mine layouts drawn uniformly from those a position allows")
    sample.add_argument("file", help="position file in the shared text format, or - for standard input")
    sample.add_argument("--count", type=int, default=1, help="how many layouts (default 1)")
    sample.add_argument("--seed", type=int, help="the same seed draws the same layouts")
    sample.add_argument("--mines", type=int, help="the mine total, overriding the file's header")
    sample.add_argument("--density", type=float, help="mine density when the total is unknown")
    sample.add_argument("--time-limit", type=float, help="seconds allowed; the layouts drawn by then are printed")
    sample.add_argument("--json", action="store_true", help="one board JSON object per line (as Board.from_json reads)")

    move = commands.add_parser("move", help="the move agents would make on a position, judged by the exact engine")
    move.add_argument("file", help="position file in the shared text format, or - for standard input")
    move.add_argument(
        "--agent", action="append", help="an agent, NAME or NAME:key=value,... (repeat for several; default exact)"
    )
    move.add_argument("--rules", choices=("classic", "minesearch", "score"), default="classic")
    move.add_argument("--seed", type=int, help="the agents' random seed (the same seed, the same moves)")
    move.add_argument("--mines", type=int, help="the mine total, overriding the file's header")
    move.add_argument("--explain", action="store_true", help="list the cells the exact agent's look-ahead weighed, with scores")
    move.add_argument("--json", action="store_true", help="print JSON (schema in README)")

    bench = commands.add_parser("bench", help="play seeded benchmark suites of agents")
    bench.add_argument("--agent", action="append", required=True, help="an agent, NAME or NAME:key=value,... (repeat for several)")
    board = bench.add_mutually_exclusive_group()
    board.add_argument("--preset", choices=("beginner", "intermediate", "expert"))
    board.add_argument("--size", help="WxHxM")
    bench.add_argument("--rules", choices=("classic", "minesearch", "score"), default="classic")
    bench.add_argument("--withheld", type=float, default=0.0, help="chance a clue is withheld")
    bench.add_argument("--first-click", choices=FIRST_CLICKS, default="safe")
    bench.add_argument("--games", type=int, default=100)
    bench.add_argument("--seed", type=int, default=0)
    bench.add_argument("--workers", type=int, default=1)
    bench.add_argument("--executor", choices=("process", "ray"), default="process")
    bench.add_argument("--address", help="Ray cluster address (none: a local instance)")
    bench.add_argument("--out", help="append each finished game to this JSONL file")
    bench.add_argument("--resume", action="store_true", help="skip the games already in --out")
    bench.add_argument("--json", action="store_true", help='print {"results": [...]} to standard output')
    bench.add_argument("--plot", help="save a figure here (PNG, SVG or PDF)")
    bench.add_argument("--quiet", action="store_true", help="no progress bar")
    bench.add_argument("--density-sweep", help="comma-separated mine densities on the chosen board size")
    bench.add_argument("--size-sweep", help="comma-separated side lengths of square boards")
    bench.add_argument("--density", type=float, default=0.15, help="mine density of a size sweep")
    bench.add_argument("--csv", help="save sweep results as CSV here")

    chains = commands.add_parser("chains", help="measure the chains of influence met in seeded games")
    size = chains.add_mutually_exclusive_group()
    size.add_argument("--preset", choices=("beginner", "intermediate", "expert"))
    size.add_argument("--size", help="WxHxM")
    chains.add_argument("--games", type=int, default=100)
    chains.add_argument("--seed", type=int, default=0)
    chains.add_argument("--first-click", choices=FIRST_CLICKS, default="safe")
    chains.add_argument("--workers", type=int, default=1)
    chains.add_argument("--density-sweep", help="comma-separated mine densities on the chosen board size")
    chains.add_argument("--size-sweep", help="comma-separated side lengths of square boards")
    chains.add_argument("--density", type=float, default=0.15, help="mine density of a size sweep")
    chains.add_argument("--json", action="store_true", help='print {"results": [...]} to standard output')
    chains.add_argument("--out", help="save every chain met, one JSON line per game, here")
    chains.add_argument("--csv", help="save the summary as CSV here")
    chains.add_argument("--plot", help="save the figure here")
    chains.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


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
            return run_solve(args, out)
        if args.command == "sample":
            return run_sample(args, out)
        if args.command == "move":
            return run_move(args, out)
        if args.command == "bench":
            return run_bench(args, out)
        if args.command == "chains":
            return run_chains(args, out)
    except MissingTotalError:  # the library's message names its keywords; here the options are what to pass
        print("cspmines: error: the position's mine total is unknown: pass --mines N or --density P", file=sys.stderr)
        return 2
    except (CspminesError, ValueError) as error:
        print(f"cspmines: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`cspmines solve ... | head`): nothing is wrong here
        return BROKEN_PIPE
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
    status = main()
    try:
        sys.stdout.flush()  # now, while a closed pipe can still be told from a real failure
    except BrokenPipeError:
        status = BROKEN_PIPE
    if status == BROKEN_PIPE:
        # Python flushes stdout once more on exit; aim it at the null device so that stays quiet too
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(status)


if __name__ == "__main__":
    entry_point()
