"""The exact engine: clues become rules, rules become chains of influence, each chain is counted
exactly, and the counts combine under the mine total into every cell's chance.

One module a step, as :func:`~cspmines.engine.solver.solve` takes them:
:mod:`~cspmines.engine.constraints` (rules, settling), :mod:`~cspmines.engine.chains` (boxes and chains),
:mod:`~cspmines.engine.counting` and :mod:`~cspmines.engine.backends` (counting a chain; a solve's
parts as one value, :class:`~cspmines.engine.counting.Parts`),
:mod:`~cspmines.engine.bounded` (chains cut short), :mod:`~cspmines.engine.combine` (under the total),
:mod:`~cspmines.engine.analysis` (the answer), :mod:`~cspmines.engine.prover` (certain cells by SAT);
beside them :mod:`~cspmines.engine.reveal` (one more clue), :mod:`~cspmines.engine.clues` (what a
cell will show), :mod:`~cspmines.engine.insight` (dead cells, 50/50s, endgame chances),
:mod:`~cspmines.engine.value` (the value of a position under best play), :mod:`~cspmines.engine.glance` (a
board's proved safe cells and least chances, as a look-ahead reads them), :mod:`~cspmines.engine.certain`,
:mod:`~cspmines.engine.sampling`; :mod:`~cspmines.engine.cache` and :mod:`~cspmines.engine.question`
(what an engine keeps and what it is asked, as values); :class:`Engine` holds them together: it owns
its memory and hands itself to each step, and :func:`solve` is a thin function over the calling
thread's default engine (:func:`default_engine`).

>>> from cspmines.engine import Engine
>>> from cspmines import Position
>>> Engine().solve(Position.from_string("3x1x1\\n.1.")).model_count
2
"""

from .analysis import Analysis, ChainReport, ComponentReport
from .budget import Limit
from .cache import Cache
from .certain import Certainty, certain_cells
from .clues import ClueSpread, clue_spread
from .engine import Engine, default_engine, sample_layouts, solve
from .insight import Insight, insight_of
from .question import Density
from .reveal import solve_revealed

__all__ = ["Analysis", "ClueSpread", "ChainReport", "ComponentReport", "Certainty", "Density", "clue_spread", "Engine", "default_engine", "Insight", "Limit", "Cache", "certain_cells", "insight_of",
           "sample_layouts", "solve", "solve_revealed"]
