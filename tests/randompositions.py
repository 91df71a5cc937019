"""Random small positions for agreement tests: flags, opened mines, withheld clues, unknown totals.

Built from a true board, so most are consistent; ``corrupt`` bumps one clue so
that some are not.
"""

from __future__ import annotations

import numpy as np

from cspmines.position import COVERED, FLAG, MINE, WITHHELD, Position


def random_position(rng: np.random.Generator, *, max_covered: int = 14, corrupt: bool = False) -> Position:
    while True:
        height, width = int(rng.integers(1, 6)), int(rng.integers(2, 7))
        size = height * width
        density = rng.uniform(0.05, 0.6)
        mine = rng.random(size) < density
        grid = np.full(size, COVERED, dtype=np.int8)
        reveal = rng.random(size) < rng.uniform(0.2, 0.9)
        for cell in range(size):
            row, col = divmod(cell, width)
            if mine[cell]:
                roll = rng.random()
                grid[cell] = FLAG if roll < 0.15 else MINE if roll < 0.2 else COVERED
            elif reveal[cell]:
                clue = sum(
                    mine[r * width + c]
                    for r in range(max(0, row - 1), min(height, row + 2))
                    for c in range(max(0, col - 1), min(width, col + 2))
                    if (r, c) != (row, col)
                )
                grid[cell] = WITHHELD if rng.random() < 0.08 else clue
        if corrupt:
            clues = np.flatnonzero(grid >= 0)
            if len(clues):
                cell = rng.choice(clues)
                grid[cell] = min(8, grid[cell] + 1) if rng.random() < 0.5 or grid[cell] == 0 else grid[cell] - 1
        if np.count_nonzero(grid == COVERED) <= max_covered:
            total = int(mine.sum()) if rng.random() < 0.75 else None
            return Position(grid.reshape(height, width), mines=total)


def positions_with_total(count: int, seed: int, *, max_covered: int, accept):
    """``count`` random positions with a mine total, each with what ``accept(position)`` says of it;
    a position it answers None for is passed over."""
    rng = np.random.default_rng(seed)
    found = 0
    while found < count:
        position = random_position(rng, max_covered=max_covered)
        if position.mines is None:
            continue
        verdict = accept(position)
        if verdict is None:
            continue
        found += 1
        yield position, verdict


def solved_with_total(tries: int, seed: int, *, max_covered: int):
    """(position, its analysis) for each consistent position with a mine total among ``tries`` random ones."""
    from cspmines import InconsistentPositionError, solve

    rng = np.random.default_rng(seed)
    for _ in range(tries):
        position = random_position(rng, max_covered=max_covered)
        if position.mines is None:
            continue
        try:
            yield position, solve(position)
        except InconsistentPositionError:
            continue
