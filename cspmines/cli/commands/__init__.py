"""The command line's commands, one module each: ``add_parser(commands)`` adds its options to the
command line's parser (and names its ``run``), ``run(args, out)`` runs it and returns the exit status."""

from __future__ import annotations

from . import bench, certify, chains, compare, generate, move, optimal, replay, sample, serve, solve, study

__all__ = ["COMMANDS"]

#: Every command, in the order ``cspmines --help`` lists them.
COMMANDS = (solve, sample, move, bench, compare, study, chains, optimal, replay, generate, certify, serve)
