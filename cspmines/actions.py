"""What a player may do, and the rules it may play under: shared by games and agents.

The game simulator (:mod:`cspmines.games`) and the players
(:mod:`cspmines.agents`) both speak in :class:`Action`; neither needs the
other to do so, so these live below both.

>>> Action.open(5), Action.flag(7, certain=True)
(Action(kind='open', cell=5, certain=False), Action(kind='flag', cell=7, certain=True))
>>> Action("dig", 3)
Traceback (most recent call last):
...
ValueError: an action is 'open' or 'flag', got 'dig'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .position import Position

__all__ = ["Action", "Agent", "RULES"]

#: The rule variants a game is played under (see :mod:`cspmines.games.game`).
RULES = ("classic", "minesearch", "score")


@dataclass(frozen=True)
class Action:
    """Open or flag one cell; ``certain`` is the player's own claim that the move is proved."""

    kind: str
    cell: int
    certain: bool = False

    def __post_init__(self):
        if self.kind not in ("open", "flag"):
            raise ValueError(f"an action is 'open' or 'flag', got {self.kind!r}")

    @classmethod
    def open(cls, cell: int, *, certain: bool = False) -> "Action":
        return cls("open", int(cell), certain)

    @classmethod
    def flag(cls, cell: int, *, certain: bool = False) -> "Action":
        return cls("flag", int(cell), certain)


class Agent(Protocol):
    """A player: told the rules and a seed at the start of each game, then asked for one move at a time."""

    name: str

    def reset(self, *, rules: str, seed) -> None:
        """Start a new game under ``rules`` with a fresh random stream from ``seed``."""

    def act(self, position: Position) -> Action:
        """The next move on ``position`` (covered cells are ``.``, flags ``F``,
        opened mines ``*`` in minesearch and score, withheld clues ``?``)."""
