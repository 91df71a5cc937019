"""What the exact agent advises at a player's guess, and why, where it risks more than the click.

At a **needless** guess some covered cell was proved safe: the advice is the
proved-safe cell nearest the click (rows and columns: the most of the two
distances, then their sum, then the first in reading order), where the player
was looking, at chance 0. (The agent itself opens any proved cell, the first
in reading order: far from the click, it would tell the player nothing.)

At a **forced** guess the advice is the exact agent's own move on the position
and its chance, with the rule that chose it (``look-ahead``, ``endgame``,
``fifty-fifty``, ...: :class:`~cspmines.agents.exact.guesses.Reason`). Where
that move risks more than the click, ``why`` says what the agent weighed
against the risk: the look-ahead's chance that a safe move follows and that
another cell is proved (the click's beside it), or the endgame's winning
chances, or that a 50/50 must be taken some time.

>>> from cspmines import Position
>>> position = Position.from_string("5x3x4\\n1...1\\n2....\\n..2.1")
>>> advised = agent_advice(position, (3,), Fraction(1, 4))   # the click: (0,3), the least risky cell
>>> position.row_col(advised.action.cell), advised.chance, advised.reason
((1, 4), Fraction(3, 8), 'endgame')
>>> advised.why
'endgame: of the 8 layouts left, best play after it wins 5 against 4 after the click'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..actions import Action, ActionKind
from ..agents.advice import suggest
from ..agents.exact.guesses import Reason
from ..agents.exact.lookahead import look_ahead
from ..engine.budget import Limit
from ..engine.engine import solve
from ..engine.insight import endgame_chances
from ..errors import CspminesError
from ..position import FLAG, Position

__all__ = ["NEAREST", "PROVED", "Advised", "agent_advice", "nearest_proved"]

#: The reason of a needless guess's advice, and what it says.
PROVED = "proved"
NEAREST = "proved safe, the nearest such cell to the click"

#: Why a rule's move may risk more than the click, for the rules that need no figures.
_RULE_WHY = {
    Reason.FIFTY_FIFTY: "fifty-fifty: a coin flip that must be taken some time, so taking it now loses nothing",
    Reason.PSEUDO_FIFTY_FIFTY: "pseudo fifty-fifty: half of a 50/50 that must be taken some time, and opening it tells something",
    Reason.POCKET: "pocket: the best move of an isolated pocket that no other cell can tell anything of, searched exhaustively",
}


@dataclass(frozen=True)
class Advised:
    """The move advised at a guess: ``action``, its ``chance`` of a mine, the ``reason`` that chose it
    (``"proved"``, or the exact agent's rule) and, where it risks more than the click or the guess was
    needless, ``why`` in words."""

    action: Action
    chance: Fraction
    reason: str
    why: str | None = None


def nearest_proved(position: Position, row: int, col: int, safe) -> Advised:
    """The advice at a needless guess on ``(row, col)``: the proved-safe cell of ``safe`` nearest it.

    >>> nearest_proved(Position.from_string("5x1\\n....."), 0, 3, (0, 4)).action.cell
    4
    """
    def distance(cell: int) -> tuple:
        r, c = position.row_col(cell)
        return max(abs(r - row), abs(c - col)), abs(r - row) + abs(c - col), cell

    return Advised(Action.open(min(safe, key=distance)), Fraction(0), PROVED, NEAREST)


def agent_advice(position: Position, opens: tuple, chance, analysis=None) -> Advised:
    """The exact agent's opening move on ``position`` at a guess that opened ``opens`` at ``chance``, with
    why where it risks more (``analysis``: the position's exact solve, made when not given)."""
    if analysis is None:
        analysis = solve(position)
    suggestion, played = _opening_move(position, analysis)
    advised = Advised(suggestion.action, suggestion.mine_probability, str(suggestion.reason))
    if advised.chance <= chance:
        return advised
    seen = analysis if played is position else solve(played)  # the position the agent opened on, its flags placed
    return Advised(advised.action, advised.chance, advised.reason, _why(suggestion.reason, seen, suggestion.action.cell, opens))


#: How long the value of a position is searched for to say why the agent's endgame move beats the click.
_ENDGAME_SECONDS = 10

#: How long the agent is asked again while it flags before it opens (each flag is one of its proved mines).
_FLAGGING_SECONDS = 60


def _opening_move(position: Position, analysis) -> tuple:
    """The exact agent's opening move here, and the position it was made on. A flag is not a move that risks
    anything: the agent is asked again with the flag placed, as in a game."""
    budget = Limit(time=_FLAGGING_SECONDS).start()
    suggestion = suggest(position, "exact", seed=0, analysis=analysis)
    while suggestion.action.kind == ActionKind.FLAG and not budget.expired():
        grid = position.grid.copy()
        grid.flat[suggestion.action.cell] = FLAG  # the agent's own proved mine
        position = Position(grid, mines=position.mines)
        suggestion = suggest(position, "exact", seed=0)
    return suggestion, position


def _why(reason, analysis, cell: int, opens: tuple) -> str:
    """What the agent's rule weighed against the risk it takes beyond the click's."""
    if reason == Reason.LOOK_AHEAD:
        return _look_ahead_why(analysis, cell, opens)
    if reason == Reason.ENDGAME:
        return _endgame_why(analysis, cell, opens)
    return _RULE_WHY.get(reason, str(reason))


def _look_ahead_why(analysis, cell: int, opens: tuple) -> str:
    """The look-ahead's two figures for the agent's cell, and the click's where it opened one cell."""
    mine = look_ahead(analysis, cell)
    if len(opens) != 1:  # a chord: no one cell of the click's to weigh
        return f"look-ahead: safe and a safe move after it {mine.secondary:.4f}, another cell proved {mine.progress:.2f}"
    theirs = look_ahead(analysis, opens[0])
    return (f"look-ahead: safe and a safe move after it {mine.secondary:.4f} against {theirs.secondary:.4f} for the click, "
            f"another cell proved {mine.progress:.2f} against {theirs.progress:.2f}")


def _endgame_why(analysis, cell: int, opens: tuple) -> str:
    """The endgame search's winning chances: after the agent's cell, and after the click's."""
    try:
        endgame = endgame_chances(analysis, limit=Limit(time=_ENDGAME_SECONDS))
    except CspminesError:  # too many layouts for the budget: the rule's name says what it is
        endgame = None
    mine = None if endgame is None else endgame.value(cell)
    if endgame is None or mine is None or not mine.exact:
        return "endgame: best play after it wins the most of the layouts left"
    theirs = endgame.value(opens[0]) if len(opens) == 1 else None
    click = f" against {theirs.low} after the click" if theirs is not None and theirs.exact else ""
    return f"endgame: of the {endgame.layouts} layouts left, best play after it wins {mine.low}{click}"
