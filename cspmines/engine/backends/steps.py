"""The counting programme's states and steps: how the dynamic programme is encoded.

A state is one int with a digit of ``digit_bits`` bits per open rule (its
remaining need); placing ``m`` mines in a box is ``key - m * mask``. A
:class:`Step` holds everything the inner loop needs to place one box;
:func:`plan_order` builds the steps of a box order; :func:`choices` is the mine
numbers a box can take from a state. A state's weight is a polynomial in
the mine number packed into one int (:func:`unpack`).

See :mod:`cspmines.engine.backends.dynamic` for the programme itself.
"""

from __future__ import annotations

import heapq
from math import comb

import numpy as np

from ..chains import Chain

__all__ = ["Step", "advance_array", "advance_set", "bounds", "choices", "coefficients", "key_digit_bits", "divide_out_x",
           "live_states", "plan_order", "unpack"]


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


def coefficients(low: int, packed: int, bits: int) -> tuple[int, ...]:
    """The polynomial ``x**low`` times the packed one, as coefficients ((0,) for zero)."""
    return (0,) * low + unpack(packed, bits) if packed else (0,)


class Step:
    """Everything the inner loop needs to place one box."""

    __slots__ = ("box", "size", "opening", "mask", "rules", "weights", "digit")

    def __init__(self, box: int, size: int, opening: int, mask: int, rules: tuple, weights: tuple, digit: int):
        self.box = box
        self.size = size
        self.opening = opening  # the needs of the rules this box opens, in their new digits
        self.mask = mask
        self.rules = rules  # (digit shift, cells of the rule still unplaced after this box)
        self.weights = weights  # C(size, m) for m = 0..size
        self.digit = digit  # all-ones in one digit: extracts a need


_WEIGHTS = tuple(tuple(comb(size, m) for m in range(size + 1)) for size in range(9))  # boxes on a board


def key_digit_bits(chain: Chain) -> int:
    """Bits per rule in a state key: 4 for any board (needs <= 8), more for hand-built rules."""
    return max(4, max([rule.mines for rule in chain.rules], default=0).bit_length())


def plan_order(chain: Chain, order: list[int], digit_bits: int) -> list[Step]:
    sizes = [len(box.cells) for box in chain.boxes]
    capacity = [sum(sizes[b] for b in rule.boxes) for rule in chain.rules]
    digit = (1 << digit_bits) - 1
    slot_of: dict[int, int] = {}  # open rule -> its digit
    free_slots: list[int] = []  # digits given back, reused lowest first to keep keys short
    next_slot = 0
    steps = []
    for b in order:
        rules, size = chain.boxes[b].rules, sizes[b]
        opening = mask = 0
        for r in rules:
            if r not in slot_of:
                if free_slots:
                    slot_of[r] = heapq.heappop(free_slots)
                else:
                    slot_of[r], next_slot = next_slot, next_slot + 1
                opening += chain.rules[r].mines << (digit_bits * slot_of[r])
            capacity[r] -= size
            mask |= 1 << (digit_bits * slot_of[r])
        shifts = tuple((digit_bits * slot_of[r], capacity[r]) for r in rules)
        for r in rules:
            if capacity[r] == 0:  # closed: its digit is 0 after this step, free to reuse
                heapq.heappush(free_slots, slot_of.pop(r))
        weights = _WEIGHTS[size] if size < len(_WEIGHTS) else tuple(comb(size, m) for m in range(size + 1))
        steps.append(Step(b, size, opening, mask, shifts, weights, digit))
    return steps


def choices(key: int, step: Step) -> range:
    """The mine numbers the box can take from state ``key`` without breaking a rule.

    Each rule caps m at its need, and needs at least ``need - capacity_after``
    so that the cells left can still meet it. Called once per state and pass,
    so the common one- and two-rule boxes are unrolled.
    """
    rules = step.rules
    if len(rules) == 1:
        ((shift, capacity),) = rules
        need = (key >> shift) & step.digit
        lo = need - capacity
        return range(lo if lo > 0 else 0, (need if need < step.size else step.size) + 1)
    lo, hi = 0, step.size
    for shift, capacity_after in rules:
        need = (key >> shift) & step.digit
        if need < hi:
            hi = need
        if need - capacity_after > lo:
            lo = need - capacity_after
    return range(lo, hi + 1)


def advance_set(keys: set, step: Step) -> set:
    following: set[int] = set()
    opening, mask = step.opening, step.mask
    for key in keys:
        key += opening
        following.update(key - m * mask for m in choices(key, step))
    return following


def bounds(keys: np.ndarray, step: Step) -> tuple[np.ndarray, np.ndarray]:
    """:func:`choices` for a whole array of keys at once: the lowest and highest m."""
    lo = np.zeros(len(keys), dtype=np.int64)
    hi = np.full(len(keys), step.size, dtype=np.int64)
    for shift, capacity_after in step.rules:
        need = (keys >> shift) & step.digit
        np.minimum(hi, need, out=hi)
        np.maximum(lo, need - capacity_after, out=lo)
    return lo, hi


def advance_array(keys: np.ndarray, step: Step) -> np.ndarray:
    opened = keys + step.opening
    lo, hi = bounds(opened, step)
    parts = [opened[(lo <= m) & (m <= hi)] - m * step.mask for m in range(step.size + 1)]
    return np.unique(np.concatenate(parts))


def live_states(plan: list, layers: list) -> list:
    """For each step, the states before it from which the end (key 0) is reachable, as sets."""
    live: list[set[int] | None] = [None] * len(plan)
    reachable = np.zeros(1, dtype=np.int64)
    for index in range(len(plan) - 1, -1, -1):
        step, keys = plan[index], layers[index]
        opened = keys + step.opening
        lo, hi = bounds(opened, step)
        alive = np.zeros(len(keys), dtype=bool)
        for m in range(step.size + 1):
            alive |= (lo <= m) & (m <= hi) & np.isin(opened - m * step.mask, reachable, assume_unique=False)
        reachable = keys[alive]
        live[index] = set(reachable.tolist())
    return live


def divide_out_x(layer: dict, bits: int) -> tuple[int, dict]:
    """Divide every packed polynomial of a layer by the highest power of x they share.

    The fewest mines any state has placed grows along the sweep; without this
    every polynomial would drag that many zero coefficients through each add
    and product. Returns the power and the divided layer.
    """
    if len(layer) == 1:  # the common case on mid-game fronts: no generator needed
        ((key, poly),) = layer.items()
        low = ((poly & -poly).bit_length() - 1) // bits
        return (low, {key: poly >> (low * bits)}) if low > 0 else (0, layer)
    if not layer:
        return 0, layer
    low = min((poly & -poly).bit_length() - 1 for poly in layer.values()) // bits
    if low == 0:
        return 0, layer
    shift = low * bits
    return low, {key: poly >> shift for key, poly in layer.items()}
