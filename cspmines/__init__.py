"""cspmines: exact constraint-programming analysis of Minesweeper positions.

>>> import cspmines
>>> analysis = cspmines.solve(cspmines.Position.from_string("3x1x1\\n.1."))
>>> analysis.model_count, analysis.probability(2)
(2, Fraction(1, 2))
"""

from .engine.analysis import Analysis, ChainReport, ComponentReport
from .engine.budget import Limit
from .engine.cache import Cache
from .engine.certain import Certainty, certain_cells
from .engine.clues import ClueSpread, clue_spread
from .engine.engine import Engine, sample_layouts, solve
from .engine.insight import Insight, insight_of
from .engine.question import Density
from .engine.value import CellValue, PositionValue, value_of
from .errors import (
    BackendUnavailableError,
    BudgetExceededError,
    CellError,
    CspminesError,
    InconsistentPositionError,
    MemoryBudgetError,
    MissingTotalError,
    PositionFormatError,
    TooLargeError,
    UnknownBackendError,
)
from .position import Position

__all__ = [
    "Analysis",
    "Density",
    "Engine",
    "Limit",
    "Cache",
    "ChainReport",
    "ComponentReport",
    "Position",
    "solve",
    "sample_layouts",
    "clue_spread",
    "ClueSpread",
    "insight_of",
    "Insight",
    "certain_cells",
    "Certainty",
    "value_of",
    "PositionValue",
    "CellValue",
    "CspminesError",
    "CellError",
    "PositionFormatError",
    "InconsistentPositionError",
    "BackendUnavailableError",
    "BudgetExceededError",
    "MemoryBudgetError",
    "TooLargeError",
    "MissingTotalError",
    "UnknownBackendError",
]

__version__ = "0.2.0"
