"""What a full solve keeps for one more clue (:mod:`cspmines.engine.reveal`), in the engine's memory.

>>> from cspmines import Position, solve
>>> analysis = solve(Position.from_string("3x2x1\\n1..\\n..."))
>>> kept = analysis.engine.memory.kept[analysis]   # in the memory of the engine that solved it
>>> [c.cells for c in kept.components], kept.rest, kept.undecided
([(1, 3, 4)], (2, 5), 5)
"""

from __future__ import annotations

from .constraints import Rule

__all__ = ["Kept"]


class Kept:
    """What a full solve keeps, in its engine's memory (``Memory.kept``, by analysis), for
    :func:`cspmines.engine.reveal.solve_revealed`: the settled system, its chains and their
    counts, the cells no clue touches, and the density if any (the engine that solved it, which
    the analysis names, is the one that reveals). A reveal's analysis keeps
    the same for the board after its clue, so it can be revealed again: its chains and
    settled cells are the new board's, ``after`` gives its undecided cells and mines left,
    and the settled system's rules are not read (the chains hold them)."""

    def __init__(self, settled, given_mines_left, components, counts, rest, density, *, after=None):
        self.settled = settled
        self.given_mines_left = given_mines_left
        self.components = tuple(components)
        self.counts = tuple(counts)
        self.rest = rest
        self.density = density
        # (undecided cells, mines left among them)
        self.undecided, self.mines_left = after if after is not None else (len(settled.system.cells), settled.system.mines_left)
        self._chain_of: dict | None = None
        self._rest_set: frozenset | None = None
        self._rules: dict = {}
        self.bases: dict = {}  # cell -> what a clue there changes whatever the clue (cspmines.engine.reveal)

    @property
    def rest_set(self) -> frozenset:
        """The cells no clue touches, as a set (made on first use)."""
        if self._rest_set is None:
            self._rest_set = frozenset(self.rest)
        return self._rest_set

    @property
    def chain_of(self) -> dict:
        """Each chain cell's chain index (made on first use: most analyses are never revealed)."""
        if self._chain_of is None:
            self._chain_of = {c: i for i, component in enumerate(self.components) for box in component.boxes for c in box.cells}
        return self._chain_of

    def rules_of(self, index: int) -> list:
        """Chain ``index``'s rules over cells again (its boxes hold them by local index); made once
        per chain, as a look-ahead reveals the same chains for clue after clue."""
        rules = self._rules.get(index)
        if rules is None:
            component = self.components[index]
            rules = self._rules[index] = [
                Rule(frozenset(c for b in rule.boxes for c in component.boxes[b].cells), rule.mines, rule.label)
                for rule in component.rules
            ]
        return rules
