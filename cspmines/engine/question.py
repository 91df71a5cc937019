"""The question put to the engine as values: how many mines (a total or a density), and within what limits.

A :class:`Limit` is passed whole (python-chess passes its ``Limit`` so): the
seconds, the work units, the longest chain followed and the memory the work may
hold, each checked once, here. Every limit but memory is off unless given; the
memory allowance has a default (:data:`DEFAULT_MEMORY`), so no solve grows
without bound unless asked to (``memory=None``). No time is no budget at all:
a time limit of 0 is refused, as a limit of 0 nodes is.

Every entry point of the engine (``solve``, ``sample_layouts``, ``certain_cells``,
``clue_spreads`` and the :class:`~cspmines.engine.engine.Engine` methods) reads its
``limit=`` through :func:`read_limit` and its ``density=`` through
:func:`read_density`, so each is refused in one place, with one message.

>>> Limit(time=2.5)
Limit(time=2.5, nodes=None, max_chain=None, memory=1073741824)
>>> Limit(time=0)
Traceback (most recent call last):
...
ValueError: the time limit must be a number of seconds above 0, got 0
>>> Limit(memory="512M").memory, format_bytes(Limit().memory)
(536870912, '1 GiB')
>>> Density("0.2").value, Density(0.2).value   # a float is read by its decimal text
(Fraction(1, 5), Fraction(1, 5))
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

from ..errors import TooLargeError
from ..position import is_whole

__all__ = ["BYTES_PER_CELL", "DEFAULT_MEMORY", "Density", "Limit", "check_board_size", "format_bytes", "parse_bytes", "time_left",
           "read_density", "read_limit"]

#: The memory a solve may hold unless told otherwise: the counting structures (the dynamic programme's
#: states, the SAT and CP-SAT encodings, the tallies) are sized against it before they are built. Far
#: above what a board from play needs (an expert position's chains take a few megabytes).
DEFAULT_MEMORY = 1 << 30

#: What a solve or a game plans to hold for each cell of the board, besides its counting: the grid, the
#: cell lists, every cell's chance and its text or JSON. An all-covered board of a million cells peaks at
#: about 150 bytes a cell (the text board included); the figure is kept well above that. The counting and
#: the combining of chains are sized on their own, against the same allowance.
BYTES_PER_CELL = 1024

_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20,
          "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30, "T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40}


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


def time_left(seconds: float | None, started: float) -> float | None:
    """What is left of a time limit of ``seconds`` counted from ``started`` (a ``time.monotonic()``
    reading), for the next step's ``Limit(time=...)``: None without a limit, and a sliver (1 ms) once it
    has run out, so that the next step's budget says it ran out (no time at all is refused).

    >>> import time
    >>> time_left(None, time.monotonic()) is None
    True
    >>> time_left(5, time.monotonic() - 10)   # ran out 5 s ago
    0.001
    >>> 4 < time_left(5, time.monotonic()) <= 5
    True
    """
    return None if seconds is None else max(0.001, seconds - (time.monotonic() - started))


def format_bytes(count: int) -> str:
    """A byte count for people: ``'1 GiB'``, ``'1.5 GiB'``, ``'300 MiB'``.

    >>> format_bytes(3 << 29), format_bytes(300 << 20), format_bytes(900)
    ('1.5 GiB', '300 MiB', '900 B')
    """
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size:
            return f"{count / size:.1f}".removesuffix(".0") + f" {unit}"
    return f"{count} B"


@dataclass(frozen=True)
class Limit:
    """What the counting may spend: ``time`` seconds, ``nodes`` work units, chains of at most
    ``max_chain`` boxes (longer ones are cut, an approximation), and ``memory`` bytes held at once
    (a whole number or a text such as ``"2G"``; :data:`DEFAULT_MEMORY` unless given). None: no limit.

    A solve that would pass any of them stops and answers NOT EXACT, with estimates."""

    time: float | None = None
    nodes: int | None = None
    max_chain: int | None = None
    memory: int | None = DEFAULT_MEMORY

    def __post_init__(self):
        # the one check of a budget: read_limit makes a Limit of the deprecated separate keywords too
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


_NO_LIMIT = Limit()  # frozen: one serves every call that gives none

#: what each deprecated keyword of the entry points is called in a Limit
_OLD_KEYWORDS = {"time_limit": "time", "node_limit": "nodes", "max_chain": "max_chain", "memory": "memory"}

#: a deprecated keyword left out (None is a value: ``memory=None`` is no allowance)
NOT_GIVEN = type("NotGiven", (), {"__repr__": lambda self: "NOT_GIVEN"})()


def read_limit(limit: Limit | None = None, *, default: Limit | None = None, **old) -> Limit:
    """The budget an engine entry point was given, checked: ``limit`` (a :class:`Limit`), else the one
    the deprecated keywords make (``time_limit=``, ``node_limit=``, ``max_chain=``, ``memory=``; a
    :class:`DeprecationWarning`, and the same checks as ``Limit``), else ``default``, else ``Limit()``.

    >>> read_limit(Limit(time=1)).time, read_limit(None).memory == DEFAULT_MEMORY
    (1, True)
    >>> read_limit(2.5)
    Traceback (most recent call last):
    ...
    TypeError: limit must be a cspmines.Limit, got float
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     read_limit(time_limit=0)
    Traceback (most recent call last):
    ...
    ValueError: the time limit must be a number of seconds above 0, got 0
    """
    if limit is not None and not isinstance(limit, Limit):
        raise TypeError(f"limit must be a cspmines.Limit, got {type(limit).__name__}")
    given = {name: value for name, value in old.items() if value is not NOT_GIVEN and (value is not None or name == "memory")}
    if not given:
        return limit if limit is not None else default if default is not None else _NO_LIMIT
    if limit is not None:
        raise ValueError(f"give the budget as limit=Limit(...) or as {'=, '.join(given)}=, not both")
    fields = {_OLD_KEYWORDS[name]: value for name, value in given.items()}
    warnings.warn(f"{'=, '.join(given)}= is deprecated: pass limit=Limit({', '.join(f'{k}=...' for k in fields)})",
                  DeprecationWarning, stacklevel=3)
    return Limit(**fields)
