"""The question put to the engine beside its budget: when the mine total is unknown, the chance of a mine
in each covered cell (a :class:`Density`). The budget itself is a :class:`~cspmines.engine.budget.Limit`.

Every entry point of the engine that takes a ``density=`` reads it through :func:`read_density`, so each is
refused in one place, with one message.

>>> Density("0.2").value, Density(0.2).value   # a float is read by its decimal text
(Fraction(1, 5), Fraction(1, 5))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

__all__ = ["Density", "read_density"]


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
            raise _not_a_density(value) from None
        if not 0 <= fraction <= 1:
            raise _not_a_density(value)
        object.__setattr__(self, "value", fraction)

def _not_a_density(value) -> ValueError:
    # the one message of a density refused, wherever it was given
    return ValueError(f"density must be a number between 0 and 1, got {value!r}")

def read_density(density) -> Fraction | None:
    """The chance a ``density=`` argument gives each covered cell, exactly: a :class:`Density` or a
    number between 0 and 1 (a float read by its decimal text); None when none was given. A bare text or
    a bool is refused (a text is read only by ``Density("0.2")``, on purpose).

    >>> read_density(0.2), read_density(Density("1/4")), read_density(None)
    (Fraction(1, 5), Fraction(1, 4), None)
    >>> read_density("0.2")
    Traceback (most recent call last):
    ...
    ValueError: density must be a number between 0 and 1, got '0.2'
    >>> read_density(1.5)
    Traceback (most recent call last):
    ...
    ValueError: density must be a number between 0 and 1, got 1.5
    """
    if density is None or isinstance(density, Density):
        return None if density is None else density.value
    if isinstance(density, bool) or not isinstance(density, Real):
        raise _not_a_density(density)
    return Density(density).value
