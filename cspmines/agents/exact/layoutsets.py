"""Layouts as sets, and the memoised search over them of the exact agent's cost objectives.

When a position has at most a few dozen mine layouts, they can be listed (:func:`list_layouts`,
cell-level SAT, the mine total included) and a game played out over them as bit masks of layouts:
opening a cell keeps the layouts where it is safe, and its clue splits those into groups a player
can tell apart (:func:`split_by_count`). :class:`MemoisedSearch` values each such set once; the
least-expected-cost search of :mod:`cspmines.agents.exact.objectives` is one (the value of a
position under best play, over any number of layouts, is the engine's :func:`cspmines.value_of`).

>>> from cspmines import Position
>>> layouts = list_layouts(Position.from_string("3x2x1\\n1..\\n1.."), limit=10)
>>> sorted(sorted(layout) for layout in layouts)
[[1], [4]]
"""

from __future__ import annotations

from ...engine.constraints import rules_from_position
from ...errors import InconsistentPositionError
from ...position import Position

__all__ = ["MemoisedSearch", "list_layouts", "split_by_count"]


def list_layouts(position: Position, *, limit: int, cells=None) -> list[frozenset] | None:
    """Every layout of mines over the covered cells, or None if there are more than ``limit``.

    With ``cells`` (a closed set of covered cells: every clue touching one
    of them touches no other covered cell), only the layouts of those cells
    under the clues around them, whatever the mine total.

    >>> list_layouts(Position.from_string("3x2x1\\n1..\\n1.."), limit=10)   # the 1s' mine at 1 or at 4
    [frozenset({1}), frozenset({4})]
    >>> list_layouts(Position.from_string("3x2x2\\n1..\\n..."), limit=2) is None   # more than 2
    True
    """
    from pysat.solvers import Solver

    covered = position.covered_cells if cells is None else tuple(sorted(cells))
    var = {cell: i + 1 for i, cell in enumerate(covered)}
    try:
        rules = rules_from_position(position)  # one per clue with covered neighbours, in the clues' order
    except InconsistentPositionError:
        return []
    if cells is not None:
        rules = tuple(rule for rule in rules if not rule.cells.isdisjoint(var))
    solver = Solver(name="minicard")
    try:
        for rule in rules:
            lits = [var[n] for n in sorted(rule.cells)]
            solver.add_atmost(lits, rule.mines)
            solver.add_atmost([-lit for lit in lits], len(lits) - rule.mines)
        if position.mines is not None and cells is None:
            left = position.mines - len(position.known_mine_cells)
            lits = list(var.values())
            solver.add_atmost(lits, left)
            solver.add_atmost([-lit for lit in lits], len(lits) - left)
        layouts = []
        while solver.solve():
            model = solver.get_model()
            layouts.append(frozenset(covered[lit - 1] for lit in model if lit > 0))
            if len(layouts) > limit:
                return None
            solver.add_clause([-lit for lit in model])
        return layouts
    finally:
        solver.delete()


class MemoisedSearch:
    """A depth-first search over sets of layouts (bit masks), each state valued once and remembered.

    Subclasses set ``done`` (the value of a state with one layout left, when everything is known) and
    define ``best(members, cells) -> (move, value)``; :meth:`value` adds the memo and the budget of
    states (``TimeoutError`` past it).

    >>> class Dropping(MemoisedSearch):   # a toy: each step drops the lowest layout and costs 1
    ...     def best(self, members, cells=None):
    ...         low = members & -members
    ...         return None, 1 + self.value(members & ~low, [])
    >>> Dropping(budget=10).value(0b111, [])   # 0b111 -> 0b110 -> 0b100 (one layout: done)
    2.0
    >>> Dropping(budget=1).value(0b1111, [])
    Traceback (most recent call last):
    ...
    TimeoutError
    """

    done = 0.0

    def __init__(self, budget: int):
        self.memo: dict[int, float] = {}
        self.budget = budget

    def best(self, members: int, cells: list | None = None) -> tuple[int | None, float]:
        raise NotImplementedError

    def value(self, members: int, cells: list) -> float:
        if members & (members - 1) == 0:  # one layout left (or none): everything is known
            return self.done
        if members in self.memo:
            return self.memo[members]
        self.budget -= 1
        if self.budget < 0:
            raise TimeoutError
        value = self.best(members, cells)[1]
        self.memo[members] = value
        return value


def split_by_count(masks: list[int], within: int) -> list[int]:
    """The layouts of ``within`` grouped by how many of ``masks`` hold them (empty groups left
    out): a bit-sliced adder counts for every layout at once, one bit plane per binary digit.

    >>> [bin(group) for group in split_by_count([0b0110, 0b0011], 0b1111)]   # layout 1 in both, 0 and 2 in one
    ['0b1000', '0b101', '0b10']
    """
    planes: list[int] = []
    for mask in masks:
        carry = mask
        for digit, plane in enumerate(planes):
            planes[digit], carry = plane ^ carry, plane & carry
            if not carry:
                break
        if carry:
            planes.append(carry)
    groups = []
    for count in range(1 << len(planes)):
        group = within
        for digit, plane in enumerate(planes):
            group &= plane if count >> digit & 1 else ~plane
        if group:
            groups.append(group)
    return groups
