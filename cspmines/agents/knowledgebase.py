"""The ``knowledge-base`` agent: seed 001 (logical statements, subset consolidation, random priority queue).

Seed ``001_68f7ea374bf9414b`` (section 3) represents what clues say as
statements "these cells hold n mines" and keeps a list of known cells.
Known cells are substituted into the statements; a statement with 0 mines
makes its cells clear, one with as many mines as cells makes them mines;
statements are consolidated by subsets (A within B gives B - A with
n_B - n_A mines). Cells to click come from a priority queue filled with
every cell in random order: a cell deduced clear moves to the front, a
deduced mine leaves the queue. As the seed's improvements section
suggests, the mine total adds the statement "every unknown cell together
holds the mines not yet known".

Its native rules are ``score`` (the seed's measure: mines identified
without setting them off), where it flags every deduced mine. Under
``classic`` it plays the same way without flagging, and under
``minesearch`` it opens deduced mines (that is how minesearch finds them).

The seed's 4x4 walk-through reproduces: see ``tests/test_agents.py``.

>>> kb = KnowledgeBaseAgent()
>>> kb.reset(rules="score", seed=0)
>>> from cspmines import Position
>>> kb.deduce(Position.from_string("4x4x6\\n..20\\n..31\\n...*\\n...."))
>>> sorted(kb.clear), sorted(kb.mines)    # (2,1), (2,2) clear; (0,1), (1,1) mines; (2,3) was opened
([9, 10], [1, 5, 11])
"""

from __future__ import annotations

from ..actions import Rules
from ..engine.constraints import rules_from_position
from ..position import COVERED, FLAG, MINE, Position
from .base import Action, SeededAgent

__all__ = ["KnowledgeBaseAgent"]

MAX_STATEMENTS = 4000  # consolidation is quadratic: stop adding past this many


class KnowledgeBaseAgent(SeededAgent):
    name = "knowledge-base"

    def __init__(self, *, use_total: bool = True):
        self.use_total = use_total
        super().__init__()

    def start(self) -> None:
        self.queue: list | None = None
        self.clear: set = set()
        self.mines: set = set()

    def deduce(self, position: Position) -> None:
        """Fill ``clear`` and ``mines`` with everything the statements imply."""
        flat = position.grid.ravel()
        self.mines |= {c for c in range(position.size) if flat[c] in (MINE, FLAG)}
        statements = {(rule.cells, rule.mines) for rule in rules_from_position(position)}
        total = None
        if self.use_total and position.mines is not None:
            total = position.mines - int(sum(1 for c in range(position.size) if flat[c] in (MINE, FLAG)))
        while True:
            statements = self._substitute(statements)
            if self._conclude(statements):
                continue
            derived = self._consolidate(statements)
            if derived:
                statements |= derived
                continue
            if total is not None and self._use_total(position, statements, total):
                continue
            return

    def _substitute(self, statements: set) -> set:
        """Known mines leave a statement and lower its count; known clear cells leave it."""
        reduced = set()
        for cells, n in statements:
            rest = cells - self.mines - self.clear
            if rest:
                reduced.add((rest, n - len(cells & self.mines)))
        return reduced

    def _conclude(self, statements: set) -> bool:
        """Statements of 0 mines, or as many mines as cells; True if anything new was learnt."""
        learnt = False
        for cells, n in statements:
            if n == 0 and not cells <= self.clear:
                self.clear |= cells
                learnt = True
            elif n == len(cells) and not cells <= self.mines:
                self.mines |= cells
                learnt = True
        return learnt

    @staticmethod
    def _consolidate(statements: set) -> set:
        """B - A with n_B - n_A mines for every A within B (found through a cell index)."""
        if len(statements) > MAX_STATEMENTS:
            return set()
        holding: dict[int, list] = {}
        for statement in statements:
            for cell in statement[0]:
                holding.setdefault(cell, []).append(statement)
        derived = set()
        for small, n_small in statements:
            rarest = min(small, key=lambda c: len(holding[c]))
            for big, n_big in holding[rarest]:
                if len(big) > len(small) and small < big:
                    statement = (big - small, n_big - n_small)
                    if statement not in statements:
                        derived.add(statement)
        return derived

    def _use_total(self, position: Position, statements: set, total: int) -> bool:
        """The improvements section: all unknown cells hold the mines not yet known, so the
        cells outside any one statement hold the rest. Used for conclusions only: its
        complements are large and would crowd the consolidation."""
        unknown = frozenset(position.covered_cells) - self.mines - self.clear
        left = total - len(self.mines - {c for c in range(position.size) if position.grid.flat[c] in (MINE, FLAG)})
        candidates = {(unknown, left)} | {(unknown - cells, left - n) for cells, n in statements if cells <= unknown}
        return self._conclude({(cells, n) for cells, n in candidates if cells})

    def act(self, position: Position) -> Action:
        flat = position.grid.ravel()
        if self.queue is None:
            self.queue = [int(c) for c in self.rng.permutation(position.size)]
        self.deduce(position)
        if self.rules == Rules.SCORE or self.rules == Rules.MINESEARCH:
            for cell in sorted(self.mines):
                if flat[cell] == COVERED:
                    return Action.flag(cell, certain=True) if self.rules == Rules.SCORE else Action.open(cell, certain=True)
        # deduced clear cells go to the front, deduced mines leave the queue
        front = [c for c in self.queue if c in self.clear]
        self.queue = front + [c for c in self.queue if c not in self.clear and c not in self.mines]
        while self.queue:
            cell = self.queue.pop(0)
            if flat[cell] == COVERED:
                return Action.open(cell, certain=cell in self.clear)
        raise RuntimeError("no covered cell left to click")  # the game ends before this
