"""The exact engine as an object: a backend, a default :class:`~cspmines.engine.question.Limit`, and its own
memories of recent chains.

:func:`cspmines.solve` is a thin function over the calling thread's memory; an
:class:`Engine` keeps its own, so two engines (two games, two workers, two
threads) never share or clear each other's, and ``with Engine() as engine:``
forgets them at the end (python-sat's solvers are objects with a context
manager too).

>>> from cspmines import Engine, Limit, Position
>>> with Engine(limit=Limit(time=10)) as engine:
...     analysis = engine.solve(Position.from_string("3x2x1\\n1..\\n..."))
...     after = engine.after(analysis, 2, 0)   # (0, 2) shows 0: (0, 1), (1, 1), (1, 2) are safe
>>> analysis.probability(3), after.mine_cells   # so the 1's mine is at (1, 0)
(Fraction(1, 3), (3,))
"""

from __future__ import annotations

from numbers import Real

from ..position import Position
from .analysis import Analysis
from .certain import Certainty, certain_cells
from .clues import ClueSpread, clue_spread
from .insight import Insight, insight_of
from .memory import Memory, using
from .question import Density, Limit, read_limit
from .reveal import solve_revealed
from .sampling import sample_layouts
from .solver import solve

__all__ = ["Engine"]


class Engine:
    """Solve positions with one backend under one default limit, with memories of their own.

    Parameters
    ----------
    backend : str
        A registered backend name (:func:`cspmines.engine.backends.backend_names`).
    limit : Limit, optional
        The budget of every call that does not give its own.
    memory : Memory, optional
        The memories of recent chains (a new one by default).
    """

    def __init__(self, backend: str = "auto", *, limit: Limit | None = None, memory: Memory | None = None):
        self.backend = backend
        self.limit = None if limit is None else read_limit(limit)
        self.memory = memory or Memory()

    def __repr__(self) -> str:
        return f"Engine(backend={self.backend!r}, limit={self.limit!r})"

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.forget()

    def _limit(self, limit: Limit | None) -> Limit:
        """A call's own limit, else this engine's (each read by :func:`~cspmines.engine.question.read_limit`)."""
        return read_limit(limit, default=self.limit)

    def solve(self, position: Position, *, mines: int | None = None, density: Real | Density | None = None, limit: Limit | None = None,
              explain: bool = True, settle: bool = True) -> Analysis:
        """:func:`cspmines.solve` with this engine's backend, limit and memories."""
        with using(self.memory):
            return solve(position, backend=self.backend, mines=mines, density=density, limit=self._limit(limit),
                         explain=explain, settle=settle)

    def after(self, analysis: Analysis, cell: int, clue: int) -> Analysis:
        """The analysis once covered ``cell`` shows ``clue``, recounting only the chains it touches
        (:func:`cspmines.engine.reveal.solve_revealed`; no budget: it counts what the analysis counted)."""
        with using(self.memory):
            return solve_revealed(analysis, cell, clue, backend=self.backend)

    def spread(self, analysis: Analysis, cell: int, *, limit: Limit | None = None) -> ClueSpread:
        """What opening covered ``cell`` ends in, exactly: a mine, or each clue it can show, in
        layouts (:func:`cspmines.engine.clues.clue_spread`), within the limit's time."""
        with using(self.memory):
            return clue_spread(analysis, cell, backend=self.backend, limit=self._limit(limit))

    def insight(self, analysis: Analysis, *, limit: Limit | None = None) -> Insight:
        """Dead cells, 50/50s and (few layouts left) every cell's winning chance with best play, within the
        limit (:func:`cspmines.engine.insight.insight_of`).

        >>> from cspmines import Engine, Position
        >>> engine = Engine()
        >>> engine.insight(engine.solve(Position.from_string("2x2x1\\n11\\n.."))).fifty_fifties[0].kind
        'unavoidable'
        """
        with using(self.memory):
            return insight_of(analysis, backend=self.backend, limit=self._limit(limit))

    def certain(self, position: Position, *, mines: int | None = None, limit: Limit | None = None) -> Certainty:
        """The cells proved safe or mines without counting (:func:`cspmines.certain_cells`), within the limit."""
        return certain_cells(position, mines=mines, limit=self._limit(limit))

    def sample(self, position: Position, count: int, *, seed=None, mines: int | None = None,
               density: Real | Density | None = None, limit: Limit | None = None):
        """Layouts drawn uniformly from those the position allows (:func:`cspmines.sample_layouts`), within the limit."""
        with using(self.memory):
            return sample_layouts(position, count, seed=seed, mines=mines, density=density, backend=self.backend,
                                  limit=self._limit(limit))

    def forget(self) -> None:
        """Empty this engine's memories of recent chains (answers never depend on them)."""
        self.memory.forget()
