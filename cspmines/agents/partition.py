"""The ``partition`` agent: seed 000, Algorithm 2 (3x3 blocks and their edge cases).

Seed ``000_e5dd14bc96f2ef40`` partitions the grid into 3x3 blocks and, block
by block, mines the middle square; its value is the block's bomb count
(the middle's neighbours are the rest of the block). If the middle is a
bomb, every square of the block is mined. Otherwise squares around the
middle are mined at random until the bombs found equal the constraint.

Edge cases: when a side does not divide by 3 the seed adds 3x3 blocks that
encapsulate the unchecked row or column, and the bottom-right square when
both are left. We place those extra blocks against the far edge (they
overlap the last regular block), which also covers a leftover of two rows
or columns and, where both sides are left over, the bottom-right corner.
Bombs already found in an overlapping block count toward its constraint. A
withheld middle (``?``) gives no constraint: the whole block is mined.

Other rules: under ``classic`` and ``score`` the same block walk is played,
and once a block's bombs are all known (found or flagged) the rest of the
block is opened, since winning needs every safe square. A random square
around the middle is a guess; under ``classic`` a bomb ends the game.

>>> blocks(9, 9)[:2], len(blocks(10, 8))
([(0, 0), (0, 3)], 12)
"""

from __future__ import annotations

from itertools import product

from ..actions import Rules
from ..position import COVERED, FLAG, MINE, WITHHELD, Position
from .base import Action, SeededAgent

__all__ = ["PartitionAgent", "blocks"]


def _starts(length: int) -> list[int]:
    if length <= 3:
        return [0]
    starts = list(range(0, length - 2, 3))
    if length % 3:
        starts.append(length - 3)  # the extra block against the far edge
    return starts


def blocks(width: int, height: int) -> list[tuple[int, int]]:
    """Top-left corners (row, col) of the 3x3 blocks, in reading order."""
    return list(product(_starts(height), _starts(width)))


class PartitionAgent(SeededAgent):
    name = "partition"

    def start(self) -> None:
        self.queue: list[tuple[int, int]] | None = None
        self.current = 0

    def _block_cells(self, position: Position, top: int, left: int) -> tuple[int, list[int]]:
        rows = range(top, min(top + 3, position.height))
        cols = range(left, min(left + 3, position.width))
        middle = position.cell(min(top + 1, position.height - 1), min(left + 1, position.width - 1))
        return middle, [position.cell(r, c) for r in rows for c in cols if position.cell(r, c) != middle]

    def act(self, position: Position) -> Action:
        if self.queue is None:
            self.queue = blocks(position.width, position.height)
        queue = self.queue
        flat = position.grid.ravel()
        while self.current < len(queue):
            middle, around = self._block_cells(position, *queue[self.current])
            covered = [c for c in around if flat[c] == COVERED]
            if flat[middle] == COVERED:
                return Action.open(middle)
            code = int(flat[middle])
            if code in (MINE, WITHHELD):
                if covered:
                    return Action.open(covered[0])
            else:
                found = sum(1 for c in around if flat[c] in (MINE, FLAG))
                if found < code and covered:
                    return Action.open(covered[int(self.rng.integers(len(covered)))])
                if found >= code and covered and self.rules != Rules.MINESEARCH:
                    return Action.open(covered[0], certain=True)  # the block's bombs are all known
            self.current += 1
        # every block walked: anything still covered is opened at random
        cells = position.covered_cells
        return Action.open(cells[int(self.rng.integers(len(cells)))])
