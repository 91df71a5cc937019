"""What every backend returns, the work budget, and the registry of backends by name.

A backend counts one :class:`~cspmines.engine.chains.Chain`: for every mine
number k, the weighted number of box assignments with k mines (``models[k]``)
and each box's mine tally over them (``tallies[box][k]``). Weights are
binomials: a box of s cells holding m mines stands for C(s, m) layouts.

Examples
--------
>>> from cspmines.engine.backends import get_backend, backend_names
>>> backend_names()
('auto', 'cpsat', 'dp', 'sat')
>>> get_backend("dp").name, get_backend("enumerate").name   # its former name is an alias
('dp', 'dp')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ...errors import UnknownBackendError
from ..budget import Budget
from ..cache import Cache
from ..chains import Chain

__all__ = ["ChainCount", "ComponentCount", "trim_zeros", "dense_coefficients", "Backend", "register_backend", "get_backend", "backend_names"]


@dataclass(frozen=True)
class ChainCount:
    """Exact counts of one chain, indexed by mine number k = 0..n_cells.

    Attributes
    ----------
    models : tuple of int
        ``models[k]``: weighted number of layouts of the chain with k mines.
    tallies : tuple of tuple of int
        ``tallies[box][k]``: sum over those layouts of the mines in ``box``.
    stats : dict
        Backend-specific work figures (states, solutions, seconds, ...).

    Examples
    --------
    Two single-cell boxes with one mine between them: no layout with 0 or
    2 mines, two with 1, each box holding the mine in one of them.

    >>> ChainCount(models=(0, 2, 0), tallies=((0, 1, 0), (0, 1, 0))).models[1]
    2
    """

    models: tuple
    tallies: tuple
    stats: dict = field(default_factory=dict, compare=False)

    @property
    def total(self) -> int:
        """Layouts of the chain, whatever their mine number."""
        return sum(self.models)


#: The earlier name of :class:`ChainCount`, kept for backends written against it.
ComponentCount = ChainCount


def trim_zeros(values) -> tuple:
    """The coefficients up to the last nonzero one (at least one).

    >>> trim_zeros([0, 3, 0, 0])
    (0, 3)
    """
    end = len(values)
    while end > 1 and not values[end - 1]:
        end -= 1
    return tuple(values[:end])


def dense_coefficients(by_mines: dict[int, int]) -> tuple:
    """A count kept sparse by mine number, as the coefficients from 0 to the last nonzero one
    (the enumerating backends keep their tallies so: a dense row per box costs boxes x cells).

    >>> dense_coefficients({2: 5}), dense_coefficients({})
    ((0, 0, 5), (0,))
    """
    row = [0] * (max(by_mines, default=0) + 1)
    for k, value in by_mines.items():
        row[k] = value
    return trim_zeros(row)


class Backend(Protocol):
    """The one method every backend has."""

    name: str

    def count(self, chain: Chain, *, budget: Budget | None = None) -> ChainCount:
        """Exact counts of ``chain``; raises BudgetExceededError when out of budget."""


_REGISTRY: dict[str, Callable[[Cache | None], Backend]] = {}


#: Former names still accepted: ``enumerate`` was the dynamic programme's name before ``dp``.
ALIASES = {"enumerate": "dp"}


def register_backend(name: str, factory: Callable[[Cache | None], Backend]) -> None:
    """Make ``factory(cache)`` available as ``solve(..., backend=name)``: it is called with the
    :class:`~cspmines.engine.cache.Cache` of the engine that will count with it (or None), which
    a backend that remembers nothing between counts ignores."""
    _REGISTRY[name] = factory


def backend_names() -> tuple[str, ...]:
    """Registered backend names, sorted."""
    return tuple(sorted(_REGISTRY))


def get_backend(name: str | Backend, cache: Cache | None = None) -> Backend:
    """The backend registered under ``name``, made to keep what it remembers in ``cache`` (an
    engine's; None: nothing kept, each count works everything out afresh, to the same answer).

    Raises
    ------
    UnknownBackendError
        The name is not registered (the message lists those that are).
    BackendUnavailableError
        Its solver package is missing (the message says how to install it).
    """
    if isinstance(name, str):
        name = ALIASES.get(name, name)
        if name in _REGISTRY:
            return _REGISTRY[name](cache)
    elif hasattr(name, "count") and hasattr(name, "name"):
        return name  # an instance that follows the protocol
    raise UnknownBackendError(f"unknown backend {name!r}; choose one of {', '.join(backend_names())}")
