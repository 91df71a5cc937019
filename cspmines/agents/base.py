"""What every agent is: a ``reset`` and an ``act``, and how an agent is named (its spec).

An agent sees only the :class:`~cspmines.position.Position` a player would
see, plus the game's rules, and answers with an :class:`Action`. Agents are
deterministic given the seed passed to ``reset``. The registry that makes
agents by name is :mod:`cspmines.agents.registry`.

``Action``, ``Agent`` and ``RULES`` live in :mod:`cspmines.actions` (the
games use them too) and are re-exported here.

>>> parse_agent_spec("exact:lookahead=3")
('exact', {'lookahead': 3})
"""

from __future__ import annotations

import numpy as np

from ..actions import RULES, Action, Agent
from ..errors import CspminesError
from ..position import COVERED, FLAG, Position

__all__ = [
    "Action",
    "Agent",
    "RULES",
    "UnknownAgentError",
    "SeededAgent",
    "parse_agent_spec",
    "newly_revealed",
]

class UnknownAgentError(CspminesError, ValueError):
    """An agent name that is not registered, or options it does not take."""


class SeededAgent:
    """The common part of every agent: the rules it plays and its own random stream.

    Subclasses set ``name``, override :meth:`start` to clear their per-game
    memory, and implement ``act``.
    """

    name = ""

    def __init__(self):
        self.reset(rules="classic", seed=None)

    def reset(self, *, rules: str, seed) -> None:
        self.rules = rules
        self.rng = rng_from(seed)
        self.start()

    def start(self) -> None:
        """Forget the last game (nothing to forget by default)."""


def parse_agent_spec(spec: str) -> tuple[str, dict]:
    """``"name"`` or ``"name:key=value,key=value"`` as (name, options); values are
    read as int, float, true/false or none where they look like one.

    >>> parse_agent_spec("exact:lookahead=6,margin=0.03")
    ('exact', {'lookahead': 6, 'margin': 0.03})
    """
    name, _, rest = spec.partition(":")
    options = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, equals, value = part.partition("=")
        if not equals or not key:
            raise UnknownAgentError(f"agent option {part!r} in {spec!r} is not key=value")
        options[key] = _option_value(value)
    return name, options


def _option_value(text: str):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def rng_from(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def covered(position: Position) -> list[int]:
    """Covered, unflagged cells: the ones a move can open."""
    return list(position.covered_cells)


def centre_distance(position: Position, cell: int) -> float:
    """Squared distance from the board's centre (the seeds' tie-break)."""
    row, col = position.row_col(cell)
    return (row - (position.height - 1) / 2) ** 2 + (col - (position.width - 1) / 2) ** 2


def newly_revealed(previous: Position | None, position: Position) -> list[int]:
    """Cells that were covered in ``previous`` and are not now, in flat order (all revealed
    cells when there is no previous position)."""
    now = position.grid.ravel()
    if previous is None:
        return [int(c) for c in np.flatnonzero((now != COVERED) & (now != FLAG))]
    before = previous.grid.ravel()
    return [int(c) for c in np.flatnonzero(((before == COVERED) | (before == FLAG)) & (now != COVERED) & (now != FLAG))]
