"""Endgame search: the move that maximises the chance of winning, once few layouts remain.

When a position has at most a few dozen mine layouts, they can be listed
(cell-level SAT, the mine total included) and the game played out over
them: opening cell c survives in the layouts where c is safe, and its clue
splits those into groups that a player can tell apart. The chance of
winning from a set S of layouts is 1 when one layout is left (everything is
known), otherwise the best over the cells not yet determined of
``sum over clue groups G of |G| / |S| * win(G)``; a proved-safe cell whose
clue still varies is information for free and is always taken first.
Opening a zero is treated as one clue (its cascade would only tell more).

>>> from cspmines import Position
>>> layouts = list_layouts(Position.from_string("3x2x1\\n1..\\n1.."), limit=10)
>>> sorted(sorted(layout) for layout in layouts)
[[1], [4]]
>>> best_move(Position.from_string("3x2x1\\n1..\\n1.."), limit=10)[1]   # a 50/50: half the games are won
0.5
"""

from __future__ import annotations

from .. import native
from ..errors import InconsistentPositionError
from ..position import Position
from .constraints import rules_from_position

__all__ = ["MemoisedSearch", "WinSearch", "best_move", "list_layouts", "opening_wins", "search_layouts", "split_by_count"]


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


class WinSearch(MemoisedSearch):
    """The game tree over a fixed list of equally likely layouts, searched depth first.

    A state is the set of layouts still possible (a bit mask over the list):
    which cells were opened to reach it does not matter, since once one
    layout is left every safe cell is known. Per cell, the layouts where it
    is a mine and the layouts where it is safe split by the clue it shows
    are kept as bit masks, so a move is evaluated with a few big-integer
    operations. Moves are tried safest first and a move stops being
    evaluated once it cannot beat the best found: its value is at most its
    chance of being safe. Values are exact; only losing moves are cut. A state
    with one layout left is won.

    A cell that is a mine in every layout of a state, or safe in every one
    and showing the same clue in each, stays so in every state below it, so
    each state hands its children only the cells that still matter.
    """

    done = 1.0  # one layout left: won

    def __init__(self, position: Position, layouts: list, budget: int, cells=None):
        cells = position.covered_cells if cells is None else tuple(sorted(cells))
        mine_in = {cell: 0 for cell in cells}
        for i, layout in enumerate(layouts):
            for cell in layout:
                mine_in[cell] |= 1 << i
        # (cell, layouts where it is a mine, layouts where it is safe by the clue it shows), in cell order
        self.cells: list[tuple[int, int, tuple[int, ...]]] = []
        everything = (1 << len(layouts)) - 1
        for cell in cells:
            around = [mine_in[n] for n in position.neighbours(cell) if n in mine_in]
            split = split_by_count(around, everything & ~mine_in[cell])
            # in the order of the first layout that shows each clue (the order sums are made in)
            split.sort(key=lambda mask: (mask & -mask).bit_length())
            self.cells.append((cell, mine_in[cell], tuple(split)))
        super().__init__(budget)

    def value_of(self, members: int, move: tuple, cells: list, beat: float = -1.0) -> float:
        """The chance of winning from ``members`` by opening the cell of ``move`` (an entry of
        ``cells``); a value at most ``beat`` once it is clear the cell cannot beat it."""
        _cell, mines, by_clue = move
        total = members.bit_count()
        left = (members & ~mines).bit_count()
        value = 0.0
        for mask in by_clue:
            group = members & mask  # the layouts where the cell is safe and shows this clue
            if not group:
                continue
            size = group.bit_count()
            left -= size
            value += size / total * self.value(group, cells)
            if value + left / total <= beat:
                break
        return value

    def moves(self, members: int, cells: list) -> tuple[tuple | None, list, list]:
        """(a proved-safe cell whose clue still tells layouts apart, or None; the cells that
        are a mine in some layouts and not others, safest first; the cells that still matter)."""
        undetermined = []
        live = []
        for entry in cells:
            mines = entry[1] & members
            if not mines:
                shown = 0  # clues the cell can still show
                for mask in entry[2]:
                    if mask & members:
                        shown += 1
                if shown > 1:
                    return entry, [], cells  # information for free: always best taken first
            elif mines != members:
                undetermined.append((mines.bit_count(), entry[0], entry))
                live.append(entry)
        undetermined.sort(key=lambda item: item[:2])
        return None, [entry for _, _, entry in undetermined], live

    def best(self, members: int, cells: list | None = None) -> tuple[int | None, float]:
        """(the best move from ``members``, the chance of winning with it)."""
        free, undetermined, live = self.moves(members, self.cells if cells is None else cells)
        if free is not None:
            return free[0], self.value_of(members, free, live)
        total = members.bit_count()
        choice, best = None, -1.0
        for move in undetermined:
            if (members & ~move[1]).bit_count() / total <= best:
                break  # the rest are no safer, and a move is worth at most its safety
            value = self.value_of(members, move, live, beat=best)
            if value > best:
                choice, best = move[0], value
        return choice, max(best, 0.0) if choice is not None else 1.0

    def wins(self, members: int) -> int:
        """How many layouts of ``members`` best play wins from there: its chance of winning times
        their number, a whole number (each sum of the search is one of a few hundred terms, so its
        rounding error is far below the 1/(2n) that separates two counts of n layouts).

        >>> from cspmines import Position
        >>> position = Position.from_string("3x2x1\\n1..\\n1..")
        >>> WinSearch(position, list_layouts(position, limit=10), budget=100).wins(0b11)   # a 50/50: one of the two
        1
        """
        size = members.bit_count()
        if size < 2:
            return size
        value = self.value(members, self.cells) * size
        won = round(value)
        if abs(value - won) > 1e-6:  # never met: a count so far from whole would mean a search gone wrong
            raise ArithmeticError(f"the search's chance times {size} layouts is {value}, not a whole number")
        return won


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


def best_move(position: Position, *, limit: int = 40, budget: int = 200_000) -> tuple[int, float] | None:
    """(the cell to open, the chance of winning from here) by exhaustive search, or None
    when there are more than ``limit`` layouts or the search passes ``budget`` states.

    >>> cell, chance = best_move(Position.from_string("5x3x3\\n1....\\n2....\\n....."), limit=200)
    >>> cell, round(chance, 4)
    (13, 0.8611)
    >>> best_move(Position.from_string("5x3x3\\n1....\\n2....\\n....."), limit=10) is None   # too many layouts
    True
    """
    layouts = list_layouts(position, limit=limit)
    if not layouts or len(layouts) < 2:
        return None
    return search_layouts(position, layouts, budget=budget)


def search_layouts(position: Position, layouts: list, *, budget: int = 200_000, cells=None) -> tuple[int, float] | None:
    """(the best first move, the chance of winning) over ``layouts`` (equally likely, as
    :func:`list_layouts` gives them), or None past ``budget`` game-tree states. With
    ``cells``, the layouts cover those cells only (a closed pocket, as the exact agent plays one).

    >>> from cspmines import Position
    >>> position = Position.from_string("7x1x2\\n.1...1.")   # two 50/50s, a free cell between them
    >>> search_layouts(position, list_layouts(position, limit=10))   # open it first: 3 games in 4
    (3, 0.75)
    """
    n_layouts = len(layouts)
    if n_layouts < 2:
        return None
    search = WinSearch(position, layouts, budget, cells=cells)
    compiled = native.kernel("win_search")
    try:
        if compiled is not None:  # the same steps compiled: the same answer
            cell, value = compiled(search.cells, n_layouts, budget)
        else:
            cell, value = search.best((1 << n_layouts) - 1)
    except TimeoutError:
        return None
    return None if cell is None else (cell, value)


def opening_wins(position: Position, layouts: list, *, budget: int = 200_000) -> dict[int, int]:
    """For each covered cell, how many of ``layouts`` (equally likely, as :func:`list_layouts` gives them)
    best play wins when that cell is opened first: none where it is a mine; where it is safe, its clue
    splits them into groups, each played on at its best (:meth:`WinSearch.wins`). Exact whole numbers,
    searched in one memo; ``TimeoutError`` past ``budget`` game-tree states.

    >>> from cspmines import Position
    >>> position = Position.from_string("7x1x2\\n.1...1.")   # two 50/50s, a free cell between them
    >>> opening_wins(position, list_layouts(position, limit=10))   # of 4 layouts: the middle wins 3, a pair's cell 2
    {0: 2, 2: 2, 3: 3, 4: 2, 6: 2}
    """
    search = WinSearch(position, layouts, budget)
    return {cell: sum(search.wins(group) for group in by_clue) for cell, _mines, by_clue in search.cells}
