"""Mine layouts drawn uniformly from those a position allows.

Monte Carlo studies (rollouts of a policy from a real position, the value of
a guess measured by playing on) need boards that agree with what the player
sees, each as likely as the position says. :func:`sample_layouts` draws
them exactly, by the chain rule: a cell of the front is decided with its
exact mine probability given the cells decided before it (one
:func:`~cspmines.solve.solve` per undecided cell, the decided cells shown
to the engine as flags and clueless openings), and once the front is
decided the cells off it, which no clue can tell apart, share the mines
left uniformly (or each is a mine with the density's chance when the total
is unknown). Probabilities are compared as exact fractions against exact
random integers, so the draw is uniform, not merely close to it.

>>> from cspmines import Position
>>> position = Position.from_string("4x2x2\\n1...\\n1...")
>>> layouts = sample_layouts(position, 4, seed=1)
>>> [sorted(layout) for layout in layouts]
[[1, 2], [2, 5], [5, 7], [5, 7]]
>>> all(len(layout & {1, 5}) == 1 for layout in layouts)   # the 1s see exactly one mine
True
"""

from __future__ import annotations

import time
from fractions import Fraction

from networkx.utils import create_py_random_state

from .errors import BudgetExceededError
from .position import COVERED, FLAG, WITHHELD, Position
from .solve import solve

__all__ = ["sample_layouts"]


def sample_layouts(
    position: Position,
    count: int,
    *,
    seed=None,
    mines: int | None = None,
    density=None,
    backend: str = "auto",
    time_limit: float | None = None,
) -> list[frozenset]:
    """``count`` mine layouts drawn independently and uniformly from those ``position`` allows.

    Parameters
    ----------
    position : Position
    count : int
        How many layouts to draw.
    seed : int, random.Random or None, keyword-only
        The source of randomness (networkx's convention): the same seed gives
        the same layouts.
    mines, density : keyword-only
        As for :func:`~cspmines.solve.solve` when the position's header has
        no total: with ``density`` each layout is weighted by
        ``density**k * (1 - density)**(n - k)`` for its ``k`` mines.
    backend : str, keyword-only
        The engine backend used for the counts.
    time_limit : float, keyword-only
        Stop after this many seconds (checked before every count, so one
        count may overrun it) with a :class:`~cspmines.errors.BudgetExceededError`
        whose ``layouts`` attribute holds the layouts drawn so far.

    Returns
    -------
    list of frozenset
        Each layout is the set of flat cells holding a mine: the covered
        cells drawn as mines and the known mines (flags, opened mines).

    Raises
    ------
    InconsistentPositionError
        No layout fits the position.
    MissingTotalError
        The total is unknown and neither ``mines`` nor ``density`` was given.
    BudgetExceededError
        ``time_limit`` was reached first.

    Examples
    --------
    >>> from cspmines import Position
    >>> sample_layouts(Position.from_string("3x1x1\\n.1."), 3, seed=7)
    [frozenset({2}), frozenset({0}), frozenset({2})]
    >>> sample_layouts(Position.from_string("3x1x1\\n.1."), -1)
    Traceback (most recent call last):
    ...
    ValueError: count must be >= 0, got -1
    >>> sample_layouts(Position.from_string("3x1x1\\n.1."), 5, time_limit=0)
    Traceback (most recent call last):
    ...
    cspmines.errors.BudgetExceededError: time limit of 0 s reached after 0 of 5 layouts
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    if time_limit is not None and time_limit < 0:
        raise ValueError(f"time_limit must be >= 0, got {time_limit}")
    rng = create_py_random_state(seed)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    first = solve(position, mines=mines, density=density, backend=backend)  # raises on an inconsistent position
    layouts = []
    while len(layouts) < count:
        layout = _draw_one(position, first, rng, mines=mines, density=density, backend=backend, deadline=deadline)
        if layout is None:
            error = BudgetExceededError(f"time limit of {time_limit} s reached after {len(layouts)} of {count} layouts")
            error.layouts = layouts  # what was drawn is still a fair sample
            raise error
        layouts.append(layout)
    return layouts


def _draw_one(position: Position, analysis, rng, *, mines, density, backend, deadline=None) -> frozenset | None:
    """One layout: front cells by the chain rule, then the cells off the front together
    (None once ``deadline`` has passed)."""
    grid = position.grid.copy()
    flat = grid.ravel()
    while True:
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        _settle(flat, analysis)
        undecided = [cell for report in analysis.components for cell in report.cells if flat[cell] == COVERED]
        if not undecided:
            break
        cell = min(undecided)
        flat[cell] = FLAG if _bernoulli(rng, analysis.probability(cell)) else WITHHELD
        analysis = solve(Position(grid, mines=position.mines), mines=mines, density=density, backend=backend, explain=False)
    decided = Position(grid, mines=position.mines)
    rest, known = decided.covered_cells, frozenset(decided.known_mine_cells)
    if analysis.density is not None:
        return known | {cell for cell in rest if _bernoulli(rng, analysis.density)}
    total = mines if mines is not None else position.mines
    return known | set(rng.sample(rest, total - len(known)))


def _settle(flat, analysis) -> None:
    """Mark the cells the analysis proves: mines as flags, safe cells as clueless openings."""
    for cell in analysis.mine_cells:
        if flat[cell] == COVERED:
            flat[cell] = FLAG
    for cell in analysis.safe_cells:
        if flat[cell] == COVERED:
            flat[cell] = WITHHELD


def _bernoulli(rng, probability) -> bool:
    """True with exactly this chance (a Fraction is drawn against an exact random integer)."""
    chance = Fraction(probability)
    return rng.randrange(chance.denominator) < chance.numerator
