"""How a twin's arguments become a compiled kernel's: one function a kernel whose twin takes a record.

A twin takes what a Python caller holds (a small frozen record, read by its attributes here, so this
layer imports nothing above it); the compiled function takes flat numbers, lists and byte buffers. A
kernel's row in :data:`cspmines.native.KERNELS` names its adapter, and :func:`cspmines.native.kernel`
answers the compiled function behind it, so a caller makes one call either way::

    search = kernel("value_search") or search_value   # either takes (given, work_bytes)
    answer = search(given, work_bytes)
"""

from __future__ import annotations

import numpy as np

__all__ = ["combine_arguments", "glance_arguments", "value_search_arguments"]

#: The compiled search's number for each way of choosing the cells whose values it works out.
_WANTED = {"one": 0, "best": 1, "all": 2}


def value_search_arguments(given, work_bytes: int | None = None) -> tuple:
    """``value_search``'s arguments for a :class:`~cspmines.engine.valuesearch.SearchInput`: the layouts'
    codes, the neighbours and the symmetries as flat contiguous arrays (read by the kernel as buffers, not copied),
    the budget as numbers (-1: none)."""
    count, width = given.codes.shape
    starts = np.zeros(width + 1, dtype=np.int32)
    starts[1:] = np.cumsum([len(around) for around in given.neighbours])
    columns = np.array([c for around in given.neighbours for c in around], dtype=np.int32)
    sym_layouts = np.array([layouts for layouts, _ in given.symmetries], dtype=np.int32).reshape(-1)
    sym_columns = np.array([cells for _, cells in given.symmetries], dtype=np.int32).reshape(-1)
    # the arrays themselves, not copies as bytes: the codes are the search's largest input, held throughout
    return (np.ascontiguousarray(given.codes, dtype=np.uint8), count, width, starts, columns,
            len(given.symmetries), sym_layouts, sym_columns,
            -1 if given.node_limit is None else given.node_limit, -1.0 if given.seconds is None else given.seconds,
            given.slots, -1 if work_bytes is None else work_bytes, _WANTED[str(given.cells)])


def glance_arguments(boxes, count: int, living: bool) -> tuple:
    """``glance_boxes``'s arguments for a :class:`~cspmines.engine.glance.BoxChances`."""
    return (*boxes, count, living)  # a named tuple, its fields in the kernel's order


def combine_arguments(terms) -> tuple:
    """``combine_chances``'s arguments for a :class:`~cspmines.engine.combine.TotalTerms`."""
    return (terms.models, [count.tallies for count in terms.counts], list(terms.box_sizes), terms.window, terms.low,
            terms.mines_left, terms.rest_size)
