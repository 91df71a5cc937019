"""The agents by name: the registry :func:`make_agent` reads, the built-in players registered by
:mod:`cspmines.agents`, and players from outside the package (:mod:`cspmines.agents.external`: a command,
a Python file, an installed plugin) named the same way.

>>> make_agent("random").name
'random'
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Agent, UnknownAgentError, parse_agent_spec
from .external import is_outside, outside_agent, plugin_factory

__all__ = ["agent_names", "known_agent", "make_agent", "register_agent"]


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
    name = parse_agent_spec(spec)[0] if not is_outside(spec) else ""
    return is_outside(spec) or name in _AGENTS or plugin_factory(name) is not None

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
