"""Mine layouts drawn uniformly from those a position allows.

Monte Carlo studies (rollouts of a policy from a real position, the value of
a guess measured by playing on) need boards that agree with what the player
sees, each as likely as the position says. :func:`sample_layouts` draws
them exactly, in the engine's own terms: the cells single clues force are
set aside, each chain of influence is counted once by the ``dp``
backend's dynamic programme, which is kept; then, for every layout, the
number of mines in each chain is drawn by its share of the position's
layouts (the chains' counts and the binomial of the cells off the front,
combined as :mod:`cspmines.engine.combine` does), each chain's layout is drawn
with that many mines by walking its programme backwards
(:class:`~cspmines.engine.backends.sampler.LayoutSampler`), and the cells off the
front, which no clue can tell apart, take the mines left uniformly (or each
is a mine with the density's chance when the total is unknown). Every
weight is an exact integer drawn against an exact random integer, so the
draw is uniform, not merely close to it, and a layout after the first
costs no count at all.

>>> from cspmines import Engine, Position
>>> position = Position.from_string("4x2x2\\n1...\\n1...")
>>> layouts = sample_layouts(position, 4, engine=Engine(), seed=1)
>>> [sorted(layout) for layout in layouts]
[[1, 2], [5, 7], [5, 7], [1, 7]]
>>> all(len(layout & {1, 5}) == 1 for layout in layouts)   # the 1s see exactly one mine
True
"""

from __future__ import annotations

import random
from itertools import pairwise
from numbers import Real

import numpy as np

from ..errors import BudgetExceededError, InconsistentPositionError, MemoryBudgetError, TooLargeError
from ..position import Position
from .backends.dynamic import DynamicProgrammingBackend
from .backends.sampler import weighted_picks
from .budget import Budget, Limit, format_bytes
from .chains import split_chains
from .combine import binomials, convolve, polynomial_bytes
from .constraints import settle_position
from .question import Density
from .solver import Question, read_question, solve

__all__ = ["layouts_still_possible", "mine_rows", "sample_layouts", "sample_mines"]


def sample_layouts(
    position: Position,
    count: int,
    *,
    engine,
    seed: int | random.Random | None = None,
    mines: int | None = None,
    density: Real | Density | None = None,
    limit: Limit | None = None,
) -> list[frozenset]:
    """``count`` mine layouts drawn independently and uniformly from those ``position`` allows, by
    ``engine`` (:func:`cspmines.sample_layouts` passes the calling thread's default engine).

    Parameters
    ----------
    position : Position
    count : int
        How many layouts to draw.
    engine : Engine, keyword-only
        Its cache keeps the chains' programmes for later draws; its backend explains an
        inconsistent position (as :func:`~cspmines.engine.solver.solve` does). The layouts
        themselves are drawn from the ``dp`` backend's dynamic programme, whatever its backend.
    seed : int, random.Random or None, keyword-only
        The source of randomness (networkx's convention): the same seed gives
        the same layouts.
    mines, density : keyword-only
        As for :func:`~cspmines.engine.solver.solve` when the position's header has
        no total (``density`` a number or a :class:`~cspmines.engine.question.Density`): with ``density``
        each layout is weighted by
        ``density**k * (1 - density)**(n - k)`` for its ``k`` mines.
    limit : Limit, keyword-only
        Its ``time``: stop after this many seconds with a
        :class:`~cspmines.errors.BudgetExceededError` whose ``layouts``
        attribute holds the layouts drawn so far (the one count at the start
        is bounded too; the layouts are drawn 256 at a time, the clock read
        before each batch). Its ``memory``: bytes the count and the layouts may hold
        (:data:`~cspmines.engine.budget.DEFAULT_MEMORY` unless given; None: no allowance): past it,
        ``TooLargeError`` before any work where the board or the layouts alone are too large, else
        ``MemoryBudgetError`` from the count. Its ``nodes`` and ``max_chain`` are not used.

    Returns
    -------
    list of frozenset
        Each layout is the set of flat cells holding a mine: the covered
        cells drawn as mines and the known mines (flags, opened mines).
        :func:`sample_mines` gives the same layouts as one boolean array.

    Raises
    ------
    InconsistentPositionError
        No layout fits the position.
    MissingTotalError
        The total is unknown and neither ``mines`` nor ``density`` was given.
    BudgetExceededError
        The limit's time was reached first.

    Examples
    --------
    >>> from cspmines import Engine, Limit, Position
    >>> sample_layouts(Position.from_string("3x1x1\\n.1."), 3, engine=Engine(), seed=8)
    [frozenset({2}), frozenset({0}), frozenset({2})]
    >>> sample_layouts(Position.from_string("3x1x1\\n.1."), -1, engine=Engine())
    Traceback (most recent call last):
    ...
    ValueError: count must be >= 0, got -1
    >>> sample_layouts(Position.from_string("3x1x1\\n.1."), 5, engine=Engine(), limit=Limit(time=0))
    Traceback (most recent call last):
    ...
    ValueError: the time limit must be a number of seconds above 0, got 0
    """
    try:
        mine_rows = sample_mines(position, count, engine=engine, seed=seed, mines=mines, density=density, limit=limit)
    except BudgetExceededError as stopped:
        stopped.layouts = _as_sets(stopped.layouts)
        raise
    return _as_sets(mine_rows)


def sample_mines(
    position: Position,
    count: int,
    *,
    engine,
    seed: int | random.Random | None = None,
    mines: int | None = None,
    density: Real | Density | None = None,
    limit: Limit | None = None,
) -> np.ndarray:
    """The layouts of :func:`sample_layouts` (the same ones for the same seed) as a boolean array:
    a row a layout, a column a flat cell, True where the layout puts a mine.

    >>> from cspmines import Engine, Position
    >>> sample_mines(Position.from_string("3x1x1\\n.1."), 3, engine=Engine(), seed=8).astype(int).tolist()
    [[0, 0, 1], [1, 0, 0], [0, 0, 1]]
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    question = read_question(position, mines=mines, density=density, limit=limit)
    memory = question.limit.memory
    if memory is not None and count * position.size > memory:  # the layouts' rows, a byte a cell
        raise TooLargeError(
            f"{count:,} layouts of {position.size:,} cells take {format_bytes(count * position.size)}, over the memory "
            f"allowance of {format_bytes(memory)}: draw fewer, or raise it with --memory SIZE (Limit(memory=...) in Python)"
        )
    # networkx is imported where first needed: importing it takes about half of a cold start
    from networkx.utils import create_py_random_state

    generator = np.random.default_rng(create_py_random_state(seed).getrandbits(128))
    budget = question.limit.start()
    batches: list[np.ndarray] = []
    drawn = 0

    def out_of_time() -> BudgetExceededError:
        error = BudgetExceededError(f"time limit of {budget.time_limit} s reached after {drawn} of {count} layouts")
        error.layouts = _stacked(batches, position.size)  # what was drawn is still a fair sample
        return error

    try:
        draw = _Draw(position, engine, question, budget)
    except MemoryBudgetError as error:
        error.layouts = _stacked([], position.size)  # none drawn: the count came first
        raise
    except BudgetExceededError:
        raise out_of_time() from None
    while drawn < count:
        if budget.expired():
            raise out_of_time()
        batches.append(draw.many(min(_BATCH, count - drawn), generator))
        drawn += len(batches[-1])
    return _stacked(batches, position.size)


_BATCH = 256  # layouts drawn together: the walk's lookups are shared within a batch


def _stacked(batches: list, size: int) -> np.ndarray:
    return np.concatenate(batches) if batches else np.zeros((0, size), dtype=bool)


def _as_sets(mine_rows: np.ndarray) -> list[frozenset]:
    rows, cells = np.nonzero(mine_rows)
    ends = np.searchsorted(rows, np.arange(1, len(mine_rows) + 1)).tolist()
    flat = cells.tolist()
    return [frozenset(flat[start:end]) for start, end in pairwise([0, *ends])]


class _Draw:
    """Everything a draw needs, counted once: the forced cells, each chain's kept
    programme, and the weights that share the mines among the chains and the rest."""

    def __init__(self, position: Position, engine, question: Question, budget: Budget):
        mines, density = question.mines, question.density
        settled = settle_position(position, mines=mines)
        system = settled.system
        counter = DynamicProgrammingBackend(engine.cache)  # its forward passes kept in the engine's cache
        chains = split_chains(system, engine.cache)
        self.samplers = [counter.sampler(chain, budget=budget) for chain in chains]
        self.sizes = [chain.n_cells for chain in chains]
        self.size = position.size
        self.rest = np.asarray(system.unconstrained_cells, dtype=np.intp)
        self.known = np.asarray(sorted(frozenset(position.known_mine_cells) | settled.mine_cells), dtype=np.intp)
        self.density = density
        if density is not None:
            consistent = self._prepare_density()
        else:
            assert system.mines_left is not None  # total_or_density gave a total
            consistent = self._prepare_total(system.mines_left, budget)
        if not consistent:
            solve(position, engine=engine, mines=mines, density=density)  # raises, naming the clues
            raise InconsistentPositionError("no mine layout fits the position")

    def _prepare_total(self, mines_left: int, budget: Budget | None) -> bool:
        """Suffix products of the chains' polynomials and the rest's binomials, up to ``mines_left``:
        ``after[i][t]`` counts the layouts of chains i.. and the rest with t mines among them (each
        list sized against ``budget`` before it is made: thousands of chains times a large total)."""
        self.mines_left = mines_left
        self.shares: dict = {}
        if mines_left < 0:
            return False
        # a coefficient counts layouts of the cells so far: at most as many bits as cells
        cells, held = len(self.rest), 0
        polynomial = binomials(len(self.rest), 0, min(len(self.rest), mines_left))
        self.after = [polynomial]
        for sampler, size in zip(reversed(self.samplers), reversed(self.sizes), strict=True):
            cells += size
            if budget is not None:
                held += polynomial_bytes(min(len(polynomial) + len(sampler.models), mines_left + 1), cells)
                budget.reserve(held, "the draw's products of the chains' counts")
                budget.spend(len(polynomial))
            polynomial = convolve(sampler.models, polynomial)[: mines_left + 1]
            self.after.append(polynomial)
        self.after.reverse()
        return len(self.after[0]) > mines_left and self.after[0][mines_left] > 0

    def _prepare_density(self) -> bool:
        """Each chain's mine numbers weighted by ``models[k] * a**k * (b - a)**(n - k)``
        for the density a/b (the common factor b**n dropped: integers)."""
        assert self.density is not None  # a draw under a density
        a, b = self.density.numerator, self.density.denominator
        self.weights = [
            [w * a**k * (b - a) ** (n - k) for k, w in enumerate(sampler.models)]
            for sampler, n in zip(self.samplers, self.sizes, strict=True)
        ]
        return all(any(weights) for weights in self.weights)

    def _shares(self, i: int, left: int) -> tuple[list, int]:
        """How many layouts give chain ``i`` each number of mines when ``left`` remain for it and
        everything after it, and their sum; kept, as draws meet the same (chain, left) again."""
        known = self.shares.get((i, left))
        if known is None:
            later = self.after[i + 1]
            # this chain holds j mines in as many layouts as it has, times those of everything after it
            shares = [w * later[left - j] if 0 <= left - j < len(later) else 0 for j, w in enumerate(self.samplers[i].models)]
            known = self.shares[(i, left)] = shares, sum(shares)
        return known

    def many(self, count: int, generator: np.random.Generator) -> np.ndarray:
        """``count`` layouts as rows of a boolean array: each chain's mine number, its layout, then the rest."""
        out = np.zeros((count, self.size), dtype=bool)
        out[:, self.known] = True
        if self.density is None:
            left = np.full(count, self.mines_left, dtype=np.int64)
            for i, sampler in enumerate(self.samplers):
                taken = np.empty(count, dtype=np.int64)
                for value in np.unique(left).tolist():
                    rows = np.flatnonzero(left == value)
                    shares, total = self._shares(i, value)
                    taken[rows] = weighted_picks(generator, shares, total, len(rows))
                self._fill(sampler, out, taken, generator)
                left -= taken
            if len(self.rest):  # each row's mines left go to the cells off the front uniformly
                order = generator.permuted(np.tile(self.rest, (count, 1)), axis=1)
                chosen = np.arange(len(self.rest)) < left[:, None]
                out[np.nonzero(chosen)[0], order[chosen]] = True
        else:
            for sampler, weights in zip(self.samplers, self.weights, strict=True):
                self._fill(sampler, out, weighted_picks(generator, weights, sum(weights), count), generator)
            assert self.density is not None  # a draw under a density
            a, b = self.density.numerator, self.density.denominator
            out[:, self.rest] = _below(generator, b, (count, len(self.rest))) < a
        return out

    @staticmethod
    def _fill(sampler, out: np.ndarray, taken: np.ndarray, generator: np.random.Generator) -> None:
        """Each row's layout of one chain with the mine number ``taken`` gives it."""
        for k in np.unique(taken).tolist():
            sampler.fill(out, np.flatnonzero(taken == k), k, generator)


def _below(generator: np.random.Generator, bound: int, shape: tuple) -> np.ndarray:
    """Integers drawn uniformly below ``bound``, exactly (Python's big integers past 63 bits)."""
    if bound < 1 << 63:
        return generator.integers(0, bound, size=shape, dtype=np.int64)
    source = random.Random(int(generator.integers(1 << 63)))
    return np.array([source.randrange(bound) for _ in range(int(np.prod(shape)))], dtype=object).reshape(shape)


def layouts_still_possible(position: Position, layouts):
    """The layouts (whole boards, as :func:`sample_layouts` draws them) that ``position`` still
    allows: its opened cells no mine and each clue the mines around it, its flags and opened mines
    mines, its total theirs. Layouts drawn uniformly for an earlier position of the same game and
    kept this way are uniform for this one (rejection sampling): a player can keep them and draw
    only the difference. Rows of :func:`sample_mines` are kept as rows of the same array.

    >>> board = Position.from_string("3x1x1\\n...")
    >>> layouts = [frozenset({0}), frozenset({1}), frozenset({2})]
    >>> layouts_still_possible(Position.from_string("3x1x1\\n1.."), layouts)   # (0,0) shows 1: the mine is at 1
    [frozenset({1})]
    """
    from ..neighbours import neighbour_sum

    if not len(layouts):
        return layouts[:0]
    grid = position.grid.ravel()
    mines = mine_rows(layouts, position.size)
    known = (grid == -2) | (grid == -3)  # flags and opened mines
    opened = (grid >= 0) | (grid == -4)  # clues and withheld clues
    clues = np.flatnonzero(grid >= 0)
    around = neighbour_sum(mines.reshape(len(layouts), position.height, position.width)).reshape(len(layouts), -1)
    fits = ~mines[:, opened].any(axis=1) & mines[:, known].all(axis=1)
    fits &= (around[:, clues] == grid[clues]).all(axis=1)
    if position.mines is not None:
        fits &= mines.sum(axis=1) == position.mines
    if isinstance(layouts, np.ndarray):
        return layouts[fits]
    return [layout for layout, keep in zip(layouts, fits, strict=True) if keep]


def mine_rows(layouts, size: int) -> np.ndarray:
    """Layouts as :func:`sample_mines` gives them (a boolean row each), from sets of mine cells
    (an array of rows passes through).

    >>> mine_rows([frozenset({0}), frozenset({1, 2})], 3).astype(int).tolist()
    [[1, 0, 0], [0, 1, 1]]
    """
    if isinstance(layouts, np.ndarray):
        return layouts
    mines = np.zeros((len(layouts), size), dtype=bool)
    for i, layout in enumerate(layouts):
        mines[i, list(layout)] = True
    return mines
