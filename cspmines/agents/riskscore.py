"""The ``risk-score`` agent: seed 004, AI-0 (risk score, knowledge gain, orderly and random probing).

Seed ``004_b0bd2dfe9936706e`` (Minesearch, Algorithm A) keeps a knowledge
map: each square is U (unknown), S (safe), M (mined, with its value) or X
(bomb). Mined values are offset by the bombs already found around them
(``offsetMinedValues``); a U square's risk score is the sum of the offset
values of the mined squares around it; an offset of 0 makes the U squares
around it S. A square's knowledge gain is the number of U squares in its
3x3 neighbourhood, itself included.

Only U squares are ever considered. Investigative behaviour (some U square
has a positive risk): the highest risk, then the highest knowledge gain,
then a random one among ties. Explorative behaviour (every risk is 0):
orderly probing (squares two apart, rows and columns 1, 4, 7, ..., left to
right, top to bottom) when it offers the full gain of 9, else random
probing among the squares of highest gain.

Other rules: under ``classic`` and ``score`` bombs are to be avoided, so S
squares (proved safe) are opened first and the investigative choice takes
the lowest positive risk instead; exploration is unchanged. It never flags.
A withheld clue (``?``) is an M square of unknown value: it adds no risk.

>>> from cspmines.games import Board, Game, play
>>> play(RiskScoreAgent(), Game(Board.random("beginner", seed=5), rules="minesearch"), seed=0).status
'won'
"""

from __future__ import annotations

from ..actions import Rules
from ..position import COVERED, FLAG, MINE, Position
from .base import Action, SeededAgent

__all__ = ["RiskScoreAgent"]


class RiskScoreAgent(SeededAgent):
    name = "risk-score"


    def knowledge(self, position: Position) -> tuple[dict, set, dict]:
        """(risk score of each U square, the S squares, knowledge gain of each U square)."""
        flat = position.grid.ravel()
        safe = set()
        risk = {c: 0 for c in position.covered_cells}
        for cell in position.clue_cells:
            around = position.neighbours(cell)
            offset = int(flat[cell]) - sum(1 for n in around if flat[n] in (MINE, FLAG))
            unknown = [n for n in around if flat[n] == COVERED]
            if offset <= 0:
                safe.update(unknown)
            else:
                for n in unknown:
                    risk[n] += offset
        for cell in safe:
            risk.pop(cell, None)
        unknown_set = set(risk)
        gain = {c: (c in unknown_set) + sum(1 for n in position.neighbours(c) if n in unknown_set) for c in risk}
        return risk, safe, gain

    def act(self, position: Position) -> Action:
        risk, safe, gain = self.knowledge(position)
        if safe and self.rules != Rules.MINESEARCH:
            return Action.open(min(safe), certain=True)
        if not risk:  # only S squares remain (minesearch ends before this; kept for safety)
            return Action.open(min(safe) if safe else position.covered_cells[0])
        risky = [c for c in risk if risk[c] > 0]
        if risky:
            if self.rules == Rules.MINESEARCH:
                key = lambda c: (risk[c], gain[c])  # noqa: E731
                best = max(key(c) for c in risky)
            else:
                key = lambda c: (-risk[c], gain[c])  # noqa: E731
                best = max(key(c) for c in risky)
            tied = sorted(c for c in risky if key(c) == best)
            return Action.open(tied[int(self.rng.integers(len(tied)))])
        orderly = [
            c for c in sorted(risk) if position.row_col(c)[0] % 3 == 1 and position.row_col(c)[1] % 3 == 1 and gain[c] >= 9
        ]
        if orderly:
            return Action.open(orderly[0])
        top = max(gain.values())
        tied = sorted(c for c in risk if gain[c] == top)
        return Action.open(tied[int(self.rng.integers(len(tied)))])
