"""Every mine layout of a position, as a table of what each covered cell would show.

The value of a position under best play (:mod:`cspmines.engine.value`) is a search over the
layouts themselves: which of them a player can still tell apart after each move. This module
lists them, fast: the clues' forced cells are settled out, each chain of influence's own
layouts are listed box by box (a box's cells are interchangeable, so each count of mines in a
box is every combination of its cells), and the chains and the cells no clue touches are
joined under the mine total, whole arrays at a time. What each covered cell would show is then
one matrix product: the mines around it, known ones included.

>>> from cspmines import Position
>>> table = layout_table(Position.from_string("3x2x1\\n1..\\n1.."))
>>> table.cells, table.count   # the 1s' mine is at (0,1) or at (1,1)
((1, 2, 4, 5), 2)
>>> table.codes.tolist()       # MINE (9) where the cell is a mine, else the clue it would show
[[9, 1, 1, 1], [1, 1, 9, 1]]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import comb, prod

import numpy as np

from ..errors import InconsistentPositionError, MissingTotalError
from ..position import Position
from .budget import Budget
from .chains import Chain, split_chains
from .constraints import settle_position

__all__ = ["MINE", "LayoutTable", "layout_table"]

#: The code of a mine in :attr:`LayoutTable.codes` (a clue is 0..8).
MINE = 9


@dataclass(frozen=True, eq=False)
class LayoutTable:
    """Every layout a position allows, each equally likely.

    Attributes
    ----------
    position : Position
    cells : tuple of int
        The covered cells, in flat order: column ``k`` of :attr:`codes` is ``cells[k]``.
    codes : numpy.ndarray
        ``(count, len(cells))`` bytes: in each layout (a row), :data:`MINE` where the cell is a mine,
        else the clue it shows when opened (the known mines around it counted).
    """

    position: Position
    cells: tuple
    codes: np.ndarray

    @property
    def count(self) -> int:
        """How many layouts there are."""
        return int(self.codes.shape[0])

    def column(self, cell: int) -> int:
        """The column of a covered ``cell`` (a flat index)."""
        return self.cells.index(cell)


def layout_table(position: Position, *, most: int | None = None, budget: Budget | None = None) -> LayoutTable | None:
    """Every layout of ``position`` (its mine total must be known), or None when there are more
    than ``most`` or ``budget``'s time runs out while they are listed (its clock is read once a
    block of layouts: a long chain may list many small blocks before it reaches ``most``).

    Raises
    ------
    MissingTotalError
        The position's total is unknown.
    InconsistentPositionError
        No layout fits.

    Examples
    --------
    >>> layout_table(Position.from_string("4x4x4\\n....\\n....\\n....\\n....")).count
    1820
    >>> layout_table(Position.from_string("4x4x4\\n....\\n....\\n....\\n...."), most=1000) is None
    True
    """
    position = _with_total(position)
    settled = settle_position(position)
    system = settled.system
    chains = split_chains(system)
    cap = None if most is None else max(most, 1)
    per_chain = []
    for chain in chains:
        listed = _chain_layouts(chain, cap, budget)
        if listed is None:
            return None
        per_chain.append(listed)
    rest = system.unconstrained_cells
    mines_left = system.mines_left
    assert mines_left is not None  # the total is known
    plans = _count_plans(per_chain, len(rest), mines_left)
    total = sum(count for count, _ in plans)
    if total == 0:
        raise InconsistentPositionError("no mine layout satisfies the clues and the mine total together")
    if most is not None and total > most:
        return None
    cells = position.covered_cells
    column = {cell: k for k, cell in enumerate(cells)}
    mines = np.zeros((total, len(cells)), dtype=np.uint8)
    for cell in settled.mine_cells:
        mines[:, column[cell]] = 1
    at = [column[c] for chain in chains for c in chain.cells] + [column[c] for c in rest]  # the blocks' columns, joined
    row = 0
    for count, picks in plans:
        blocks = [per_chain[i][k] for i, k in enumerate(picks[:-1])] + [_combinations(len(rest), picks[-1])]
        mines[row:row + count, at] = _cross(blocks)
        row += count
    return LayoutTable(position, cells, _codes(position, cells, mines))


def _with_total(position: Position) -> Position:
    if position.mines is None:
        raise MissingTotalError("the position's mine total is unknown: the value of a position needs it")
    return position


def _chain_layouts(chain: Chain, cap: int | None, budget: Budget | None) -> dict[int, np.ndarray] | None:
    """A chain's own layouts grouped by their number of mines: ``{mines: (n, cells) array}``, the
    columns in the order of :attr:`Chain.cells`; None when there are more than ``cap`` or the budget's
    time has run out."""
    sizes = [box.size for box in chain.boxes]
    by_mines: dict[int, list[np.ndarray]] = {}
    listed = 0
    for counts in _box_counts(chain):
        block = _cross([_combinations(size, k) for size, k in zip(sizes, counts, strict=True)])
        listed += len(block)
        if (cap is not None and listed > cap) or (budget is not None and budget.expired()):
            return None
        by_mines.setdefault(sum(counts), []).append(block)
    return {mines: np.concatenate(blocks) for mines, blocks in by_mines.items()}


def _box_counts(chain: Chain):
    """Every way to put mines in the chain's boxes (a count per box) that meets all its rules,
    depth first over the boxes with each rule's need and room kept; a walk with its own stack (the
    placed counts), not recursion, since a chain may hold more boxes than Python's recursion limit."""
    sizes = [box.size for box in chain.boxes]
    need = [rule.mines for rule in chain.rules]
    room = [sum(sizes[b] for b in rule.boxes) for rule in chain.rules]
    counts = [0] * len(sizes)
    placed = [-1] * len(sizes)  # the count placed in box b, -1 while none is
    b = 0
    while b >= 0:
        if b == len(sizes):
            if not any(need):
                yield tuple(counts)
            b -= 1
            continue
        rules = chain.boxes[b].rules
        if placed[b] < 0:  # entering the box: its cells no longer room for its rules
            for r in rules:
                room[r] -= sizes[b]
        else:  # back from the boxes after it: take its count back, try the next
            for r in rules:
                need[r] += placed[b]
        k = placed[b] + 1
        while k <= sizes[b] and not all(0 <= need[r] - k <= room[r] for r in rules):
            k += 1
        if k > sizes[b]:  # every count tried: leave the box
            for r in rules:
                room[r] += sizes[b]
            placed[b] = -1
            b -= 1
            continue
        for r in rules:
            need[r] -= k
        counts[b] = placed[b] = k
        b += 1


def _count_plans(per_chain: list, rest_size: int, mines_left: int) -> list[tuple[int, tuple]]:
    """Each choice of a mine count per chain and for the rest that meets the total, with how many
    layouts it holds: ``[(count, (k_chain0, ..., k_rest))]``."""
    plans = []
    for picks in itertools.product(*(sorted(listed) for listed in per_chain)):
        left = mines_left - sum(picks)
        if 0 <= left <= rest_size:
            count = prod(len(listed[k]) for listed, k in zip(per_chain, picks, strict=True)) * comb(rest_size, left)
            plans.append((count, (*picks, left)))
    return plans


#: Rows worked out at once when layouts are listed: the index arrays of a block (a few words a row) stay a few
#: MiB, where the whole listing at once held a Python tuple, or several 8-byte indices, for every row.
_ROWS_BLOCK = 1 << 16


def _combinations(size: int, mines: int) -> np.ndarray:
    """Every way to put ``mines`` mines in ``size`` cells, as a ``(size choose mines, size)`` 0/1 array.

    >>> _combinations(3, 2).tolist()
    [[1, 1, 0], [1, 0, 1], [0, 1, 1]]
    """
    count = comb(size, mines)
    rows = np.zeros((count, size), dtype=np.uint8)
    if mines:
        picks = itertools.combinations(range(size), mines)
        for start in range(0, count, _ROWS_BLOCK):  # a block of them at a time, never a list of them all
            n = min(_ROWS_BLOCK, count - start)
            picked = np.fromiter(itertools.chain.from_iterable(itertools.islice(picks, n)), dtype=np.intp, count=n * mines)
            rows[np.arange(start, start + n)[:, None], picked.reshape(n, mines)] = 1
    return rows


def _cross(blocks: list[np.ndarray]) -> np.ndarray:
    """Every row of the first block beside every row of the next, and so on (the product of the
    blocks' row sets), the first block varying slowest."""
    rows = prod(len(block) for block in blocks)
    crossed = np.empty((rows, sum(block.shape[1] for block in blocks)), dtype=np.uint8)
    if rows == 0:
        return crossed
    for start in range(0, rows, _ROWS_BLOCK):  # a block of rows at a time: their indices stay small
        stop = min(start + _ROWS_BLOCK, rows)
        index, repeats, column = np.arange(start, stop), rows, 0
        for block in blocks:
            repeats //= len(block)  # the rows each of this block's rows stays for, while the blocks after it vary
            crossed[start:stop, column:column + block.shape[1]] = block[index // repeats % len(block)]
            column += block.shape[1]
    return crossed


#: Layouts whose clues are worked out at once: the floats of their product take 8 bytes a cell each, a few
#: MiB a block, where the whole table at once took 33 bytes a cell of every layout beside the table.
_CODES_BLOCK = 1 << 14


def _codes(position: Position, cells: tuple, mines: np.ndarray) -> np.ndarray:
    """What each covered cell shows in each layout: :data:`MINE`, or the mines around it."""
    column = {cell: k for k, cell in enumerate(cells)}
    around = np.zeros((len(cells), len(cells)), dtype=np.float32)
    known = set(position.known_mine_cells)
    base = np.zeros(len(cells), dtype=np.int64)
    for k, cell in enumerate(cells):
        for n in position.neighbours(cell):
            if n in column:
                around[column[n], k] = 1
            elif n in known:
                base[k] += 1
    codes = np.empty(mines.shape, dtype=np.uint8)
    for start in range(0, len(mines), _CODES_BLOCK):  # a block at a time: the products' floats stay small
        block = mines[start:start + _CODES_BLOCK]
        # the mines around each cell, one product of small whole numbers (exact in float32: at most 8)
        clues = (block.astype(np.float32) @ around).astype(np.uint8) + base.astype(np.uint8)
        codes[start:start + _CODES_BLOCK] = np.where(block == 1, np.uint8(MINE), clues)
    return codes
