"""The ``random`` agent: opens a uniformly random covered cell (a floor to compare against).

>>> from cspmines.games import Board, Game, play
>>> play(RandomAgent(), Game(Board.random("beginner", seed=1), rules="minesearch"), seed=1).status
'won'
"""

from __future__ import annotations

from ..position import Position
from .base import Action, rng_from

__all__ = ["RandomAgent"]


class RandomAgent:
    name = "random"

    def __init__(self):
        self.reset(rules="classic", seed=None)

    def reset(self, *, rules: str, seed) -> None:
        self.rules = rules
        self.rng = rng_from(seed)

    def act(self, position: Position) -> Action:
        cells = position.covered_cells
        return Action.open(cells[int(self.rng.integers(len(cells)))])
