"""The engine's cache of recent chains, owned by an :class:`~cspmines.engine.Engine` and handed down by it.

Positions solved one after another mostly share their chains (each position a
look-ahead imagines differs from the board in one chain, and so does the next
move's), so the engine keeps a cache of what it met recently: the counts of
chains by shape, how systems of rules split into chains, the counting order of
each structure, the forward passes layouts are drawn from, what a full solve
keeps for one more clue, and the analyses of boards a look-ahead imagined. Answers never depend on them, only the time taken.

They live in a :class:`Cache`, which an :class:`~cspmines.engine.Engine` owns
(as a python-sat solver owns its handle) and hands to the code below it: each
step is given the cache, or the engine that owns it, as an argument; none looks
one up. :func:`cspmines.solve` and the other module-level functions use the
calling thread's default engine (:func:`cspmines.engine.engine.default_engine`),
so the web server's worker threads never share a cache and none sees another's
entry vanish between a look-up and its use.

>>> from cspmines import Engine, Position
>>> engine = Engine()
>>> analysis = engine.solve(Position.from_string("3x1x1\\n.1."))
>>> len(engine.cache.counts), analysis.engine is engine   # the chain counted, kept in the engine's cache
(1, True)
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

from .. import native

__all__ = ["Hashed", "Cache", "Recent", "remembered"]

T = TypeVar("T")


class _Remembered(Generic[T]):
    """A property worked out on first read and kept in the instance's dictionary (``remembered``), as
    :func:`functools.cached_property` does but without its lock (Python 3.11 takes one at every
    first read, which costs more than the value on objects a solve makes by the thousand). Two
    threads reading it at once may both work it out: the same value, kept once. With the compiled
    kernels ``remembered`` is the same descriptor in C, whose first read calls the function straight
    from its reader (cheaper, and no frame of this module between them).

    >>> class Square:
    ...     def __init__(self, side):
    ...         self.side = side
    ...     @remembered
    ...     def area(self):
    ...         print("worked out")
    ...         return self.side ** 2
    >>> square = Square(3)
    >>> square.area
    worked out
    9
    >>> square.area
    9
    """

    def __init__(self, function: Callable[[Any], T]) -> None:
        self.function = function
        self.name = function.__name__
        self.__doc__ = function.__doc__

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner=None) -> _Remembered[T]: ...

    @overload
    def __get__(self, instance: object, owner=None) -> T: ...

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.function(instance)  # read from the dictionary from now on
        return value


# the same descriptor in C where the kernels are built (see _Remembered); picked once, as the classes
# using it are made, so native.pure_python() does not switch it
remembered = native.kernel("remembered") or _Remembered


class Hashed:
    """A key whose hash is worked out once: a cache looks a key up, then stores it and moves it to the
    end, and a chain's shape (nested tuples, hundreds of entries on a wide front) would be hashed each time.

    >>> recent = Recent(2)
    >>> recent.put(Hashed(((1, 2), (3,))), "a")
    'a'
    >>> recent.get(Hashed(((1, 2), (3,))))
    'a'
    """

    __slots__ = ("key", "_hash")

    def __init__(self, key):
        self.key = key
        self._hash = hash(key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        return isinstance(other, Hashed) and self._hash == other._hash and self.key == other.key


class Recent:
    """A mapping that keeps its ``limit`` most recently used entries (least recently used out first).

    >>> recent = Recent(2)
    >>> recent.put("a", 1), recent.put("b", 2), recent.get("a"), recent.put("c", 3)
    (1, 2, 1, 3)
    >>> recent.get("b") is None, len(recent)   # "b" was the least recently used
    (True, 2)
    """

    def __init__(self, limit: int):
        self.limit = limit
        self._items: OrderedDict = OrderedDict()
        self.generation = 0  # how many times it was cleared: what was taken from it before is stale since

    def get(self, key):
        """The value kept for ``key`` (now the most recent), or None."""
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key, value):
        """Keep ``value`` for ``key``; returns it."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.limit:
            self._items.popitem(last=False)
        return value

    def clear(self) -> None:
        self._items.clear()
        self.generation += 1

    def __len__(self) -> int:
        return len(self._items)


class Cache:
    """The three memories: counts of chains by shape, splits of systems, counting orders.

    The limits are entries: about 2,048 counts, 512 splits and 1,024 orders hold a
    look-ahead's positions on an expert board with room to spare.
    """

    def __init__(self, *, counts: int = 2048, splits: int = 512, orders: int = 1024, foreseen: int = 64, sweeps: int = 64):
        self.counts = Recent(counts)
        self.splits = Recent(splits)
        self.orders = Recent(orders)
        # the counting programme's kept forward passes by shape, for drawing layouts: a minesearch
        # player draws from every position of its game, and successive positions share most chains
        self.sweeps = Recent(sweeps)
        # the parts of each full solve one more clue may start from (cspmines.engine.reveal), by analysis,
        # for as long as the analysis lives: an analysis is revealed by the engine that solved it, from here
        self.kept: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        # analyses of boards a look-ahead imagined, by board: the next solve is often one of them
        self.foreseen = Recent(foreseen)

    def foresee(self, analyses, backend: str) -> None:
        """Keep analyses a look-ahead made of boards one clue on: a later solve of one of them is that analysis."""
        for analysis in analyses:
            self.foreseen.put(_board_key(analysis.position, backend), analysis)

    def foreseen_analysis(self, position, backend: str):
        """The analysis kept by :meth:`foresee` for exactly this board (cells and total), or None."""
        return self.foreseen.get(_board_key(position, backend))

    def forget(self) -> None:
        """Empty the cache (a benchmark timing players one after another on one board starts each so)."""
        self.counts.clear()
        self.splits.clear()
        self.orders.clear()
        self.sweeps.clear()
        self.kept.clear()
        self.foreseen.clear()


def _board_key(position, backend: str) -> tuple:
    return backend, position.mines, position.grid.shape, position.grid.tobytes()
