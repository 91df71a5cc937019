"""The ``single-point`` agent: seed 004, AI-1 (the naive single-point algorithm with AFN/AMN).

Seed ``004_b0bd2dfe9936706e`` (Minesearch, Algorithm B), an alteration of
Becerra's naive single-point algorithm, keeps a safe set, a bomb set and an
explore list. Each opened square is processed once: a bomb joins the bomb
set; a 0 is AFN (all free neighbours): its neighbours join the safe set and
leave the explore list; otherwise AMN (all marked neighbours), accounting
for bombs already opened: when the unopened neighbours are exactly as many
as the bombs still missing they all join the bomb set and leave the explore
list, else they all join the explore list. The next square opened is the
next one of the explore list that is neither safe nor a known bomb; with
the list exhausted, a random unopened square that is neither. Known bombs
are opened as soon as they are known, since minesearch only counts a bomb
once it is opened.

Other rules: under ``classic`` and ``score`` it plays the naive single-point
algorithm AI-1 was altered from: AFN with marked bombs counted (a clue whose
bombs are all known frees its other neighbours) and AMN, opening the safe
set first, flagging known bombs under ``score``, and otherwise opening a
random unopened square.

>>> from cspmines.games import Board, Game, play
>>> play(SinglePointAgent(), Game(Board.random("beginner", seed=5), rules="minesearch"), seed=0).status
'won'
"""

from __future__ import annotations

from ..actions import Rules
from ..position import COVERED, FLAG, MINE, Position
from .base import Action, SeededAgent, newly_revealed

__all__ = ["SinglePointAgent"]


class SinglePointAgent(SeededAgent):
    name = "single-point"

    def start(self) -> None:
        self.safe: set = set()
        self.bombs: set = set()
        self.explore: list = []
        self.previous: Position | None = None

    def _process(self, position: Position, cell: int) -> None:
        flat = position.grid.ravel()
        code = int(flat[cell])
        if code == MINE:
            self.bombs.add(cell)
            return
        if code < 0:  # a withheld clue: nothing to process
            return
        around = position.neighbours(cell)
        marked = sum(1 for n in around if flat[n] in (MINE, FLAG) or n in self.bombs)
        unopened = [n for n in around if flat[n] == COVERED and n not in self.bombs]
        missing = code - marked if self.rules != Rules.MINESEARCH else code - sum(1 for n in around if flat[n] == MINE)
        if (code == 0 if self.rules == Rules.MINESEARCH else missing == 0):
            self.safe.update(unopened)
        elif len(unopened) == missing:
            self.bombs.update(unopened)
        else:
            self.explore.extend(n for n in unopened if n not in self.safe)

    def _reprocess(self, position: Position) -> None:
        """Naive SPS revisits every clue as marks accumulate (classic and score)."""
        before = None
        while before != (len(self.safe), len(self.bombs)):
            before = (len(self.safe), len(self.bombs))
            for cell in position.clue_cells:
                self._process(position, cell)

    def act(self, position: Position) -> Action:
        for cell in newly_revealed(self.previous, position):
            self._process(position, cell)
        if self.rules != Rules.MINESEARCH:
            self._reprocess(position)
        self.previous = position
        flat = position.grid.ravel()
        pending_bombs = sorted(c for c in self.bombs if flat[c] == COVERED)
        if self.rules == Rules.MINESEARCH:
            if pending_bombs:
                return Action.open(pending_bombs[0], certain=True)
            while self.explore:
                cell = self.explore.pop(0)
                if flat[cell] == COVERED and cell not in self.safe and cell not in self.bombs:
                    return Action.open(cell)
        else:
            safe = sorted(c for c in self.safe if flat[c] == COVERED)
            if safe:
                return Action.open(safe[0], certain=True)
            if pending_bombs and self.rules == Rules.SCORE:
                return Action.flag(pending_bombs[0], certain=True)
        choices = [c for c in position.covered_cells if c not in self.safe and c not in self.bombs]
        if not choices:  # only proved cells are left (minesearch: safe squares)
            choices = [c for c in position.covered_cells if c not in self.bombs] or list(position.covered_cells)
        return Action.open(choices[int(self.rng.integers(len(choices)))])
