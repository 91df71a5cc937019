"""The line protocol's messages: what cspmines says to a player in another process, and how its answers read.

Every message is one JSON object on one line; docs/protocol.md is the whole protocol, written for player
authors. This module only builds and reads the messages: :mod:`~cspmines.agents.process` carries them to
and from the player's process, and :mod:`~cspmines.agents.external` plays games with them.

>>> from cspmines import Position
>>> position = Position.from_string("3x2x1\\n1..\\n...")
>>> position_message(position)
'{"position": ["1..", "..."], "mines_left": 1}'
>>> read_move('{"open": [1, 2]}', position)
(Action(kind='open', cell=5, certain=False),)
>>> read_move('{"open": [0, 0]}', position)
Traceback (most recent call last):
...
cspmines.games.playing.PlayerFault: illegal move: open (0, 0): the cell is already open
>>> read_move('open 1 2', position)
Traceback (most recent call last):
...
cspmines.games.playing.PlayerFault: bad message: not JSON: 'open 1 2'
"""

from __future__ import annotations

import json

import numpy as np

from ..actions import Action, ClickKind
from ..games.playing import Fault, PlayerFault
from ..position import COVERED, FLAG, MINE, Position

__all__ = ["VERSION", "MOVES", "QUIT", "hello", "read_name", "game_message", "position_message", "read_move",
           "result_message"]

#: The protocol's version, sent first (``{"cspmines": 1}``): fields may be added to it, none removed or renamed.
VERSION = 1
#: The moves a player may answer, each as ``{"KIND": [ROW, COL]}``.
MOVES = ("open", "flag", "chord")
QUIT = '{"quit": true}'
LONGEST_NAME = 100

# a cell's code (-4 withheld .. 8) plus 4 indexes its character: the position format's own
_CHARACTERS = np.frombuffer(b"?*F.012345678", dtype=np.uint8)


def hello(move_timeout: float) -> str:
    """The first message: the protocol's version, and the seconds a move may take."""
    return json.dumps({"cspmines": VERSION, "move_timeout": move_timeout})


def read_name(line: str) -> str:
    """The player's answer to :func:`hello`: ``{"name": "NAME"}``, a name of one line up to 100 characters.

    >>> read_name('{"name": "my player"}')
    'my player'
    >>> read_name('{"name": ""}')
    Traceback (most recent call last):
    ...
    cspmines.games.playing.PlayerFault: bad message: the first answer must be {"name": "NAME"} (a name of 1 to 100 printable characters), got '{"name": ""}'
    """
    data = _object(line)
    name = data.get("name")
    if not isinstance(name, str) or not 0 < len(name) <= LONGEST_NAME or not name.isprintable() or name != name.strip():
        raise PlayerFault(Fault.BAD_MESSAGE, f'the first answer must be {{"name": "NAME"}} (a name of 1 to {LONGEST_NAME} '
                                             f"printable characters), got {_shown(line)}")
    return name


def game_message(*, width: int, height: int, mines: int, rules: str, seed: int, index: int) -> str:
    """A new game: its board's size and mines, its rules, the seed for the player's own random choices and
    the game's number (in a suite, the board's: game i of every player is the same board).

    >>> game_message(width=9, height=9, mines=10, rules="classic", seed=7, index=0)
    '{"game": {"width": 9, "height": 9, "mines": 10, "rules": "classic", "seed": 7, "index": 0}}'
    """
    return json.dumps({"game": {"width": width, "height": height, "mines": mines, "rules": str(rules), "seed": seed,
                                "index": index}})


def position_message(position: Position) -> str:
    """The position the player is to move on: its rows in the position format's characters, and the mines
    not yet flagged or opened (the total less flags and opened mines)."""
    width = position.width
    text = _CHARACTERS[position.grid.ravel() + 4].tobytes().decode("ascii")
    rows = [text[start : start + width] for start in range(0, len(text), width)]
    grid = position.grid
    known = int(np.count_nonzero((grid == FLAG) | (grid == MINE)))
    return json.dumps({"position": rows, "mines_left": int(position.mines or 0) - known})


def result_message(status: str) -> str:
    """How the game ended: won, lost or finished (score rules: over, not every mine flagged)."""
    return json.dumps({"result": str(status)})


def read_move(line: str, position: Position) -> tuple[Action, ...]:
    """The player's answer on ``position`` as the actions it makes: one, or a chord's opens (each covered
    cell around the clue, in reading order). Raises :class:`PlayerFault`: a bad message (not a move) or an
    illegal move (not one the rules allow on this position)."""
    data = _object(line)
    kinds = [kind for kind in MOVES if kind in data]
    if len(kinds) != 1:
        raise PlayerFault(Fault.BAD_MESSAGE, f"a move is one of {{\"open\": [ROW, COL]}}, {{\"flag\": ...}} or "
                                             f"{{\"chord\": ...}}, got {_shown(line)}")
    kind = kinds[0]
    where = data[kind]
    if not (isinstance(where, list) and len(where) == 2 and all(type(v) is int for v in where)):
        raise PlayerFault(Fault.BAD_MESSAGE, f"{kind} takes [ROW, COL], two whole numbers, got {_shown(line)}")
    certain = data.get("certain", False)
    if not isinstance(certain, bool):
        raise PlayerFault(Fault.BAD_MESSAGE, f"certain is true or false, got {_shown(line)}")
    row, col = where
    if not (0 <= row < position.height and 0 <= col < position.width):
        raise PlayerFault(Fault.ILLEGAL_MOVE, f"{kind} ({row}, {col}): outside the {position.width}x{position.height} board")
    cell = position.cell(row, col)
    if kind == ClickKind.CHORD:
        return tuple(Action.open(n, certain=certain) for n in _chorded(position, cell, f"chord ({row}, {col})"))
    code = position.code(cell)
    if kind == ClickKind.OPEN and code != COVERED:
        raise PlayerFault(Fault.ILLEGAL_MOVE, f"open ({row}, {col}): the cell is {_state(code)}")
    if kind == ClickKind.FLAG:
        if code not in (COVERED, FLAG):
            raise PlayerFault(Fault.ILLEGAL_MOVE, f"flag ({row}, {col}): the cell is {_state(code)}")
        if code == COVERED and len(position.known_mine_cells) >= (position.mines or 0):
            raise PlayerFault(Fault.ILLEGAL_MOVE, f"flag ({row}, {col}): flags and opened mines would exceed the "
                                                  f"{position.mines} mines")
        return (Action.flag(cell, certain=certain),)
    return (Action.open(cell, certain=certain),)


def _chorded(position: Position, cell: int, move: str) -> list[int]:
    """The covered cells a chord on ``cell`` opens: it must be an opened clue with as many flags and opened
    mines around it as its number, and something left to open."""
    code = position.code(cell)
    if code < 0:
        raise PlayerFault(Fault.ILLEGAL_MOVE, f"{move}: the cell is {_state(code)}, not an opened clue")
    around = position.neighbours(cell)
    marked = sum(1 for n in around if position.code(n) in (FLAG, MINE))
    if marked != code:
        raise PlayerFault(Fault.ILLEGAL_MOVE, f"{move}: the clue is {code} and {marked} flags or opened mines touch it")
    covered = [n for n in around if position.code(n) == COVERED]
    if not covered:
        raise PlayerFault(Fault.ILLEGAL_MOVE, f"{move}: no covered cell is left around it")
    return covered


def _state(code: int) -> str:
    return {FLAG: "flagged", MINE: "an opened mine", COVERED: "covered"}.get(code, "already open")


def _object(line: str) -> dict:
    try:
        data = json.loads(line)
    except ValueError:
        raise PlayerFault(Fault.BAD_MESSAGE, f"not JSON: {_shown(line)}") from None
    if not isinstance(data, dict):
        raise PlayerFault(Fault.BAD_MESSAGE, f"not a JSON object: {_shown(line)}")
    return data


def _shown(line: str) -> str:
    """A player's line as quoted in a fault's detail: at most 120 characters of it."""
    line = line.rstrip("\n")
    return repr(line if len(line) <= 120 else line[:117] + "...")
