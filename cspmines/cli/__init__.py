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
       0   1   2
  0   50 [1]  50
safe: none
mines: none
least mine chance: 0.5000 at 2 cells, first (0,0)
chains: 1 (cells: 2)
0
"""

from __future__ import annotations

import os
import sys

from ..errors import CspminesError, MissingTotalError
from ..extras import install_hint
from .parser import build_parser

__all__ = ["main"]

BROKEN_PIPE = 1  # the exit status when standard output is closed under us (Python's own choice)


def _check_outputs(args) -> None:
    """Before any work: every file to write must have a folder to go in, a picture's file name must
    say its format, and a figure needs matplotlib."""
    import importlib.util
    from pathlib import Path

    for option in ("out", "csv", "plot", "svg", "png"):
        name = getattr(args, option, None)
        if isinstance(name, str) and name and not Path(name).resolve().parent.is_dir():
            raise ValueError(f"--{option} {name}: there is no folder {str(Path(name).parent)!r} to write it in")
    for option, suffixes in (("svg", (".svg",)), ("png", (".png",))):
        name = getattr(args, option, None)
        if name and not name.lower().endswith(suffixes):
            raise ValueError(f"--{option} writes {suffixes[0]} files: name one ending in {suffixes[0]}, got {name!r}")
    if (getattr(args, "png", None) or getattr(args, "plot", None)) and importlib.util.find_spec("matplotlib") is None:
        option = "--png" if getattr(args, "png", None) else "--plot"
        raise ValueError(f"{option} needs matplotlib: {install_hint('plot')}")


def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    parser = build_parser()
    out = sys.stdout
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its usage message
        return int(exit_.code or 0)
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # a layout count may have thousands of digits: print them all
    try:
        _check_outputs(args)
        status = args.run(args, out)
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
    except MemoryError:  # what no estimate foresaw (the structures that held it are gone with their frames)
        print("cspmines: error: out of memory: try a smaller position, or a smaller --memory so that counting "
              "stops sooner", file=sys.stderr)
        return 2
    return status


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


