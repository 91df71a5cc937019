"""Hill's corner habits: research switches of the exact agent, off by default (measured not to pay).

With ``first_corner`` the game's first look-ahead guess goes to the bottom-left
corner (Hill's solver's first guess) when that is nearly as safe; with
``corners`` a look-ahead guess off the front goes to the cell off the front
likeliest to open a region (:func:`~cspmines.agents.exact.candidates.likeliest_opening`).

>>> from cspmines import Position, solve
>>> from cspmines.agents.exact.options import ResearchSwitches
>>> analysis = solve(Position.from_string("4x3x2\\n1...\\n....\\n...."))
>>> corner_instead(analysis, 6, ResearchSwitches(corners=1), guesses=1, mines=set())   # 6 is off the front: 3, a corner, is as safe
(3, 'corner')
>>> corner_instead(analysis, 6, ResearchSwitches(first_corner=0.01), guesses=1, mines=set())   # the bottom-left corner
(8, 'first corner')
"""

from __future__ import annotations

from ...position import COVERED, Position
from .candidates import likeliest_opening
from .guesses import Reason
from .options import ResearchSwitches

__all__ = ["corner_instead"]


def corner_instead(analysis, cell: int, research: ResearchSwitches, *, guesses: int, mines) -> tuple[int, Reason] | None:
    """(a corner, the rule) that takes the look-ahead's guess at ``cell``, the game's ``guesses``-th,
    or None; ``mines`` are the cells proved mines."""
    if guesses == 1 and research.goes_to_corner_first and _bottom_left_instead(analysis, cell, research.first_corner, mines):
        return _bottom_left(analysis.position), Reason.FIRST_CORNER
    if research.opens_corners and guesses >= research.corners and _off_front(analysis, cell):
        opening = likeliest_opening(analysis, exclude=mines)
        if opening is not None and opening != cell and analysis.probability(opening) == analysis.probability(cell):
            return opening, Reason.CORNER
    return None


def _bottom_left(position: Position) -> int:
    return (position.height - 1) * position.width  # Hill's solver's first guess


def _bottom_left_instead(analysis, cell: int, most_less_safe: float, mines) -> bool:
    """Whether the guess at ``cell`` goes to the bottom-left corner: covered, off the front, not
    proved a mine and at most ``most_less_safe`` less safe."""
    corner = _bottom_left(analysis.position)
    if corner == cell or corner in mines or analysis.position.grid.flat[corner] != COVERED:
        return False
    if not _off_front(analysis, corner):
        return False
    return analysis.probability(corner) <= analysis.probability(cell) + most_less_safe


def _off_front(analysis, cell: int) -> bool:
    return not any(cell in report.cells for report in analysis.chains)
