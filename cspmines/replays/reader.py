"""Replays of real games as values: what the player saw before each click that opened cells.

A replay file (Arbiter's AVF, Viennasweeper's and Minesweeper Clone's RMV,
Metasweeper's EVF, Minesweeper X's MVF) records mouse events. ms-toollib (the
``replays`` extra) reads all four and plays the events through its own board,
so it knows which events opened cells and what the board showed before each;
:func:`read_replay` takes exactly that from it and keeps it as a frozen
:class:`Replay`. The reading runs in a child process (:mod:`.extract`):
ms-toollib aborts the whole process on a corrupt file, and a user's folder of
replays must not take the analysis down with it.

:meth:`Replay.from_moves` builds the same value from a mine layout and a list
of moves, for games made here (tests, a bench game written out).

>>> replay = Replay.from_moves([[0, 0, 1], [0, 0, 0]], [("open", 0, 0), ("open", 1, 2)])
>>> replay.outcome, len(replay.clicks), replay.clicks[0].opens
('won', 2, (0,))
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..actions import ClickKind, Vocabulary
from ..errors import CspminesError
from ..extras import install_hint
from ..position import COVERED, Position, neighbour_table
from .statistics import Statistics

__all__ = ["FORMATS", "ClickAction", "FirstClickRule", "Outcome", "Replay", "ReplayClick", "ReplayFormatError", "first_click_rule", "read_replay"]

#: The replay formats read, by file extension.
FORMATS = ("avf", "rmv", "evf", "mvf")
MOST_BYTES = 64 * 1024 * 1024  # the largest real replays are a few MB; past this a file is not one
READ_SECONDS = 120.0  # the child reading one file; a 36x60 game of 1,000 3BV takes about half a second


class ReplayFormatError(CspminesError, ValueError):
    """A file that cannot be read as a replay; the message names the file and what is wrong."""


class ClickAction(Vocabulary):
    """What a click that opened cells did: open the covered cell under it, or chord on a clue."""

    OPEN = "open"
    CHORD = "chord"


#: ms-toollib's game modes whose layouts are not drawn uniformly (UPK, cheat; no-guess modes draw solvable boards,
#: can-guess modes move mines): the chances of a replay are those of a uniform layout, which these programs do not
#: play by.
NOT_UNIFORM_MODES = {1: "UPK", 2: "cheat", 5: "classic no-guess", 6: "strong no-guess", 7: "weak no-guess",
                     8: "quasi no-guess", 9: "strong can-guess", 10: "weak can-guess"}


class Outcome(Vocabulary):
    """How the recorded game ended."""

    WON = "won"
    LOST = "lost"
    UNFINISHED = "unfinished"


class FirstClickRule(Vocabulary):
    """What the recording program guarantees of the first click: never a mine, always a zero (an
    opening), or nothing."""

    SAFE = "safe"
    OPENING = "opening"
    ANY = "any"


@dataclass(frozen=True)
class ReplayClick:
    """One click that opened cells (or set off a mine), as the player met it.

    Attributes
    ----------
    time : float
        Seconds since the game's first click, as the file records them.
    action : ClickAction
    row, col : int
        The cell under the mouse: the covered cell opened, or the clue chorded on.
    seen : Position
        The board just before the click, with the game's mine total. The player's flags are
        written as covered cells: a flag is the player's belief, not a proof.
    opens : tuple of int
        The covered cells the click opens (flat), before any opening spreads: the cell
        itself, or a chord's covered neighbours that are not flagged.
    flags : tuple of int
        The cells the player had flagged (for pictures).
    """

    time: float
    action: ClickAction
    row: int
    col: int
    seen: Position
    opens: tuple
    flags: tuple = ()


@dataclass(frozen=True)
class Replay:
    """A recorded game: its facts, its mine layout, and the clicks that opened cells, in order.

    ``time``, ``bbbv``, ``software``, ``player`` and ``mode`` are what the file carries
    (None or empty where it does not). ``first_click`` is the rule the chances of the first
    click follow (:func:`first_click_rule`). ``statistics`` are ms-toollib's numbers for the
    file (:class:`~cspmines.replays.statistics.Statistics`; None for a game not read from one).
    """

    source: str
    format: str
    width: int
    height: int
    mines: int
    layout: frozenset
    clicks: tuple
    outcome: Outcome
    first_click: FirstClickRule
    time: float | None = None
    bbbv: int | None = None
    software: str = ""
    player: str = ""
    mode: int | None = None
    statistics: Statistics | None = None

    @classmethod
    def from_moves(cls, layout, moves, *, source: str = "<moves>", first_click: FirstClickRule = FirstClickRule.SAFE,
                   times=None) -> Replay:
        """A replay of ``moves`` on ``layout`` (rows of 0/1, 1 a mine), played by the classic rules.

        Each move is ``(kind, row, col)`` with kind ``"open"``, ``"chord"`` or ``"flag"`` (a flag on a
        flagged cell lifts it). A move that opens nothing is kept out of the clicks, as a replay file's
        reader does; play stops at the first mine set off.

        >>> replay = Replay.from_moves([[0, 0, 0], [1, 0, 0]], [("open", 0, 2), ("flag", 1, 0), ("chord", 0, 1)])
        >>> [(click.action.value, click.opens) for click in replay.clicks], replay.outcome.value
        ([('open', (2,)), ('chord', (0,))], 'won')
        """
        rows = [list(row) for row in layout]
        height, width = len(rows), len(rows[0]) if rows else 0
        if not height or not width or any(len(row) != width for row in rows):
            raise ReplayFormatError(f"{source}: the layout must be a non-empty rectangle of rows")
        mines = frozenset(r * width + c for r in range(height) for c in range(width) if rows[r][c])
        board = _Board(width, height, mines)
        clicks: list[ReplayClick] = []
        for index, (kind, row, col) in enumerate(moves):
            if board.outcome != Outcome.UNFINISHED:
                break
            if not (0 <= row < height and 0 <= col < width):
                raise ReplayFormatError(f"{source}: move {index + 1} at ({row},{col}) is off the {width}x{height} board")
            cell = row * width + col
            if kind == ClickKind.FLAG:
                board.toggle_flag(cell)
                continue
            if kind not in ("open", "chord"):
                raise ReplayFormatError(f"{source}: move {index + 1} is {kind!r}: a move is open, chord or flag")
            seen, flags = board.seen(), tuple(sorted(board.flags))
            opens = board.opened_by(kind, cell)
            if board.play(kind, cell):
                time = float(times[index]) if times is not None else float(len(clicks))
                clicks.append(ReplayClick(time, ClickAction(kind), row, col, seen, opens, flags))
        return cls(source, "moves", width, height, len(mines), mines, tuple(clicks), board.outcome, first_click)


class _Board:
    """The classic game on a known layout, for :meth:`Replay.from_moves`: opens, chords, flags."""

    def __init__(self, width: int, height: int, mines: frozenset):
        self.width, self.height, self.mines = width, height, mines
        self.neighbours = neighbour_table(width, height)
        self.opened: set = set()
        self.flags: set = set()
        self.outcome = Outcome.UNFINISHED

    def clue(self, cell: int) -> int:
        return sum(1 for other in self.neighbours[cell] if other in self.mines)

    def seen(self) -> Position:
        grid = [[COVERED] * self.width for _ in range(self.height)]
        for cell in self.opened:
            grid[cell // self.width][cell % self.width] = self.clue(cell)
        return Position(grid, mines=len(self.mines))

    def toggle_flag(self, cell: int) -> None:
        if cell not in self.opened:
            self.flags.symmetric_difference_update({cell})

    def opened_by(self, kind: str, cell: int) -> tuple:
        if kind == ClickKind.OPEN:
            return (cell,) if cell not in self.opened and cell not in self.flags else ()
        if cell not in self.opened or sum(1 for o in self.neighbours[cell] if o in self.flags) != self.clue(cell):
            return ()  # a chord opens nothing unless its clue's flags are all placed
        return tuple(o for o in self.neighbours[cell] if o not in self.opened and o not in self.flags)

    def play(self, kind: str, cell: int) -> bool:
        """Open what the move opens; True when it opened something (or set off a mine)."""
        targets = self.opened_by(kind, cell)
        if not targets:
            return False
        if any(target in self.mines for target in targets):
            self.outcome = Outcome.LOST
            return True
        stack = list(targets)
        while stack:  # an opened zero opens its neighbours
            current = stack.pop()
            if current in self.opened:
                continue
            self.opened.add(current)
            self.flags.discard(current)
            if self.clue(current) == 0:
                stack.extend(o for o in self.neighbours[current] if o not in self.opened)
        if len(self.opened) + len(self.mines) == self.width * self.height:
            self.outcome = Outcome.WON
        return True


def first_click_rule(mode: int | None, first_seen_clue: int | None, first_hit_mine: bool) -> FirstClickRule:
    """The rule the recording program applied to the first click.

    Arbiter, Minesweeper X, Viennasweeper, Minesweeper Clone and Metasweeper's standard
    modes never put a mine under the first click; Metasweeper's Windows 7 mode (mode 4) makes
    it an opening. A first click that set off a mine, or an opening rule whose first click
    showed a number, cannot have been played under that rule: the weaker one is taken.

    >>> first_click_rule(0, 2, False).value, first_click_rule(4, 0, False).value   # Arbiter; Metasweeper's Win7 mode
    ('safe', 'opening')
    >>> first_click_rule(0, None, True).value
    'any'
    """
    if first_hit_mine:
        return FirstClickRule.ANY
    if mode == 4 and first_seen_clue == 0:
        return FirstClickRule.OPENING
    return FirstClickRule.SAFE


def read_replay(path, *, data: bytes | None = None, format: str | None = None) -> Replay:
    """Read a replay file (AVF, RMV, EVF or MVF, by its extension unless ``format`` says).

    Needs the ``replays`` extra (ms-toollib). ``data`` gives the file's bytes when they
    are not on disk (an upload); ``path`` then only names it.

    Raises
    ------
    ReplayFormatError
        An unknown extension, an empty, truncated, corrupt or non-replay file, a game
        that never started, or ms-toollib missing; the message names the file.

    Examples
    --------
    >>> read_replay("notes.txt", data=b"hello")
    Traceback (most recent call last):
    ...
    cspmines.replays.reader.ReplayFormatError: notes.txt: not a replay file: the extension must be .avf, .rmv, .evf or .mvf
    """
    name = str(path)
    kind = (format or Path(name).suffix.lstrip(".")).lower()
    if kind not in FORMATS:
        raise ReplayFormatError(f"{name}: not a replay file: the extension must be .avf, .rmv, .evf or .mvf")
    if data is None:
        try:
            size = Path(name).stat().st_size
            if size > MOST_BYTES:  # before reading it: no replay is this large
                raise ReplayFormatError(f"{name}: {size:,} bytes is too large for a replay")
            data = Path(name).read_bytes()
        except OSError as error:
            raise ReplayFormatError(f"{name}: cannot read it: {error.strerror or error}") from None
    if not data:
        raise ReplayFormatError(f"{name}: the file is empty")
    if len(data) > MOST_BYTES:
        raise ReplayFormatError(f"{name}: {len(data):,} bytes is too large for a replay")
    return _from_extract(_extract(name, kind, data), name, kind)


def _extract(name: str, kind: str, data: bytes) -> dict:
    """Run ms-toollib on ``data`` in a child process (see :mod:`.extract`) and read its JSON."""
    import importlib.util

    if importlib.util.find_spec("ms_toollib") is None:
        raise ReplayFormatError(f"{name}: reading replays needs the replays extra: {install_hint('replays')}")
    script = Path(__file__).with_name("extract.py")
    env = {**os.environ, "RUST_BACKTRACE": "0"}
    # ms-toollib writes crash.log into its working folder when it aborts: give it a scratch one
    with tempfile.TemporaryDirectory(prefix="cspmines-replay-") as scratch:
        try:
            done = subprocess.run([sys.executable, str(script), kind], input=data, capture_output=True,
                                  timeout=READ_SECONDS, env=env, cwd=scratch)
        except subprocess.TimeoutExpired:
            raise ReplayFormatError(f"{name}: reading it took more than {READ_SECONDS:.0f} s") from None
    if done.returncode != 0:
        raise ReplayFormatError(f"{name}: not a readable {kind.upper()} replay (truncated, corrupt or another format)")
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        raise ReplayFormatError(f"{name}: not a readable {kind.upper()} replay (its reader said nothing usable)") from None


def _from_extract(raw: dict, name: str, kind: str) -> Replay:
    width, height, mines = raw["width"], raw["height"], raw["mines"]
    layout_rows = raw["layout"]
    if not (width > 0 and height > 0) or len(layout_rows) != height or any(len(row) != width for row in layout_rows):
        raise ReplayFormatError(f"{name}: the board's size ({width}x{height}) does not match its mine layout")
    layout = frozenset(r * width + c for r in range(height) for c in range(width) if layout_rows[r][c])
    if len(layout) != mines:
        raise ReplayFormatError(f"{name}: the header says {mines} mines, the layout holds {len(layout)}")
    if not raw["clicks"]:
        raise ReplayFormatError(f"{name}: the game never started: no click opened a cell")
    neighbours = neighbour_table(width, height)
    clicks = []
    for index, event in enumerate(raw["clicks"]):
        row, col, rows = event["row"], event["col"], event["seen"]
        if not (0 <= row < height and 0 <= col < width) or len(rows) != height or any(len(r) != width for r in rows):
            raise ReplayFormatError(f"{name}: click {index + 1} at ({row},{col}) does not fit the {width}x{height} board")
        seen, flags = _seen_position(rows, mines, name, index)
        cell = row * width + col
        if rows[row][col] in ".QF":  # a click on a covered cell opens it; on a clue it chords
            action, opens = ClickAction.OPEN, (cell,)
        else:
            action = ClickAction.CHORD
            opens = tuple(o for o in neighbours[cell] if rows[o // width][o % width] == ".")
        clicks.append(ReplayClick(float(event["time"]), action, row, col, seen, opens, flags))
    lost = raw["clicks"][-1]["level"] == 4
    outcome = Outcome.WON if raw["completed"] else Outcome.LOST if lost else Outcome.UNFINISHED
    first = raw["clicks"][0]
    first_hit = first["level"] == 4
    shown = raw["clicks"][1]["seen"][first["row"]][first["col"]] if len(raw["clicks"]) > 1 else None
    rule = first_click_rule(raw["mode"], int(shown) if shown and shown.isdigit() else None, first_hit)
    return Replay(name, kind, width, height, mines, layout, tuple(clicks), outcome, rule, time=raw["time"],
                  bbbv=raw["bbbv"] or None, software=raw["software"], player=raw["player"], mode=raw["mode"],
                  statistics=Statistics.from_json(raw["stats"]) if "stats" in raw else None)


def _seen_position(rows: list, mines: int, name: str, index: int) -> tuple[Position, tuple]:
    """The board before a click as a position (flags and question marks covered) and the flagged cells."""
    width = len(rows[0])
    grid, flags = [], []
    for r, text in enumerate(rows):
        line = []
        for c, char in enumerate(text):
            if char.isdigit():
                line.append(int(char))
            elif char in ".QF":
                line.append(COVERED)
                if char == "F":
                    flags.append(r * width + c)
            else:
                raise ReplayFormatError(f"{name}: click {index + 1}: the board shows a mine at ({r},{c}) before the click")
        grid.append(line)
    return Position(grid, mines=mines), tuple(flags)
