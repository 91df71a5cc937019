"""The command line's shared pieces: its parser and help formatter, the readers of option values, and the
options several commands share (a board, a total or density, a memory allowance, a player's time)."""

from __future__ import annotations

import argparse
import difflib
import re
import sys
import textwrap

from ..agents.exact.options import spec_defaults
from ..engine.budget import DEFAULT_MEMORY, Limit, parse_bytes
from ..games.board import FIRST_CLICKS, PRESETS

__all__ = ["DEFAULT_SECONDS", "CommandParser", "Help", "add_board_options", "add_memory_option", "add_move_timeout",
           "add_total_or_density", "chance", "exact_options_text", "limit_of", "memory_size", "port", "row_col", "seconds",
           "seconds_or_none", "whole"]

class Help(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Defaults shown after each option (unless its help already says it, or there is none);
    descriptions and examples kept as written."""

    def _get_help_string(self, action):
        text = action.help or ""
        if "default" in text or action.default in (None, False):
            return text
        return super()._get_help_string(action)


class CommandParser(argparse.ArgumentParser):
    """argparse with the project's errors: one line, ``cspmines COMMAND: error: ...``, exit 2, and a
    "did you mean" for a mistyped option, command or choice (argparse prints its usage block instead)."""

    def parse_known_args(self, args=None, namespace=None):
        self._words = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str):
        """Exit with status 2 and the message, with a hint where a close name was meant."""
        self.exit(2, f"{self.prog}: error: {message}{self._hint(message)}\n")

    def _hint(self, message: str) -> str:
        chosen = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if chosen:
            options = re.findall(r"'([^']*)'", chosen.group(2)) or [o.strip() for o in chosen.group(2).split(",")]
            near = difflib.get_close_matches(chosen.group(1).lower(), [o.lower() for o in options], n=1, cutoff=0.5)
            return f" (did you mean {options[[o.lower() for o in options].index(near[0])]!r}?)" if near else ""
        unknown = re.search(r"unrecognized arguments: (.*)", message)
        if unknown:
            known = self._options_in_use()
            for word in unknown.group(1).split():
                near = difflib.get_close_matches(word.split("=")[0], known, n=1, cutoff=0.6) if word.startswith("-") else []
                if near:
                    return f" (did you mean {near[0]}?)"
        return ""

    def _options_in_use(self) -> list[str]:
        """The options of the command named on the line (the unknown ones are reported by the top parser)."""
        parser: argparse.ArgumentParser = self
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                for word in getattr(self, "_words", []):
                    if word in action.choices:
                        parser = action.choices[word]
                        break
        return [option for action in parser._actions for option in action.option_strings]


def _reader(kind, expected: str, fits, bound: str):
    """An argparse type reading ``kind`` (``expected`` when it does not parse) that ``fits`` (``bound`` when not)."""

    def read(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if not fits(value):
            raise argparse.ArgumentTypeError(f"{bound}, got {text}")
        return value

    return read

def whole(least: int):
    """An argparse type: a whole number of at least ``least``."""
    return _reader(int, "a whole number", lambda v: v >= least, f"must be at least {least}")


seconds = _reader(float, "a number of seconds", lambda v: v > 0, "must be above 0 seconds")
port = _reader(int, "a port number", lambda v: 1 <= v <= 65535, "must lie between 1 and 65535")
chance = _reader(float, "a number between 0 and 1", lambda v: 0 <= v <= 1, "must lie between 0 and 1")

#: The command line's default budget for counting one position: a wide front can take hours to count
#: exactly, and a command that seems to hang helps nobody. ``none`` waits as long as it takes.
DEFAULT_SECONDS = 60.0

def row_col(text: str) -> tuple[int, int]:
    """An argparse type: a cell as ``ROW,COL``, both whole numbers from 0."""
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"expected a cell as ROW,COL (whole numbers from 0), got {text!r}")
    return int(parts[0]), int(parts[1])

def memory_size(text: str):
    """An argparse type: bytes such as ``512M`` or ``2G``, or ``none`` for no allowance."""
    if text.strip().lower() == "none":
        return None
    try:
        value = parse_bytes(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"memory must be above 0 bytes, got {text}")
    return value


def add_memory_option(command: argparse.ArgumentParser, what: str, *, counts: bool = True) -> None:
    cut = ", and a count that would pass it stops, marked NOT EXACT" if counts else " (each solve in a game keeps to 1G)"
    command.add_argument("--memory", type=memory_size, default=DEFAULT_MEMORY, metavar="SIZE",
                         help=f"the memory {what} may hold (512M, 2G, or none; default 1G): a board too large for it "
                              f"is refused before any work{cut}")


def limit_of(args) -> Limit:
    """The budget a command's options give: ``--time-limit``, ``--node-limit`` and ``--memory``, those it has."""
    return Limit(time=getattr(args, "time_limit", None), nodes=getattr(args, "node_limit", None),
                 memory=getattr(args, "memory", DEFAULT_MEMORY))


def seconds_or_none(text: str):
    """An argparse type: seconds above 0, or ``none`` for no limit."""
    return None if text.strip().lower() == "none" else seconds(text)


def exact_options_text() -> str:
    """The exact agent's options at their defaults, for the help of the commands that name agents."""
    tuned, research = (textwrap.fill(spec_defaults(research=r), width=88, initial_indent="  ", subsequent_indent="  ") for r in (False, True))
    return f"exact options (docs/agents.md):\n{tuned}\nexact research switches:\n{research}"


def add_move_timeout(command: argparse.ArgumentParser) -> None:
    command.add_argument("--move-timeout", type=seconds, default=10.0, metavar="S",
                         help="seconds a cmd: player may take for a move; past them it loses the game")


def add_total_or_density(command: argparse.ArgumentParser) -> None:
    group = command.add_mutually_exclusive_group()
    group.add_argument("--mines", type=whole(0), help="the mine total, overriding the file's header")
    group.add_argument("--density", type=chance, help="each covered cell a mine with this chance (total unknown)")


def add_board_options(command: argparse.ArgumentParser, workers: int) -> None:
    board = command.add_mutually_exclusive_group()
    board.add_argument("--preset", choices=tuple(PRESETS), help="a standard board (default: expert)")
    board.add_argument("--size", metavar="WxHxM", help="width x height x mines")
    command.add_argument("--first-click", choices=FIRST_CLICKS, default="safe", help="where the game's first click goes")
    command.add_argument("--games", type=whole(1), default=100, help="games a point")
    command.add_argument("--seed", type=whole(0), default=0, help="the boards' seed")
    command.add_argument("--workers", type=whole(1), default=workers, help="processes (default: this machine's cores)")
    command.add_argument("--density-sweep", help="comma-separated mine densities on the chosen board size")
    command.add_argument("--size-sweep", help="comma-separated side lengths of square boards")
    command.add_argument("--density", type=chance, default=0.15, help="mine density of a size sweep")
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    add_memory_option(command, "a game", counts=False)

