"""Exact play for the seeds' own measures: fewest squares opened (minesearch), fewest mines set off (score).

Classic play maximises the chance of winning. The seeds' other games
measure something else, so the exact agent plays them for their own
measure (the ``objective`` of :class:`~cspmines.agents.exact.options.ExactOptions`):

* ``openings`` (minesearch, seeds 000 and 004): every mine must be opened,
  so the cost is the *safe* squares opened on the way;
* ``mines`` (score, seed 001): the flags are capped at the mine total, so
  every safe square must be opened in the end and every mine opened on the
  way is lost to the score; the cost is the mines set off.

Both are one game tree with a price on each outcome of opening a square:
:func:`cheapest_move` searches it exhaustively over the layouts left (each
equally likely), once they are few, and returns the move of least expected
cost. With more layouts, :func:`information_per_cost` ranks minesearch's
moves by what they tell (the entropy of what the square will show) for
what they are expected to cost.

>>> from cspmines import Position
>>> position = Position.from_string("3x1x1\\n...")   # one mine in three squares
>>> cheapest_move(position, OPENINGS, limit=10)   # a corner: safe 2 times in 3, and then its clue says where the mine is
(0, 0.6666666666666666)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ... import native
from ...engine.sampling import mine_rows
from ...neighbours import neighbour_sum
from ...position import COVERED, FLAG, MINE, Position
from .layoutsets import MemoisedSearch, list_layouts, split_by_count

__all__ = ["MINES", "OPENINGS", "Prices", "cheapest_move", "drawn_clue_counts", "information_per_cost", "search_cost"]


@dataclass(frozen=True)
class Prices:
    """What opening a square costs when it is a mine and when it is safe."""

    mine: float
    safe: float


#: Minesearch: every mine is opened anyway; a safe square opened is one square too many.
OPENINGS = Prices(mine=0.0, safe=1.0)
#: Score: every safe square is opened anyway; a mine opened is one mine lost to the score.
MINES = Prices(mine=1.0, safe=0.0)


class _CostSearch(MemoisedSearch):
    """The game tree over equally likely layouts, searched depth first for the least expected cost.

    A state is the set of layouts still possible (a bit mask). Opening a
    square costs ``prices.mine`` in the layouts where it is a mine (which then
    stay together: an opened mine shows no clue) and ``prices.safe`` in the
    others, split by the clue it shows. A state with one layout left costs
    nothing more: every square is known. Moves whose least possible cost
    (their price alone) cannot beat the best found are cut; values are exact.
    """

    def __init__(self, position: Position, layouts: list, prices: Prices, budget: int):
        cells = position.covered_cells
        mine_in = {cell: 0 for cell in cells}
        for i, layout in enumerate(layouts):
            for cell in layout:
                mine_in[cell] |= 1 << i
        everything = (1 << len(layouts)) - 1
        self.cells = []  # (cell, layouts where it is a mine, layouts where it is safe by clue)
        for cell in cells:
            around = [mine_in[n] for n in position.neighbours(cell) if n in mine_in]
            self.cells.append((cell, mine_in[cell], tuple(split_by_count(around, everything & ~mine_in[cell]))))
        self.prices = prices
        super().__init__(budget)

    def moves(self, members: int, cells: list) -> tuple[list, list]:
        """(the squares worth opening from ``members``, cheapest price first; the squares that still
        matter). A square is worth opening when it is a mine in some layouts and not others, or safe in
        all with a clue that still tells layouts apart. One that is neither stays so in every state below,
        so children are handed only the squares that still matter."""
        out, live = [], []
        total = members.bit_count()
        for entry in cells:
            mines = (entry[1] & members).bit_count()
            if mines == total:
                continue  # a known mine: opening it tells nothing
            if mines == 0:
                shown = 0
                for mask in entry[2]:
                    if mask & members:
                        shown += 1
                if shown < 2:
                    continue  # a known safe square showing a known clue: tells nothing
            price = (mines * self.prices.mine + (total - mines) * self.prices.safe) / total
            out.append((price, entry[0], entry))
            live.append(entry)
        out.sort(key=lambda item: item[:2])
        return out, live

    def best(self, members: int, cells: list | None = None) -> tuple[int | None, float]:
        choice, best = None, math.inf
        total = members.bit_count()
        moves, live = self.moves(members, self.cells if cells is None else cells)
        memo, value_of = self.memo, self.value
        for price, cell, (_cell, mines, by_clue) in moves:
            if price >= best:
                break  # the rest cost at least this much before anything they lead to
            value = price
            mined = members & mines
            if mined:  # (one layout left is done: worth 0 more; a state met before is in the memo)
                known = 0.0 if mined & (mined - 1) == 0 else memo.get(mined)
                value += mined.bit_count() / total * (value_of(mined, live) if known is None else known)
            for mask in by_clue:
                if value >= best:
                    break
                group = members & mask
                if group:
                    known = 0.0 if group & (group - 1) == 0 else memo.get(group)
                    value += group.bit_count() / total * (value_of(group, live) if known is None else known)
            if value < best:
                choice, best = cell, value
        return choice, (0.0 if choice is None else best)


def search_cost(position: Position, layouts: list, prices: Prices, *, budget: int = 20_000) -> tuple[int, float] | None:
    """(the move of least expected cost over ``layouts``, that cost), or None past ``budget`` states
    or when nothing is left to learn.

    >>> position = Position.from_string("3x1x1\\n...")
    >>> search_cost(position, list_layouts(position, limit=10), MINES)   # the first square is the mine 1 time in 3; its clue tells the rest
    (0, 0.3333333333333333)
    """
    if len(layouts) < 2:
        return None
    search = _CostSearch(position, layouts, prices, budget)
    everything = (1 << len(layouts)) - 1
    compiled = native.kernel("cost_search")
    try:
        if compiled is not None and len(layouts) <= 64:  # the same steps compiled: the same answer
            cell, value = compiled(search.cells, everything, prices.mine, prices.safe, budget)
        else:
            cell, value = search.best(everything)
    except TimeoutError:
        return None
    return None if cell is None else (cell, value)


def cheapest_move(position: Position, prices: Prices, *, limit: int, budget: int = 20_000) -> tuple[int, float] | None:
    """The move of least expected cost by exhaustive search, with its cost; None with more than
    ``limit`` layouts, past ``budget`` states, or with nothing left to learn.

    >>> cheapest_move(Position.from_string("4x1x2\\n...."), OPENINGS, limit=3) is None   # six layouts
    True
    """
    layouts = list_layouts(position, limit=limit)
    if not layouts:
        return None
    return search_cost(position, layouts, prices, budget=budget)


def drawn_clue_counts(position: Position, layouts: list) -> dict:
    """For each covered cell: how often it is safe in ``layouts`` (drawn ones, as a rule) and shows
    each clue, as a length-9 array of counts (index = the clue), all cells at once. (The exact
    spread of a clue over every layout is :func:`cspmines.engine.clues.clue_spreads`'.)

    >>> position = Position.from_string("3x1x1\\n...")
    >>> counts = drawn_clue_counts(position, [frozenset({0}), frozenset({1}), frozenset({2})])
    >>> counts[0].tolist()   # safe in two layouts: beside the mine once (clue 1), not beside it once
    [1, 1, 0, 0, 0, 0, 0, 0, 0]
    """
    cells = position.covered_cells
    return dict(zip(cells, _clue_count_table(position, layouts, cells), strict=True))


def _clue_count_table(position: Position, layouts: list, cells) -> np.ndarray:
    """The clue counts of :func:`drawn_clue_counts` for ``cells``, one row each (one bincount for all)."""
    mines = mine_rows(layouts, position.size)
    clues = neighbour_sum(mines.reshape(len(layouts), position.height, position.width)).reshape(len(layouts), -1)
    safe = ~mines[:, cells]
    index = np.arange(len(cells)) * 9 + clues[:, cells]  # (cell's row, clue) as one number
    return np.bincount(index[safe], minlength=9 * len(cells)).reshape(len(cells), 9)


def information_per_cost(analysis, cells, *, layouts=None, spreads=None, cost_power: float = 1.0) -> dict:
    """For each of ``cells``: the information its opening gives (the entropy, in bits, of what it
    will show: a mine, or each clue) over the expected safe squares it costs (minesearch's price)
    raised to ``cost_power``.

    The chance of a mine is the engine's exact one. The clue's spread is exact where ``spreads``
    (:func:`~cspmines.engine.clues.clue_spread`'s, by cell) has the square; elsewhere, given the
    square is safe, it is read from ``layouts`` drawn from the position (:func:`~cspmines.engine.sampling.sample_mines`' rows,
    or :func:`~cspmines.engine.sampling.sample_layouts`' sets),
    which keeps the neighbours' dependence (a clue's mines are shared among its cells); without
    them the covered neighbours are taken as independent, each a mine with its exact probability.
    A square that is surely a mine tells nothing and costs nothing: it is left out. A
    ``cost_power`` below 1 leans towards what a square tells over what it costs.

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("3x3x1\\n...\\n.1.\\n..."))
    >>> ratios = information_per_cost(analysis, [0, 1])
    >>> round(ratios[0], 3), round(ratios[1], 3)   # an edge square's clue sees more of the ring than a corner's
    (1.49, 1.926)
    """
    position = analysis.position
    flat = position.grid.ravel()
    chance = np.nan_to_num(analysis.probabilities().ravel(), nan=0.0)
    chance[(flat == FLAG) | (flat == MINE)] = 1.0
    cells = [cell for cell in cells if chance[cell] < 1.0]
    table = np.zeros((len(cells), 10))  # each cell's outcomes: clue 0..8 when safe, then a mine
    spreads = spreads or {}
    exact = np.array([cell in spreads for cell in cells], dtype=bool)
    for row, cell in enumerate(cells):
        if not exact[row]:
            continue
        spread = spreads[cell]
        safe = spread.total - spread.mine
        table[row, :9] = [w / safe for w in spread.clues]  # given safe: scaled by the chance below, as sampled rows are
    sampled = exact.copy()
    drawn = [cell for cell, known in zip(cells, exact, strict=True) if not known]
    if layouts is not None and len(layouts) and drawn:
        rows = np.flatnonzero(~exact)
        counts = _clue_count_table(position, layouts, drawn)
        totals = counts.sum(axis=1)
        seen = totals > 0
        table[rows[seen], :9] = counts[seen] / totals[seen, None]
        sampled[rows[seen]] = True
    for row, cell in enumerate(cells):
        if not sampled[row]:
            spread = np.ones(1)  # the clue's covered-mine count, the neighbours taken as independent
            for n in position.neighbours(cell):
                q = float(chance[n]) if flat[n] in (COVERED, FLAG, MINE) else 0.0
                spread = np.append(spread, 0.0) * (1 - q) + np.append(0.0, spread) * q
            table[row, : len(spread)] = spread
    p = chance[cells]
    table[:, :9] *= (1 - p)[:, None]
    table[:, 9] = p
    logs = np.log2(np.where(table > 1e-12, table, 1.0))
    bits = -(table * logs).sum(axis=1)
    return dict(zip(cells, (bits / (1 - p) ** cost_power).tolist(), strict=True))
