"""The ``"dp"`` backend: exact counting by dynamic programming over the front.

Boxes are assigned one at a time in an order that keeps few rules open.
A state is the remaining need of every rule; partial assignments that leave
the same state are merged, so a wide front costs what its width costs, not
what its number of layouts costs. A forward pass counts, a backward pass over
the same states gives every box's tally without storing tallies in states,
and the forward pass kept draws layouts uniformly
(:class:`~cspmines.engine.backends.sampler.LayoutSampler`, walking it backwards).

Two encodings keep the inner loop in C:

* the state is one int with a digit of 4 bits per open rule (a board's need
  is at most 8; chains built by hand get wider digits). A rule takes a
  digit when its first box is placed (its need is added in) and gives it back
  when its last box is placed (its digit is then 0), so a key is as wide as
  the front, not as the chain. Placing m mines in a box is
  ``key - m * mask``, where ``mask`` has a 1 in the digit of every rule
  covering the box;
* the weight of a state is a polynomial in the mine number k, packed into one
  int (Kronecker substitution) with ``bits`` bits per coefficient. A
  chain of n cells has at most 2**n layouts and tallies at most s * 2**n
  for boxes of at most s cells, so ``n + bit_length(s) + 1`` bits never
  carry into the next coefficient.

Examples
--------
>>> import cspmines.engine.chains
>>> (chain,) = cspmines.engine.chains.chains_of(cspmines.Position.from_string("3x1\\n.1."))
>>> counts = DynamicProgrammingBackend().count(chain)
>>> chain.boxes           # cells 0 and 2 share the one rule: a box of two cells
(Box(cells=(0, 2), rules=(0,)),)
>>> counts.models, counts.tallies    # C(2, 1) = 2 layouts with one mine, each 1 mine in the box
((0, 2), ((0, 2),))
"""

from __future__ import annotations

import itertools

from ... import native
from ...errors import MemoryBudgetError
from ..budget import Budget, Stopwatch, format_bytes
from ..cache import Cache, Recent
from ..chains import Chain, shape
from .base import ChainCount
from .ordering import greedy_unless_raced, plan_steps
from .sampler import LayoutSampler
from .steps import Step, choices, coefficients, divide_out_x, key_digit_bits

__all__ = ["DynamicProgrammingBackend", "Sweep"]


class DynamicProgrammingBackend:
    """Exact counting by dynamic programming over the front (the ``"dp"`` backend).

    Work is bounded by a :class:`~cspmines.engine.backends.base.Budget`: one node per
    state visited in either pass.

    Every backend counts to the same answer: see the example in :mod:`cspmines.engine.backends`.
    With a ``cache`` (an engine's), it keeps its counting orders and forward passes of recent
    structures there; without one it works each out afresh (the same answers).
    """

    name = "dp"

    def __init__(self, cache: Cache | None = None):
        self.cache = cache
        self._orders = None if cache is None else cache.orders

    def count(self, chain: Chain, *, budget: Budget | None = None) -> ChainCount:
        watch = Stopwatch()
        if budget is None or not budget.limited:
            compiled = _compiled_count(chain, budget, self._orders)
            if compiled is not None:
                models, tallies, peak, states = compiled
                stats = {"backend": self.name, "peak_states": peak, "states": states, "seconds": watch.seconds}
                return ChainCount(models=models, tallies=tallies, stats=stats)
        sweep = Sweep.forward(chain, budget, self._orders)
        tallies, completion_offset, total = sweep.backward(chain.n_boxes, budget)
        bits = sweep.bits
        return ChainCount(
            models=coefficients(completion_offset, total, bits),
            tallies=tuple(coefficients(low, t, bits) for low, t in tallies),
            stats={
                "backend": self.name,
                "peak_states": max((len(layer) for _, layer in sweep.layers), default=1),
                "states": sum(len(layer) for _, layer in sweep.layers),
                "seconds": watch.seconds,
            },
        )

    def sampler(self, chain: Chain, *, budget: Budget | None = None) -> LayoutSampler:
        """A :class:`LayoutSampler` of ``chain``: one forward pass, kept (in this backend's cache,
        by the chain's shape, for a later chain of the same shape: without a time or node
        limit only, which must be spent as asked)."""
        if budget is not None and budget.limited or self.cache is None:
            return LayoutSampler(chain, Sweep.forward(chain, budget, self._orders))
        recent = self.cache.sweeps
        key = shape(chain)
        sweep = recent.get(key)
        if sweep is None:  # a budget here holds memory alone: it cannot cut a pass short part way
            sweep = recent.put(key, Sweep.forward(chain, budget, self._orders))
        return LayoutSampler(chain, sweep)


def _compiled_count(chain: Chain, budget: Budget | None, orders: Recent | None = None):
    """The two passes compiled (:mod:`cspmines.native`), where every key and count fits in 127 bits:
    (models, tallies, peak states, states), the same as the Python passes give; None otherwise.
    Only for an unlimited budget (the compiled passes cannot stop half way); it is charged the
    states both passes visited, as the Python passes charge it."""
    count_ordered = native.kernel("count_ordered")
    if count_ordered is None:
        return None
    n_cells = chain.n_cells
    box_entries, rule_boxes = chain.structure  # each box's size and rules, each rule's boxes (made by the split)
    sizes, box_rules = zip(*box_entries, strict=True)
    if n_cells + max(sizes).bit_length() + 1 > 127:  # a count could pass 127 bits
        return None
    # the greedy order's steps planned in C too, unless plan_steps would race it (False) or a key
    # could pass 127 bits (None)
    order, cap = greedy_unless_raced(chain, orders)
    # the memory allowance as a number of states: every layer is kept for the backward pass
    held = None if budget is None or budget.memory_limit is None else budget.memory_limit // _compiled_state_bytes(n_cells)
    cheap = -1 if cap is None else cap
    counted = count_ordered(sizes, box_rules, rule_boxes, [rule.mines for rule in chain.rules], order, n_cells,
                                    key_digit_bits(chain),
                                    cheap if held is None else (held if cheap < 0 else min(cheap, held)))
    if counted is None:
        return None
    if counted is False and held is not None and (cheap < 0 or held < cheap):
        raise _states_past(budget, held, n_cells)
    if counted is not False:
        models, tallies, peak, states = counted
        if budget is not None:
            budget.spend(2 * states)
        return models, tallies, max(peak, 1), states
    _order, steps, live = plan_steps(chain, budget=budget, costly=True, orders=orders)  # count_ordered found it past the cap
    if max((shift for step in steps for shift, _ in step.rules), default=0) + key_digit_bits(chain) > 126:
        return None  # a key could pass 127 bits
    plan = [
        (step.box, step.size, step.opening, step.mask, step.digit, step.rules, step.weights,
         sorted(live[i + 1]) if live is not None and i + 1 < len(steps) else None)
        for i, step in enumerate(steps)
    ]
    count_passes = native.kernel("count_passes")
    if count_passes is None:
        return None
    counted = count_passes(plan, chain.n_boxes, n_cells, -1 if held is None else held)
    if counted is False:
        assert held is not None  # only a cap makes the passes stop part way
        raise _states_past(budget, held, n_cells)
    models, tallies, peak, states = counted
    if budget is not None:
        budget.spend(2 * states)
    return models, tallies, max(peak, 1), states


#: What the memory allowance is charged for a state besides its polynomial: the key, the dict slot and
#: the two ints' headers (measured: a dict of a million small int keys and values holds about 100 bytes each).
_STATE_BYTES = 120
#: States advanced between two checks of the budget (a check costs a few hundred nanoseconds).
_CHUNK = 512


def _most_state_bytes(n_cells: int, bits: int) -> int:
    """The most a state of a chain of ``n_cells`` can hold: its fixed cost and a polynomial of a slot of
    ``bits`` bits for each mine number."""
    return _STATE_BYTES + (n_cells + 1) * bits // 8


def layer_bytes(layer: dict) -> int:
    """The bytes a layer of states holds, about: its polynomials and a fixed cost per state."""
    return _STATE_BYTES * len(layer) + sum(poly.bit_length() for poly in layer.values()) // 8


def _chunks(items):
    """``items`` in lists of at most :data:`_CHUNK`."""
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, _CHUNK)):
        yield chunk


def _advance(states, step: Step, keep: set | None, following: dict[int, int], bits: int) -> None:
    """Place ``step``'s box from each of ``states`` ((key, packed weights) pairs), adding what each
    reaches into ``following``; with ``keep``, only the states in it (the others cannot finish)."""
    opening, mask, weights = step.opening, step.mask, step.weights
    get = following.get
    for key, poly in states:
        key += opening
        for m in choices(key, step):
            after = key - m * mask
            if keep is None or after in keep:
                following[after] = get(after, 0) + ((poly * weights[m]) << (m * bits))


def _compiled_state_bytes(n_cells: int) -> int:
    """What the compiled passes hold for a state: its key and one 128-bit coefficient a mine number,
    and its slot in the key map."""
    return 16 * (n_cells + 2) + 32


def _states_past(budget, held: int, n_cells: int) -> MemoryBudgetError:
    return MemoryBudgetError(
        f"memory allowance of {format_bytes(budget.memory_limit)} reached: the counting programme's states passed "
        f"{held:,} ({format_bytes(_compiled_state_bytes(n_cells))} each)"
    )


class Sweep:
    """The forward pass over the states, kept for the backward pass or for drawing.

    ``layers[i] = (offset, {state before step i: packed weights / x**offset})``;
    ``final`` is the layer after the last step (the end is state 0).
    """

    __slots__ = ("steps", "layers", "final_offset", "final", "bits", "walks")

    def __init__(self, steps, layers, final_offset, final, bits):
        self.steps, self.layers, self.final_offset, self.final, self.bits = steps, layers, final_offset, final, bits
        self.walks: dict = {}  # what a backward walk met, kept by the samplers that walk this pass

    @classmethod
    def forward(cls, chain: Chain, budget: Budget | None, orders: Recent | None = None) -> Sweep:
        n_cells = chain.n_cells
        largest_box = max(len(box.cells) for box in chain.boxes)
        bits = -(-(n_cells + largest_box.bit_length() + 1) // 8) * 8  # coefficient slot, whole bytes
        _order, steps, live = plan_steps(chain, budget=budget, orders=orders)
        layers = []
        offset, layer = 0, {0: 1}
        held = 0  # bytes of the layers kept so far (the backward pass and the samplers read them all)
        # what a state can hold at the most (a polynomial of n_cells + 1 slots): while every state kept or made
        # fits the allowance at that, nothing is measured (a mid-game chain's sweep never comes near it)
        most = _most_state_bytes(n_cells, bits)
        bound = 0
        for index, step in enumerate(steps):
            layers.append((offset, layer))
            following: dict[int, int] = {}
            keep = live[index + 1] if live is not None and index + 1 < len(steps) else None
            bound += len(layer) * most
            if budget is None:
                _advance(layer.items(), step, keep, following, bits)
            elif budget.memory_limit is None or bound + len(layer) * (step.size + 1) * most <= budget.memory_limit:
                for chunk in _chunks(layer.items()):  # the work spent (the clock read) a few hundred states at a time
                    _advance(chunk, step, keep, following, bits)
                    budget.spend(len(chunk))
                held += len(layer) * most  # a bound, not a measure: a later step may measure instead
            else:  # a few hundred states at a time, the next layer's size checked between them too
                held += layer_bytes(layer)
                state_bytes = _STATE_BYTES + (max((poly.bit_length() for poly in layer.values()), default=0) + step.size * bits) // 8
                for chunk in _chunks(layer.items()):
                    _advance(chunk, step, keep, following, bits)
                    budget.spend(len(chunk))
                    budget.reserve(held + len(following) * state_bytes, "the counting programme's states")
            low, layer = divide_out_x(following, bits)
            offset += low
        return cls(steps, layers, offset, layer, bits)

    def backward(self, n_boxes: int, budget: Budget | None) -> tuple[list, int, int]:
        """(each box's (offset, packed tally), the models' offset, the packed models):
        completions of each state, and each box's tally from forward x backward."""
        bits = self.bits
        completions = {0: 1} if 0 in self.final else {}
        completion_offset = 0
        tallies = [(0, 0)] * n_boxes
        # the forward layers, the completions (at most as many) and the tallies, each at most a state's most (the
        # slot's bits bound the cells): within the allowance at that, nothing is measured
        most = _most_state_bytes(bits, bits)
        states = sum(len(layer) for _, layer in self.layers)
        roomy = budget is None or budget.memory_limit is None or (2 * states + n_boxes) * most <= budget.memory_limit
        held = 0 if roomy else sum(layer_bytes(layer) for _, layer in self.layers)
        for step, (forward_offset, layer) in zip(reversed(self.steps), reversed(self.layers), strict=True):
            if budget is not None:
                budget.spend(len(layer))
            if budget is not None and not roomy:
                # the layers still held, the completions so far and the next as large, the tallies made
                budget.reserve(held + 2 * layer_bytes(completions), "the counting programme's backward pass")
            before: dict[int, int] = {}
            opening, mask, weights = step.opening, step.mask, step.weights
            tally = 0
            for key, poly in layer.items():
                ways = marked = 0
                opened = key + opening
                for m in choices(opened, step):
                    rest = completions.get(opened - m * mask)
                    if rest:
                        term = (rest * weights[m]) << (m * bits)
                        ways += term
                        marked += term * m
                if ways:
                    before[key] = ways
                    tally += poly * marked
            tallies[step.box] = (forward_offset + completion_offset, tally)
            if budget is not None and not roomy:
                held += tally.bit_length() // 8 + _STATE_BYTES
            low, completions = divide_out_x(before, bits)
            completion_offset += low
        return tallies, completion_offset, completions.get(0, 0)
