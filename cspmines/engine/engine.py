"""The exact engine as an object: a backend, a default :class:`~cspmines.engine.budget.Limit`, and the
:class:`~cspmines.engine.cache.Cache` it owns; and the module-level functions over a default engine.

An :class:`Engine` owns its cache as a python-sat solver owns its handle, and
hands itself (the backend that counts and the cache that remembers) to every
step below it as an argument: nothing below looks a cache up. Two engines (two
games, two workers, two threads) never share or clear each other's caches,
and ``with Engine() as engine:`` empties its cache at the end. Each analysis
names the engine that solved it (``analysis.engine``): a reveal, a clue spread or
an insight of it is worked out by that engine, from what it kept.

>>> from cspmines import Engine, Limit, Position
>>> with Engine(limit=Limit(time=10)) as engine:
...     analysis = engine.solve(Position.from_string("3x2x1\\n1..\\n..."))
...     after = engine.after(analysis, 2, 0)   # (0, 2) shows 0: (0, 1), (1, 1), (1, 2) are safe
>>> analysis.probability(3), after.mine_cells   # so the 1's mine is at (1, 0)
(Fraction(1, 3), (3,))

:func:`solve` and :func:`sample_layouts` (``cspmines.solve``, ``cspmines.sample_layouts``) are thin
functions over the calling thread's default engine of the backend asked for (:func:`default_engine`):
each thread has its own, so the web server's worker threads never share one, and a thread's default
engines (one per backend name) share the thread's one cache.

>>> default_engine() is default_engine(), default_engine().cache is default_engine("dp").cache
(True, True)
"""

from __future__ import annotations

import random
import threading
from numbers import Real

from ..position import Position
from . import sampling, solver
from .analysis import Analysis
from .backends import get_backend
from .budget import Limit, read_limit
from .cache import Cache
from .certain import Certainty, certain_cells
from .clues import ClueSpread, clue_spread
from .insight import PARTS, Insight, insight_of
from .question import Density
from .reveal import solve_revealed

__all__ = ["Engine", "default_engine", "sample_layouts", "solve"]


class Engine:
    """Solve positions with one backend under one default limit, with a cache of its own.

    Parameters
    ----------
    backend : str
        A registered backend name (:func:`cspmines.engine.backends.backend_names`).
    limit : Limit, optional
        The budget of every call that does not give its own.
    cache : Cache, optional
        What it keeps of recent chains (a new one by default).

    Attributes
    ----------
    cache : Cache
        What it remembers: counts of chains, splits, counting orders, forward passes, and
        what each of its analyses keeps for one more clue.
    counter : Backend
        The backend that counts, keeping what it remembers in ``cache``.
    """

    def __init__(self, backend: str = "auto", *, limit: Limit | None = None, cache: Cache | None = None):
        self.backend = backend
        self.limit = None if limit is None else read_limit(limit)
        self.cache = cache if cache is not None else Cache()
        self.counter = get_backend(backend, self.cache)
        self.backend_name = backend if isinstance(backend, str) else self.counter.name  # what analyses report

    def __repr__(self) -> str:
        return f"Engine(backend={self.backend!r}, limit={self.limit!r})"

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc) -> None:
        self.forget()

    def _limit(self, limit: Limit | None) -> Limit:
        """A call's own limit, else this engine's (each read by :func:`~cspmines.engine.budget.read_limit`)."""
        return read_limit(limit, default=self.limit)

    def solve(self, position: Position, *, mines: int | None = None, density: Real | Density | None = None, limit: Limit | None = None,
              explain: bool = True, settle: bool = True) -> Analysis:
        """:func:`cspmines.solve` with this engine's backend, limit and memories."""
        return solver.solve(position, engine=self, mines=mines, density=density, limit=self._limit(limit), explain=explain, settle=settle)

    def after(self, analysis: Analysis, cell, clue: int) -> Analysis:
        """The analysis once covered ``cell`` (a flat index or a ``(row, col)`` pair) shows ``clue``, recounting only the chains it touches
        (:func:`cspmines.engine.reveal.solve_revealed`; by the engine that solved ``analysis``; no
        budget: it counts what the analysis counted)."""
        return solve_revealed(analysis, cell, clue)

    def spread(self, analysis: Analysis, cell, *, limit: Limit | None = None) -> ClueSpread:
        """What opening covered ``cell`` (a flat index or a ``(row, col)`` pair) ends in, exactly: a mine, or each clue it can show, in
        layouts (:func:`cspmines.engine.clues.clue_spread`; by the engine that solved ``analysis``), within the
        limit's time."""
        return clue_spread(analysis, cell, limit=self._limit(limit))

    def insight(self, analysis: Analysis, *, limit: Limit | None = None, parts=PARTS, endgame_share: float = 1.0) -> Insight:
        """Dead cells, 50/50s and every cell's winning chance with best play (bounds past the budget), within the
        limit: the ``parts`` asked, the endgame's search within ``endgame_share`` of the time left for it
        (:func:`cspmines.engine.insight.insight_of`).

        >>> from cspmines import Engine, Position
        >>> engine = Engine()
        >>> engine.insight(engine.solve(Position.from_string("2x2x1\\n11\\n.."))).fifty_fifties[0].kind
        'unavoidable'
        """
        return insight_of(analysis, limit=self._limit(limit), parts=parts, endgame_share=endgame_share)

    def certain(self, position: Position, *, mines: int | None = None, limit: Limit | None = None) -> Certainty:
        """The cells proved safe or mines without counting (:func:`cspmines.certain_cells`), within the limit."""
        return certain_cells(position, mines=mines, limit=self._limit(limit))

    def sample(self, position: Position, count: int, *, seed=None, mines: int | None = None,
               density: Real | Density | None = None, limit: Limit | None = None):
        """Layouts drawn uniformly from those the position allows (:func:`cspmines.sample_layouts`), within the limit."""
        return sampling.sample_layouts(position, count, engine=self, seed=seed, mines=mines, density=density,
                                       limit=self._limit(limit))

    def forget(self) -> None:
        """Empty this engine's cache of recent chains (answers never depend on it)."""
        self.cache.forget()


_threads = threading.local()


def default_engine(backend: str = "auto") -> Engine:
    """The calling thread's default engine of ``backend``, made on first use: what :func:`solve` and
    :func:`sample_layouts` solve with. A thread's default engines share one memory; no two threads
    share one (the web server's worker threads each have theirs). ``default_engine().forget()``
    empties the thread's memory (a benchmark timing players one after another starts each so).

    >>> default_engine() is default_engine("auto"), default_engine().cache is default_engine("sat").cache
    (True, True)
    >>> default_engine("fastest")
    Traceback (most recent call last):
    ...
    cspmines.errors.UnknownBackendError: unknown backend 'fastest'; choose one of auto, cpsat, dp, sat
    """
    engines = getattr(_threads, "engines", None)
    if engines is None:
        engines = _threads.engines = {}
    engine = engines.get(backend) if isinstance(backend, str) else None
    if engine is None:
        cache = next(iter(engines.values())).cache if engines else Cache()
        engine = Engine(backend, cache=cache)
        if isinstance(backend, str):  # a backend object is the caller's: its engine is not kept
            engines[backend] = engine
    return engine


def solve(
    position: Position,
    *,
    backend: str = "auto",
    mines: int | None = None,
    density: Real | Density | None = None,
    limit: Limit | None = None,
    explain: bool = True,
    settle: bool = True,
) -> Analysis:
    """Exact model counts and mine probabilities of a position, by the calling thread's default engine
    of ``backend`` (:func:`default_engine`). The other parameters, what it returns and raises are
    :func:`cspmines.engine.solver.solve`'s.

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("3x1x1\\n.1."))
    >>> analysis.model_count, analysis.engine is default_engine()
    (2, True)
    """
    return solver.solve(position, engine=default_engine(backend), mines=mines, density=density, limit=limit, explain=explain,
                        settle=settle)


def sample_layouts(
    position: Position,
    count: int,
    *,
    seed: int | random.Random | None = None,
    mines: int | None = None,
    density: Real | Density | None = None,
    backend: str = "auto",
    limit: Limit | None = None,
) -> list[frozenset]:
    """``count`` mine layouts drawn independently and uniformly from those ``position`` allows, by the
    calling thread's default engine of ``backend`` (which explains an inconsistent position). The
    other parameters, what it returns and raises are :func:`cspmines.engine.sampling.sample_layouts`'.

    >>> from cspmines import Position, sample_layouts
    >>> sample_layouts(Position.from_string("3x1x1\\n.1."), 3, seed=8)
    [frozenset({2}), frozenset({0}), frozenset({2})]
    """
    return sampling.sample_layouts(position, count, engine=default_engine(backend), seed=seed, mines=mines, density=density,
                                   limit=limit)
