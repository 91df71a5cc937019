"""Certain cells without counting: the fast path for fronts too large to count.

Examples
--------
>>> from cspmines import Position, certain_cells
>>> result = certain_cells(Position.from_string("4x2x1\\n1...\\n1..."))
>>> result.safe, result.mines
((2, 3, 6, 7), ())
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import BudgetExceededError, InconsistentPositionError
from ..position import Position
from .budget import Limit, check_board_size, read_limit
from .chains import split_chains
from .constraints import ConstraintSystem
from .prover import find_certain

__all__ = ["Certainty", "certain_cells"]


@dataclass(frozen=True)
class Certainty:
    """Covered cells proved safe and proved mines, in flat order.

    ``complete`` is False when the time limit stopped the checks: what is
    listed is still proved, but more cells may be certain.

    >>> certain_cells(Position.from_string("4x1x1\\n1.1."))   # the 1s share cell 1: it is the mine
    Certainty(safe=(3,), mines=(1,), complete=True)
    """

    safe: tuple
    mines: tuple
    complete: bool = True


def certain_cells(
    position: Position, *, mines: int | None = None, limit: Limit | None = None, solver: str = "minicard",
) -> Certainty:
    """Which covered cells are certainly safe or certainly mines, decided by SAT checks.

    No counting: two satisfiability checks at most per box (fewer, since every
    model found settles many boxes at once), with the mine total when known.

    Parameters
    ----------
    position : Position
    mines : int, keyword-only
        Overrides the position's total; with neither, the total is not used.
    limit : Limit, keyword-only
        Its ``time``: seconds, past which the answer is what was proved so far (``complete=False``).
        Its ``memory``: bytes the SAT encoding may hold (:data:`~cspmines.engine.budget.DEFAULT_MEMORY`
        unless given; None: no allowance); past it the answer is incomplete, as past the time.
        Its ``nodes`` and ``max_chain`` are not used.
    solver : str, keyword-only
        A python-sat solver name.

    Raises
    ------
    InconsistentPositionError
        No layout fits.

    Examples
    --------
    >>> from cspmines import Position
    >>> certain_cells(Position.from_string("3x2x2\\n1..\\n1.."))   # two mines, nothing certain
    Certainty(safe=(), mines=(), complete=True)
    >>> certain_cells(Position.from_string("3x2x2\\n1..\\n1.."), mines=1).safe   # one: it is by the 1s
    (2, 5)
    """
    limit = read_limit(limit)
    check_board_size(position.width, position.height, limit.memory)
    system = ConstraintSystem.from_position(position, mines=mines)
    chains = split_chains(system)
    rest = system.unconstrained_cells
    budget = Limit(time=limit.time, memory=limit.memory).start()  # no node limit: a SAT check is not a unit
    try:
        found = find_certain(chains, rest_size=len(rest), mines_left=system.mines_left, budget=budget, solver=solver)
    except BudgetExceededError:
        return Certainty((), (), complete=False)
    if found is None:
        raise InconsistentPositionError("no mine layout satisfies the clues and the mine total together")
    safe_boxes, full_boxes, rest_verdict = found
    safe = [cell for c, b in safe_boxes for cell in chains[c].boxes[b].cells]
    mine = [cell for c, b in full_boxes for cell in chains[c].boxes[b].cells]
    if rest_verdict == "safe":
        safe.extend(rest)
    elif rest_verdict == "mines":
        mine.extend(rest)
    return Certainty(tuple(sorted(safe)), tuple(sorted(mine)))
