"""50/50s: coin flips that must be taken some time, found exactly.

:func:`forced_fifty_fifty` finds a pair of cells that no future clue can ever
tell apart (one mine between them, and no clue or covered cell touching only
one of them): a coin flip that must be taken some time, so taking it
first loses nothing and saves the work on games it loses.
:func:`fifty_fifty_influence` finds where such pairs *may* form, and how
likely, so the look-ahead can value a guess whose mine would have cost a
coin flip anyway (Hill's "50/50 influence" [1]_).

>>> from cspmines import Position, solve
>>> forced_fifty_fifty(solve(Position.from_string("2x2x1\\n11\\n..")))
(2, 3)

See Also
--------
cspmines.agents.exact.hotspots : the pairs one more mine would seal.

References
----------
.. [1] D. N. Hill, "Minesweeper" solver (JSMinesweeper and the Java solver):
   50/50 detection and influence in the guessing rules.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ... import native
from ...errors import InconsistentPositionError
from ...position import COVERED, FLAG, MINE, WITHHELD, Position
from .hotspots import HOTSPOT_ENABLER_RISK, Hotspot

__all__ = ["HALF", "Influence", "fifty_fifty_influence", "forced_fifty_fifty"]

HALF = Fraction(1, 2)  # compared with exact probabilities: a Fraction compares fastest with a Fraction


def forced_fifty_fifty(analysis) -> tuple[int, int] | None:
    """Two cells with one mine between them that no clue can ever tell apart, or None.

    Such a pair is a coin flip in every line of play: each cell is a mine
    with chance 1/2, exactly one of them is, and every cell touching only
    one of the two is a known mine or an opened cell without a clue (a clue
    there, or a covered cell, could tell them apart through its other
    neighbours), so every clue, now or to come, sees both or neither:
    swapping the two is a symmetry of everything a player can ever learn.

    >>> from cspmines import Position, solve
    >>> forced_fifty_fifty(solve(Position.from_string("2x2x1\\n11\\n..")))
    (2, 3)
    >>> forced_fifty_fifty(solve(Position.from_string("3x2x1\\n11.\\n...")))  # (1,2) can still tell
    """
    position = analysis.position
    flat = position.grid.ravel()
    halves = analysis.cells_where(lambda p: p == HALF)
    around = {c: set(position.neighbours(c)) for c in halves}
    for a, b in itertools.combinations(halves, 2):
        if not around[a] & (around[b] | {b}):
            continue  # too far apart to share a clue
        only_one = (around[a] ^ around[b]) - {a, b}
        if any(flat[n] == COVERED or flat[n] >= 0 for n in only_one):
            continue  # a covered cell or a clue there could tell the two apart, now or later
        if _exactly_one_mine(analysis, a, b):
            return a, b
    return None


def _exactly_one_mine(analysis, a: int, b: int) -> bool:
    """Whether every layout has a mine at exactly one of ``a``, ``b`` (each a mine with chance 1/2)."""
    position = analysis.position
    grid = position.grid.copy()
    grid.flat[a] = FLAG
    try:
        with_a = analysis.engine.solve(Position(grid, mines=position.mines), density=analysis.density, explain=False)
    except InconsistentPositionError:
        return False
    # a mine at a forces b safe, so P(a and b) = 0 and P(a or b) = 1/2 + 1/2 = 1
    return with_a.probability(b) == 0


@dataclass(frozen=True)
class Influence:
    """The 50/50s that may form around covered cells (see :func:`fifty_fifty_influence`).

    Attributes
    ----------
    chance : dict
        cell -> the chance of the layouts in which a 50/50 forms around it,
        at most its chance of being a mine and of being safe.
    pseudo : int or None
        A cell that is a mine only in layouts where it is one half of a
        50/50: "a 50/50, or safe", as good to guess now as ever.
    hotspots : tuple of Hotspot
        The pairs, each a mine with chance 1/2, that one more mine at a
        flanking cell would seal into a 50/50 (see :class:`Hotspot`).
    """

    chance: dict
    pseudo: int | None = None
    hotspots: tuple = ()

    def multipliers(self, analysis, weight: float) -> dict:
        """cell -> ``1 + weight * chance / P(safe)``: the score bonus of a cell whose
        mine would have cost a coin flip anyway."""
        out = {}
        for cell, chance in self.chance.items():
            safety = 1.0 - analysis.probability(cell, exact=False)
            if safety > 0:
                out[cell] = 1.0 + weight * chance / safety
        return out


def fifty_fifty_influence(analysis) -> Influence:
    """Where 50/50s may form: two side-by-side cells, or a 2x2 block, whose
    flanks are all known mines or the board's edge but for at most one cell.

    If that cell is a mine too (and one cell of the pair, or one diagonal of
    the block), no clue can ever tell the two apart: a coin flip that must
    be taken some time. A guess at a cell in such a place loses, in those
    layouts, what the coin flip would have lost anyway, so its score earns a
    bonus (Hill's "50/50 influence"). For every place found the layouts that
    make it a 50/50 are counted exactly (one solve with the mines flagged and
    the other cells opened without a clue); the flanking cell that completes
    it shares the influence. Only with a known mine total (exact weights).

    >>> from cspmines import Position, solve
    >>> # a pair on the bottom edge: the flags close it off, the clues above see both cells
    >>> influence = fifty_fifty_influence(solve(Position.from_string("3x2x3\\n13F\\n..F")))
    >>> sorted(influence.chance.items()), influence.pseudo
    ([(3, 0.5), (4, 0.5)], 3)
    """
    if analysis.position.mines is None or not analysis.model_count:
        return Influence({})
    board = _Board(analysis)
    tally = _Tally(analysis)
    # numpy marks the few places closed off enough to be looked at; missing_flanks has the last word
    across, down, square = _closed_off_places(analysis.position.grid, board.mine)
    for a in np.flatnonzero(across | down | square).tolist():  # row by row: the first pseudo cell found wins
        if across.flat[a]:
            _weigh_pair(board, tally, a, a + 1, _ACROSS_FLANKS)
        if down.flat[a]:
            _weigh_pair(board, tally, a, a + board.width, _DOWN_FLANKS)
        if square.flat[a] and board.mines_left >= 2:
            _weigh_block(board, tally, a)
    return tally.influence()


class _Board:
    """The board as the search for forming 50/50s reads it: which cells are hidden (covered, not
    known mines), which places are closed off, and how many layouts make a place a 50/50."""

    def __init__(self, analysis) -> None:
        self.position, self.engine = analysis.position, analysis.engine  # its solves by the engine that solved it
        self.width, self.height = self.position.width, self.position.height
        self.flat = self.position.grid.ravel()
        self.mine = set(analysis.mine_cells)  # exact here: a model count was asked for
        self.mines_left = analysis.mines_left - len(self.mine)

    def hidden(self, cell: int) -> bool:
        return self.flat[cell] == COVERED and cell not in self.mine

    def missing_flanks(self, top_left: int, offsets) -> list | None:
        """The flanking cells (``offsets`` from ``top_left``) still to be mines, or None if one is
        opened or two are still to be (no place needs more than one: stop looking early, most fail)."""
        width, height, flat = self.width, self.height, self.flat  # (read for every flank of every place)
        r, c = divmod(top_left, width)
        missing: list[int] = []
        for fr, fc in offsets:
            if 0 <= r + fr < height and 0 <= c + fc < width:
                cell = (r + fr) * width + c + fc
                if flat[cell] not in (COVERED, FLAG, MINE):
                    return None
                if self.hidden(cell):
                    if missing:
                        return None
                    missing.append(cell)
        return missing

    def layouts_with(self, mines, safes) -> int:
        """The layouts with a mine at each of ``mines`` and none at ``safes``."""
        grid = self.position.grid.copy()
        grid.flat[list(mines)] = FLAG
        grid.flat[list(safes)] = WITHHELD
        try:
            count = self.engine.solve(Position(grid, mines=self.position.mines), explain=False).model_count
        except InconsistentPositionError:
            return 0
        assert count is not None  # no budget: the count is exact
        return count


class _Tally:
    """The layouts found so far in which a 50/50 takes each cell in, by kind of place, the first
    pseudo 50/50 cell and the hotspots; :meth:`influence` makes them chances."""

    def __init__(self, analysis) -> None:
        self.analysis = analysis
        self.pairs: dict = {}  # cell -> layouts where a side-by-side 50/50 takes it in
        self.blocks: dict = {}  # cell -> most layouts where a 2x2 50/50 takes it in
        self.enabling: dict = {}  # flanking cell -> layouts where it completes a 50/50
        self.pseudo: int | None = None
        self.hotspots: list = []

    def add_pair(self, a: int, b: int, missing: list, layouts: int) -> None:
        """The pair ``a``, ``b`` is a 50/50 in ``layouts`` layouts once ``missing`` are mines."""
        analysis = self.analysis
        halves = analysis.probability(a) == analysis.probability(b) == HALF
        if len(missing) == 1 and halves and analysis.probability(missing[0]) > HOTSPOT_ENABLER_RISK:
            self.hotspots.append(Hotspot(missing[0], frozenset((a, b, missing[0]))))
        for cell in (a, b):
            self.pairs[cell] = self.pairs.get(cell, 0) + layouts
            if self.pseudo is None and layouts == analysis.probability(cell) * analysis.model_count:
                self.pseudo = cell  # a mine only as half of this 50/50
        for cell in missing:
            self.enabling[cell] = self.enabling.get(cell, 0) + layouts

    def add_block(self, block: tuple, layouts: int) -> None:
        for cell in block:
            self.blocks[cell] = max(self.blocks.get(cell, 0), layouts)

    def influence(self) -> Influence:
        """Each cell's chance of a 50/50 forming around it, at most its chance of being a mine and of being safe."""
        total = self.analysis.model_count
        chance = {}
        for cell in set(self.pairs) | set(self.blocks) | set(self.enabling):
            mine_layouts = self.analysis.probability(cell) * total
            cap = min(mine_layouts, total - mine_layouts)
            layouts = min(self.pairs.get(cell, 0) + self.blocks.get(cell, 0) + self.enabling.get(cell, 0), cap)
            if layouts > 0:
                chance[cell] = float(layouts / total)
        return Influence(chance, self.pseudo, tuple(self.hotspots))


def _weigh_pair(board: _Board, tally: _Tally, a: int, b: int, flanks) -> None:
    """Count the layouts in which the pair ``a``, ``b`` (``b`` right of or below ``a``) becomes a 50/50."""
    missing = board.missing_flanks(a, flanks)
    if missing is None or len(missing) + 1 > board.mines_left:
        return
    layouts = board.layouts_with(missing + [a], [b])  # the same with b the mine: a symmetry
    if layouts:
        tally.add_pair(a, b, missing, layouts)


def _weigh_block(board: _Board, tally: _Tally, a: int) -> None:
    """Count the layouts in which the 2x2 block at ``a`` (its top left) becomes a 50/50."""
    block = (a, a + 1, a + board.width, a + board.width + 1)
    if all(board.hidden(cell) for cell in block) and board.missing_flanks(a, _BLOCK_CORNERS) == []:
        tally.add_block(block, board.layouts_with([block[0], block[3]], [block[1], block[2]]))


# offsets from a pair's or block's top-left cell: the cells beside a pair across (two columns
# of three), beside a pair down (two rows of three), and at a 2x2 block's diagonal corners
_ACROSS_FLANKS = tuple((k, -1) for k in (-1, 0, 1)) + tuple((k, 2) for k in (-1, 0, 1))
_DOWN_FLANKS = tuple((-1, k) for k in (-1, 0, 1)) + tuple((2, k) for k in (-1, 0, 1))
_BLOCK_CORNERS = ((-1, -1), (-1, 2), (2, -1), (2, 2))


def _closed_off_places(grid: np.ndarray, known_mines) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where a 50/50 may form, by the cell at its top left: side-by-side pairs across and down of
    hidden cells (covered, not known mines) whose six flanking cells hold no opened cell and at
    most one hidden one, and 2x2 blocks of hidden cells whose four corner cells are all closed
    (known mines or off the board). Boolean grids of the board's shape."""
    height, width = grid.shape
    compiled = native.kernel("closed_off_places")
    if compiled is not None:  # the same places, found in C
        found = compiled(np.ascontiguousarray(grid, dtype=np.int8), width, height, known_mines)
        return tuple(np.frombuffer(places, dtype=bool).reshape(height, width) for places in found)  # type: ignore[return-value]
    hidden = grid == COVERED
    if known_mines:
        hidden.flat[list(known_mines)] = False
    opened = ~np.isin(grid, (COVERED, FLAG, MINE))
    # padded by two on every side, where nothing is hidden or opened: the board's edge closes a place off
    hidden_p, opened_p = (np.pad(x.astype(np.int8), 2) for x in (hidden, opened))

    def at(x: np.ndarray, dr: int, dc: int) -> np.ndarray:
        """``x`` at (r + dr, c + dc) for every cell (r, c) of the board."""
        return x[2 + dr : 2 + dr + height, 2 + dc : 2 + dc + width]

    def flanks(x: np.ndarray, cells) -> np.ndarray:
        """How many of ``cells`` (offsets) hold a 1 in ``x``, for every cell of the board."""
        return np.sum([at(x, dr, dc) for dr, dc in cells], axis=0)

    here = at(hidden_p, 0, 0).astype(bool)
    across = here & (at(hidden_p, 0, 1) == 1) & (flanks(opened_p, _ACROSS_FLANKS) == 0) & (flanks(hidden_p, _ACROSS_FLANKS) <= 1)
    down = here & (at(hidden_p, 1, 0) == 1) & (flanks(opened_p, _DOWN_FLANKS) == 0) & (flanks(hidden_p, _DOWN_FLANKS) <= 1)
    block = here & (at(hidden_p, 0, 1) == 1) & (at(hidden_p, 1, 0) == 1) & (at(hidden_p, 1, 1) == 1)
    square = block & (flanks(opened_p + hidden_p, _BLOCK_CORNERS) == 0)
    return across, down, square
