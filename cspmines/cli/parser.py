"""The command line's options: every command, its help, defaults and examples, and the checks on values."""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
import textwrap

from .. import __version__
from ..actions import RULES
from ..agents import agent_names
from ..agents.exact.options import spec_defaults
from ..engine.backends import backend_names
from ..engine.question import DEFAULT_MEMORY, parse_bytes
from ..games.board import FIRST_CLICKS, PRESETS
from ..native import BUILD
from ..web import SERVER_MEMORY
from .texts import BENCH_HELP, CHAINS_HELP, COMPARE_HELP, MOVE_HELP, REPLAY_HELP, SAMPLE_HELP, SERVE_HELP, SOLVE_HELP, STUDY_HELP

__all__ = ["build_parser"]


class _Help(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Defaults shown after each option (unless its help already says it, or there is none);
    descriptions and examples kept as written."""

    def _get_help_string(self, action):
        text = action.help or ""
        if "default" in text or action.default in (None, False):
            return text
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    """argparse with the project's errors: one line, ``cspmines COMMAND: error: ...``, exit 2, and a
    "did you mean" for a mistyped option, command or choice (argparse prints its usage block instead)."""

    def parse_known_args(self, args=None, namespace=None):
        self._words = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str):
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


def _memory_option(command: argparse.ArgumentParser, what: str, *, counts: bool = True) -> None:
    cut = ", and a count that would pass it stops, marked NOT EXACT" if counts else " (each solve in a game keeps to 1G)"
    command.add_argument("--memory", type=memory_size, default=DEFAULT_MEMORY, metavar="SIZE",
                         help=f"the memory {what} may hold (512M, 2G, or none; default 1G): a board too large for it "
                              f"is refused before any work{cut}")


def seconds_or_none(text: str):
    """An argparse type: seconds above 0, or ``none`` for no limit."""
    return None if text.strip().lower() == "none" else seconds(text)


def _exact_options() -> str:
    """The exact agent's options at their defaults, for the help of the commands that name agents."""
    tuned, research = (textwrap.fill(spec_defaults(research=r), width=88, initial_indent="  ", subsequent_indent="  ") for r in (False, True))
    return f"exact options (docs/agents.md):\n{tuned}\nexact research switches:\n{research}"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cspmines", description="Exact Minesweeper analysis: probabilities, agents, benchmarks.")
    parser.add_argument("--version", action="version", version=f"cspmines {__version__} ({BUILD})")
    commands = parser.add_subparsers(dest="command", required=True)
    agents = ", ".join(agent_names())
    exact_options = _exact_options()
    workers = os.cpu_count() or 1

    solve = commands.add_parser("solve", help="mine probabilities of a position file", description=SOLVE_HELP, formatter_class=_Help)
    solve.add_argument("file", help="position file, or - for standard input")
    solve.add_argument("--backend", default="auto", choices=backend_names(), help="the counting engine")
    _total_or_density(solve)
    solve.add_argument("--time-limit", type=seconds_or_none, default=DEFAULT_SECONDS,
                       help="seconds allowed for counting, or none; past them the chances are estimates, marked NOT EXACT")
    solve.add_argument("--node-limit", type=whole(1), help="work units allowed for counting")
    _memory_option(solve, "a solve")
    solve.add_argument("--exact", action="store_true", help="add the model count and exact fractions")
    solve.add_argument("--outcomes", type=row_col, action="append", metavar="ROW,COL",
                       help="also what opening this covered cell ends in, exactly: a mine, or each clue it shows (repeatable)")
    solve.add_argument("--insight", action="store_true", help="also mark dead cells (d) and 50/50s (h unavoidable, p pseudo) after their chance, "
                       "and with at most 1,000 layouts every cell's chance of winning with best play")
    solve.add_argument("--json", action="store_true", help="print JSON (schema in docs/cli.md)")
    solve.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour the chances")
    solve.add_argument("--svg", help="also draw the board as SVG into this .svg file")
    solve.add_argument("--png", help="also draw the board as PNG into this .png file (needs matplotlib)")
    solve.add_argument("--outline", action="store_true", help="outline the chains of influence in the picture")

    sample = commands.add_parser("sample", help="mine layouts drawn uniformly from those a position allows",
                                 description=SAMPLE_HELP,
                                 formatter_class=_Help)
    sample.add_argument("file", help="position file, or - for standard input")
    sample.add_argument("--count", type=whole(1), default=1, help="how many layouts")
    sample.add_argument("--seed", type=whole(0), help="the same seed draws the same layouts")
    _total_or_density(sample)
    sample.add_argument("--time-limit", type=seconds_or_none, default=DEFAULT_SECONDS,
                        help="seconds allowed, or none; the layouts drawn by then are printed")
    _memory_option(sample, "the count and the layouts")
    sample.add_argument("--json", action="store_true", help="one board JSON object per line (as Board.from_json reads)")

    move = commands.add_parser("move", help="the move agents would make on a position, judged by the exact engine",
                               description=MOVE_HELP.format(agents=agents, exact_options=exact_options), formatter_class=_Help)
    move.add_argument("file", help="position file, or - for standard input")
    move.add_argument("--agent", action="append", metavar="SPEC", help="NAME or NAME:key=value,... (repeat for several; default: exact)")
    move.add_argument("--rules", choices=RULES, default="classic", help="the game the agents play")
    move.add_argument("--seed", type=whole(0), help="the agents' random seed (the same seed, the same moves)")
    move.add_argument("--mines", type=whole(0), help="the mine total, overriding the file's header")
    move.add_argument("--time-limit", type=seconds_or_none, default=DEFAULT_SECONDS,
                      help="seconds allowed for counting the position, or none; moves are judged only once it is counted")
    _memory_option(move, "each solve")
    move.add_argument("--explain", action="store_true", help="list the cells the exact agent's look-ahead weighed, with scores")
    _move_timeout(move)
    move.add_argument("--json", action="store_true", help="print JSON (schema in docs/cli.md)")

    bench = commands.add_parser("bench", help="play seeded benchmark suites of agents",
                                description=BENCH_HELP.format(agents=agents, exact_options=exact_options), formatter_class=_Help)
    bench.add_argument("--agent", action="append", metavar="SPEC", help="NAME or NAME:key=value,... (repeat for several; default: exact)")
    _move_timeout(bench)
    _board_options(bench, workers)
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

    compare = commands.add_parser("compare", help="paired differences between agents from bench --out files",
                                  description=COMPARE_HELP, formatter_class=_Help)
    compare.add_argument("files", nargs="+", metavar="FILE", help="result files of cspmines bench --out (JSON lines)")
    compare.add_argument("--against", metavar="NAME", help="pair every other agent with this one (default: the bench's first agent)")
    compare.add_argument("--json", action="store_true", help='print {"results": [...], "paired": [...]}')
    compare.add_argument("--csv", help="save the paired table as CSV here")

    study = commands.add_parser("study", help="play a study file (TOML) and write its results and report",
                                description=STUDY_HELP, formatter_class=_Help)
    study.add_argument("file", metavar="FILE.toml", help="the study: its suites, agents, games and seed")
    study.add_argument("--out", required=True, metavar="DIR", help="the folder for results.jsonl, report.md and the figures")
    study.add_argument("--workers", type=whole(1), help="processes or Ray tasks (default: the study's, else 1)")
    study.add_argument("--executor", choices=("process", "ray"), help="where games run (default: the study's)")
    study.add_argument("--address", help="Ray cluster address (default: the study's, else a local instance)")
    study.add_argument("--quiet", action="store_true", help="no progress bars")

    chains = commands.add_parser("chains", help="measure the chains of influence met in seeded games",
                                 description=CHAINS_HELP, formatter_class=_Help)
    _board_options(chains, workers)
    chains.add_argument("--json", action="store_true", help='print {"results": [...]} to standard output')
    chains.add_argument("--out", help="save every chain met, one JSON line per game, here")
    chains.add_argument("--csv", help="save the summary as CSV here")
    chains.add_argument("--plot", help="save the figure here (needs matplotlib)")
    replay = commands.add_parser("replay", help="real games' replay files (AVF, RMV, EVF, MVF) judged click by click",
                                 description=REPLAY_HELP, formatter_class=_Help)
    replay.add_argument("files", nargs="+", metavar="FILE", help="replay files or folders of them")
    replay.add_argument("--json", action="store_true", help="print JSON: one object a game, a list for several (docs/replays.md)")
    replay.add_argument("--csv", help="save one row a game as CSV here")
    replay.add_argument("--no-agent", action="store_true", help="skip the exact agent's move at each guess (faster)")
    replay.add_argument("--at", type=whole(1), metavar="N",
                        help="print the board the player saw before click N (the report's #), each cell's chance on it, "
                             "and the click judged")
    replay.add_argument("--time-limit", type=seconds_or_none, default=DEFAULT_SECONDS,
                        help="seconds allowed for counting each position, or none; past them a chance is an estimate, "
                             "marked NOT EXACT")
    _memory_option(replay, "each position's solve")
    replay.add_argument("--quiet", action="store_true", help="no progress bar")

    from .boards import add_board_commands  # their options live beside them (they import this module's types)
    add_board_commands(commands)

    serve = commands.add_parser("serve", help="the engine in a local web page", description=SERVE_HELP, formatter_class=_Help)
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (this machine only by default)")
    serve.add_argument("--port", type=port, default=8000, help="the port")
    serve.add_argument("--open", action="store_true", help="open the page in a browser")
    serve.add_argument("--time-limit", type=seconds, default=5.0, help="seconds of counting a request may take")
    serve.add_argument("--memory", type=memory_size, default=SERVER_MEMORY, metavar="SIZE",
                       help="the memory one request's solve may hold (512M, 2G, or none; default 256M): a board too large "
                            "for it is refused (422), a count that would pass it stops, marked not exact")
    serve.add_argument("--max-body", type=whole(1), default=1_000_000, help="bytes a request's body may hold; past them, 413")
    serve.add_argument("--max-games", type=whole(1), default=1000, help="games kept, the least recently used dropped first")
    serve.add_argument("--workers", type=whole(1), default=4, help="requests counting at once")
    serve.add_argument("--busy-wait", type=seconds, default=10.0, help="seconds a request waits for a worker before 503")
    return parser


def _move_timeout(command: argparse.ArgumentParser) -> None:
    command.add_argument("--move-timeout", type=seconds, default=10.0, metavar="S",
                         help="seconds a cmd: player may take for a move; past them it loses the game")


def _total_or_density(command: argparse.ArgumentParser) -> None:
    group = command.add_mutually_exclusive_group()
    group.add_argument("--mines", type=whole(0), help="the mine total, overriding the file's header")
    group.add_argument("--density", type=chance, help="each covered cell a mine with this chance (total unknown)")


def _board_options(command: argparse.ArgumentParser, workers: int) -> None:
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
    _memory_option(command, "a game", counts=False)

