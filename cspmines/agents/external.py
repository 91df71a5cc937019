"""Players from outside the package, wherever an agent is named (:func:`~cspmines.agents.make_agent`):

* ``"cmd:COMMAND LINE"``: a program in any language speaking the line protocol (docs/protocol.md) on its
  standard input and output, played by a :class:`CommandAgent`. One process per command and thread (a
  bench worker's), reused game after game; one that fails a game is ended, and a fresh one plays the next.
  Tables and records name it by the name it gives.
* ``"path/to/file.py:ClassName"`` (options after another colon, ``file.py:Name:depth=2``): a class in a
  Python file, loaded once per process, that keeps the Agent protocol (``name``, ``reset``, ``act``).
* ``"NAME"``: a plugin, a factory an installed package declares in the entry-point group ``cspmines.agents``.

>>> is_outside("cmd:node player.js"), is_outside("players/mine.py:Mine"), is_outside("exact:lookahead=3")
(True, True, False)
>>> seed_number(12), seed_number(np.random.default_rng(0)) == seed_number(np.random.default_rng(0))
(12, True)
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import shlex
import sys
import threading
from pathlib import Path

import numpy as np

from ..engine.budget import Limit
from ..games.playing import Fault, PlayerFault
from ..position import COVERED, Position
from .base import Action, UnknownAgentError, parse_agent_spec
from .process import PlayerProcess, _seconds
from .process import close_players as _close_processes
from .protocol import QUIT, game_message, hello, position_message, read_move, read_name, result_message

__all__ = ["COMMAND", "ENTRY_POINTS", "DEFAULT_MOVE_TIMEOUT", "CommandAgent", "is_command", "is_outside", "seed_number",
           "outside_agent", "plugin_factory", "player_name", "table_name", "close_players"]

COMMAND = "cmd:"
ENTRY_POINTS = "cspmines.agents"
#: Seconds a player outside the process may take for a move (and to say its name) before it loses the game.
DEFAULT_MOVE_TIMEOUT = 10.0

_NAMES: dict[str, str] = {}  # command -> the name its player gave (in this process, or the one that forked it)
_POOLS = threading.local()  # .players: command -> PlayerProcess, this thread's
_PLUGINS: dict[str, object] = {}


def _forget_pools() -> None:
    """In a forked child: the parent's player processes are not this process's to speak to."""
    global _POOLS
    _POOLS = threading.local()


os.register_at_fork(after_in_child=_forget_pools)


def is_command(spec: str) -> bool:
    return spec.startswith(COMMAND)


def is_outside(spec: str) -> bool:
    """Whether ``spec`` runs code from outside the package by its own words: a command line or a Python
    file (front ends that take specs from others, like the web page, refuse these)."""
    return is_command(spec) or spec.partition(":")[0].endswith(".py")


def seed_number(seed) -> int:
    """The whole number a player outside the process is given for its seed: an int as it is, a numpy
    Generator's next draw below 2**31 (the bench gives each game's agents one), none a fresh draw."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return int(seed)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return int(rng.integers(2**31))


class CommandAgent:
    """A player in another process, spoken to through the line protocol.

    Parameters
    ----------
    command : str
        The command line (split as a POSIX shell would, but run without one).
    move_timeout : float
        Seconds a move (and the player's name, at its start) may take; past them the game is lost.
    index : int, optional
        The number the game is given in the ``game`` message (the bench gives the game's own); by default
        this agent's count of games.

    ``act`` raises :class:`~cspmines.games.PlayerFault` when the player exits, answers something that is
    not a move, makes an illegal move or takes too long; :func:`~cspmines.games.play` then ends the game,
    lost, with the fault in its record.
    """

    def __init__(self, command: str, *, move_timeout: float = DEFAULT_MOVE_TIMEOUT, index: int | None = None):
        if not isinstance(move_timeout, (int, float)) or not move_timeout > 0:
            raise UnknownAgentError(f"move_timeout must be seconds above 0, got {move_timeout!r}")
        try:
            self.argv = shlex.split(command)
        except ValueError as error:
            raise UnknownAgentError(f"cannot read the command line {command!r}: {error}") from None
        if not self.argv:
            raise UnknownAgentError("cmd: needs a command line after it, as in cmd:node player.js")
        self.command = command
        self.move_timeout = float(move_timeout)
        self.index = index
        self.rules, self.seed = "classic", 0
        self._games = 0
        self._announced = False
        self._queued: list[Action] = []  # the rest of a chord's opens

    @property
    def spec(self) -> str:
        return COMMAND + self.command

    @property
    def name(self) -> str:
        """The name the player gave (its spec until it has given one)."""
        return _NAMES.get(self.command, self.spec)

    def reset(self, *, rules: str, seed) -> None:
        self.rules, self.seed = str(rules), seed_number(seed)
        self._announced, self._queued = False, []

    def act(self, position: Position) -> Action:
        while self._queued:  # a chord's opens, each while its cell is still covered (an opening may take some)
            action = self._queued.pop(0)
            if position.code(action.cell) == COVERED:
                return action
        player = _player(self.command, self.move_timeout)
        budget = Limit(time=self.move_timeout, memory=None).start()  # one limit for the whole exchange
        try:
            player.check_quiet()
            if not self._announced:
                index = self._games if self.index is None else self.index
                player.send(game_message(width=position.width, height=position.height, mines=int(position.mines or 0),
                                         rules=self.rules, seed=self.seed, index=index), timeout=_seconds(budget))
                self._announced = True
                self._games += 1
            player.send(position_message(position), timeout=_seconds(budget))
            actions = read_move(player.receive(timeout=_seconds(budget)), position)
        except PlayerFault as fault:
            _drop(self.command)
            if fault.fault == Fault.TIMED_OUT:
                raise PlayerFault(fault.fault, f"no move within {self.move_timeout:g} s") from None
            raise
        except BaseException:  # stopped mid-question (Ctrl-C): its answer must not be taken for the next one's
            _drop(self.command)
            raise
        self._queued = list(actions[1:])
        return actions[0]

    def game_over(self, status: str) -> None:
        """Tell the player how the game ended (a player that has gone is replaced at the next game)."""
        player = _pool().get(self.command)
        if self._announced and player is not None:
            try:
                player.send(result_message(status), timeout=self.move_timeout)
            except PlayerFault:
                _drop(self.command)
        self._announced, self._queued = False, []


def _pool() -> dict:
    if not hasattr(_POOLS, "players"):
        _POOLS.players = {}
    return _POOLS.players


def _player(command: str, timeout: float) -> PlayerProcess:
    """This thread's process of ``command``, started and greeted if there is none (or it has ended)."""
    pool = _pool()
    player = pool.get(command)
    if player is not None and player.alive:
        return player
    player = PlayerProcess(shlex.split(command))
    try:
        player.send(hello(timeout), timeout=timeout)
        name = read_name(player.receive(timeout=timeout))
    except PlayerFault as fault:
        player.kill()
        raise PlayerFault(fault.fault, f"at its start: {fault.detail}") from None
    _NAMES[command] = name
    pool[command] = player
    return player


def _drop(command: str) -> None:
    player = _pool().pop(command, None)
    if player is not None:
        player.kill()


def close_players() -> None:
    """Say quit to every player this process started, and end them (the bench does this when a run ends)."""
    _close_processes(QUIT)
    _pool().clear()


def player_name(spec: str, *, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> str:
    """The name the player of a ``cmd:`` spec gives, starting it (in this thread) if it has not started:
    the check that it can play at all. Raises :class:`~cspmines.games.PlayerFault` saying why not."""
    command = spec[len(COMMAND):]
    _player(command, move_timeout)
    return _NAMES[command]


def table_name(spec: str) -> str:
    """What records and tables call the agent of ``spec``: a command's player by the name it gave, any other
    agent by its spec."""
    return _NAMES.get(spec[len(COMMAND):], spec) if is_command(spec) else spec


def outside_agent(spec: str, **options):
    """The agent of a ``cmd:`` or ``FILE.py:CLASS`` spec (what :func:`~cspmines.agents.make_agent` makes of them)."""
    if is_command(spec):
        return CommandAgent(spec[len(COMMAND):], **options)
    path, _, rest = spec.partition(":")
    class_name, _, settings = rest.partition(":")
    factory = _file_class(Path(path), class_name)
    parsed = parse_agent_spec("file:" + settings)[1]
    try:
        return factory(**{**parsed, **options})
    except TypeError as error:
        raise UnknownAgentError(f"agent {spec!r} does not take those options: {error}") from None


def _file_class(path: Path, class_name: str):
    """``class_name`` from the Python file ``path``, the file loaded once per process."""
    if not class_name.isidentifier():
        raise UnknownAgentError(f"name the class after the file, as in {path}:ClassName; got {class_name!r}")
    if not path.is_file():
        raise UnknownAgentError(f"no Python file {str(path)!r} for an agent")
    resolved = path.resolve()
    module_name = "cspmines_player_" + hashlib.sha1(str(resolved).encode()).hexdigest()[:12]
    module = sys.modules.get(module_name)
    if module is None:
        loader = importlib.util.spec_from_file_location(module_name, resolved)
        if loader is None or loader.loader is None:
            raise UnknownAgentError(f"cannot load {str(path)!r} as Python")
        module = importlib.util.module_from_spec(loader)
        sys.modules[module_name] = module
        try:
            loader.loader.exec_module(module)
        except Exception as error:  # the file's own fault, told in one line
            del sys.modules[module_name]
            raise UnknownAgentError(f"{path} failed to load: {type(error).__name__}: {error}") from None
    factory = getattr(module, class_name, None)
    if not callable(factory):
        raise UnknownAgentError(f"{path} has no class {class_name!r}")
    return factory


def plugin_factory(name: str):
    """The factory an installed package declares as ``name`` in the entry-point group ``cspmines.agents``, or
    None when no package does."""
    if name in _PLUGINS:
        return _PLUGINS[name]
    for point in importlib.metadata.entry_points(group=ENTRY_POINTS):
        if point.name == name:
            try:
                factory = point.load()
            except Exception as error:  # the plugin's own fault, told in one line
                raise UnknownAgentError(f"the plugin agent {name!r} ({point.value}) failed to load: "
                                        f"{type(error).__name__}: {error}") from None
            _PLUGINS[name] = factory
            return factory
    return None
