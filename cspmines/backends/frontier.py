"""The ``"enumerate"`` backend: exact counting by dynamic programming over the front.

Boxes are assigned one at a time in an order that keeps few rules open.
A state is the remaining need of every rule; partial assignments that leave
the same state are merged, so a wide front costs what its width costs, not
what its number of layouts costs. A forward pass counts, a backward pass over
the same states gives every box's tally without storing tallies in states,
and the forward pass kept draws layouts uniformly (:class:`LayoutSampler`,
walking it backwards).

Two encodings keep the inner loop in C:

* the state is one int with a digit of 4 bits per open rule (a board's need
  is at most 8; components built by hand get wider digits). A rule takes a
  digit when its first box is placed (its need is added in) and gives it back
  when its last box is placed (its digit is then 0), so a key is as wide as
  the front, not as the component. Placing m mines in a box is
  ``key - m * mask``, where ``mask`` has a 1 in the digit of every rule
  covering the box;
* the weight of a state is a polynomial in the mine number k, packed into one
  int (Kronecker substitution) with ``bits`` bits per coefficient. A
  component of n cells has at most 2**n layouts and tallies at most s * 2**n
  for boxes of at most s cells, so ``n + bit_length(s) + 1`` bits never
  carry into the next coefficient.

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
from collections.abc import Callable
from math import comb
from typing import Any

import networkx as nx
import numpy as np

from ..components import Component
from .base import Budget, ComponentCount

__all__ = ["FrontierBackend", "LayoutSampler", "elimination_order", "greedy_order", "front_width", "unpack"]



def elimination_order(component: Component, *, budget: Budget | None = None) -> list[int]:
    """The box order to count in (see :func:`plan_steps`, which also returns the plan and live states).

    >>> from cspmines.components import Box, LocalRule
    >>> chain = Component(
    ...     boxes=tuple(Box((i,), r) for i, r in enumerate([(0,), (0, 1), (1, 2), (2,)])),
    ...     rules=(LocalRule((0, 1), 1), LocalRule((1, 2), 1), LocalRule((2, 3), 1)))
    >>> elimination_order(chain)
    [0, 1, 2, 3]
    """
    return plan_steps(component, budget=budget)[0]


def plan_steps(component: Component, *, budget: Budget | None = None) -> tuple[list[int], list, list | None]:
    """The box order to count in, the cheapest of a few candidates found by a race,
    and for a raced order the states before each step that can still reach the end.

    No single ordering heuristic wins everywhere: the greedy sweep below is
    best on lattices, a Cuthill-McKee order from a peripheral box is up to 14x
    better on scattered fronts. Small components take the greedy order; larger
    ones race the candidates on keys alone (no weights), always advancing the
    one that has visited the fewest states, and keep the first to finish.
    The winner's states then cost one more sweep, backwards, to find those that
    can still reach the end: about half, on wide fronts, can not, and the
    weighted passes skip them.
    """
    greedy = greedy_order(component)
    steps = _plan(component, greedy, _digit_bits(component))
    if component.n_boxes < _RACE_FROM_BOXES or _cheap(steps, cap=_CHEAP_STATES_PER_BOX * component.n_boxes):
        return greedy, steps, None
    graph = component.box_graph
    peripheral = _farthest(graph, 0)
    candidates = [greedy, list(nx.utils.cuthill_mckee_ordering(graph, heuristic=lambda _graph: peripheral))]
    order, live = _race(component, candidates, budget)
    return order, _plan(component, order, _digit_bits(component)), live


_RACE_FROM_BOXES = 40  # below this every order is cheap and racing would cost more than it saves
_CHEAP_STATES_PER_BOX = 8  # a greedy order this cheap is kept without a race (mid-game fronts)


def _cheap(steps: list, *, cap: int) -> bool:
    """Whether counting by ``steps`` visits at most ``cap`` states (keys only, stops early)."""
    keys = {0}
    for step in steps:
        keys = _advance_set(keys, step)
        cap -= len(keys)
        if cap < 0:
            return False
    return True


def front_width(component: Component) -> int:
    """The most rules open at once along the greedy order: the counter's width.

    >>> from cspmines.components import Box, LocalRule
    >>> front_width(Component(boxes=(Box((0,), (0,)), Box((1,), (0, 1)), Box((2,), (1,))),
    ...                       rules=(LocalRule((0, 1), 1), LocalRule((1, 2), 1))))
    1
    """
    remaining = [len(rule.boxes) for rule in component.rules]
    open_rules: set = set()
    widest = 0
    for b in greedy_order(component):
        for r in component.boxes[b].rules:
            remaining[r] -= 1
            if remaining[r]:
                open_rules.add(r)
            else:
                open_rules.discard(r)
        widest = max(widest, len(open_rules))
    return widest


def _farthest(graph: nx.Graph, source: int) -> int:
    """A box at the greatest distance from ``source`` (one sweep of the double-sweep heuristic)."""
    distances = nx.single_source_shortest_path_length(graph, source)
    return max(distances, key=lambda node: (distances[node], -node))


def _race(component: Component, orders: list, budget: Budget | None) -> tuple[list[int], list | None]:
    digit_bits = _digit_bits(component)
    plans = [_plan(component, order, digit_bits) for order in orders]
    width = max(shift for plan in plans for step in plan for shift, _ in step.rules) + digit_bits
    advance: Callable[[Any, _Step], Any]  # keys as a set of ints, or as an int64 array
    start: Any
    if width > 62:  # keys too wide for int64: race with Python sets, skip the live sweep
        advance, live_states = _advance_set, None
        start = {0}
    else:
        advance, live_states = _advance_array, _live_states
        start = np.zeros(1, dtype=np.int64)
    history: list[list] = [[] for _ in orders]  # each candidate's key layers so far
    runners = [(0, i) for i in range(len(orders))]  # (states visited so far, candidate)
    current = [start] * len(orders)
    while True:
        visited, i = heapq.heappop(runners)
        plan, done = plans[i], history[i]
        if len(done) == len(plan):
            return orders[i], (live_states(plan, done) if live_states else None)
        keys = current[i]
        following = advance(keys, plan[len(done)])
        if budget is not None:
            budget.spend(len(keys))
        done.append(keys)
        current[i] = following
        heapq.heappush(runners, (visited + len(following), i))


def _advance_set(keys: set, step: _Step) -> set:
    following: set[int] = set()
    opening, mask = step.opening, step.mask
    for key in keys:
        key += opening
        following.update(key - m * mask for m in _choices(key, step))
    return following


def _bounds(keys: np.ndarray, step: _Step) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_choices` for a whole array of keys at once: the lowest and highest m."""
    lo = np.zeros(len(keys), dtype=np.int64)
    hi = np.full(len(keys), step.size, dtype=np.int64)
    for shift, capacity_after in step.rules:
        need = (keys >> shift) & step.digit
        np.minimum(hi, need, out=hi)
        np.maximum(lo, need - capacity_after, out=lo)
    return lo, hi


def _advance_array(keys: np.ndarray, step: _Step) -> np.ndarray:
    opened = keys + step.opening
    lo, hi = _bounds(opened, step)
    parts = [opened[(lo <= m) & (m <= hi)] - m * step.mask for m in range(step.size + 1)]
    return np.unique(np.concatenate(parts))


def _live_states(plan: list, layers: list) -> list:
    """For each step, the states before it from which the end (key 0) is reachable, as sets."""
    live: list[set[int] | None] = [None] * len(plan)
    reachable = np.zeros(1, dtype=np.int64)
    for index in range(len(plan) - 1, -1, -1):
        step, keys = plan[index], layers[index]
        opened = keys + step.opening
        lo, hi = _bounds(opened, step)
        alive = np.zeros(len(keys), dtype=bool)
        for m in range(step.size + 1):
            alive |= (lo <= m) & (m <= hi) & np.isin(opened - m * step.mask, reachable, assume_unique=False)
        reachable = keys[alive]
        live[index] = set(reachable.tolist())
    return live


def greedy_order(component: Component, *, start: int | None = None) -> list[int]:
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
    >>> greedy_order(chain)
    [0, 1, 2, 3]
    >>> greedy_order(chain, start=3)
    [3, 2, 1, 0]
    """
    boxes, rules = component.boxes, component.rules
    if len(boxes) <= 2:  # any order of two boxes opens and closes the same rules
        return list(range(len(boxes))) if start in (None, 0) else [start, 1 - start]
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
    if start is not None:
        heap.append((-1, 0, 0, start))  # ahead of every real score
    heapq.heapify(heap)
    placed = [False] * len(boxes)
    order = []
    while heap:
        entry = heapq.heappop(heap)
        b = entry[-1]
        if placed[b]:
            continue
        current = score(b)
        if current != entry and entry[0] != -1:  # stale: push back with its fresh score
            heapq.heappush(heap, current)
            continue
        placed[b] = True
        order.append(b)
        touched = set()
        for r in boxes[b].rules:
            unplaced_in_rule[r] -= 1
            now_open = unplaced_in_rule[r] > 0
            n_open += now_open - is_open[r]
            is_open[r] = now_open
            touched.update(rules[r].boxes)
        # Only neighbours' scores changed. The "detached" term also flips when the front
        # appears or vanishes, yet needs no rescore: an entry too low is caught when popped,
        # and when the front vanishes every unplaced box carried the same +1, so their
        # order stands.
        for other in touched:
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


def _coefficients(low: int, packed: int, bits: int) -> tuple[int, ...]:
    """The polynomial ``x**low`` times the packed one, as coefficients ((0,) for zero)."""
    return (0,) * low + unpack(packed, bits) if packed else (0,)


class _Step:
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


def _digit_bits(component: Component) -> int:
    """Bits per rule in a state key: 4 for any board (needs <= 8), more for hand-built rules."""
    return max(4, max((rule.mines for rule in component.rules), default=0).bit_length())


def _plan(component: Component, order: list[int], digit_bits: int) -> list[_Step]:
    sizes = [len(box.cells) for box in component.boxes]
    capacity = [sum(sizes[b] for b in rule.boxes) for rule in component.rules]
    digit = (1 << digit_bits) - 1
    slot_of: dict[int, int] = {}  # open rule -> its digit
    free_slots: list[int] = []  # digits given back, reused lowest first to keep keys short
    next_slot = 0
    steps = []
    for b in order:
        rules, size = component.boxes[b].rules, sizes[b]
        opening = mask = 0
        for r in rules:
            if r not in slot_of:
                if free_slots:
                    slot_of[r] = heapq.heappop(free_slots)
                else:
                    slot_of[r], next_slot = next_slot, next_slot + 1
                opening += component.rules[r].mines << (digit_bits * slot_of[r])
            capacity[r] -= size
            mask |= 1 << (digit_bits * slot_of[r])
        shifts = tuple((digit_bits * slot_of[r], capacity[r]) for r in rules)
        for r in rules:
            if capacity[r] == 0:  # closed: its digit is 0 after this step, free to reuse
                heapq.heappush(free_slots, slot_of.pop(r))
        weights = _WEIGHTS[size] if size < len(_WEIGHTS) else tuple(comb(size, m) for m in range(size + 1))
        steps.append(_Step(b, size, opening, mask, shifts, weights, digit))
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


class FrontierBackend:
    """Exact counting by dynamic programming over the front (the ``"enumerate"`` backend).

    Work is bounded by a :class:`~cspmines.backends.base.Budget`: one node per
    state visited in either pass.

    Every backend counts to the same answer: see the example in :mod:`cspmines.backends`.
    """

    name = "enumerate"

    def count(self, component: Component, *, budget: Budget | None = None) -> ComponentCount:
        started = time.perf_counter()
        sweep = _Sweep.forward(component, budget)
        tallies, completion_offset, total = sweep.backward(component.n_boxes, budget)
        bits = sweep.bits
        return ComponentCount(
            models=_coefficients(completion_offset, total, bits),
            tallies=tuple(_coefficients(low, t, bits) for low, t in tallies),
            stats={
                "backend": self.name,
                "peak_states": max((len(layer) for _, layer in sweep.layers), default=1),
                "states": sum(len(layer) for _, layer in sweep.layers),
                "seconds": time.perf_counter() - started,
            },
        )

    def sampler(self, component: Component, *, budget: Budget | None = None) -> LayoutSampler:
        """A :class:`LayoutSampler` of ``component``: one forward pass, kept."""
        return LayoutSampler(component, _Sweep.forward(component, budget))


class _Sweep:
    """The forward pass over the states, kept for the backward pass or for drawing.

    ``layers[i] = (offset, {state before step i: packed weights / x**offset})``;
    ``final`` is the layer after the last step (the end is state 0).
    """

    __slots__ = ("steps", "layers", "final_offset", "final", "bits")

    def __init__(self, steps, layers, final_offset, final, bits):
        self.steps, self.layers, self.final_offset, self.final, self.bits = steps, layers, final_offset, final, bits

    @classmethod
    def forward(cls, component: Component, budget: Budget | None) -> _Sweep:
        n_cells = component.n_cells
        largest_box = max(len(box.cells) for box in component.boxes)
        bits = -(-(n_cells + largest_box.bit_length() + 1) // 8) * 8  # coefficient slot, whole bytes
        _order, steps, live = plan_steps(component, budget=budget)
        layers = []
        offset, layer = 0, {0: 1}
        for index, step in enumerate(steps):
            layers.append((offset, layer))
            if budget is not None:
                budget.spend(len(layer))
            following: dict[int, int] = {}
            get = following.get
            opening, mask, weights = step.opening, step.mask, step.weights
            keep = live[index + 1] if live is not None and index + 1 < len(steps) else None
            for key, poly in layer.items():
                key += opening
                for m in _choices(key, step):
                    after = key - m * mask
                    if keep is None or after in keep:
                        following[after] = get(after, 0) + ((poly * weights[m]) << (m * bits))
            low, layer = _divide_out_x(following, bits)
            offset += low
        return cls(steps, layers, offset, layer, bits)

    def backward(self, n_boxes: int, budget: Budget | None) -> tuple[list, int, int]:
        """(each box's (offset, packed tally), the models' offset, the packed models):
        completions of each state, and each box's tally from forward x backward."""
        bits = self.bits
        completions = {0: 1} if 0 in self.final else {}
        completion_offset = 0
        tallies = [(0, 0)] * n_boxes
        for step, (forward_offset, layer) in zip(reversed(self.steps), reversed(self.layers)):
            if budget is not None:
                budget.spend(len(layer))
            before: dict[int, int] = {}
            opening, mask, weights = step.opening, step.mask, step.weights
            tally = 0
            for key, poly in layer.items():
                ways = marked = 0
                opened = key + opening
                for m in _choices(opened, step):
                    rest = completions.get(opened - m * mask)
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
        return tallies, completion_offset, completions.get(0, 0)


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
    >>> from cspmines.components import Box, LocalRule
    >>> pair = Component(boxes=(Box((0, 1), (0,)), Box((2,), (0, 1)), Box((3,), (1,))),
    ...                  rules=(LocalRule((0, 1), 1), LocalRule((1, 2), 1)))
    >>> sampler = FrontierBackend().sampler(pair)
    >>> sampler.models                      # cell 2 alone, or one of 0, 1 with cell 3
    (0, 1, 2)
    >>> sorted(sampler.draw(2, random.Random(3)))
    [0, 3]
    >>> sampler.draw(0, random.Random(3))
    Traceback (most recent call last):
    ...
    ValueError: no layout of this component holds 0 mines
    """

    def __init__(self, component: Component, sweep: _Sweep):
        self._component = component
        self._sweep = sweep
        total = sweep.final.get(0, 0)
        self.models = _coefficients(sweep.final_offset, total, sweep.bits)

    def draw(self, mines: int, rng) -> list:
        """The mine cells of one layout with ``mines`` mines, each such layout equally likely.

        ``rng`` is a :class:`random.Random`; exact integers throughout.
        """
        if not 0 <= mines < len(self.models) or not self.models[mines]:
            raise ValueError(f"no layout of this component holds {mines} mines")
        sweep, boxes = self._sweep, self._component.boxes
        bits = sweep.bits
        digits = (1 << bits) - 1
        chosen: list = []
        after, left = 0, mines
        for step, (offset, layer) in zip(reversed(sweep.steps), reversed(sweep.layers)):
            options = []
            for m in range(min(step.size, left) + 1):
                key = after + m * step.mask - step.opening
                poly = layer.get(key)
                power = left - m - offset
                if poly is None or power < 0 or m not in _choices(key + step.opening, step):
                    continue
                ways = ((poly >> (power * bits)) & digits) * step.weights[m]
                if ways:
                    options.append((m, key, ways))
            m, key, _ways = options[weighted_index(rng, [ways for _, _, ways in options])]
            chosen.extend(rng.sample(boxes[step.box].cells, m))
            after, left = key, left - m
        return chosen


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
    pick = rng.randrange(total)
    for index, weight in enumerate(weights):
        if pick < weight:
            return index
        pick -= weight
    raise AssertionError("unreachable: pick < the weights' sum")


def _divide_out_x(layer: dict, bits: int) -> tuple[int, dict]:
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
