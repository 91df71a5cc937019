"""The ``set-theory`` agent: seed 002 (trivial cells, set reduction, brute force below a bound).

Seed ``002_b4efe08b6fb7562a`` tries its algorithms in order of increasing
cost and starts again from the first whenever one makes progress:

1. trivial cells (its Algorithm 1): a clue equal to its hidden neighbours
   flags them all; a clue equal to its flagged neighbours clicks the rest;
2. set theory (its section 2.2, whose body the seed leaves empty): for two
   clues' sets of unflagged hidden cells A and B, when ``n_B - n_A``
   equals ``|B - A|`` the cells of B - A are mines and those of A - B are
   safe, and when A lies within B and ``n_B = n_A`` the cells of B - A are safe;
3. brute force (its Algorithm 2), only when C(free cells, bombs left) is at
   most ``brute_force_limit``: every placement of the bombs left over the
   free cells is checked against every clue; a cell that is a mine in all
   of them is flagged, one that is a mine in none is clicked.

When nothing makes progress it clicks a random free cell (the seed does not
say; this is the minimal choice).

Other rules: under ``minesearch`` a cell it would flag is opened instead
(that is how minesearch finds a bomb); under ``score`` flags score.

>>> from cspmines.games import Board, Game, play
>>> play(SetTheoryAgent(), Game(Board.random("beginner", seed=3)), seed=0).moves > 0
True
"""

from __future__ import annotations

from itertools import combinations
from math import comb

from ..actions import Rules
from ..engine.constraints import rules_from_position
from ..position import COVERED, FLAG, MINE, Position
from .base import Action, SeededAgent

__all__ = ["SetTheoryAgent"]


class SetTheoryAgent(SeededAgent):
    name = "set-theory"

    def __init__(self, *, brute_force_limit: int = 20_000):
        self.brute_force_limit = brute_force_limit
        super().__init__()


    def _move(self, cell: int, *, mine: bool) -> Action:
        if not mine:
            return Action.open(cell, certain=True)
        if self.rules == Rules.MINESEARCH:
            return Action.open(cell, certain=True)
        return Action.flag(cell, certain=True)

    def trivial(self, position: Position) -> Action | None:
        flat = position.grid.ravel()
        for cell in position.clue_cells:
            hidden = [n for n in position.neighbours(cell) if flat[n] in (COVERED, FLAG, MINE)]
            flagged = [n for n in hidden if flat[n] != COVERED]
            unflagged = [n for n in hidden if flat[n] == COVERED]
            if not unflagged:
                continue
            if int(flat[cell]) == len(hidden):
                return self._move(unflagged[0], mine=True)
            if int(flat[cell]) == len(flagged):
                return self._move(unflagged[0], mine=False)
        return None

    def set_reduction(self, position: Position) -> Action | None:
        constraints = [(rule.cells, rule.mines) for rule in rules_from_position(position)]
        for a, n_a in constraints:
            for b, n_b in constraints:
                if a is b or not (a & b):
                    continue
                only_b, only_a = b - a, a - b
                if only_b and n_b - n_a == len(only_b):
                    return self._move(min(only_b), mine=True)
                if only_a and n_b - n_a == len(only_b) and only_b:
                    return self._move(min(only_a), mine=False)
                if a < b and n_a == n_b and only_b:
                    return self._move(min(only_b), mine=False)
        return None

    def brute_force(self, position: Position) -> Action | None:
        if position.mines is None:
            return None
        flat = position.grid.ravel()
        free = list(position.covered_cells)
        left = position.mines - sum(1 for c in range(position.size) if flat[c] in (FLAG, MINE))
        if not 0 <= left <= len(free) or comb(len(free), left) > self.brute_force_limit:
            return None
        constraints = [(rule.cells, rule.mines) for rule in rules_from_position(position)]
        seen, counts = 0, dict.fromkeys(free, 0)
        for placement in combinations(free, left):
            chosen = set(placement)
            if all(len(cells & chosen) == n for cells, n in constraints):
                seen += 1
                for cell in placement:
                    counts[cell] += 1
        if not seen:
            return None
        for cell in free:
            if counts[cell] == seen:
                return self._move(cell, mine=True)
            if counts[cell] == 0:
                return self._move(cell, mine=False)
        return None

    def act(self, position: Position) -> Action:
        for method in (self.trivial, self.set_reduction, self.brute_force):
            action = method(position)
            if action is not None:
                return action
        free = position.covered_cells
        return Action.open(free[int(self.rng.integers(len(free)))])
