"""What the exact agent reports of a guess: the cell, the rule that chose it and how safe it was.

>>> Reason.LOOK_AHEAD == "look-ahead"
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ...actions import Vocabulary

__all__ = ["Guess", "Reason"]


class Reason(Vocabulary):
    """The rule that chose a guess (see :class:`Guess`)."""

    FEWEST_MINES = "fewest mines"
    ENDGAME = "endgame"
    FIFTY_FIFTY = "fifty-fifty"
    PSEUDO_FIFTY_FIFTY = "pseudo fifty-fifty"
    POCKET = "pocket"
    LOOK_AHEAD = "look-ahead"
    LEAST_RISK = "least risk"
    FIRST_CORNER = "first corner"
    CORNER = "corner"
    LIKELIEST_MINE = "likeliest mine"
    FEWEST_OPENINGS = "fewest openings"
    INFORMATION = "information"


@dataclass(frozen=True)
class Guess:
    """One move of the exact agent that was not proved safe.

    ``reason`` names the rule that chose it: ``"endgame"``, ``"fifty-fifty"``,
    ``"pseudo fifty-fifty"``, ``"pocket"``, ``"look-ahead"``, ``"least risk"``
    (every option off), ``"first corner"`` and ``"corner"`` (the research
    switches ``first_corner`` and ``corners``); under score ``"fewest mines"`` (the
    exhaustive search for the fewest mines set off); under minesearch ``"fewest openings"``
    (its search), ``"information"`` (the most told for the cost) or, with
    ``objective=win``, ``"likeliest mine"``;
    ``safety`` is its exact chance of being safe and ``covered`` the number
    of covered cells when it was made (how far the game had gone).

    >>> from cspmines.agents.exact import ExactAgent
    >>> from cspmines.games import Board, Game, play
    >>> guesses = []
    >>> play(ExactAgent(on_guess=guesses.append), Game(Board.random("expert", seed=1)), seed=0).status
    'lost'
    >>> guesses
    [Guess(cell=427, reason='endgame', safety=0.5, covered=101)]
    """

    cell: int
    reason: Reason
    safety: float
    covered: int
