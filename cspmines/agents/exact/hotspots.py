"""Risk hotspots: pairs of cells that one more mine would seal into a 50/50.

A guess that makes such a mine likelier costs a coin flip later; the
look-ahead can charge for it (the ``hotspots`` option of
:class:`~cspmines.agents.exact.options.ExactOptions`). The pairs are found
by :func:`~cspmines.agents.exact.fifty_fifty.fifty_fifty_influence`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

__all__ = ["HOTSPOT_ENABLER_RISK", "Hotspot", "hotspot_ratio"]

# a hotspot whose enabler is safer than 90% is not worth charging for (Hill's threshold)
HOTSPOT_ENABLER_RISK = Fraction(1, 10)


@dataclass(frozen=True)
class Hotspot:
    """A pair of side-by-side cells, each a mine with chance 1/2, closed off by known
    mines and the board's edge but for one flanking cell, the ``enabler``.

    If the enabler is a mine too, the pair can never be told apart: the game
    will cost a coin flip there. So the chance of getting past the pair is
    about ``1/2 + 1/2 * P(enabler is safe)`` (:meth:`survival`), and a guess
    that makes the enabler likelier to be a mine costs that much in the long
    run (Hill's risk hotspots). Opening one of ``cells`` (the pair and the
    enabler) settles the question at once, so such a guess is not charged.

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("4x1x2\\n...."))
    >>> from cspmines.agents.exact.fifty_fifty import fifty_fifty_influence
    >>> hotspots = fifty_fifty_influence(analysis).hotspots
    >>> hotspots[0]   # cells 0 and 1 against the edge: cell 2 a mine would seal them
    Hotspot(enabler=2, cells=frozenset({0, 1, 2}))
    >>> hotspots[0].survival(analysis)   # the enabler is a mine half the time
    0.75
    """

    enabler: int
    cells: frozenset

    def survival(self, analysis) -> float:
        """The chance of getting past this pair as ``analysis`` sees the board."""
        return 0.5 + 0.5 * (1.0 - analysis.probability(self.enabler, exact=False))


def hotspot_ratio(hotspots, cell: int, after, before: float) -> float:
    """How a guess at ``cell`` that led to ``after`` changes the chance of getting past
    ``hotspots``: the product of their survival in ``after`` (those that ``cell``
    settles left out) over ``before``, the product as the board stands.

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("4x1x2\\n...."))
    >>> from cspmines.agents.exact.fifty_fifty import fifty_fifty_influence
    >>> hotspots = fifty_fifty_influence(analysis).hotspots
    >>> before = hotspots[0].survival(analysis) * hotspots[1].survival(analysis)
    >>> hotspot_ratio(hotspots, 0, analysis, before)   # nothing learned, the first pair settled
    1.3333333333333333
    >>> hotspot_ratio(hotspots, 0, analysis, 0.0)
    Traceback (most recent call last):
    ...
    ValueError: before must be a chance above 0, got 0.0
    """
    if not before > 0:
        raise ValueError(f"before must be a chance above 0, got {before}")
    ratio = 1.0
    for hotspot in hotspots:
        if cell not in hotspot.cells:
            ratio *= hotspot.survival(after)
    return ratio / before
