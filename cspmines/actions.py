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
from enum import Enum
from typing import Protocol

from .position import Position

__all__ = ["Action", "ActionKind", "Agent", "ClickKind", "RULES", "Rules", "Vocabulary"]


class Vocabulary(str, Enum):
    """A closed vocabulary whose members are their own words: equal to the strings, hashed, written and
    sent as JSON as them (so records and options keep reading as they did), and checked in one place.

    >>> Rules.check("score") is Rules.SCORE, Rules.SCORE == "score", f"{Rules.SCORE}", str(Rules.SCORE)
    (True, True, 'score', 'score')
    >>> Rules.check("golf")
    Traceback (most recent call last):
    ...
    ValueError: rules must be one of classic, minesearch, score, got 'golf'
    """

    # a member is a str holding its word, so str's own methods give the word's text and hash (in C:
    # members are compared, hashed and written on every move of a game)
    __str__ = str.__str__
    __hash__ = str.__hash__  # a member is its word: the same key in a dict or a set

    def __repr__(self) -> str:  # shown as its word, as the strings it replaced were
        return repr(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    @classmethod
    def words(cls) -> tuple:
        return tuple(member.value for member in cls)

    @classmethod
    def check(cls, value, what: str | None = None):
        """The member named ``value``, or a ``ValueError`` naming the choices."""
        try:
            return cls(value)
        except ValueError:
            name = what or cls.__name__.lower()
            raise ValueError(f"{name} must be one of {', '.join(cls.words())}, got {value!r}") from None


class Rules(Vocabulary):
    """The rule variants a game is played under (see :mod:`cspmines.games.game`)."""

    CLASSIC = "classic"
    MINESEARCH = "minesearch"
    SCORE = "score"


#: The rules' words, in order.
RULES = Rules.words()


class ActionKind(Vocabulary):
    """What a move does to its cell."""

    OPEN = "open"
    FLAG = "flag"


class ClickKind(Vocabulary):
    """What a click does, as a player from outside says it and a replay records it: open a covered cell,
    flag one, or chord on a clue (open its covered neighbours once its flags account for its mines)."""

    OPEN = "open"
    FLAG = "flag"
    CHORD = "chord"


# members read on every move, read off their classes once: in Python 3.11 a member read off its Enum
# class goes through the metaclass's __getattr__ hook, several times the cost of a global
_OPEN, _FLAG = ActionKind.OPEN, ActionKind.FLAG


@dataclass(frozen=True)
class Action:
    """Open or flag one cell; ``certain`` is the player's own claim that the move is proved."""

    kind: ActionKind
    cell: int
    certain: bool = False

    def __post_init__(self):
        if not isinstance(self.kind, ActionKind):
            try:
                object.__setattr__(self, "kind", ActionKind(self.kind))
            except ValueError:
                raise ValueError(f"an action is 'open' or 'flag', got {self.kind!r}") from None

    @classmethod
    def open(cls, cell: int, *, certain: bool = False) -> Action:
        return cls(_OPEN, int(cell), certain)

    @classmethod
    def flag(cls, cell: int, *, certain: bool = False) -> Action:
        return cls(_FLAG, int(cell), certain)


class Agent(Protocol):
    """A player: told the rules and a seed at the start of each game, then asked for one move at a time."""

    name: str

    def reset(self, *, rules: str, seed) -> None:
        """Start a new game under ``rules`` with a fresh random stream from ``seed``."""

    def act(self, position: Position) -> Action:
        """The next move on ``position`` (covered cells are ``.``, flags ``F``,
        opened mines ``*`` in minesearch and score, withheld clues ``?``)."""
