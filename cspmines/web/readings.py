"""What ``/api/solve`` reads off a position beside its chances when asked: what opening cells ends in
(``outcomes=``) and the insight (``insight=``), each as JSON or, where it cannot be had, why not.

>>> from cspmines import Position, solve
>>> analysis = solve(Position.from_string("3x2x1\\n1..\\n1.."))
>>> seen, missing = insight_answer(analysis, ("endgame",), Limit(time=5))
>>> seen["endgame"]["fraction"], seen["missing"], missing
('1/2', {'dead': 'not asked', 'fifty_fifties': 'not asked'}, None)
"""

from __future__ import annotations

from ..engine.budget import Limit
from ..engine.clues import clue_spreads, covered_cells
from ..engine.insight import insight_of
from ..errors import BudgetExceededError
from ..position import Position
from ..present.answers import insight_json, outcomes_json
from .guard import BadRequest
from .limits import ENDGAME_SHARE

__all__ = ["insight_answer", "outcome_cells", "outcomes_answer"]


def outcome_cells(position: Position, asked: str) -> list[int]:
    """The cells ``outcomes=`` names (``all``: every covered one), each checked.

    >>> outcome_cells(Position.from_string("3x1x1\\n.1."), "0,2")
    [2]
    >>> outcome_cells(Position.from_string("3x1x1\\n.1."), "0,1")
    Traceback (most recent call last):
    ...
    cspmines.web.guard.BadRequest: outcomes 0,1: the cell is not covered
    """
    if asked.strip().lower() == "all":
        return list(position.covered_cells)
    pairs = []
    for part in asked.split(";"):
        pieces = part.replace(" ", "").split(",")
        if len(pieces) != 2 or not all(piece.isdigit() for piece in pieces):
            raise BadRequest(f"outcomes takes cells as ROW,COL separated by ';', or all; got {part!r}")
        pairs.append((int(pieces[0]), int(pieces[1])))
    try:
        return covered_cells(position, pairs)
    except ValueError as error:
        raise BadRequest(f"outcomes {error}") from None


def outcomes_answer(analysis, cells: list, limit: Limit) -> tuple[list | None, str | None]:
    """(the outcomes of ``cells`` as JSON, None), or (None, why there are none)."""
    if analysis.mines is None:
        return None, "outcomes need the mine total (a layout count), not a density"
    if analysis.model_count is None:  # a count cut short (estimates), whether or not any cell is uncertain
        return None, "outcomes need every layout counted, and the budget cut counting short"
    try:
        spreads = clue_spreads(analysis, cells, limit=limit)
    except BudgetExceededError as error:
        return None, str(error)
    return outcomes_json(analysis.position, spreads, exact=True), None


def insight_answer(analysis, parts: tuple, limit: Limit) -> tuple[dict | None, str | None]:
    """(the insight's ``parts`` as JSON, None), or (None, why there is none); a part the budget did not allow
    is null inside it, with its reason in its ``missing``. The endgame's search takes at most
    :data:`~cspmines.web.limits.ENDGAME_SHARE` of the time left, so that the answer comes soon whatever the
    position (a value past it is given as bounds)."""
    if analysis.mines is None or analysis.model_count is None:
        return None, "the insight needs the mine total and every layout counted"
    seen = insight_of(analysis, limit=limit, parts=parts, endgame_share=ENDGAME_SHARE)
    return insight_json(analysis.position, seen), None
