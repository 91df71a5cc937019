"""Layouts of one chain drawn uniformly from the counting programme's kept forward pass.

Draws are made many at a time: the layouts being drawn walk the kept
programme together, and those standing in the same state share one lookup
and one vectorised pick, so the work grows with the programme's states, not
with the number of layouts. Every pick is an exact integer drawn below an
exact integer total (numpy's generator where the total fits in 63 bits,
Python's big integers past that), so the draw is uniform, not merely close.

>>> import numpy as np
>>> weighted_picks(np.random.default_rng(1), [0, 3, 0], 3, 4).tolist()
[1, 1, 1, 1]
"""

from __future__ import annotations

import bisect
import itertools
import random

import numpy as np

from ..chains import Chain
from .steps import choices, coefficients

__all__ = ["LayoutSampler", "place_mines", "weighted_picks"]

_EXACT_BELOW = 1 << 63  # numpy draws integers exactly below this


class LayoutSampler:
    """Layouts of one chain drawn uniformly, by walking the kept forward pass backwards.

    The forward pass leaves, for every state before each step, the number of
    ways to reach it with each number of mines. Given the chain's mine
    number, the last box's mine number is drawn in proportion to the ways
    of reaching each state it can come from, times the box's binomial; then
    the box before it from that state, and so on to the first. Each box's
    mines go to its cells uniformly. A draw costs one lookup per box and
    mine number, not a count, and layouts in the same state share it.

    Attributes
    ----------
    models : tuple of int
        As :attr:`ChainCount.models`: layouts of the chain by mine number.

    Examples
    --------
    >>> from cspmines.engine.chains import Box, LocalRule
    >>> pair = Chain(boxes=(Box((0, 1), (0,)), Box((2,), (0, 1)), Box((3,), (1,))),
    ...                  rules=(LocalRule((0, 1), 1), LocalRule((1, 2), 1)))
    >>> from cspmines.engine.backends.dynamic import DynamicProgrammingBackend
    >>> sampler = DynamicProgrammingBackend().sampler(pair)
    >>> sampler.models                      # cell 2 alone, or one of 0, 1 with cell 3
    (0, 1, 2)
    >>> mines = np.zeros((3, 4), dtype=bool)
    >>> sampler.fill(mines, np.arange(3), 2, np.random.default_rng(3))
    >>> mines.astype(int).tolist()         # each row one of the two layouts with two mines
    [[0, 1, 0, 1], [1, 0, 0, 1], [1, 0, 0, 1]]
    >>> sampler.fill(mines, np.arange(3), 0, np.random.default_rng(3))
    Traceback (most recent call last):
    ...
    ValueError: no layout of this chain holds 0 mines
    """

    def __init__(self, chain: Chain, sweep):
        """``sweep`` is the forward pass (:class:`~cspmines.engine.backends.dynamic.Sweep`) of ``chain``."""
        self._chain = chain
        self._sweep = sweep
        total = sweep.final.get(0, 0)
        self.models = coefficients(sweep.final_offset, total, sweep.bits)
        self._walk: dict = sweep.walks  # (step from the end, state, mines left) -> the step's moves and their ways
        self._cells = [np.asarray(chain.boxes[step.box].cells, dtype=np.intp) for step in reversed(sweep.steps)]

    def draw(self, mines: int, rng: random.Random) -> list:
        """The mine cells of one layout with ``mines`` mines, each such layout equally likely
        (``rng`` a :class:`random.Random`; :meth:`fill` draws many at once)."""
        row = np.zeros((1, max(self._chain.cells) + 1), dtype=bool)
        self.fill(row, np.zeros(1, dtype=np.intp), mines, np.random.default_rng(rng.getrandbits(128)))
        return np.flatnonzero(row[0]).tolist()

    def fill(self, out: np.ndarray, rows: np.ndarray, mines: int, generator: np.random.Generator) -> None:
        """Draw one layout with ``mines`` mines for each of ``rows`` and mark its cells in ``out``
        (a boolean array, a row a layout, a column a flat cell); each layout equally likely."""
        if not 0 <= mines < len(self.models) or not self.models[mines]:
            raise ValueError(f"no layout of this chain holds {mines} mines")
        standing = {(0, mines): rows}  # (state after the step, mines left) -> the rows standing there
        for index, cells in enumerate(self._cells):
            following: dict = {}
            for (after, left), members in standing.items():
                moves, weights, total = self._options(index, after, left)
                picks = weighted_picks(generator, weights, total, len(members)) if len(moves) > 1 else None
                for move, (m, key) in enumerate(moves):
                    part = members if picks is None else members[picks == move]
                    if len(part):
                        place_mines(out, part, cells, m, generator)
                        following.setdefault((key, left - m), []).append(part)
            standing = {node: parts[0] if len(parts) == 1 else np.concatenate(parts) for node, parts in following.items()}

    def _options(self, index: int, after: int, left: int) -> tuple[list, list, int]:
        """The moves of the backward walk's step ``index`` (counted from the last box) from state
        ``after`` with ``left`` mines still to place: ([(box's mines, earlier state)], their ways,
        the ways' sum).
        Kept, since successive draws pass through the same states again and again."""
        known = self._walk.get((index, after, left))
        if known is not None:
            return known
        sweep = self._sweep
        step, (offset, layer) = sweep.steps[-1 - index], sweep.layers[-1 - index]
        bits = sweep.bits
        digits = (1 << bits) - 1
        moves, weights = [], []
        for m in range(min(step.size, left) + 1):
            key = after + m * step.mask - step.opening
            poly = layer.get(key)
            power = left - m - offset
            if poly is None or power < 0 or m not in choices(key + step.opening, step):
                continue
            ways = ((poly >> (power * bits)) & digits) * step.weights[m]
            if ways:
                moves.append((m, key))
                weights.append(ways)
        known = self._walk[(index, after, left)] = moves, weights, sum(weights)
        return known


def weighted_picks(generator: np.random.Generator, weights: list[int], total: int, count: int) -> np.ndarray:
    """``count`` indices, each drawn with chance proportional to its integer weight, exactly
    (``total`` is the weights' sum, more than 0).

    >>> weighted_picks(np.random.default_rng(0), [1, 0, 1], 2, 6).tolist()
    [2, 2, 2, 0, 0, 0]
    >>> big = 1 << 80   # past 63 bits: the leading bits first, the rest only where they decide
    >>> sorted(set(weighted_picks(np.random.default_rng(0), [big, 1, big], 2 * big + 1, 40).tolist()))
    [0, 2]
    """
    if total < _EXACT_BELOW:
        picks = generator.integers(0, total, size=count, dtype=np.int64)
        return np.searchsorted(np.cumsum(np.asarray(weights, dtype=np.int64)), picks, side="right")
    return _big_picks(generator, weights, total, count)


def _big_picks(generator: np.random.Generator, weights: list[int], total: int, count: int, *, leading_bits: int = 63) -> np.ndarray:
    """:func:`weighted_picks` for a total of more than 63 bits, still exact.

    A pick is r, uniform below ``total``, as its leading ``leading_bits`` bits u and the rest v below 2**shift.
    Where the whole block of r's that share u lies inside one weight's interval, u alone
    decides (all but a vanishing few); where it straddles an edge, v is drawn in Python's
    big integers; an r past the total is drawn again (fewer than half of them)."""
    shift = max(total.bit_length() - leading_bits, 0)
    edges = list(itertools.accumulate(weights))
    blocks = np.array([edge >> shift for edge in edges], dtype=np.int64)
    picks = np.empty(count, dtype=np.int64)
    todo = np.arange(count)
    source = None
    while len(todo):
        leading = generator.integers(0, 1 << (total.bit_length() - shift), size=len(todo), dtype=np.int64)
        index = np.searchsorted(blocks, leading, side="right")  # the first edge past u's block
        inside = index < len(blocks)
        inside[inside] &= (index[inside] == 0) | (blocks[index[inside] - 1] < leading[inside])
        picks[todo[inside]] = index[inside]
        straddling = (~inside) & (leading <= total >> shift)
        again = [todo[~inside & ~straddling]]
        if straddling.any():
            source = source or random.Random(int(generator.integers(_EXACT_BELOW)))
            for row, u in zip(todo[straddling].tolist(), leading[straddling].tolist(), strict=True):
                r = (u << shift) + source.randrange(1 << shift)
                if r < total:
                    picks[row] = bisect.bisect_right(edges, r)
                else:
                    again.append(np.array([row]))
        todo = np.concatenate(again)
    return picks


def place_mines(out: np.ndarray, rows: np.ndarray, cells: np.ndarray, m: int, generator: np.random.Generator) -> None:
    """Mark ``m`` of ``cells``, drawn uniformly without replacement, in each of ``rows`` of ``out``.

    >>> out = np.zeros((3, 5), dtype=bool)
    >>> place_mines(out, np.array([0, 2]), np.array([1, 3, 4]), 2, np.random.default_rng(0))
    >>> out.sum(axis=1).tolist(), bool(out[:, [0, 2]].any())   # two of cells 1, 3, 4 in rows 0 and 2
    ([2, 0, 2], False)
    """
    if m == 0:
        return
    if m == len(cells):
        out[rows[:, None], cells[None, :]] = True
    elif m == 1:
        out[rows, cells[generator.integers(0, len(cells), size=len(rows))]] = True
    else:  # a uniform permutation of the cells a row, its first m taken
        order = generator.permuted(np.tile(cells, (len(rows), 1)), axis=1)
        out[rows[:, None], order[:, :m]] = True
