"""Box orders for the counting programme: which box to place next, so few rules are open at once.

The programme's cost is the number of states it visits, which the order
decides: :func:`greedy_order` keeps the open rules few; :func:`plan_steps`
races it against a Cuthill-McKee order on larger chains and keeps the
first to finish; :func:`front_width` reports the width an order reaches.

A chain of four boxes, each rule over two neighbours, is counted end to end:

>>> from cspmines.engine.chains import Box, LocalRule
>>> chain = Chain(
...     boxes=tuple(Box((i,), r) for i, r in enumerate([(0,), (0, 1), (1, 2), (2,)])),
...     rules=(LocalRule((0, 1), 1), LocalRule((1, 2), 1), LocalRule((2, 3), 1)))
>>> elimination_order(chain), greedy_order(chain), greedy_order(chain, start=3)
([0, 1, 2, 3], [0, 1, 2, 3], [3, 2, 1, 0])
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ... import native
from ..budget import Budget
from ..cache import Hashed, Recent
from ..chains import Chain

if TYPE_CHECKING:
    import networkx as nx
from .steps import Step, advance_array, advance_set, key_digit_bits, live_states, plan_order

__all__ = ["elimination_order", "front_width", "greedy_order", "greedy_unless_raced", "plan_steps"]


def elimination_order(chain: Chain, *, budget: Budget | None = None) -> list[int]:
    """The box order to count in (see :func:`plan_steps`, which also returns the plan and live
    states); the module's example shows one."""
    return plan_steps(chain, budget=budget)[0]


def plan_steps(chain: Chain, *, budget: Budget | None = None, costly: bool = False,
               orders: Recent | None = None) -> tuple[list[int], list, list | None]:
    """The box order to count in, the cheapest of a few candidates found by a race,
    and for a raced order the states before each step that can still reach the end.

    No single ordering heuristic wins everywhere: the greedy sweep below is
    best on lattices, a Cuthill-McKee order from a peripheral box is up to 14x
    better on scattered fronts. Small chains take the greedy order; larger
    ones race the candidates on keys alone (no weights), always advancing the
    one that has visited the fewest states, and keep the first to finish.
    The winner's states then cost one more sweep, backwards, to find those that
    can still reach the end: about half, on wide fronts, can not, and the
    weighted passes skip them. ``costly``: the caller has found the greedy order
    past the cheapness cap already (the compiled planner stops there), so the
    race starts without that test again. ``orders``: greedy orders of recent
    structures (an engine's cache), kept there.
    """
    greedy = _greedy_order_of_structure(chain, orders)
    if not costly:
        steps = plan_order(chain, greedy, key_digit_bits(chain))
        if chain.n_boxes < _RACE_FROM_BOXES or _cheap(steps, cap=_CHEAP_STATES_PER_BOX * chain.n_boxes):
            return greedy, steps, None
    # networkx is imported where first needed: importing it takes about half of a cold start
    from networkx.utils import cuthill_mckee_ordering

    graph = chain.box_graph
    peripheral = _farthest(graph, 0)
    candidates = [greedy, list(cuthill_mckee_ordering(graph, heuristic=lambda _graph: peripheral))]
    order, live = _race(chain, candidates, budget)
    return order, plan_order(chain, order, key_digit_bits(chain)), live


def greedy_unless_raced(chain: Chain, orders: Recent | None = None) -> tuple[list[int], int | None]:
    """The greedy order :func:`plan_steps` keeps, and the states (those after each step, summed)
    past which it races other orders instead; None for a chain too small to race.

    >>> from cspmines.engine.chains import Box, LocalRule
    >>> greedy_unless_raced(Chain(boxes=(Box((0,), (0,)), Box((1,), (0,))), rules=(LocalRule((0, 1), 1),)))
    ([0, 1], None)
    """
    cap = None if chain.n_boxes < _RACE_FROM_BOXES else _CHEAP_STATES_PER_BOX * chain.n_boxes
    return _greedy_order_of_structure(chain, orders), cap


def _greedy_order_of_structure(chain: Chain, recent: Recent | None = None) -> list[int]:
    """:func:`greedy_order`, kept in ``recent`` (structure -> order, an engine's cache) for recent
    structures (it reads no cell and no mine count): a clue's possible values make chains of one
    structure, counted one after another."""
    if recent is None or chain.n_boxes < _REMEMBERED_FROM_BOXES and native.kernel("greedy_order") is not None:  # in C, a few boxes cost less than a look-up
        return greedy_order(chain)
    key = Hashed(chain.structure)
    order = recent.get(key)
    if order is None:
        order = recent.put(key, tuple(greedy_order(chain)))
    return list(order)  # a copy: callers may keep or change it


_REMEMBERED_FROM_BOXES = 12  # with the kernels, smaller structures are ordered afresh each time (a few microseconds)


_RACE_FROM_BOXES = 40  # below this every order is cheap and racing would cost more than it saves
_CHEAP_STATES_PER_BOX = 8  # a greedy order this cheap is kept without a race (mid-game fronts)


def _cheap(steps: list, *, cap: int) -> bool:
    """Whether counting by ``steps`` visits at most ``cap`` states (keys only, stops early)."""
    keys = {0}
    for step in steps:
        keys = advance_set(keys, step)
        cap -= len(keys)
        if cap < 0:
            return False
    return True


def front_width(chain: Chain) -> int:
    """The most rules open at once along the greedy order: the counter's width.

    >>> from cspmines.engine.chains import Box, LocalRule
    >>> front_width(Chain(boxes=(Box((0,), (0,)), Box((1,), (0, 1)), Box((2,), (1,))),
    ...                       rules=(LocalRule((0, 1), 1), LocalRule((1, 2), 1))))
    1
    """
    remaining = [len(rule.boxes) for rule in chain.rules]
    open_rules: set = set()
    widest = 0
    for b in _greedy_order_of_structure(chain):  # the order the counter uses
        for r in chain.boxes[b].rules:
            remaining[r] -= 1
            if remaining[r]:
                open_rules.add(r)
            else:
                open_rules.discard(r)
        widest = max(widest, len(open_rules))
    return widest


def _farthest(graph: nx.Graph, source: int) -> int:
    """A box at the greatest distance from ``source`` (one sweep of the double-sweep heuristic)."""
    # networkx is imported where first needed: importing it takes about half of a cold start
    from networkx import single_source_shortest_path_length

    distances = single_source_shortest_path_length(graph, source)
    return max(distances, key=lambda node: (distances[node], -node))


#: What the race holds for a key: a Python int in a set (its object and slot), or an int64 (and its
#: share of the sorting and the live sweep's copies).
_SET_KEY_BYTES = 100
_ARRAY_KEY_BYTES = 32


def _race(chain: Chain, orders: list, budget: Budget | None) -> tuple[list[int], list | None]:
    digit_bits = key_digit_bits(chain)
    plans = [plan_order(chain, order, digit_bits) for order in orders]
    width = max(shift for plan in plans for step in plan for shift, _ in step.rules) + digit_bits
    advance: Callable[[Any, Step], Any]  # keys as a set of ints, or as an int64 array
    start: Any
    if width > 62:  # keys too wide for int64: race with Python sets, skip the live sweep
        advance, sweep_live = advance_set, None
        start = {0}
        key_bytes = _SET_KEY_BYTES
    else:
        advance, sweep_live = advance_array, live_states
        start = np.zeros(1, dtype=np.int64)
        key_bytes = _ARRAY_KEY_BYTES
    held = 0  # every candidate's key layers are kept for its live sweep
    history: list[list] = [[] for _ in orders]  # each candidate's key layers so far
    runners = [(0, i) for i in range(len(orders))]  # (states visited so far, candidate)
    current = [start] * len(orders)
    while True:
        visited, i = heapq.heappop(runners)
        plan, done = plans[i], history[i]
        if len(done) == len(plan):
            return orders[i], (sweep_live(plan, done) if sweep_live else None)
        keys = current[i]
        following = advance(keys, plan[len(done)])
        if budget is not None:
            held += key_bytes * len(following)
            budget.reserve(held, "the race of counting orders")
            budget.spend(len(keys))
        done.append(keys)
        current[i] = following
        heapq.heappush(runners, (visited + len(following), i))


def greedy_order(chain: Chain, *, start: int | None = None) -> list[int]:
    """A box order that keeps the number of open rules small (greedy).

    A rule is open once some of its boxes are placed and some are not. The
    next box is the one that leaves the fewest open rules, preferring boxes
    that touch the open rules (so the sweep follows the front) and then boxes
    that close the most rules. Scores live in a heap and only the boxes next
    to a rule that changed are rescored, so the order costs O(n log n).

    The module's example shows one, and one from the far end.
    """
    boxes, rules = chain.boxes, chain.rules
    if len(boxes) <= 2:  # any order of two boxes opens and closes the same rules
        return list(range(len(boxes))) if start in (None, 0) else [start, 1 - start]
    compiled = native.kernel("greedy_order")
    if compiled is not None:  # the same sweep compiled: the same order
        return compiled([box.rules for box in boxes], [rule.boxes for rule in rules], start)
    front = _Front(chain)
    heap = [front.score(b) for b in range(len(boxes))]
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
        current = front.score(b)
        if current != entry and entry[0] != -1:  # stale: push back with its fresh score
            heapq.heappush(heap, current)
            continue
        placed[b] = True
        order.append(b)
        # Only neighbours' scores changed. The "detached" term also flips when the front
        # appears or vanishes, yet needs no rescore: an entry too low is caught when popped,
        # and when the front vanishes every unplaced box carried the same +1, so their
        # order stands.
        for other in front.place(b):
            if not placed[other]:
                heapq.heappush(heap, front.score(other))
    return order


class _Front:
    """The rules open while boxes are placed one by one (some of their boxes placed, some not)."""

    __slots__ = ("boxes", "rules", "unplaced_in_rule", "is_open", "n_open")

    def __init__(self, chain: Chain):
        self.boxes, self.rules = chain.boxes, chain.rules
        self.unplaced_in_rule = [len(rule.boxes) for rule in self.rules]
        self.is_open = [False] * len(self.rules)
        self.n_open = 0

    def score(self, b: int) -> tuple:
        """Box ``b``'s place in the greedy order, lowest first: the rules placing it would leave open,
        then the rules it closes, the open rules it touches, its number."""
        unplaced_in_rule, is_open = self.unplaced_in_rule, self.is_open
        closes = opens = touches = 0
        for r in self.boxes[b].rules:
            if unplaced_in_rule[r] == 1:
                closes += 1
            elif not is_open[r]:
                opens += 1
            if is_open[r]:
                touches += 1
        detached = 0 if touches or not self.n_open else 1  # jumping away from the front opens a second one
        return (opens - closes + detached, -closes, -touches, b)

    def place(self, b: int) -> set[int]:
        """Place box ``b``: its rules open or close; the boxes sharing a rule with it (their scores changed)."""
        touched: set[int] = set()
        for r in self.boxes[b].rules:
            self.unplaced_in_rule[r] -= 1
            now_open = self.unplaced_in_rule[r] > 0
            self.n_open += now_open - self.is_open[r]
            self.is_open[r] = now_open
            touched.update(self.rules[r].boxes)
        return touched
