"""What every agent is: a ``reset`` and an ``act``, keyed by name in a registry.

An agent sees only the :class:`~cspmines.position.Position` a player would
see, plus the game's rules, and answers with an :class:`Action`. Agents are
deterministic given the seed passed to ``reset``.

``Action``, ``Agent`` and ``RULES`` live in :mod:`cspmines.actions` (the
games use them too) and are re-exported here.

>>> make_agent("random").name
'random'
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..actions import RULES, Action, Agent
from ..errors import CspminesError
from ..position import COVERED, FLAG, Position

__all__ = [
    "Action",
    "Agent",
    "RULES",
    "register_agent",
    "make_agent",
    "agent_names",
    "known_agent",
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


_AGENTS: dict[str, Callable[[], Agent]] = {}


def register_agent(name: str, factory: Callable[[], Agent]) -> None:
    """Make ``factory`` (a class or function taking the agent's options as keywords) known by ``name``
    to :func:`make_agent`, ``cspmines bench`` and the benchmark suites; a name registered again is replaced."""
    _AGENTS[name] = factory


def agent_names() -> tuple[str, ...]:
    """Registered agent names, sorted.

    >>> agent_names()[:3]
    ('exact', 'greedy', 'knowledge-base')
    """
    return tuple(sorted(_AGENTS))


def known_agent(spec: str) -> bool:
    """Whether ``spec`` names an agent :func:`make_agent` can look for: a registered name, a plugin's, or a
    player from outside the package (whose options and whether it starts are checked when it is made).

    >>> known_agent("exact:lookahead=2"), known_agent("cmd:./player"), known_agent("nope")
    (True, True, False)
    """
    from .external import is_outside, plugin_factory

    name = parse_agent_spec(spec)[0] if not is_outside(spec) else ""
    return is_outside(spec) or name in _AGENTS or plugin_factory(name) is not None


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


def make_agent(spec: str, **options) -> Agent:
    """A new agent by name, with options after a colon (``"exact:lookahead=6"``) or as keywords.

    Players from outside the package are named the same way (:mod:`cspmines.agents.external`):
    ``"cmd:COMMAND LINE"`` (a program speaking the line protocol), ``"path/to/file.py:ClassName"``, or
    the name of an installed plugin (entry-point group ``cspmines.agents``).

    >>> make_agent("exact:lookahead=3").options.lookahead
    3
    >>> make_agent("nope")
    Traceback (most recent call last):
    ...
    cspmines.agents.base.UnknownAgentError: unknown agent 'nope'; choose one of exact, greedy, knowledge-base, partition, random, risk-score, set-theory, single-point (or a plugin's name, cmd:COMMAND, FILE.py:CLASS)
    """
    from .external import is_outside, outside_agent, plugin_factory  # they build on this module

    if is_outside(spec):
        return outside_agent(spec, **options)
    name, parsed = parse_agent_spec(spec)
    factory = _AGENTS.get(name) or plugin_factory(name)
    if factory is None:
        raise UnknownAgentError(f"unknown agent {name!r}; choose one of {', '.join(agent_names())} "
                                "(or a plugin's name, cmd:COMMAND, FILE.py:CLASS)")
    try:
        return factory(**{**parsed, **options})
    except TypeError as error:
        raise UnknownAgentError(f"agent {name!r} does not take those options: {error}") from None


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
