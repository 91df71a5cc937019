"""An independent brute-force oracle: every subset of covered cells, checked cell by cell.

Shares no code with the engine beyond reading the position: no boxes, no
components, no combination formulas. Vectorised with numpy so that 2**16
layouts take milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from cspmines.position import COVERED, FLAG, MINE, Position

MAX_CELLS = 18


@dataclass
class Oracle:
    model_count: int
    probabilities: dict  # covered cell -> Fraction (empty when model_count == 0)


def brute_force(position: Position, *, mines: int | None = None, density: Fraction | None = None) -> Oracle:
    covered, rows, weights = _valid_layouts(position, mines=mines, density=density)
    index = {cell: j for j, cell in enumerate(covered)}
    model_count = len(rows)
    if model_count == 0:
        return Oracle(0, {})
    row_k = rows.sum(axis=1)
    norm = sum(weights[int(k)] for k in row_k)
    probabilities = {}
    for cell, j in index.items():
        probabilities[cell] = Fraction(sum(weights[int(k)] for k in row_k[rows[:, j] == 1])) / norm
    return Oracle(model_count, probabilities)


def mine_layouts(position: Position) -> list[frozenset]:
    """Every layout of mines over the covered cells (the position's total must be known)."""
    covered, rows, _ = _valid_layouts(position, mines=None, density=None)
    return [frozenset(cell for cell, bit in zip(covered, row, strict=True) if bit) for row in rows]


def _valid_layouts(position: Position, *, mines, density):
    grid = position.grid
    width = position.width
    covered = [i for i, code in enumerate(grid.ravel()) if code == COVERED]
    n = len(covered)
    if n > MAX_CELLS:
        raise ValueError(f"{n} covered cells is too many to brute-force")
    index = {cell: j for j, cell in enumerate(covered)}
    layouts = ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(np.int8)  # (2**n, n)
    valid = np.ones(2**n, dtype=bool)
    for cell, code in enumerate(grid.ravel()):
        if code < 0:
            continue
        row, col = divmod(cell, width)
        columns, known = [], 0
        for r in range(row - 1, row + 2):
            for c in range(col - 1, col + 2):
                if (r, c) == (row, col) or not (0 <= r < position.height and 0 <= c < width):
                    continue
                neighbour = r * width + c
                if neighbour in index:
                    columns.append(index[neighbour])
                elif grid.flat[neighbour] in (FLAG, MINE):
                    known += 1
        around = layouts[:, columns].sum(axis=1) if columns else np.zeros(2**n, dtype=int)
        valid &= around == (int(code) - known)
    counts = layouts.sum(axis=1)
    known_mines = int(np.count_nonzero((grid == FLAG) | (grid == MINE)))
    total = mines if mines is not None else position.mines
    if density is None:
        valid &= counts == (total - known_mines)
        weights = {k: 1 for k in range(n + 1)}
    else:
        weights = {k: density**k * (1 - density) ** (n - k) for k in range(n + 1)}
    return covered, layouts[valid], weights
