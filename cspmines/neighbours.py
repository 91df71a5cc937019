"""The neighbours of a cell on a grid, as tables and as whole arrays (flat cells, row by row).

>>> neighbour_table(3, 2)[4]
(0, 1, 2, 3, 5)
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["neighbour_array", "neighbour_sum", "neighbour_table", "neighbours_of"]


@functools.lru_cache(maxsize=64)
def neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """The neighbours of every flat cell of a ``width`` x ``height`` grid (cached).

    >>> neighbour_table(3, 2)[0]
    (1, 3, 4)
    """
    table = []
    for row in range(height):
        for col in range(width):
            table.append(
                tuple(
                    r * width + c
                    for r in range(max(0, row - 1), min(height, row + 2))
                    for c in range(max(0, col - 1), min(width, col + 2))
                    if (r, c) != (row, col)
                )
            )
    return tuple(table)


@functools.lru_cache(maxsize=64)
def neighbour_array(width: int, height: int) -> np.ndarray:
    """:func:`neighbour_table` as a read-only ``(cells, 8)`` int array padded with -1.

    >>> neighbour_array(3, 2)[0].tolist()
    [1, 3, 4, -1, -1, -1, -1, -1]
    """
    array = neighbours_of(np.arange(width * height), width, height)
    array.setflags(write=False)
    return array


#: The eight steps to a neighbour, in the order the tables list them (row by row).
_STEPS = np.array([(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)], dtype=np.intp)


def neighbours_of(cells, width: int, height: int) -> np.ndarray:
    """The neighbours of the flat ``cells`` as a ``(len(cells), 8)`` int array, each row in
    :func:`neighbour_table`'s order and padded with -1; made with whole-array operations, so a
    board of millions of cells takes a fraction of a second.

    >>> neighbours_of([0, 4], 3, 2).tolist()
    [[1, 3, 4, -1, -1, -1, -1, -1], [0, 1, 2, 3, 5, -1, -1, -1]]
    """
    cells = np.asarray(cells, dtype=np.intp)
    rows, cols = np.divmod(cells, width)
    around_rows = rows[:, None] + _STEPS[:, 0]
    around_cols = cols[:, None] + _STEPS[:, 1]
    inside = (around_rows >= 0) & (around_rows < height) & (around_cols >= 0) & (around_cols < width)
    around = np.where(inside, around_rows * width + around_cols, -1)
    # the cells on the board first, in their order: a stable sort on "off the board"
    order = np.argsort(~inside, axis=1, kind="stable")
    return np.take_along_axis(around, order, axis=1)


def neighbour_sum(mask: np.ndarray) -> np.ndarray:
    """For every cell, how many of its up to 8 neighbours are set in ``mask``.

    ``mask`` may stack several boards (``(..., height, width)``): one call
    sums them all, which costs little more than one.

    >>> neighbour_sum(np.array([[1, 0, 0], [0, 0, 1]], dtype=bool)).tolist()
    [[0, 2, 1], [1, 2, 0]]
    """
    *lead, height, width = mask.shape
    padded = np.zeros((*lead, height + 2, width + 2), dtype=np.int8)  # np.pad costs more than the sums
    padded[..., 1:-1, 1:-1] = mask
    total = np.zeros(mask.shape, dtype=np.int8)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if dr != 1 or dc != 1:
                total += padded[..., dr : dr + height, dc : dc + width]
    return total
