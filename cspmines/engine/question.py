"""The question put to the engine as values: how many mines (a total or a density), and within what limits.

A :class:`Limit` is passed whole (python-chess passes its ``Limit`` so): the
seconds, the work units and the longest chain followed, each optional and each
checked once, here.

>>> Limit(time=2.5)
Limit(time=2.5, nodes=None, max_chain=None)
>>> Limit(time=0)
Traceback (most recent call last):
...
ValueError: time_limit must be a number of seconds above 0, got 0
>>> Density("0.2").value, Density(0.2).value   # a float is read by its decimal text
(Fraction(1, 5), Fraction(1, 5))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

from ..position import is_whole

__all__ = ["Density", "Limit"]


@dataclass(frozen=True)
class Limit:
    """What the counting may spend: ``time`` seconds, ``nodes`` work units, chains of at most
    ``max_chain`` boxes (longer ones are cut, an approximation). None: no limit."""

    time: float | None = None
    nodes: int | None = None
    max_chain: int | None = None

    def __post_init__(self):
        # the one check of a budget: solve() makes a Limit of its separate arguments too
        if self.time is not None and (isinstance(self.time, bool) or not isinstance(self.time, Real) or not self.time > 0):
            raise ValueError(f"time_limit must be a number of seconds above 0, got {self.time!r}")
        for name, value in (("node_limit", self.nodes), ("max_chain", self.max_chain)):
            if value is not None and not (is_whole(value) and value >= 1):
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")

    @property
    def limited(self) -> bool:
        return self.time is not None or self.nodes is not None


@dataclass(frozen=True)
class Density:
    """Each covered cell a mine independently with this chance, when the total is unknown.

    A float is read by its decimal text (0.15 is 3/20), as a person means it.
    """

    value: Fraction

    def __init__(self, value):
        try:
            fraction = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
        except (TypeError, ValueError):
            raise ValueError(f"density must be a number between 0 and 1, got {value!r}") from None
        if not 0 <= fraction <= 1:
            raise ValueError(f"density must lie between 0 and 1, got {value!r}")
        object.__setattr__(self, "value", fraction)
