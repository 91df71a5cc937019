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
>>> component.boxes           # cells 0 and 2 share the one rule: a box of two cells
(Box(cells=(0, 2), rules=(0,)),)
>>> counts.models, counts.tallies    # C(2, 1) = 2 layouts with one mine, each 1 mine in the box
((0, 2), ((0, 2),))
"""

from __future__ import annotations

import heapq
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
    that close the most rules. Scores live in a heap and only the boxes next
    to a rule that changed are rescored, so the order costs O(n log n).

    >>> from cspmines.components import Box, LocalRule
    >>> chain = Component(
    ...     boxes=tuple(Box((i,), r) for i, r in enumerate([(0,), (0, 1), (1, 2), (2,)])),
    ...     rules=(LocalRule((0, 1), 1), LocalRule((1, 2), 1), LocalRule((2, 3), 1)))
    >>> elimination_order(chain)
    [0, 1, 2, 3]
    """
    boxes, rules = component.boxes, component.rules
    unplaced_in_rule = [len(rule.boxes) for rule in rules]
    is_open = [False] * len(rules)
    n_open = 0

    def score(b: int) -> tuple:
        closes = opens = touches = 0
        for r in boxes[b].rules:
            if unplaced_in_rule[r] == 1:
                closes += 1
            elif not is_open[r]:
                opens += 1
            if is_open[r]:
                touches += 1
        detached = 0 if touches or not n_open else 1  # jumping away from the front opens a second one
        return (opens - closes + detached, -closes, -touches, b)

    heap = [score(b) for b in range(len(boxes))]
    heapq.heapify(heap)
    placed = [False] * len(boxes)
    order = []
    while heap:
        entry = heapq.heappop(heap)
        b = entry[-1]
        if placed[b]:
            continue
        current = score(b)
        if current != entry:  # stale: push back with its fresh score
            heapq.heappush(heap, current)
            continue
        was_attached = n_open > 0
        placed[b] = True
        order.append(b)
        touched = set()
        for r in boxes[b].rules:
            unplaced_in_rule[r] -= 1
            now_open = unplaced_in_rule[r] > 0
            n_open += now_open - is_open[r]
            is_open[r] = now_open
            touched.update(rules[r].boxes)
        # Only neighbours' scores changed, except the "detached" term, which flips for
        # everyone when the front appears or vanishes; a full rescore is then due.
        stale = range(len(boxes)) if was_attached != (n_open > 0) else touched
        for other in stale:
            if not placed[other]:
                heapq.heappush(heap, score(other))
    return order


def unpack(packed: int, bits: int) -> tuple[int, ...]:
    """The coefficients of a polynomial packed with ``bits`` bits each, up to the last nonzero.

    >>> unpack(3 + (5 << 8), 8)
    (3, 5)
    >>> unpack(0, 8)
    (0,)
    """
    width = bits // 8
    count = max(1, -(-packed.bit_length() // bits))
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
    """The mine numbers the box can take from state ``key`` without breaking a rule.

    Each rule caps m at its need, and needs at least ``need - capacity_after``
    so that the cells left can still meet it. Called once per state and pass,
    so the common one- and two-rule boxes are unrolled.
    """
    rules = step.rules
    if len(rules) == 1:
        ((shift, capacity),) = rules
        need = (key >> shift) & 15
        lo = need - capacity
        return range(lo if lo > 0 else 0, (need if need < step.size else step.size) + 1)
    lo, hi = 0, step.size
    for shift, capacity_after in rules:
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

        # Forward: layers[i] = (offset, {state before step i: packed weights / x**offset}).
        layers = []
        offset, layer = 0, {start_key: 1}
        for step in steps:
            layers.append((offset, layer))
            if budget is not None:
                budget.spend(len(layer))
            following: dict[int, int] = {}
            get = following.get
            mask, weights = step.mask, step.weights
            for key, poly in layer.items():
                for m in _choices(key, step):
                    after = key - m * mask
                    following[after] = get(after, 0) + ((poly * weights[m]) << (m * bits))
            low, layer = _divide_out_x(following, bits)
            offset += low

        # Backward: completions of each state, and each box's tally from forward x backward.
        completions = {0: 1} if 0 in layer else {}
        completion_offset = 0
        tallies = [(0, 0)] * component.n_boxes
        for step, (forward_offset, layer) in zip(reversed(steps), reversed(layers)):
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
            tallies[step.box] = (forward_offset + completion_offset, tally)
            low, completions = _divide_out_x(before, bits)
            completion_offset += low

        total = completions.get(start_key, 0)
        return ComponentCount(
            models=(0,) * completion_offset + unpack(total, bits) if total else (0,),
            tallies=tuple((0,) * low + unpack(t, bits) if t else (0,) for low, t in tallies),
            stats={
                "backend": self.name,
                "peak_states": max((len(layer) for _, layer in layers), default=1),
                "states": sum(len(layer) for _, layer in layers),
                "seconds": time.perf_counter() - started,
            },
        )


def _divide_out_x(layer: dict, bits: int) -> tuple[int, dict]:
    """Divide every packed polynomial of a layer by the highest power of x they share.

    The fewest mines any state has placed grows along the sweep; without this
    every polynomial would drag that many zero coefficients through each add
    and product. Returns the power and the divided layer.
    """
    if not layer:
        return 0, layer
    low = min((poly & -poly).bit_length() - 1 for poly in layer.values()) // bits
    if low == 0:
        return 0, layer
    shift = low * bits
    return low, {key: poly >> shift for key, poly in layer.items()}
