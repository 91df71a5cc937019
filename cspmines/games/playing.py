"""Playing one game: an agent, a game, and the record of what happened.

>>> from cspmines.agents import make_agent
>>> from cspmines.games import Board, Game, play
>>> record = play(make_agent("exact"), Game(Board.random("beginner", seed=4)), seed=4)
>>> record.status in ("won", "lost"), record.moves == len(record.history)
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..actions import Action, ActionKind, Agent, Vocabulary
from ..engine.budget import Limit, Stopwatch, read_limit
from ..engine.certain import certain_cells
from ..errors import CspminesError
from .game import Game, Status

__all__ = ["MoveRecord", "GameRecord", "play", "AgentError", "Fault", "PlayerFault"]


class AgentError(CspminesError, RuntimeError):
    """An agent made an illegal move, or too many moves."""


class Fault(Vocabulary):
    """How a player outside this process failed a game (see docs/protocol.md)."""

    CRASHED = "crashed"
    TIMED_OUT = "timed out"
    ILLEGAL_MOVE = "illegal move"
    BAD_MESSAGE = "bad message"


class PlayerFault(AgentError):
    """Raised by an agent's ``act`` when the player behind it failed: :func:`play` ends the game there,
    lost, with the fault and its detail in the record (a player's fault costs its game, not the run)."""

    def __init__(self, fault: Fault, detail: str):
        self.fault = Fault.check(fault, "a fault")
        self.detail = detail
        super().__init__(f"{self.fault}: {detail}")


@dataclass(frozen=True)
class MoveRecord:
    action: Action
    guess: bool  # made without proof (audited by the engine when asked, else the agent's own word)
    seconds: float
    proved_mine: bool = False  # audit only: the engine had proved this opened cell a mine


@dataclass(frozen=True)
class GameRecord:
    """Everything a benchmark needs about one finished game (see :func:`play`).

    ``history`` holds a :class:`MoveRecord` per move: the action, whether it
    was a guess, and the agent's time.
    """

    agent: str
    rules: str
    width: int
    height: int
    mines: int
    status: str  # won, lost, or finished (score mode, not every mine flagged); playing when a deadline stopped it
    moves: int
    guesses: int
    seconds: float
    opened_fraction: float
    score: float
    mines_opened: int
    history: tuple = field(default=(), repr=False)
    fault: str | None = None  # how the player failed (a PlayerFault), which lost the game
    fault_detail: str | None = None

    @property
    def won(self) -> bool:
        return self.status == Status.WON


def play(agent: Agent, game: Game, *, seed: int | np.random.Generator | None = None, audit: bool = False,
         max_moves: int | None = None, observe=None, limit: Limit | None = None) -> GameRecord:
    """Let ``agent`` play ``game`` to the end.

    Parameters
    ----------
    seed : int or numpy.random.Generator
        Given to ``agent.reset``: the same seed, board and rules give the same game.
    audit : bool
        Check every move with the engine: a guess is then an open of a cell not
        proved safe (or a flag of a cell not proved a mine), and an open of a
        proved mine is recorded. Slower; for tests and studies.
    max_moves : int
        Stop a runaway agent (default: four moves per cell).
    observe : callable, optional
        Called as ``observe(position, action)`` before each move is applied (a replay's steps).
    limit : Limit, optional
        The game's time: once it has run out no more moves are made, and the game is left ``playing``.

    An agent's ``act`` that raises :class:`PlayerFault` loses the game there (``status`` lost, with
    ``fault`` and ``fault_detail``); an agent with a ``game_over(status)`` method is told how each
    game it played ended.

    Examples
    --------
    >>> from cspmines.agents import make_agent
    >>> from cspmines.games import Board, Game
    >>> record = play(make_agent("exact"), Game(Board.random("beginner", seed=4)), seed=0)
    >>> record.status, record.moves, record.guesses
    ('won', 26, 0)
    >>> record.history[0].action, record.history[0].guess
    (Action(kind='open', cell=8, certain=True), False)
    """
    agent.reset(rules=game.rules, seed=seed)
    most = max_moves if max_moves is not None else 4 * game.board.size
    history: list[MoveRecord] = []
    fault: PlayerFault | None = None
    budget = read_limit(limit).start()
    timed = budget.deadline is not None
    game_watch, move_watch = Stopwatch(), Stopwatch()
    playing = Status.PLAYING  # read once: a member read off its Enum class costs a metaclass hook in Python 3.11
    while game.status == playing:
        if timed and budget.expired():
            break
        if len(history) >= most:
            raise AgentError(f"agent {agent.name!r} made {most} moves without finishing the game")
        try:
            history.append(_move(agent, game, audit, observe, move_watch))
        except PlayerFault as error:
            fault = error
            break
    status = Status.LOST if fault is not None else game.status
    if fault is None and status != Status.PLAYING and hasattr(agent, "game_over"):
        agent.game_over(status)
    return _record(agent, game, status, history, game_watch.seconds, fault)


def _move(agent: Agent, game: Game, audit: bool, observe, watch: Stopwatch) -> MoveRecord:
    """One move of ``agent`` applied to ``game``, and its record, the agent's time read off ``watch``
    (:class:`PlayerFault` from the agent passes)."""
    position = game.position
    watch.restart()
    action = agent.act(position)
    seconds = watch.restart()
    guess, proved_mine = _audited(position, action) if audit else (not action.certain, False)
    if observe is not None:
        observe(position, action)
    try:
        game.apply(action)
    except CspminesError as error:
        raise AgentError(f"agent {agent.name!r} played {action}: {error}") from error
    return MoveRecord(action, guess, seconds, proved_mine)


def _audited(position, action) -> tuple[bool, bool]:
    """(whether ``action`` is a guess, whether it opens a proved mine), checked by the engine."""
    proof = certain_cells(position)
    if action.kind == ActionKind.OPEN:
        return action.cell not in proof.safe, action.cell in proof.mines
    return action.cell not in proof.mines, False


def _record(agent: Agent, game: Game, status: Status, history: list, seconds: float, fault: PlayerFault | None) -> GameRecord:
    """The game's record once it is over (or stopped)."""
    return GameRecord(
        agent=agent.name,
        rules=game.rules,
        width=game.board.width,
        height=game.board.height,
        mines=game.board.n_mines,
        status=status,
        moves=len(history),
        guesses=sum(move.guess for move in history),
        seconds=seconds,
        opened_fraction=game.opened_fraction,
        score=game.score,
        mines_opened=game.mines_opened,
        history=tuple(history),
        fault=None if fault is None else str(fault.fault),
        fault_detail=None if fault is None else fault.detail,
    )
