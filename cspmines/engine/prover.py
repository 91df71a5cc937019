"""The prover: which cells are certain, and whether any layout fits, without counting.

Counting a front costs what its width costs; proving a cell safe or a mine
costs a few SAT calls under assumptions on the box encoding of
:mod:`cspmines.engine.backends.sat`, and the mine total's reach comes from CP-SAT
(:func:`~cspmines.engine.backends.cpsat.front_mine_range`). :func:`cspmines.solve`
uses it when counting is cut short, and :func:`cspmines.certain_cells`
is its public face.

>>> from cspmines import Position
>>> from cspmines.engine.chains import chains_of
>>> chains = chains_of(Position.from_string("4x1x1\\n1.1."))
>>> safe, full, rest = find_certain(chains, rest_size=0, mines_left=1)
>>> sorted(full), rest    # the 1s share their one box's mine
([(0, 0)], None)
"""

from __future__ import annotations

from .backends.cpsat import front_mine_range
from .backends.sat import BoxEncoding, encode_chain, encoding_bytes
from .budget import Budget, out_of_time

__all__ = ["find_certain", "satisfiable"]


def satisfiable(chains, *, solver: str = "minicard") -> bool:
    """Whether every chain has at least one layout (one SAT call).

    >>> from cspmines import Position
    >>> from cspmines.engine.chains import chains_of
    >>> satisfiable(chains_of(Position.from_string("5x1\\n.2.0.")))
    False
    """
    with BoxEncoding(solver) as encoding:
        for c, chain in enumerate(chains):
            encode_chain(encoding, chain, group=c)
        return bool(encoding.solve())


def find_certain(
    chains, *, rest_size: int, mines_left: int | None, budget: Budget | None = None, solver: str = "minicard"
):
    """Which boxes (and whether the rest) are certainly safe or certainly mines, without counting.

    First from the clues alone: a box is certainly safe when "at least one
    mine here" is unsatisfiable under assumptions, certainly full when "not
    every cell a mine" is; every model found along the way rules checks out.
    Then the mine total: CP-SAT finds the fewest and most mines the front can
    hold; when the total leaves room for that whole range (the usual case
    until the endgame), every layout of the clues extends to the board and
    the answer stands. Only when the total cuts the range are the undecided
    boxes checked again with the front's mine count bounded, a cardinality
    constraint over the whole front that is much harder for the solver.

    Returns
    -------
    (safe, full, rest) : (set of (chain, box), set of (chain, box), str or None)
        ``rest`` is ``"safe"``, ``"mines"`` or ``None`` (undecided or no rest).
        ``None`` instead of the tuple when no layout fits at all.

    Raises
    ------
    BudgetExceededError
        The deadline passed before every box was decided.
    """
    found = _decide_boxes(chains, window=None, budget=budget, solver=solver)
    if found is None:
        return None
    safe, full = found
    if mines_left is None:
        return safe, full, None
    front = front_mine_range(chains, budget=budget)
    if front is None:
        return None
    low, high = max(front[0], mines_left - rest_size), min(front[1], mines_left)
    if low > high:
        return None
    if (low, high) != front:
        found = _decide_boxes(chains, window=(low, high), budget=budget, solver=solver, known=(safe, full))
        if found is None:
            return None
        safe, full = found
    rest_verdict = None
    if rest_size and mines_left - low == 0:
        rest_verdict = "safe"  # even the fewest front mines use up the total
    elif rest_size and mines_left - high == rest_size:
        rest_verdict = "mines"
    return safe, full, rest_verdict


def _decide_boxes(chains, *, window, budget, solver, known=(frozenset(), frozenset())):
    """(certainly safe boxes, certainly full boxes) under the clues and, with ``window``,
    the front's mine count bounded to ``window``; ``None`` when unsatisfiable."""
    if budget is not None:
        budget.reserve(encoding_bytes(chains), "the SAT encoding")
    with BoxEncoding(solver) as encoding:
        groups = _encode_front(encoding, chains, window)
        safe, full = set(known[0]), set(known[1])
        seen = _Seen(groups, can_have_mine=set(full), can_have_room=set(safe))  # known answers need no check
        if not _solve(encoding, [], budget):
            return None
        seen.learn(encoding.model_set())
        for key, lits in groups.items():
            for met, assumption, verdict in ((seen.can_have_mine, lits[0], safe), (seen.can_have_room, -lits[-1], full)):
                if key in met or key in verdict:
                    continue
                if _solve(encoding, [assumption], budget):
                    seen.learn(encoding.model_set())
                else:
                    verdict.add(key)
        return safe, full


def _encode_front(encoding: BoxEncoding, chains, window) -> dict:
    """Encode every chain's boxes, each ``(chain, box)`` to its literals; with ``window``,
    the front's mine count bounded to it."""
    groups = {}
    every = []
    for c, chain in enumerate(chains):
        for b, lits in enumerate(encode_chain(encoding, chain, group=c)):
            groups[(c, b)] = lits
            every.extend(lits)
    if window is not None:
        low, high = window
        encoding.at_most(every, high)
        encoding.at_most([-lit for lit in every], len(every) - low)
    return groups


def _solve(encoding: BoxEncoding, assumptions: list, budget: Budget | None) -> bool:
    """Whether a layout fits under ``assumptions``; the budget's error when it ran out first."""
    answer = encoding.solve(assumptions, budget=budget)
    if answer is None:
        raise out_of_time(budget)
    return answer


class _Seen:
    """The boxes some fitting layout was seen to give a mine (so not certainly safe) or to leave
    room in (so not certainly full)."""

    __slots__ = ("groups", "can_have_mine", "can_have_room")

    def __init__(self, groups: dict, *, can_have_mine: set, can_have_room: set):
        self.groups, self.can_have_mine, self.can_have_room = groups, can_have_mine, can_have_room

    def learn(self, true: set) -> None:
        """Take in a layout found (``true``: the literals it sets)."""
        for key, lits in self.groups.items():
            if lits[0] in true:
                self.can_have_mine.add(key)
            if lits[-1] not in true:
                self.can_have_room.add(key)
