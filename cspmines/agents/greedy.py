"""The ``greedy`` agent: seed 000, Algorithm 1 (probability values, centre tie-break).

Seed ``000_e5dd14bc96f2ef40`` describes a minesearch player that keeps a
table of "probability values" (not probabilities: a particle-filter-like
score per square). When a square is uncovered:

* a 0 sets the values of the squares around it to -100 (they hold no bomb);
* a clue n > 0 adds n to the values around it;
* a bomb lowers the values around it (the seed gives no amount; we lower
  them by :data:`BOMB_PENALTY`).

Each move opens the unvisited square with the highest value, ties going to
the square closest to the centre. A withheld clue (``?``) teaches nothing.

Other rules: under ``classic`` and ``score`` opening a bomb is to be
avoided, so the same table is read the other way: the lowest value is
opened (ties to the centre). It never flags, so its ``score`` is 0.

>>> from cspmines.games import Board, Game, play
>>> play(GreedyAgent(), Game(Board.random("beginner", seed=2), rules="minesearch"), seed=0).status
'won'
"""

from __future__ import annotations

import numpy as np

from ..actions import Rules
from ..position import MINE, Position
from .base import Action, SeededAgent, centre_distance, newly_revealed

__all__ = ["GreedyAgent", "BOMB_PENALTY", "ZERO_VALUE"]

#: The seed's value for squares next to a 0.
ZERO_VALUE = -100.0
#: How much a square's value falls for each flagged mine beside it (our choice: the seed says only "decrease").
BOMB_PENALTY = 1.0


class GreedyAgent(SeededAgent):
    name = "greedy"

    def start(self) -> None:
        self.values: np.ndarray | None = None
        self.previous: Position | None = None

    def observe(self, position: Position) -> np.ndarray:
        """Update the value table with every square uncovered since the last call, and return it."""
        if self.values is None:
            self.values = np.zeros(position.size)
        values = self.values
        flat = position.grid.ravel()
        for cell in newly_revealed(self.previous, position):
            code = int(flat[cell])
            around = list(position.neighbours(cell))
            if code == MINE:
                values[around] -= BOMB_PENALTY
            elif code == 0:
                values[around] = ZERO_VALUE
            elif code > 0:
                values[around] += code
            # WITHHELD: nothing learnt
        self.previous = position
        return values

    def act(self, position: Position) -> Action:
        values = self.observe(position)
        cells = position.covered_cells
        sign = 1 if self.rules == Rules.MINESEARCH else -1
        best = max(cells, key=lambda c: (sign * values[c], -centre_distance(position, c), -c))
        return Action.open(best)

