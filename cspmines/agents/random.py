"""The ``random`` agent: opens a uniformly random covered cell (a floor to compare against).

>>> from cspmines.games import Board, Game, play
>>> play(RandomAgent(), Game(Board.random("beginner", seed=1), rules="minesearch"), seed=1).status
'won'
"""

from __future__ import annotations

from ..position import Position
from .base import Action, SeededAgent

__all__ = ["RandomAgent"]


class RandomAgent(SeededAgent):
    name = "random"

    def act(self, position: Position) -> Action:
        cells = position.covered_cells
        return Action.open(cells[int(self.rng.integers(len(cells)))])
