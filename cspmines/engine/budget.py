"""The budget: what a piece of work may spend, passed whole (a :class:`Limit`), and what is left of it as it
runs (a :class:`Budget`, from :meth:`Limit.start`); and the one clock every deadline is read from.

A :class:`Limit` is a value, as python-chess passes its ``Limit``: the seconds, the work units, the longest
chain followed and the memory the work may hold, each checked once, here. Every limit but memory is off
unless given; the memory allowance has a default (:data:`DEFAULT_MEMORY`), so no solve grows without
bound unless asked to (``memory=None``). No time is no budget at all: a time limit of 0 is refused.

Every entry point of the package takes a ``limit=`` and starts it once; the steps below it are handed the
running :class:`Budget` (or what is left of it, :meth:`Budget.rest`, or a share of it, :meth:`Budget.share`)
and never read the clock themselves. A :class:`Stopwatch` measures what a report says took how long.

>>> Limit(time=2.5)
Limit(time=2.5, nodes=None, max_chain=None, memory=1073741824)
>>> Limit(time=0)
Traceback (most recent call last):
...
ValueError: the time limit must be a number of seconds above 0, got 0
>>> budget = Limit(time=10, nodes=100).start()
>>> 9 < budget.left() <= 10, budget.rest().nodes, budget.share(0.5).left() <= 5
(True, 100, True)
>>> Limit(memory="512M").memory, format_bytes(Limit().memory)
(536870912, '1 GiB')
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, replace
from numbers import Real

from ..errors import BudgetExceededError, MemoryBudgetError, TooLargeError
from ..position import is_whole

__all__ = ["BYTES_PER_CELL", "DEFAULT_MEMORY", "SLIVER", "Budget", "Limit", "PeakMemory", "Stopwatch", "check_board_size", "format_bytes",
           "out_of_time", "parse_bytes", "read_limit", "resident_bytes"]

#: The memory a solve may hold unless told otherwise: the counting structures (the dynamic programme's
#: states, the SAT and CP-SAT encodings, the tallies) are sized against it before they are built. Far
#: above what a board from play needs (an expert position's chains take a few megabytes).
DEFAULT_MEMORY = 1 << 30

#: What a solve or a game plans to hold for each cell of the board, besides its counting: the grid, the
#: cell lists, every cell's chance and its text or JSON. An all-covered board of a million cells peaks at
#: about 150 bytes a cell (the text board included); the figure is kept well above that. The counting and
#: the combining of chains are sized on their own, against the same allowance.
BYTES_PER_CELL = 1024

#: What is left of a time limit once it has run out, when it is handed on as a :class:`Limit` (no time at
#: all is refused): the next step starts, finds it spent, and says so.
SLIVER = 1e-3

_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20,
          "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30, "T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40}

#: The clock every deadline and every stopwatch reads (monotonic: a change of the wall clock moves no deadline).
_clock = time.monotonic


def parse_bytes(text) -> int:
    """A number of bytes from a whole number or a text such as ``"512M"`` or ``"2.5GB"`` (binary units:
    K, M and G are 2**10, 2**20 and 2**30).

    >>> parse_bytes("2G"), parse_bytes("512 MiB"), parse_bytes(4096)
    (2147483648, 536870912, 4096)
    >>> parse_bytes("lots")
    Traceback (most recent call last):
    ...
    ValueError: memory must be a number of bytes such as 512M or 2G, got 'lots'
    """
    if is_whole(text) and not isinstance(text, bool):
        return int(text)
    message = f"memory must be a number of bytes such as 512M or 2G, got {text!r}"
    if not isinstance(text, str):
        raise ValueError(message)
    number = text.strip().upper().replace(" ", "")
    unit = number.lstrip("0123456789.")
    digits = number[: len(number) - len(unit)]
    if unit not in _UNITS or not digits or digits.count(".") > 1 or digits == ".":
        raise ValueError(message)
    return int(float(digits) * _UNITS[unit])


def format_bytes(count: int) -> str:
    """A byte count for people: ``'1 GiB'``, ``'1.5 GiB'``, ``'300 MiB'``.

    >>> format_bytes(3 << 29), format_bytes(300 << 20), format_bytes(900)
    ('1.5 GiB', '300 MiB', '900 B')
    """
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size:
            return f"{count / size:.1f}".removesuffix(".0") + f" {unit}"
    return f"{count} B"


def check_board_size(width: int, height: int, memory: int | None, *, raise_with: str = "--memory SIZE (Limit(memory=...) in Python)") -> None:
    """Refuse, before any work, a board whose cells alone would take more than ``memory`` bytes at
    :data:`BYTES_PER_CELL` (None: no allowance, nothing refused); the message says how to raise it.

    >>> check_board_size(1000, 1000, DEFAULT_MEMORY)
    >>> check_board_size(3000, 3000, DEFAULT_MEMORY, raise_with="--memory")
    Traceback (most recent call last):
    ...
    cspmines.errors.TooLargeError: a 3000x3000 board (9,000,000 cells) needs about 8.6 GiB at 1 KiB a cell, over the memory allowance of 1 GiB: raise it with --memory
    """
    cells = width * height
    if memory is not None and cells * BYTES_PER_CELL > memory:
        raise TooLargeError(
            f"a {width}x{height} board ({cells:,} cells) needs about {format_bytes(cells * BYTES_PER_CELL)} at "
            f"{format_bytes(BYTES_PER_CELL)} a cell, over the memory allowance of {format_bytes(memory)}: raise it with {raise_with}"
        )


@dataclass(frozen=True)
class Limit:
    """What a piece of work may spend: ``time`` seconds, ``nodes`` work units, chains of at most ``max_chain``
    boxes (longer ones are cut, an approximation), and ``memory`` bytes held at once (a whole number or a
    text such as ``"2G"``; :data:`DEFAULT_MEMORY` unless given). None: no limit.

    Work that would pass any of them stops and answers NOT EXACT, with estimates or bounds."""

    time: float | None = None
    nodes: int | None = None
    max_chain: int | None = None
    memory: int | None = DEFAULT_MEMORY

    def __post_init__(self):
        if self.time is not None and (isinstance(self.time, bool) or not isinstance(self.time, Real) or not self.time > 0):
            raise ValueError(f"the time limit must be a number of seconds above 0, got {self.time!r}")
        for name, value in (("node limit", self.nodes), ("chain limit (max_chain)", self.max_chain)):
            if value is not None and not (is_whole(value) and value >= 1):
                raise ValueError(f"the {name} must be a whole number >= 1, got {value!r}")
        if self.memory is not None:
            memory = parse_bytes(self.memory)
            if memory < 1:
                raise ValueError(f"memory must be a number of bytes above 0, got {self.memory!r}")
            object.__setattr__(self, "memory", memory)

    @property
    def limited(self) -> bool:
        """A time or node limit is set (they stop work part way; memory is sized before)."""
        return self.time is not None or self.nodes is not None

    def start(self) -> Budget:
        """This limit being spent, from now."""
        return Budget(self)

    def _checked_already(self, time: float | None, nodes: int | None) -> Limit:
        """This limit with ``time`` and ``nodes`` put in, which the caller has checked (a positive time, a
        whole number of units): the budget makes one for each step of a solve, so the checks are spared."""
        made = object.__new__(Limit)
        for name, value in (("time", time), ("nodes", nodes), ("max_chain", self.max_chain), ("memory", self.memory)):
            object.__setattr__(made, name, value)
        return made


#: The limit of a call that gives none (frozen: one serves every such call).
NO_LIMIT = Limit()


def read_limit(limit: Limit | None = None, *, default: Limit | None = None) -> Limit:
    """The budget an entry point was given, checked: ``limit``, else ``default``, else ``Limit()``.

    >>> read_limit(Limit(time=1)).time, read_limit(None).memory == DEFAULT_MEMORY
    (1, True)
    >>> read_limit(2.5)
    Traceback (most recent call last):
    ...
    TypeError: limit must be a cspmines.Limit, got float
    """
    if limit is not None and not isinstance(limit, Limit):
        raise TypeError(f"limit must be a cspmines.Limit, got {type(limit).__name__}")
    return limit if limit is not None else default if default is not None else NO_LIMIT


class Budget:
    """A :class:`Limit` being spent: its deadline, the work units spent, and the memory it may hold.

    Work calls :meth:`spend` as it goes; it raises :class:`~cspmines.errors.BudgetExceededError` once the
    time or node limit is passed. Memory is kept two ways: work sizes each large structure before it
    builds it and calls :meth:`reserve` with the bytes it would hold; and, as a backstop for what no
    estimate covers, :meth:`spend` compares the process's resident memory with what it was when the work
    began, every few milliseconds (a read of ``/proc/self/statm``, so Linux only; in the main thread only,
    where the process's growth is the work's own).

    >>> budget = Limit(nodes=10).start()
    >>> budget.spend(4); budget.nodes
    4
    >>> budget.spend(7)
    Traceback (most recent call last):
    ...
    cspmines.errors.BudgetExceededError: node limit of 10 reached
    >>> Limit(memory=1 << 20).start().reserve(3 << 20, "the tallies")
    Traceback (most recent call last):
    ...
    cspmines.errors.MemoryBudgetError: memory allowance of 1 MiB reached: the tallies would take 3 MiB
    """

    def __init__(self, limit: Limit | None = None):
        # a budget is started for every solve and every count, so this is kept to a few assignments
        self.limit = limit = limit if type(limit) is Limit else read_limit(limit)
        self.time_limit: float | None = limit.time
        self.node_limit: int | None = limit.nodes
        self.memory_limit: int | None = limit.memory
        #: A time or node limit is set (they make work stop part way; memory is sized before).
        self.limited = limit.time is not None or limit.nodes is not None
        self.started = _clock()
        self.deadline = None if limit.time is None else self.started + limit.time
        self.nodes = 0
        self.exhausted = False  # set by whoever catches BudgetExceededError: nothing more is tried
        self.stopped_by: BudgetExceededError | None = None  # ... and the error, which says which limit
        # the backstop reads the resident memory only once work has run a few milliseconds: most solves
        # end sooner, and a file read per solve would cost a classic game several percent
        self._resident_at_start: int | None = None
        # the process's memory is the work's own only where one thread works: the backstop runs in the main
        # thread (the command line, a script); the web server's worker threads keep to the estimates alone
        backstop = limit.memory is not None and threading.get_ident() == _main_thread[0]
        self._resident_due = self.started + _RESIDENT_FIRST if backstop else _NEVER
        # whether spend needs the clock at all: a deadline to meet, or the backstop to run
        self._timed = self.deadline is not None or backstop

    def __repr__(self) -> str:
        return f"<Budget of {self.limit!r}, {self.nodes} units spent>"

    def elapsed(self) -> float:
        """Seconds since the budget started."""
        return _clock() - self.started

    def left(self) -> float | None:
        """Seconds left before the deadline (0 once it has passed); None without a time limit."""
        return None if self.deadline is None else max(0.0, self.deadline - _clock())

    def expired(self) -> bool:
        """Whether the deadline has passed."""
        return self.deadline is not None and _clock() >= self.deadline

    def rest(self, **changes) -> Limit:
        """What is left, as a :class:`Limit` for the next step (its time at least :data:`SLIVER`, so that
        a step started after the deadline finds it spent); ``changes`` replace fields (``memory=None``)."""
        rest = self._left_as_limit(1.0)
        return replace(rest, **changes) if changes else rest

    def share(self, fraction: float) -> Budget:
        """A budget for a part of the work: ``fraction`` of the time left, the units and memory as they are."""
        return Budget(self._left_as_limit(fraction))

    def _left_as_limit(self, fraction: float) -> Limit:
        """What is left as a :class:`Limit`: ``fraction`` of the time left (at least :data:`SLIVER`), the units
        not yet spent (at least one), the chain limit and memory as they are."""
        left = self.left()
        nodes = None if self.node_limit is None else max(1, self.node_limit - self.nodes)
        return self.limit._checked_already(None if left is None else max(SLIVER, left * fraction), nodes)

    def reserve(self, nbytes: int, what: str) -> None:
        """Refuse (:class:`~cspmines.errors.MemoryBudgetError`) to build ``what`` if it would hold
        ``nbytes`` bytes, more than the memory allowance."""
        if self.memory_limit is not None and nbytes > self.memory_limit:
            raise MemoryBudgetError(
                f"memory allowance of {format_bytes(self.memory_limit)} reached: {what} would take {format_bytes(nbytes)}"
            )

    def spend(self, nodes: int = 1) -> None:
        """Account for ``nodes`` units of work and stop when over either limit."""
        self.nodes += nodes
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise BudgetExceededError(f"node limit of {self.node_limit} reached")
        if self._timed:
            now = _clock()
            if self.deadline is not None and now > self.deadline:
                raise out_of_time(self)
            if now >= self._resident_due:
                self._check_resident(now)

    def _check_resident(self, now: float) -> None:
        resident = resident_bytes()
        if resident is None:
            self._resident_due = _NEVER
            return
        self._resident_due = now + _RESIDENT_EVERY
        if self._resident_at_start is None:
            self._resident_at_start = resident
        elif self.memory_limit is not None and resident - self._resident_at_start > self.memory_limit:
            raise MemoryBudgetError(
                f"memory allowance of {format_bytes(self.memory_limit)} reached: the process grew by "
                f"{format_bytes(resident - self._resident_at_start)} while working"
            )


#: The resident-memory backstop: first read after this many seconds of work, then at this interval.
_RESIDENT_FIRST = 0.005
_RESIDENT_EVERY = 0.01
_NEVER = float("inf")

#: The main thread's identity, read once (a budget is started for every count) and again in a forked
#: child, whose main thread is the one that forked.
_main_thread = [threading.main_thread().ident]
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: _main_thread.__setitem__(0, threading.main_thread().ident))
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

    >>> out_of_time(Limit(time=0.5).start())
    BudgetExceededError('time limit of 0.5 s reached')
    """
    return BudgetExceededError(f"time limit of {None if budget is None else budget.time_limit} s reached")


class Stopwatch:
    """How long something took, for a report: wall-clock seconds, or this process's CPU seconds.

    >>> with Stopwatch() as watch:
    ...     pass
    >>> 0 <= watch.seconds < 1, Stopwatch(cpu=True).seconds >= 0
    (True, True)
    """

    def __init__(self, *, cpu: bool = False):
        self._read = time.process_time if cpu else _clock
        self.started = self._read()
        self._stopped: float | None = None

    def __enter__(self) -> Stopwatch:
        self.started, self._stopped = self._read(), None
        return self

    def __exit__(self, *exc) -> None:
        self._stopped = self._read()

    @property
    def seconds(self) -> float:
        """Seconds from the start to the stop (to now while it runs)."""
        return (self._stopped if self._stopped is not None else self._read()) - self.started

    def restart(self) -> float:
        """The seconds so far, and start again from now (a lap)."""
        now = self._read()
        lap, self.started, self._stopped = now - self.started, now, None
        return lap


class PeakMemory:
    """The most resident memory this process held while a piece of work ran, for a report: the kernel's
    high-water mark (``VmHWM``), reset to the resident set as the work starts (``/proc/self/clear_refs``),
    so an earlier, larger piece of work does not hide this one's. Where Linux's files are not there (or
    refuse the reset) ``peak`` is None.

    >>> with PeakMemory() as memory:
    ...     block = b"x" * (64 << 20)   # written, so resident
    >>> memory.peak is None or memory.peak - memory.before >= 60 << 20
    True
    """

    def __init__(self):
        self.before: int | None = None
        self.peak: int | None = None

    def __enter__(self) -> PeakMemory:
        try:
            with open("/proc/self/clear_refs", "w") as clear:
                clear.write("5")  # "5": the high-water mark back to the resident set now (Linux 4.0 on)
        except OSError:
            self.before = None
        else:
            self.before = _status_bytes("VmRSS")
        return self

    def __exit__(self, *exc) -> None:
        self.peak = None if self.before is None else _status_bytes("VmHWM")


def _status_bytes(field: str) -> int | None:
    """A memory figure of ``/proc/self/status`` (given in KiB there) in bytes; None where it is not there."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None
