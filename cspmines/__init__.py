"""cspmines: exact constraint-programming analysis of Minesweeper positions.

>>> import cspmines
>>> analysis = cspmines.solve(cspmines.Position.from_string("3x1x1\\n.1."))
>>> analysis.model_count, analysis.probability(2)
(2, Fraction(1, 2))
"""

from .analysis import Analysis, ComponentReport
from .certain import Certainty, certain_cells
from .engine import Engine
from .errors import (
    BackendUnavailableError,
    BudgetExceededError,
    CspminesError,
    InconsistentPositionError,
    MissingTotalError,
    PositionFormatError,
    UnknownBackendError,
)
from .memory import Memory
from .position import Position
from .question import Density, Limit
from .sampling import sample_layouts
from .solver import solve

__all__ = [
    "Analysis",
    "Density",
    "Engine",
    "Limit",
    "Memory",
    "ComponentReport",
    "Position",
    "solve",
    "sample_layouts",
    "certain_cells",
    "Certainty",
    "CspminesError",
    "PositionFormatError",
    "InconsistentPositionError",
    "BackendUnavailableError",
    "BudgetExceededError",
    "MissingTotalError",
    "UnknownBackendError",
]

__version__ = "0.1.0"
