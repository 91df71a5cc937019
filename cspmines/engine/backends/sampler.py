"""Layouts of one component drawn uniformly from the counting programme's kept forward pass.

>>> import random
>>> weighted_index(random.Random(1), [0, 3, 0])
1
"""

from __future__ import annotations

from ..components import Component
from .steps import choices, coefficients

__all__ = ["LayoutSampler", "checked_pick", "weighted_index"]


class LayoutSampler:
    """Layouts of one component drawn uniformly, by walking the kept forward pass backwards.

    The forward pass leaves, for every state before each step, the number of
    ways to reach it with each number of mines. Given the component's mine
    number, the last box's mine number is drawn in proportion to the ways
    of reaching each state it can come from, times the box's binomial; then
    the box before it from that state, and so on to the first. Each box's
    mines go to its cells uniformly. A draw costs one lookup per box and
    mine number, not a count.

    Attributes
    ----------
    models : tuple of int
        As :attr:`ComponentCount.models`: layouts of the component by mine number.

    Examples
    --------
    >>> import random
    >>> from cspmines.engine.components import Box, LocalRule
    >>> pair = Component(boxes=(Box((0, 1), (0,)), Box((2,), (0, 1)), Box((3,), (1,))),
    ...                  rules=(LocalRule((0, 1), 1), LocalRule((1, 2), 1)))
    >>> from cspmines.engine.backends.dynamic import DynamicProgrammingBackend
    >>> sampler = DynamicProgrammingBackend().sampler(pair)
    >>> sampler.models                      # cell 2 alone, or one of 0, 1 with cell 3
    (0, 1, 2)
    >>> sorted(sampler.draw(2, random.Random(3)))
    [0, 3]
    >>> sampler.draw(0, random.Random(3))
    Traceback (most recent call last):
    ...
    ValueError: no layout of this component holds 0 mines
    """

    def __init__(self, component: Component, sweep):
        """``sweep`` is the forward pass (:class:`~cspmines.engine.backends.dynamic.Sweep`) of ``component``."""
        self._component = component
        self._sweep = sweep
        total = sweep.final.get(0, 0)
        self.models = coefficients(sweep.final_offset, total, sweep.bits)
        self._walk: dict = {}  # (step from the end, state, mines left) -> the step's moves and their ways

    def draw(self, mines: int, rng) -> list:
        """The mine cells of one layout with ``mines`` mines, each such layout equally likely.

        ``rng`` is a :class:`random.Random`; exact integers throughout.
        """
        if not 0 <= mines < len(self.models) or not self.models[mines]:
            raise ValueError(f"no layout of this component holds {mines} mines")
        boxes = self._component.boxes
        chosen: list = []
        after, left = 0, mines
        for index, step in enumerate(reversed(self._sweep.steps)):
            moves, weights, total = self._options(index, after, left)
            m, key = moves[checked_pick(rng, weights, total)]
            if m == 1:  # what rng.sample draws for one cell, without its checks (most boxes take 0 or 1)
                cells = boxes[step.box].cells
                chosen.append(cells[rng.randrange(len(cells))])
            elif m:  # (a sample of none draws nothing from rng)
                chosen.extend(rng.sample(boxes[step.box].cells, m))
            after, left = key, left - m
        return chosen

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


def weighted_index(rng, weights: list[int]) -> int:
    """An index drawn with chance proportional to its integer weight, exactly (``rng`` a
    :class:`random.Random`; the weights sum to more than 0).

    >>> import random
    >>> weighted_index(random.Random(1), [0, 3, 0])
    1
    >>> weighted_index(random.Random(1), [0, 0])
    Traceback (most recent call last):
    ...
    ValueError: weights must be >= 0 with a positive sum, got [0, 0]
    """
    total = sum(weights)
    if total <= 0 or min(weights, default=0) < 0:
        raise ValueError(f"weights must be >= 0 with a positive sum, got {weights}")
    return checked_pick(rng, weights, total)


def checked_pick(rng, weights: list[int], total: int) -> int:
    """:func:`weighted_index` for weights already checked, their sum given (the samplers' inner loop)."""
    pick = rng.randrange(total)
    for index, weight in enumerate(weights):
        if pick < weight:
            return index
        pick -= weight
    raise AssertionError("unreachable: pick < the weights' sum")
