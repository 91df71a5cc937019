"""The ``"enumerate"`` backend: exact counting by dynamic programming over the front.

Boxes are assigned one at a time in an order that keeps few rules open.
A state is the remaining need of every rule; partial assignments that leave
the same state are merged, so a wide front costs what its width costs, not
what its number of layouts costs. A forward pass counts, a backward pass over
the same states gives every box's tally without storing tallies in states.

Two encodings keep the inner loop in C:

* the state is one int with 4 bits per rule (a need is at most 8); placing m
  mines in a box is ``key - m * mask``, where ``mask`` has a 1 in the digit of
  every rule covering the box. Closed rules sit at 0 and untouched rules at
  their full need, so the int identifies the state exactly;
* the weight of a state is a polynomial in the mine number k, packed into one
  int (Kronecker substitution) with ``bits`` bits per coefficient. A
  component of n cells has at most 2**n layouts and tallies at most 8 * 2**n,
  so ``n + 4`` bits never carry into the next coefficient.

Examples
--------
>>> from cspmines import Position
>>> from cspmines.constraints import ConstraintSystem
>>> from cspmines.components import split_components
>>> (component,) = split_components(ConstraintSystem.from_position(Position.from_string("3x1\\n.1.")))
>>> counts = FrontierBackend().count(component)
>>> counts.models            # one layout with 1 mine: either side... as two boxes of one cell
(0, 2, 0)
>>> counts.tallies
((0, 1, 0), (0, 1, 0))
"""

from __future__ import annotations

import time
from math import comb

from ..components import Component
from .base import Budget, ComponentCount

__all__ = ["FrontierBackend", "elimination_order", "unpack"]

_DIGIT = 4  # bits per rule in a state key; a need never exceeds 8


def elimination_order(component: Component) -> list[int]:
    """A box order that keeps the number of open rules small (greedy).

    A rule is open once some of its boxes are placed and some are not. The
    next box is the one that leaves the fewest open rules, preferring boxes
    that touch the open rules (so the sweep follows the front) and then boxes
    that close the most rules.

    >>> from cspmines.components import Box, LocalRule
    >>> chain = Component(
    ...     boxes=tuple(Box((i,), r) for i, r in enumerate([(0,), (0, 1), (1, 2), (2,)])),
    ...     rules=(LocalRule((0, 1), 1), LocalRule((1, 2), 1), LocalRule((2, 3), 1)))
    >>> elimination_order(chain)
    [0, 1, 2, 3]
    """
    remaining_boxes = [len(rule.boxes) for rule in component.rules]
    open_rules: set[int] = set()
    unplaced = set(range(component.n_boxes))
    order = []
    while unplaced:
        best, best_key = None, None
        for b in unplaced:
            rules = component.boxes[b].rules
            closes = sum(1 for r in rules if remaining_boxes[r] == 1)
            opens = sum(1 for r in rules if r not in open_rules and remaining_boxes[r] > 1)
            touches = sum(1 for r in rules if r in open_rules)
            key = (opens - closes + (0 if touches or not open_rules else 1), -closes, -touches, b)
            if best_key is None or key < best_key:
                best, best_key = b, key
        order.append(best)
        unplaced.remove(best)
        for r in component.boxes[best].rules:
            remaining_boxes[r] -= 1
            if remaining_boxes[r] == 0:
                open_rules.discard(r)
            else:
                open_rules.add(r)
    return order


def unpack(packed: int, bits: int, count: int) -> tuple[int, ...]:
    """The ``count`` coefficients of a polynomial packed with ``bits`` bits each.

    >>> unpack(3 + (5 << 8), 8, 3)
    (3, 5, 0)
    """
    width = bits // 8
    raw = packed.to_bytes(width * count, "little")
    return tuple(int.from_bytes(raw[i : i + width], "little") for i in range(0, width * count, width))


class _Step:
    """Everything the inner loop needs to place one box."""

    __slots__ = ("box", "size", "mask", "rules", "weights")

    def __init__(self, box: int, size: int, mask: int, rules: tuple, weights: tuple):
        self.box = box
        self.size = size
        self.mask = mask
        self.rules = rules  # (digit shift, cells of the rule still unplaced after this box)
        self.weights = weights  # C(size, m) for m = 0..size


def _plan(component: Component, order: list[int]) -> list[_Step]:
    capacity = [sum(component.boxes[b].size for b in rule.boxes) for rule in component.rules]
    steps = []
    for b in order:
        box = component.boxes[b]
        for r in box.rules:
            capacity[r] -= box.size
        steps.append(
            _Step(
                box=b,
                size=box.size,
                mask=sum(1 << (_DIGIT * r) for r in box.rules),
                rules=tuple((_DIGIT * r, capacity[r]) for r in box.rules),
                weights=tuple(comb(box.size, m) for m in range(box.size + 1)),
            )
        )
    return steps


def _choices(key: int, step: _Step) -> range:
    """The mine numbers the box can take from state ``key`` without breaking a rule."""
    lo, hi = 0, step.size
    for shift, capacity_after in step.rules:
        need = (key >> shift) & 15
        if need < hi:
            hi = need
        if need - capacity_after > lo:
            lo = need - capacity_after
    return range(lo, hi + 1)


class FrontierBackend:
    """Exact counting by dynamic programming over the front (the ``"enumerate"`` backend).

    Work is bounded by a :class:`~cspmines.backends.base.Budget`: one node per
    state visited in either pass.
    """

    name = "enumerate"

    def count(self, component: Component, *, budget: Budget | None = None) -> ComponentCount:
        started = time.perf_counter()
        n_cells = component.n_cells
        bits = ((n_cells + _DIGIT) // 8 + 1) * 8  # coefficient slot, whole bytes for unpack
        steps = _plan(component, elimination_order(component))
        start_key = sum(rule.mines << (_DIGIT * r) for r, rule in enumerate(component.rules))

        # Forward: layers[i] maps each state before step i to its packed weight polynomial.
        layers = []
        layer = {start_key: 1}
        for step in steps:
            layers.append(layer)
            if budget is not None:
                budget.spend(len(layer))
            following: dict[int, int] = {}
            get = following.get
            mask, weights = step.mask, step.weights
            for key, poly in layer.items():
                for m in _choices(key, step):
                    after = key - m * mask
                    following[after] = get(after, 0) + ((poly * weights[m]) << (m * bits))
            layer = following

        # Backward: completions of each state, and each box's tally from forward x backward.
        completions = {0: 1} if 0 in layer else {}
        tallies = [0] * component.n_boxes
        for step, layer in zip(reversed(steps), reversed(layers)):
            if budget is not None:
                budget.spend(len(layer))
            before: dict[int, int] = {}
            mask, weights = step.mask, step.weights
            tally = 0
            for key, poly in layer.items():
                ways = marked = 0
                for m in _choices(key, step):
                    rest = completions.get(key - m * mask)
                    if rest:
                        term = (rest * weights[m]) << (m * bits)
                        ways += term
                        marked += term * m
                if ways:
                    before[key] = ways
                    tally += poly * marked
            tallies[step.box] = tally
            completions = before

        total = completions.get(start_key, 0)
        return ComponentCount(
            models=unpack(total, bits, n_cells + 1),
            tallies=tuple(unpack(t, bits, n_cells + 1) for t in tallies),
            stats={
                "backend": self.name,
                "peak_states": max(map(len, layers), default=1),
                "states": sum(map(len, layers)),
                "seconds": time.perf_counter() - started,
            },
        )
