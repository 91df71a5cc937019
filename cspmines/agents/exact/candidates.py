"""Which cells the look-ahead weighs when a guess is needed.

:func:`shortlist` takes the front cells within a margin of the best safety
and the most promising cells off the front; :func:`candidates` adds the
cells where a 50/50 may form and drops those in small spaces, as the
exact agent's options ask.

>>> from cspmines import Position, solve
>>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
>>> shortlist(analysis, size=8, margin=0.5)   # the corner off the front, then the front's two cells
[3, 1, 5]
"""

from __future__ import annotations

import numpy as np

from ...neighbours import neighbour_sum
from ...position import COVERED, WITHHELD, Position
from .options import ExactOptions

__all__ = ["candidates", "in_small_space", "likeliest_opening", "shortlist"]


def candidates(analysis, choice: int, spread, options: ExactOptions, *, exclude=frozenset()) -> tuple[list[int], dict | None]:
    """The cells the look-ahead weighs against ``choice`` (the least risky cell), and their
    50/50 influence multipliers (None without influence).

    ``spread`` is the position's
    :func:`~cspmines.agents.exact.fifty_fifty.fifty_fifty_influence`, or
    None; ``exclude`` the cells known to be mines.

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
    >>> # 2 (the choice, beside the front), 3 (a corner off the front), 1 (on it, within the margin)
    >>> candidates(analysis, 2, None, ExactOptions(lookahead=3, margin=0.5))
    ([2, 3, 1], None)
    """
    cells = shortlist(analysis, size=options.lookahead, margin=options.margin, exclude=exclude, off_front=options.off_front)
    if choice not in cells:
        cells = [choice, *cells[: options.lookahead - 1]]
    multipliers = None
    if spread is not None and spread.chance:
        def safety(cell: int) -> float:
            return 1.0 - analysis.probability(cell, exact=False)

        floor = (1.0 - options.margin) * max(safety(c) for c in cells)
        # a cell whose mine costs a coin flip anyway may be worth more than its safety says
        extra = [c for c, chance in spread.chance.items() if c not in exclude and safety(c) + chance >= floor]
        cells += sorted(set(extra) - set(cells), key=lambda c: (-(safety(c) + spread.chance[c]), c))
        multipliers = spread.multipliers(analysis, options.influence)
    if options.research.spares_small_spaces:
        position = analysis.position
        roomy = [c for c in cells if not in_small_space(position, c, mines=exclude, threshold=options.research.space)]
        cells = roomy or cells  # a guess in a small space waits while one elsewhere remains
    return cells, multipliers


def shortlist(analysis, *, size: int, margin: float, exclude=frozenset(), off_front: int = 0) -> list[int]:
    """The cells worth looking ahead from, safest first.

    Every front cell whose safety is at least ``(1 - margin)`` times the best
    safety, then, if the cells off the front are that safe too, two of them:
    the one with the fewest covered neighbours (likeliest to open a zero) and
    the one two steps from the front with the fewest (its clue can reach the
    front). At most ``size`` cells.

    With ``off_front`` > 0 the cells off the front are chosen wider, as Hill
    does, and come on top of the ``size`` cells: every one of them when
    fewer than 30 are left, else those two steps straight out from a clue
    of the front (their clue can join it) and those with two or three
    covered neighbours (likely to open up), at most ``off_front`` of them,
    fewest covered neighbours first.

    >>> from cspmines import Position, solve
    >>> shortlist(solve(Position.from_string("4x2x2\\n1...\\n1...")), size=2, margin=0.5)
    [3, 1]
    >>> shortlist(solve(Position.from_string("4x2x2\\n1...\\n1...")), size=2, margin=0.5, off_front=-1)
    Traceback (most recent call last):
    ...
    ValueError: size and off_front must be >= 0, got size=2, off_front=-1
    """
    if size < 0 or off_front < 0:
        raise ValueError(f"size and off_front must be >= 0, got size={size}, off_front={off_front}")
    position = analysis.position
    front = {cell for report in analysis.chains for cell in report.cells}
    safety: dict[int, float] = {}
    for group, p in analysis.groups():  # one float a group, not one a cell
        if p != 1:
            safety.update(dict.fromkeys(group, 1.0 - float(p)))
    for c in exclude:
        safety.pop(c, None)
    cells = sorted(safety)
    if not cells:
        return []
    floor = (1.0 - margin) * max(safety.values())
    around = neighbour_sum(position.grid == COVERED).ravel().tolist()  # every cell's covered neighbours, once
    covered_around = around.__getitem__

    on_front: list[int] = []
    off: list[int] = []
    for c in cells:
        if safety[c] >= floor:
            (on_front if c in front else off).append(c)
    picked = _two_off_front(position, front, off, covered_around) if off and not off_front else []
    merged = sorted(dict.fromkeys(on_front + picked), key=lambda c: (-safety[c], covered_around(c), c))[:size]
    if off and off_front:  # Hill's wider set, on top
        if len(off) >= 30:
            straight = _straight_two_from_clues(analysis)
            off = [c for c in off if c in straight or 2 <= covered_around(c) <= 3]
        merged += sorted(off, key=lambda c: (covered_around(c), c))[:off_front]
    return merged


def _two_off_front(position, front: set, off: list, covered_around) -> list[int]:
    """The two most promising cells of ``off`` (increasing), off the front: the one with the fewest covered
    neighbours, and the one two steps from the front with the fewest (the lowest cell of each, at a tie)."""
    picked = [min(off, key=covered_around)]
    front_mask = np.zeros(position.size, dtype=bool)
    front_mask[list(front)] = True
    beside_front = neighbour_sum(front_mask.reshape(position.grid.shape)) > 0  # a neighbour on the front
    two_steps = neighbour_sum(beside_front).ravel().tolist()  # a neighbour beside the front: two steps from it
    near = [c for c in off if two_steps[c]]
    if near:
        picked.append(min(near, key=covered_around))
    return picked


def likeliest_opening(analysis, *, exclude=frozenset()) -> int | None:
    """The cell off the front with the fewest covered neighbours (the likeliest to show a zero and
    open a region: a corner while one is left), the first such cell; None when none is left.

    Every cell off the front is as likely to be a mine as every other, so
    this is a choice among equals.

    >>> from cspmines import Position, solve
    >>> likeliest_opening(solve(Position.from_string("4x3x2\\n1...\\n....\\n....")))
    3
    """
    position = analysis.position
    front = {cell for report in analysis.chains for cell in report.cells}
    flat = position.grid.ravel()
    off = [c for c in range(position.size) if flat[c] == COVERED and c not in front and c not in exclude]
    if not off:
        return None
    around = neighbour_sum(position.grid == COVERED).ravel().tolist()
    return min(off, key=lambda c: (around[c], c))


def in_small_space(position: Position, cell: int, *, mines=frozenset(), threshold: int = 8) -> bool:
    """Whether ``cell`` lies in a space of fewer than ``threshold`` unknown cells.

    A space is the cells, covered and not known mines, that join up through
    neighbours or across one opened cell (Hill's space counter). A guess in
    a small space tells little about the rest of the board, and the mine
    total may yet settle it, so it is worth putting off while a guess
    elsewhere is as good.

    >>> p = Position.from_string("5x1x1\\n..1..")
    >>> in_small_space(p, 0, threshold=4), in_small_space(p, 0, threshold=5)
    (False, True)
    >>> in_small_space(p, 2)
    Traceback (most recent call last):
    ...
    ValueError: cell 2 is not a covered cell of this 5x1 position
    """
    flat = position.grid.ravel()
    if not 0 <= cell < flat.size or flat[cell] != COVERED:
        raise ValueError(f"cell {cell} is not a covered cell of this {position.width}x{position.height} position")
    if threshold <= 1:
        return False  # the cell alone fills such a space

    def unknown(n: int) -> bool:
        return flat[n] == COVERED and n not in mines

    seen = {cell}
    todo = [cell]
    while todo:
        for n in position.neighbours(todo.pop()):
            if unknown(n):
                reached = [n]
            elif flat[n] >= 0 or flat[n] == WITHHELD:  # across an opened cell
                reached = [m for m in position.neighbours(n) if unknown(m)]
            else:
                continue
            for m in reached:
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
            if len(seen) >= threshold:
                return False
    return True


def _straight_two_from_clues(analysis) -> set:
    """The cells two steps up, down, left or right of a clue that touches a covered cell."""
    position = analysis.position
    width, height = position.width, position.height
    flat = position.grid.ravel()
    clues = [clue for clue in position.clue_cells if any(flat[n] == COVERED for n in position.neighbours(clue))]
    out = set()
    for clue in clues:
        r, c = divmod(clue, width)
        for dr, dc in ((2, 0), (-2, 0), (0, 2), (0, -2)):
            if 0 <= r + dr < height and 0 <= c + dc < width:
                out.add((r + dr) * width + c + dc)
    return out
