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

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ...errors import BudgetExceededError, MemoryBudgetError, UnknownBackendError
from ..chains import Chain
from ..memory import Memory
from ..question import format_bytes

__all__ = ["ChainCount", "ComponentCount", "trim_zeros", "dense_coefficients", "Budget", "Backend", "register_backend", "get_backend", "backend_names",
           "resident_bytes"]


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


class Budget:
    """A shared allowance of time (seconds), nodes and memory (bytes) for one solve.

    Backends call :meth:`spend` as they work; it raises
    :class:`~cspmines.errors.BudgetExceededError` once the time or node limit is passed.
    Memory is kept two ways: a backend sizes each large structure before it builds it and
    calls :meth:`reserve` with the bytes it would hold; and, as a backstop for what no
    estimate covers, :meth:`spend` compares the process's resident memory with what it was
    when the work began, every few milliseconds (a read of ``/proc/self/statm``, so Linux only;
    in the main thread only, where the process's growth is the count's own).

    >>> budget = Budget(node_limit=10)
    >>> budget.spend(4); budget.nodes
    4
    >>> budget.spend(7)
    Traceback (most recent call last):
    ...
    cspmines.errors.BudgetExceededError: node limit of 10 reached
    >>> Budget(memory_limit=1 << 20).reserve(3 << 20, "the tallies")
    Traceback (most recent call last):
    ...
    cspmines.errors.MemoryBudgetError: memory allowance of 1 MiB reached: the tallies would take 3 MiB
    """

    def __init__(self, *, time_limit: float | None = None, node_limit: int | None = None,
                 memory_limit: int | None = None):
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
        if node_limit is not None and (not isinstance(node_limit, int) or node_limit < 1):
            raise ValueError(f"node_limit must be a positive int, got {node_limit!r}")
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.started = time.perf_counter()
        self.deadline = None if time_limit is None else self.started + time_limit
        self.nodes = 0
        self.exhausted = False  # set by whoever catches BudgetExceededError: nothing more is tried
        self.stopped_by: BudgetExceededError | None = None  # ... and the error, which says which limit
        self.memory_limit = memory_limit
        # the backstop reads the resident memory only once a count has run a few milliseconds: most
        # counts end sooner, and a file read per solve would cost a classic game several percent
        self._resident_at_start: int | None = None
        # the process's memory is the count's own only where one thread counts: the backstop runs in the main
        # thread (the command line, a script); the web server's worker threads keep to the estimates alone
        backstop = memory_limit is not None and threading.current_thread() is threading.main_thread()
        self._resident_due = self.started + _RESIDENT_FIRST if backstop else float("inf")

    @property
    def limited(self) -> bool:
        """A time or node limit is set (they make the counts stop part way; memory is sized before)."""
        return self.time_limit is not None or self.node_limit is not None

    def reserve(self, nbytes: int, what: str) -> None:
        """Refuse (:class:`~cspmines.errors.MemoryBudgetError`) to build ``what`` if it would hold
        ``nbytes`` bytes, more than the memory allowance."""
        if self.memory_limit is not None and nbytes > self.memory_limit:
            raise MemoryBudgetError(
                f"memory allowance of {format_bytes(self.memory_limit)} reached: {what} would take {format_bytes(nbytes)}"
            )

    def _check_resident(self, now: float) -> None:
        resident = resident_bytes()
        if resident is None:
            self._resident_due = float("inf")
            return
        self._resident_due = now + _RESIDENT_EVERY
        if self._resident_at_start is None:
            self._resident_at_start = resident
        elif self.memory_limit is not None and resident - self._resident_at_start > self.memory_limit:
            raise MemoryBudgetError(
                f"memory allowance of {format_bytes(self.memory_limit)} reached: the process grew by "
                f"{format_bytes(resident - self._resident_at_start)} while counting"
            )

    def elapsed(self) -> float:
        """Seconds since the budget was made."""
        return time.perf_counter() - self.started

    def remaining_seconds(self) -> float | None:
        """Seconds left before the deadline (``None`` without a time limit)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def spend(self, nodes: int = 1) -> None:
        """Account for ``nodes`` units of work and stop when over either limit."""
        self.nodes += nodes
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise BudgetExceededError(f"node limit of {self.node_limit} reached")
        if self.deadline is not None or self.memory_limit is not None:
            now = time.perf_counter()
            if self.deadline is not None and now > self.deadline:
                raise out_of_time(self)
            if now >= self._resident_due:
                self._check_resident(now)


#: The resident-memory backstop: first read after this many seconds of counting, then at this interval.
_RESIDENT_FIRST = 0.005
_RESIDENT_EVERY = 0.01
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """This process's resident memory in bytes, or None where ``/proc`` does not say (not Linux)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_SIZE
    except (OSError, ValueError, IndexError):
        return None


def out_of_time(budget: Budget | None) -> BudgetExceededError:
    """The error that says a budget's time limit was reached (for whoever noticed it).

    >>> out_of_time(Budget(time_limit=0.5))
    BudgetExceededError('time limit of 0.5 s reached')
    """
    return BudgetExceededError(f"time limit of {None if budget is None else budget.time_limit} s reached")


class Backend(Protocol):
    """The one method every backend has."""

    name: str

    def count(self, chain: Chain, *, budget: Budget | None = None) -> ChainCount:
        """Exact counts of ``chain``; raises BudgetExceededError when out of budget."""


_REGISTRY: dict[str, Callable[[Memory | None], Backend]] = {}


#: Former names still accepted: ``enumerate`` was the dynamic programme's name before ``dp``.
ALIASES = {"enumerate": "dp"}


def register_backend(name: str, factory: Callable[[Memory | None], Backend]) -> None:
    """Make ``factory(memory)`` available as ``solve(..., backend=name)``: it is called with the
    :class:`~cspmines.engine.memory.Memory` of the engine that will count with it (or None), which
    a backend that remembers nothing between counts ignores."""
    _REGISTRY[name] = factory


def backend_names() -> tuple[str, ...]:
    """Registered backend names, sorted."""
    return tuple(sorted(_REGISTRY))


def get_backend(name: str | Backend, memory: Memory | None = None) -> Backend:
    """The backend registered under ``name``, made to keep what it remembers in ``memory`` (an
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
            return _REGISTRY[name](memory)
    elif hasattr(name, "count") and hasattr(name, "name"):
        return name  # an instance that follows the protocol
    raise UnknownBackendError(f"unknown backend {name!r}; choose one of {', '.join(backend_names())}")
