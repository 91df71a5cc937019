"""The compiled kernels and their Python twins, in one table; the one place the engine picks one.

Each :class:`Kernel` row names a function of the compiled module (``native/*.c``, one file a family)
and the pure-Python code that does the same steps in the same order (its
*twin*, a dotted path: the twin lives in the layer that uses it, above this
one). Code that has a compiled kernel asks :func:`kernel` for it by name and
runs the twin when it answers None (networkx picks a backend's function so,
by name, in one dispatcher):

>>> compiled = kernel("box_diameter")
>>> compiled is None or compiled(3, [(0, 1), (1, 2)]) == 2   # boxes 0-1-2 in a row
True

The kernels are off, and every twin runs, where the build had no C compiler,
where ``CSPMINES_PURE_PYTHON`` is set in the environment when the package is
imported (a whole run in pure Python), and inside ``with pure_python():`` (a
block of one run; the parity tests compare both ways so):

>>> with pure_python():
...     kernel("box_diameter") is None
True
>>> kernel("no_such_kernel")
Traceback (most recent call last):
...
KeyError: 'no_such_kernel'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType

from . import adapters

__all__ = ["KERNELS", "Kernel", "kernel", "pure_python"]


@dataclass(frozen=True)
class Kernel:
    """One compiled kernel: the ``name`` the engine asks for, the ``compiled`` function's name in
    ``cspmines.native._kernels`` (the name, unless given), the ``twin`` that runs without it (a dotted
    path: module, then attributes), what it ``does``, and, where the twin takes records, the function that
    makes the twin's arguments the compiled function's (``adapt``, from :mod:`cspmines.native.adapters`)."""

    name: str
    twin: str
    does: str
    compiled: str = ""
    adapt: Callable[..., tuple] | None = None

    def __post_init__(self):
        if not self.compiled:
            object.__setattr__(self, "compiled", self.name)

    def resolve_twin(self) -> object:
        """The twin itself: the longest importable module of the path, then its attributes.

        >>> BY_NAME["box_diameter"].resolve_twin().__name__
        'box_diameter'
        """
        parts = self.twin.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:cut]))
            except ModuleNotFoundError:
                continue
            for attribute in parts[cut:]:
                found = getattr(found, attribute)
            return found
        raise ImportError(f"no module in the twin path {self.twin!r}")


#: Every compiled kernel, in the order of the C file. A function of the compiled module without a row
#: here, or a row without a parity test, fails tests/test_kernels.py.
KERNELS: tuple[Kernel, ...] = (
    Kernel("cost_search", "cspmines.agents.exact.objectives._CostSearch.best",
           "the least-expected-cost search over the sets of at most 64 layouts still possible"),
    Kernel("value_search", "cspmines.engine.valuesearch.search_value",
           "the value of a position: the layouts best play wins, by a search with bounds over its layouts",
           adapt=adapters.value_search_arguments),
    Kernel("greedy_order", "cspmines.engine.backends.ordering.greedy_order",
           "the dynamic programme's counting order: boxes placed to keep the fewest rules open"),
    Kernel("count_passes", "cspmines.engine.backends.dynamic.Sweep",
           "the dynamic programme's forward and backward passes over planned steps, on 128-bit integers"),
    Kernel("count_ordered", "cspmines.engine.backends.dynamic.DynamicProgrammingBackend.count",
           "a chain counted whole: its steps planned for a box order, then the two passes"),
    Kernel("box_diameter", "cspmines.engine.chains.box_diameter",
           "a chain's length: the diameter of its box graph"),
    Kernel("settle_board", "cspmines.games.deduce._Settler.run",
           "a board opened and marked by the one- and two-clue rules, from a cell, as a game's deduction does"),
    Kernel("settle_clues", "cspmines.engine.constraints._settle_rounds",
           "a position's clue rules with the cells single rules force taken out, round after round"),
    Kernel("split_rules", "cspmines.engine.chains._split_layout",
           "a system's rules grouped into boxes and joined into chains, with each chain's own numbering"),
    Kernel("single_clues", "cspmines.agents.exact.deductions.SingleClueWatch._read_around",
           "what the clues at and next to the changed cells prove alone, move after move"),
    Kernel("combine_chances", "cspmines.engine.combine.chances_under_total",
           "each box's and the rest's layouts with a mine, the chains combined under the mine total",
           adapt=adapters.combine_arguments),
    Kernel("glance_boxes", "cspmines.engine.glance.glance_boxes",
           "a position's proved safe cells and least chances among the cells that can still tell something, "
           "read off its boxes' chances", adapt=adapters.glance_arguments),
    Kernel("closed_off_places", "cspmines.agents.exact.fifty_fifty._closed_off_places",
           "where a 50/50 may form: closed-off pairs and 2x2 blocks of hidden cells"),
    Kernel("remembered", "cspmines.engine.cache._Remembered",
           "a property worked out on first read and kept in the instance's dictionary (a descriptor type, "
           "picked once, when the classes using it are made)"),
)

BY_NAME = {row.name: row for row in KERNELS}

#: name -> the compiled function of each kernel of the table, None where it is off (its twin runs)
_ON: dict[str, Callable | None] = {row.name: None for row in KERNELS}


def switch_on(module: ModuleType | None) -> None:
    """Turn on every kernel of the table that ``module`` (the compiled module, or None) has."""
    for row in KERNELS:
        compiled = getattr(module, row.compiled, None) if module is not None else None
        _ON[row.name] = compiled if compiled is None or row.adapt is None else _adapted(compiled, row.adapt)


def _adapted(compiled: Callable, adapt: Callable[..., tuple]) -> Callable:
    """``compiled`` called with the twin's arguments (given by position, as the engine gives them), made the
    compiled function's by ``adapt``."""

    def call(*args):
        return compiled(*adapt(*args))

    call.__name__ = call.__qualname__ = compiled.__name__
    call.__doc__ = compiled.__doc__
    return call


#: ``kernel(name)``: the compiled kernel ``name`` where the kernels are on, None where its twin must run,
#: KeyError for a name the table does not have. The table's own look-up, so no Python frame stands
#: between the engine and a kernel, however often it asks.
kernel: Callable[[str], Callable | None] = _ON.__getitem__


@contextmanager
def pure_python() -> Iterator[None]:
    """Run the block with every kernel off (its twins run), then turn back on those that were on.
    Process-wide, not per thread: for tests and comparisons, not for a server's requests."""
    saved = dict(_ON)
    _ON.update(dict.fromkeys(_ON))
    try:
        yield
    finally:
        _ON.update(saved)
