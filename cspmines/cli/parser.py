"""The command line's parser: the program's own options, then each command's (:mod:`cspmines.cli.commands`)."""

from __future__ import annotations

import argparse

from .. import __version__
from ..native import BUILD
from .commands import COMMANDS
from .options import CommandParser

__all__ = ["build_parser"]


def build_parser() -> argparse.ArgumentParser:
    """The ``cspmines`` parser: each command's options, and its ``run`` as ``args.run``."""
    parser = CommandParser(prog="cspmines", description="Exact Minesweeper analysis: probabilities, agents, benchmarks.")
    parser.add_argument("--version", action="version", version=f"cspmines {__version__} ({BUILD})")
    commands = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(commands)
    return parser
