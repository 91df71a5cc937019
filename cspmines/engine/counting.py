"""Counting a position's chains, each by its backend, recent chains not counted again.

:func:`~cspmines.engine.solver.solve` counts its chains here, smallest first under a
budget; :mod:`cspmines.engine.reveal` counts the chains a new clue changed
(:func:`count_chains`). Both keep the counts of recent chains by their shape
in the memory an engine hands them, so a chain met again, here or elsewhere on
the board, costs a look-up.

>>> from cspmines.engine.backends import get_backend
>>> from cspmines.engine.components import chains_of
>>> from cspmines.engine.memory import Memory
>>> from cspmines.position import Position
>>> left, right = chains_of(Position.from_string("7x2\\n1.....1\\n......."))
>>> memory = Memory()
>>> [count.models for count in count_chains(get_backend("dp"), [left, right], memory)]
[(0, 3), (0, 3)]
>>> len(memory.counts)   # a 1 in either corner: one shape, counted once
1
"""

from __future__ import annotations

from ..errors import BudgetExceededError, MemoryBudgetError
from .backends import Budget, ComponentCount
from .components import Component, shape
from .memory import Hashed, Memory
from .question import DEFAULT_MEMORY

__all__ = ["count_chains", "count_smallest_first", "shape"]


def count_chains(engine, components, memory: Memory | None) -> list:
    """Each chain's counts by backend ``engine``, with no time budget, recent chains not counted
    again (kept in ``memory``; for :mod:`cspmines.engine.reveal`); None for a chain past the
    default memory allowance."""
    return count_smallest_first(engine, components, Budget(memory_limit=DEFAULT_MEMORY), memory=memory)


def count_smallest_first(engine, components, budget: Budget, *, memory: Memory | None = None) -> list:
    """Counts in the components' order by backend ``engine``, counted smallest first: under a
    budget the cheap components are settled before a wide one spends what is left. With a
    ``memory``, a component counted lately by the same backend is not counted again (the
    budget then has no time or node limit: such a count is never cut short, but it may meet
    the memory allowance, and is then None and not kept)."""
    counts: list[ComponentCount | None] = [None] * len(components)
    for index in sorted(range(len(components)), key=lambda i: components[i].n_boxes):
        component = components[index]
        if memory is None:
            counts[index] = _count_or_none(engine, component, budget)
            continue
        recent = memory.counts
        # a chain kept by the splits' memory and counted already, while this memory of counts keeps counts
        counted = component.__dict__.get("counted")
        if counted is not None and counted[0] is recent and counted[1] == (recent.generation, engine.name) and recent.limit:
            counts[index] = counted[2]
            continue
        key = Hashed((engine.name, shape(component)))
        count = recent.get(key)
        if count is None:
            count = _count_or_none(engine, component, budget)
            if count is not None:
                recent.put(key, count)
        if count is not None:
            component.__dict__["counted"] = (recent, (recent.generation, engine.name), count)
        counts[index] = count
    return counts


# Counts of recent components by backend and shape are kept in the memory an engine hands down
# (:class:`cspmines.engine.memory.Memory`, ``counts``). Positions solved one after another mostly share
# their chains: each position the look-ahead imagines differs from the board in one chain, and so
# does the next move's. A count depends on the shape alone, so a recurring chain is not counted
# again, nor a chain of the same shape elsewhere on the board (a 1-2-1 along an edge is one shape
# wherever it is). Solves under a budget do not use it (their budget must be spent as asked).


def _count_or_none(engine, component: Component, budget: Budget) -> ComponentCount | None:
    """The component's counts, or None once the budget is spent (later components are not tried)."""
    if budget.exhausted:
        return None
    try:
        return engine.count(component, budget=budget)
    except BudgetExceededError as error:
        budget.exhausted = True
        budget.stopped_by = error
        return None
    except MemoryError as error:  # a structure no estimate foresaw: the frames that held it are gone now
        budget.exhausted = True
        budget.stopped_by = MemoryBudgetError(f"out of memory while counting a chain of {component.n_cells} cells")
        budget.stopped_by.__cause__ = error
        return None
