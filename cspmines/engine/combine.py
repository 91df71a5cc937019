"""Combining chain counts with the unconstrained rest: exact integers to the end.

With a known number of mines left, M', and R unconstrained cells::

    Z = sum_k (conv of all models)[k] * C(R, M' - k)
    P(cell in box b of c) = sum_k tally_c[k][b] * W_c(M' - k) / (|b| * Z)
    W_c(t) = sum_j (conv of the other chains' models)[j] * C(R, t - j)
    P(cell in R) = sum_k conv[k] * C(R, M' - k) * (M' - k) / (R * Z)

With an unknown total and a density p every layout of m mines over n cells
weighs p**m (1-p)**(n-m): chains are then independent and R is p.

Examples
--------
>>> from cspmines.engine.backends.base import ChainCount
>>> # one chain: two single-cell boxes, one mine between them; 2 free cells; 2 mines left
>>> counts = [ChainCount(models=(0, 2, 0), tallies=((0, 1, 0), (0, 1, 0)))]
>>> result = combine_with_total(counts, [(1, 1)], rest_size=2, mines_left=2)
>>> result.model_count, result.box_probabilities, result.rest_probability
(4, [[Fraction(1, 2), Fraction(1, 2)]], Fraction(1, 2))
>>> result.box_chances, result.rest_chance   # the same over the common denominator, the model count
([[2, 2]], 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from math import comb
from typing import NamedTuple

from .. import native
from ..errors import BudgetExceededError
from .backends.base import trim_zeros
from .budget import Budget

__all__ = ["INT_BYTES", "Combination", "polynomial_bytes", "afford_combining", "binomials", "convolve", "combine_chains", "combine_with_total", "combine_with_density", "TotalTerms", "chances_under_total",
           "count_with_total"]


def convolve(a, b) -> list:
    """The product of two integer polynomials given as coefficient sequences.

    >>> convolve([1, 1], [1, 2, 1])
    [1, 3, 3, 1]
    """
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out


class Combination:
    """Exact results of combining chains with the rest.

    With a mine total every chance has one denominator, the model count, so
    the chances are kept as their integer numerators (the layouts in which a
    cell is a mine): comparing and summing them is integer work, and a
    Fraction, whose every step takes a gcd, is made only when one is read.
    The model count is worked out at once (it says whether the position is
    consistent); the chances when first read (``chances``, a function
    returning them, made by the combining function).

    Attributes
    ----------
    model_count : int
        Mine layouts of the whole position consistent with everything (0: inconsistent).
    box_chances : list of list of int or Fraction
        ``[chain][box]``: the chance that one cell of that box is a mine, over
        ``denominator`` (with a total: the layouts in which that cell is a mine).
    rest_chance : int, Fraction or None
        The same for an unconstrained cell (``None`` when there are none).
    mine_range : tuple of int
        The fewest and most mines the constrained front can hold.
    denominator : int or None
        What the chances are over: the model count with a mine total; None with a
        density, whose chances are Fractions themselves.
    """

    __slots__ = ("model_count", "_mine_range", "denominator", "_chances", "_worked_out")

    def __init__(self, model_count: int, box_chances, rest_chance, mine_range, denominator: int | None = None, *,
                 chances=None):
        self.model_count = model_count
        self._mine_range = mine_range  # a tuple, or a function making it (read only to explain a conflict)
        self.denominator = denominator
        self._chances = chances  # () -> (box_chances, rest_chance), or None when given
        self._worked_out = None if chances is not None else (box_chances, rest_chance)

    def __repr__(self) -> str:
        return (f"Combination(model_count={self.model_count!r}, box_chances={self.box_chances!r}, rest_chance={self.rest_chance!r}, "
                f"mine_range={self.mine_range!r}, denominator={self.denominator!r})")

    @property
    def mine_range(self) -> tuple:
        return self._mine_range() if callable(self._mine_range) else self._mine_range

    def _both(self) -> tuple:
        worked_out = self._worked_out
        if worked_out is None:  # two threads may both work them out: the same answer, kept once
            worked_out = self._worked_out = self._chances()
        return worked_out

    @property
    def box_chances(self) -> list:
        return self._both()[0]

    @property
    def rest_chance(self):
        return self._both()[1]

    def probability(self, chance) -> Fraction:
        """One of the chances above as a Fraction."""
        return Fraction(chance, self.denominator) if self.denominator else chance

    @property
    def box_probabilities(self) -> list:
        """``box_chances`` as Fractions: ``[chain][box]``."""
        return [[self.probability(c) for c in chances] for chances in self.box_chances]

    @property
    def rest_probability(self) -> Fraction | None:
        """``rest_chance`` as a Fraction (None when no cell is off the front)."""
        return None if self.rest_chance is None else self.probability(self.rest_chance)


def _mine_range(counts) -> tuple[int, int]:
    low = high = 0
    for count in counts:
        nonzero = [k for k, w in enumerate(count.models) if w]
        if not nonzero:
            return (0, -1)
        low += nonzero[0]
        high += nonzero[-1]
    return (low, high)


def combine_chains(counts, box_sizes, *, rest_size: int, mines_left: int | None, density) -> Combination:
    """The chains' counts and ``rest_size`` cells off the front combined: under ``density`` when given
    (:func:`combine_with_density`), else under the total ``mines_left`` (:func:`combine_with_total`).

    >>> from cspmines.engine.backends.base import ChainCount
    >>> counts = [ChainCount(models=(0, 2, 0), tallies=((0, 1, 0), (0, 1, 0)))]
    >>> combine_chains(counts, [(1, 1)], rest_size=2, mines_left=2, density=None).model_count
    4
    """
    if density is not None:
        return combine_with_density(counts, box_sizes, rest_size=rest_size, density=density)
    assert mines_left is not None  # a question has a total or a density
    return combine_with_total(counts, box_sizes, rest_size=rest_size, mines_left=mines_left)


def combine_with_total(counts, box_sizes, *, rest_size: int, mines_left: int) -> Combination:
    """Combine chains when exactly ``mines_left`` mines remain among the unknown cells.

    Parameters
    ----------
    counts : sequence of ChainCount
    box_sizes : sequence of sequence of int
        ``box_sizes[c][b]``: the number of cells of box b of chain c.
    rest_size : int
        Unconstrained cells.
    mines_left : int
        Mines among all unknown cells (front and rest).
    """
    models = [list(trim_zeros(c.models)) for c in counts]  # lists, as the compiled sums take them
    everything = [1]  # the front's layouts by mine number: the product of every chain's
    for poly in models:
        everything = convolve(everything, poly)
    low, window = _rest_window(rest_size, mines_left, len(everything) - 1)
    total = _weight(everything, window, mines_left - low) if window else 0  # sum over k of everything[k] C(rest, mines_left - k)
    if total == 0:
        return Combination(0, [], None, _mine_range(counts))

    terms = TotalTerms(counts, box_sizes, models, everything, window, low, mines_left, rest_size)
    return Combination(total, None, None, partial(_mine_range, counts), denominator=total, chances=partial(_chances, terms))


class TotalTerms(NamedTuple):
    """What :func:`combine_with_total` keeps to make the chances when they are first read: the chains'
    ``counts`` and ``box_sizes``, their trimmed ``models`` and product ``everything`` (the front's layouts by
    mine number), the ``window`` of ways to place ``mines_left - k`` mines off the front for the front's
    ``k`` from ``low`` up, ``mines_left`` and the ``rest_size`` cells off the front."""

    counts: Sequence
    box_sizes: Sequence
    models: list
    everything: list
    window: list
    low: int
    mines_left: int
    rest_size: int


def _chances(terms: TotalTerms) -> tuple[list, int | None]:
    """The chances by the compiled kernel where the kernels are on, else by its twin."""
    worked_out = native.kernel("combine_chances") or chances_under_total
    return worked_out(terms)


def chances_under_total(terms: TotalTerms) -> tuple[list, int | None]:
    """(box chances, rest chance) of :func:`combine_with_total`: the layouts in which a cell of each box, or off the
    front, is a mine. The twin of the compiled ``combine_chances`` (the same sums on the same integers).

    >>> from cspmines.engine.backends.base import ChainCount
    >>> count = ChainCount(models=(0, 2, 0), tallies=((0, 1, 0), (0, 1, 0)))   # two boxes of a cell, one mine
    >>> chances_under_total(TotalTerms([count], [(1, 1)], [[0, 2]], [0, 2], [1, 2, 1], 0, 2, 2))   # two mines, two cells off
    ([[2, 2]], 2)
    """
    counts, box_sizes, models, everything = terms.counts, terms.box_sizes, terms.models, terms.everything
    window, low, mines_left, rest_size = terms.window, terms.low, terms.mines_left, terms.rest_size
    high = low + len(window) - 1
    rest_chance = None
    if rest_size:  # each cell off the front alike, as in a box: the rest holds mines_left - k of them
        rest_chance = sum(w * window[mines_left - k - low] * (mines_left - k) for k, w in enumerate(everything)
                          if w and low <= mines_left - k <= high) // rest_size
    # prefix[i] = product of models[:i]; suffix[i] = product of models[i:]
    prefix = [[1]]
    for poly in models:
        prefix.append(convolve(prefix[-1], poly))
    suffix = [[1]]
    for poly in reversed(models):
        suffix.append(convolve(suffix[-1], poly))
    suffix.reverse()
    box_chances = []
    for index, (count, sizes) in enumerate(zip(counts, box_sizes, strict=True)):
        others = convolve(prefix[index], suffix[index + 1])
        # weight_of[k]: layouts of everything else when this chain holds k mines
        weight_of = [_weight(others, window, mines_left - k - low) if count.models[k] else 0 for k in range(len(count.models))]
        # a tally counts the box's mines, each cell of the box alike: one cell's share is exact
        box_chances.append([sum(t * weight_of[k] for k, t in enumerate(tally) if t) // size for tally, size in zip(count.tallies, sizes, strict=True)])
    return box_chances, rest_chance


def count_with_total(counts, *, rest_size: int, mines_left: int) -> int:
    """The layouts of the whole position, as :func:`combine_with_total` counts them, and nothing else
    (no chance of any cell): what a question about one outcome needs.

    >>> from cspmines.engine.backends.base import ChainCount
    >>> count_with_total([ChainCount(models=(0, 2, 0), tallies=((0, 1, 0), (0, 1, 0)))], rest_size=2, mines_left=2)
    4
    """
    everything = [1]
    for count in counts:
        everything = convolve(everything, trim_zeros(count.models))
    low, window = _rest_window(rest_size, mines_left, len(everything) - 1)
    return _weight(everything, window, mines_left - low) if window else 0


def _rest_window(rest_size: int, mines_left: int, front_most: int) -> tuple[int, list]:
    """(low, [C(rest_size, t) for t from low]): only t in [mines_left - the front's most mines,
    mines_left] is ever asked for, so that window is tabulated by the recurrence
    C(R, t+1) = C(R, t) (R - t) / (t + 1) instead of calling comb each time."""
    low = max(0, mines_left - front_most)
    return low, binomials(rest_size, low, min(rest_size, mines_left))


def binomials(n: int, low: int, high: int) -> list[int]:
    """C(n, t) for t from ``low`` to ``high`` (empty when ``low > high``), each from the one before by
    C(n, t+1) = C(n, t) (n - t) / (t + 1): one comb, not one a term.

    >>> binomials(5, 0, 3), binomials(5, 2, 1)
    ([1, 5, 10, 10], [])
    """
    row: list[int] = []
    if low <= high:
        value = comb(n, low)
        for t in range(low, high + 1):
            row.append(value)
            value = value * (n - t) // (t + 1)
    return row


def _weight(others: list, window: list, top: int) -> int:
    """sum over j of others[j] * window[top - j]: the layouts of everything else, when it holds j
    mines and the rest the remaining ones (``window[t - low]`` = C(rest, t)), in one pass over
    the j whose remainder lies in the window (the others are 0)."""
    first, last = max(0, top - len(window) + 1), min(len(others) - 1, top)
    return sum([others[j] * window[top - j] for j in range(first, last + 1)])


def combine_with_density(counts, box_sizes, *, rest_size: int, density: Fraction) -> Combination:
    """Combine chains when every cell is a mine independently with chance ``density``.

    ``model_count`` is then the number of layouts consistent with the clues,
    whatever their number of mines.

    >>> from cspmines.engine.backends.base import ChainCount
    >>> counts = [ChainCount(models=(0, 2, 1), tallies=((0, 1, 1), (0, 1, 1)))]
    >>> r = combine_with_density(counts, [(1, 1)], rest_size=1, density=Fraction(1, 2))
    >>> r.model_count, r.box_probabilities, r.rest_probability
    (6, [[Fraction(2, 3), Fraction(2, 3)]], Fraction(1, 2))
    """
    p, q = density, 1 - density
    box_probabilities = []
    model_count = 2**rest_size
    for count, sizes in zip(counts, box_sizes, strict=True):
        n = sum(sizes)  # the chain's cells: models may stop at its last nonzero k
        weights = [p**k * q ** (n - k) for k in range(len(count.models))]
        norm = sum(w * m for w, m in zip(weights, count.models, strict=True) if m)
        model_count *= count.total
        if norm == 0:
            return Combination(0, [], None, _mine_range(counts))
        # a tally stops at its last nonzero k, at or before the models' last: the weights past it meet no mines
        box_probabilities.append(
            [sum(w * t for w, t in zip(weights, tally, strict=False) if t) / (size * norm) for tally, size in zip(count.tallies, sizes, strict=True)]
        )
    return Combination(
        model_count, box_probabilities, (Fraction(density) if rest_size else None), _mine_range(counts)
    )


#: Weighted products of big integers combining does a second, about (a product of two 64-bit numbers
#: weighs 1, of two n-bit numbers n/64; measured 7.8 to 20 million a second here, taken low).
_PRODUCTS_PER_SECOND = 5e6


def afford_combining(counts, chains, budget: Budget) -> None:
    """Whether the chains' counts can be combined under the mine total within what is left of ``budget``:
    the combination holds each chain's polynomial times those before it and those after it, and works out
    each chain's product of the others; a board of thousands of small chains makes both grow as the cube
    of their number. When it cannot, the budget is marked spent (``stopped_by`` says why) and the solve
    answers NOT EXACT with estimates, as when a chain cannot be counted."""
    degrees = [len(count.models) - 1 for count in counts]
    cells = [chain.n_cells for chain in chains]
    total_degree, total_cells = sum(degrees), sum(cells)
    held = products = 0.0
    degree = bits = 0
    for chain_degree, chain_cells in zip(degrees, cells, strict=True):
        degree, bits = degree + chain_degree, bits + chain_cells
        # this prefix and the suffix after it, each coefficient an int of at most as many bits as cells
        held += 2 * polynomial_bytes(degree + 1, bits)
        products += (degree + 1) * (total_degree - degree + 1) * max(1.0, total_cells / 64)
    try:
        budget.reserve(int(held), "combining the chains' counts")
        seconds = budget.left()
        if seconds is not None and products > seconds * _PRODUCTS_PER_SECOND:
            raise BudgetExceededError(f"combining {len(counts):,} chains would take about {products / _PRODUCTS_PER_SECOND:,.0f} s, "
                                      f"past the time limit")
    except BudgetExceededError as error:
        budget.exhausted, budget.stopped_by = True, error


#: An int's header and its list slot, besides its digits (what a list of big counts is charged a term).
INT_BYTES = 36


def polynomial_bytes(terms: int, bits: int) -> int:
    """What a list of ``terms`` counts of at most ``bits`` bits each is charged: its ints and their slots.

    >>> polynomial_bytes(3, 64)   # three counts of up to 64 bits
    132
    """
    return terms * (INT_BYTES + bits // 8)
