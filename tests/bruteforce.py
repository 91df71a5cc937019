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


def best_play_wins(position: Position) -> tuple[int, dict[int, int], int]:
    """The value of a position by plain expectimax over the game as it is played: (layouts best play
    wins, each covered cell's wins when opened first, how many layouts there are).

    Every layout (from :func:`mine_layouts`), every move from every state, no bound and no shortcut:
    a state is the cells opened and the layouts still possible; opening a cell ends the layouts where
    it is a mine and, in the others, opens it and floods through the zeros as the game does; the
    layouts are grouped by everything the opened cells show. A layout is won once every safe cell of it
    is open. The same state met twice is worked out once (a memo, not a bound).
    """
    game = _PlainGame(position)
    everything = frozenset(mine_layouts(position))
    cells = {cell: game.opening(everything, frozenset(), cell) for cell in sorted(game.covered)}
    return game.value(everything, frozenset()), cells, len(everything)


class _PlainGame:
    """The game as it is played, over sets of layouts (:func:`best_play_wins`)."""

    def __init__(self, position: Position):
        self.width, self.height = position.width, position.height
        self.covered = frozenset(position.covered_cells)
        self.known = {cell for cell, code in enumerate(position.grid.ravel()) if code in (FLAG, MINE)}
        self.memo: dict = {}

    def around(self, cell: int) -> list[int]:
        row, col = divmod(cell, self.width)
        return [r * self.width + c for r in range(max(0, row - 1), min(self.height, row + 2))
                for c in range(max(0, col - 1), min(self.width, col + 2)) if (r, c) != (row, col)]

    def clue(self, cell: int, layout: frozenset) -> int:
        return sum(1 for n in self.around(cell) if n in layout or n in self.known)

    def flood(self, cell: int, layout: frozenset, opened: frozenset) -> frozenset:
        """The cells open after opening safe ``cell``: it, and through every 0 its neighbours."""
        shown, stack = set(opened), [cell]
        while stack:
            here = stack.pop()
            if here in shown:
                continue
            shown.add(here)
            if self.clue(here, layout) == 0:
                stack.extend(n for n in self.around(here) if n in self.covered and n not in shown)
        return frozenset(shown)

    def value(self, state: frozenset, opened: frozenset) -> int:
        """The layouts of ``state`` won by best play from here."""
        if all(self.covered - opened <= layout for layout in state):  # every safe cell open: won
            return len(state)
        if (state, opened) not in self.memo:
            self.memo[state, opened] = max(self.opening(state, opened, cell) for cell in sorted(self.covered - opened))
        return self.memo[state, opened]

    def opening(self, state: frozenset, opened: frozenset, cell: int) -> int:
        """The layouts of ``state`` won by opening ``cell``, then playing best."""
        seen: dict = {}
        for layout in state:
            if cell in layout:
                continue  # a mine: lost
            now = self.flood(cell, layout, opened)
            shown = (now, tuple(sorted((c, self.clue(c, layout)) for c in now - opened)))
            seen.setdefault(shown, []).append(layout)
        return sum(self.value(frozenset(group), shown[0]) for shown, group in seen.items())
