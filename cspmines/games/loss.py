"""The winning chance a move loses: the value of the position minus the value of the move, exactly.

The **value** of a position is the chance that best play wins from it, every layout the position allows
equally likely (:func:`~cspmines.engine.value.value_of`); the value of a move is that chance when the move
is made first and play is best after it. A move's **loss** is the difference: 0 for a move best play makes
too, the whole value for an open of a proved mine, and in between for a guess that a better one beats. It
is an exact fraction, worked out by one search over the position's layouts within a budget (a
:class:`~cspmines.engine.budget.Limit`); where that search does not finish, the move is **not valued**,
never guessed at.

Summed over a game, the losses telescope: the value of the first position the player faced, minus the
chance that the player's own play wins from it, is the expected sum of the losses along the game (the value
of each position reached is the value of the move that reached it, on average over what it showed). So a
game's loss measures, in winning chance, what the player gave up to best play, move by move.

>>> from cspmines import Position
>>> position = Position.from_string("5x1x2\\n....1")   # (0,3) is the 1's mine; the other is in (0,0), (0,1) or (0,2)
>>> end = move_loss(position, (0,))     # a 1 in 3 chance; safe, its clue says where the mine is
>>> end.value, end.move, end.loss
(Fraction(2, 3), Fraction(2, 3), Fraction(0, 1))
>>> middle = move_loss(position, (1,))  # the same chance, but safe it shows 1 either way: a 50/50 is left
>>> middle.move, middle.loss
(Fraction(1, 3), Fraction(1, 3))
>>> move_loss(position, (0, 1)).why     # a chord's cells are not valued together
'chord'
>>> move_loss(position, (3,)).loss, mine_loss(position).loss   # the 1's mine: the whole value lost
(Fraction(2, 3), Fraction(2, 3))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..engine.budget import Limit
from ..engine.value import value_of
from ..position import Position

__all__ = ["MoveLoss", "mine_loss", "move_loss", "position_value"]


@dataclass(frozen=True)
class MoveLoss:
    """What a move lost (:func:`move_loss`).

    Attributes
    ----------
    loss : Fraction or None
        ``value - move``; None when the move was not valued.
    value, move : Fraction or None
        The chance best play wins from the position, and after opening the move's cell first.
    why : str or None
        Why the move was not valued: ``"chord"`` (several cells opened at once), ``"total"`` (the mine total
        is unknown), or what stopped the search (``"time"``, ``"nodes"``, ``"memory"``; ``"layouts"``: too
        many to list).
    """

    loss: Fraction | None
    value: Fraction | None = None
    move: Fraction | None = None
    why: str | None = None

    @property
    def valued(self) -> bool:
        return self.loss is not None


def move_loss(position: Position, opens, *, limit: Limit | None = None) -> MoveLoss:
    """The winning chance lost by opening the covered cells ``opens`` (flat) on ``position`` (its flags are
    read as the position reads them: the judge passes the position with its flags as covered cells).

    One cell is valued by one search of ``position``'s value with every covered cell's own
    (:func:`~cspmines.engine.value.value_of` with ``cells="all"``) within ``limit`` (None: no bound). A
    chord (several cells) is not valued: the value is defined for one cell opened at a time.

    Examples
    --------
    >>> from cspmines import Position
    >>> move_loss(Position.from_string("3x2x1\\n1..\\n1.."), (1,))   # a 50/50: either cell of it wins half
    MoveLoss(loss=Fraction(0, 1), value=Fraction(1, 2), move=Fraction(1, 2), why=None)
    >>> empty = Position.from_string("4x4x4\\n....\\n....\\n....\\n....")
    >>> move_loss(empty, (5,), limit=Limit(nodes=10)).why   # 1,820 layouts: not searched in 10 states
    'nodes'
    """
    opens = tuple(opens)
    if len(opens) != 1:
        return MoveLoss(None, why="chord")
    if position.mines is None:  # the value is defined with the mine total known
        return MoveLoss(None, why="total")
    found = value_of(position, limit=limit, cells="all")
    if opens[0] not in position.covered_cells:
        raise ValueError(f"cell {opens[0]} is not covered: only a covered cell is opened")
    move = found.value(opens[0]) if found.exact else None
    if move is None or not move.exact:  # the search stopped before it finished the position or the cell
        return MoveLoss(None, why=found.stopped_by or "time")
    value, after = found.probability, move.probability
    assert value is not None and after is not None  # exact: both are fractions
    return MoveLoss(value - after, value, after)


def mine_loss(position: Position, *, limit: Limit | None = None) -> MoveLoss:
    """The loss of opening a cell proved to be a mine on ``position``: the position's whole value, for the
    move wins nothing. One search for the position's value alone (the cells' own values are not needed).

    Examples
    --------
    >>> from cspmines import Position
    >>> mine_loss(Position.from_string("5x1x2\\n....1"))   # (0,3) is the 1's mine: the value, 2/3, is lost
    MoveLoss(loss=Fraction(2, 3), value=Fraction(2, 3), move=Fraction(0, 1), why=None)
    """
    if position.mines is None:
        return MoveLoss(None, why="total")
    found = value_of(position, limit=limit, cells="one")
    if found.probability is None:
        return MoveLoss(None, why=found.stopped_by or "time")
    return MoveLoss(found.probability, found.probability, Fraction(0))


def position_value(position: Position, *, limit: Limit | None = None) -> Fraction | None:
    """The chance best play wins from ``position``, by one search for it alone within ``limit``; None when the
    search did not finish (or the mine total is unknown).

    >>> from cspmines import Position
    >>> position_value(Position.from_string("5x1x2\\n....1"))
    Fraction(2, 3)
    """
    return None if position.mines is None else value_of(position, limit=limit, cells="one").probability
