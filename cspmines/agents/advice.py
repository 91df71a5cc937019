"""What an agent would play on a position, judged by the exact engine.

A solver author's question: on this board, which cell does my agent open,
and how likely was that cell to be a mine? :func:`suggest` asks an agent for
its next move on a :class:`~cspmines.position.Position` and sets the move
beside the engine's exact probabilities: the chosen cell's chance of being a
mine and the least chance any covered cell has, so a heuristic's move can be
told from the best one available. For the ``exact`` agent it also says which
rule chose a guess (see :class:`~cspmines.agents.exact.Guess`).

>>> from cspmines import Position
>>> position = Position.from_string("5x3x3\\n1....\\n2....\\n.....")
>>> exact = suggest(position, "exact", seed=1)
>>> position.row_col(exact.action.cell), exact.reason, exact.mine_probability, exact.least
((2, 3), 'endgame', Fraction(1, 9), Fraction(1, 9))
>>> heuristic = suggest(position, "knowledge-base", seed=1)
>>> position.row_col(heuristic.action.cell), heuristic.reason, heuristic.mine_probability
((0, 1), None, Fraction(1, 2))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..actions import ActionKind, Rules
from ..engine.analysis import Analysis
from ..engine.budget import Limit, read_limit
from ..engine.engine import solve
from ..errors import CspminesError, MissingTotalError
from ..games.playing import AgentError, PlayerFault
from ..position import COVERED, FLAG, MINE, Position
from .base import Action
from .exact import ExactAgent, Guess
from .external import is_command, table_name
from .registry import make_agent

__all__ = ["Advice", "GameOverError", "NotCountedError", "Suggestion", "advise", "suggest"]


class GameOverError(CspminesError, ValueError):
    """The position has no move left to suggest: the game is won or lost under its rules."""


@dataclass(frozen=True)
class Suggestion:
    """One agent's next move on a position, with the engine's view of it.

    Attributes
    ----------
    agent : str
        The agent as it was named (``"exact:lookahead=3"``).
    rules : str
        The rules it played under (see :data:`~cspmines.agents.base.RULES`).
    action : Action
        The move: open or flag one cell (a flag on a flagged cell lifts it).
    reason : str or None
        ``"proved"`` when the agent claims the move is certain; for the
        ``exact`` agent's guesses the rule that chose it (``"look-ahead"``,
        ``"endgame"``, ...); None when the agent does not say (some
        baselines open cells they have proved without claiming so: the
        engine's ``mine_probability`` of 0 tells).
    mine_probability : Fraction
        The exact chance that the chosen cell is a mine (1 for a flagged
        cell: the engine takes a flag as a known mine).
    least : Fraction
        The least chance of a mine among the covered cells: what the safest
        available move risks (0 when some cell is proved safe).
    candidates : tuple of (Lookahead, float)
        With ``explain`` and a look-ahead guess of the ``exact`` agent: each
        cell it weighed and its score, best first
        (:meth:`~cspmines.agents.exact.ExactAgent.weigh`); else empty.
    """

    agent: str
    rules: str
    action: Action
    reason: str | None
    mine_probability: Fraction
    least: Fraction
    candidates: tuple = ()

    @property
    def claim_holds(self) -> bool:
        """False when the agent calls its move certain and the engine disagrees
        (an open that may hit a mine, or a flag that may be wrong; under
        minesearch, where opening a mine finds it, an open of a cell that is
        neither surely safe nor surely a mine)."""
        if self.reason != "proved":
            return True
        if self.action.kind == ActionKind.FLAG:
            return self.mine_probability == 1
        return self.mine_probability == 0 or (self.rules == Rules.MINESEARCH and self.mine_probability == 1)


def suggest(
    position: Position,
    agent: str = "exact",
    *,
    rules: str = "classic",
    seed=None,
    analysis: Analysis | None = None,
    explain: bool = False,
    move_timeout: float | None = None,
) -> Suggestion:
    """The move ``agent`` (a name, with options after a colon) makes on ``position``.

    The agent starts a new game under ``rules`` with ``seed`` and sees only
    the position, so a stateful agent plays as it would on its first move
    there. ``analysis`` is the engine's exact solve of ``position`` (it is
    computed when not given; pass it to judge several agents on one solve;
    a solve of another position, or one cut short, raises ``ValueError``).
    With ``explain``, a look-ahead guess of the ``exact`` agent comes with
    the candidates it weighed and their scores (one more look at each).
    ``move_timeout`` is the seconds a ``cmd:`` player may take (default 10);
    such a player is named as it names itself.

    Raises
    ------
    MissingTotalError
        The position has no mine total (agents play games, where it is known).
    InconsistentPositionError
        No mine layout fits the position.
    GameOverError
        Nothing is left to play: no covered cell, a classic position showing
        an opened mine, every covered cell a mine (classic), or every mine
        found (minesearch).

    >>> from cspmines import Position
    >>> flag = suggest(Position.from_string("3x1x1\\n1.."), "set-theory")   # the cell beside the 1 is a mine
    >>> flag.action, flag.reason, flag.claim_holds
    (Action(kind='flag', cell=1, certain=True), 'proved', True)
    >>> suggest(Position.from_string("3x1x1\\n*1."), "exact")
    Traceback (most recent call last):
    ...
    cspmines.agents.advice.GameOverError: the position shows an opened mine: under classic rules the game is lost
    """
    rules = Rules.check(rules)
    flat = position.grid.ravel()
    if rules == Rules.CLASSIC and (flat == MINE).any():
        raise GameOverError("the position shows an opened mine: under classic rules the game is lost")
    if not (flat == COVERED).any():
        raise GameOverError("no covered cell is left to open or flag")
    if rules == Rules.MINESEARCH and position.mines is not None and (flat == MINE).sum() >= position.mines:
        raise GameOverError("every mine is found: under minesearch the game is won")
    if analysis is None:
        analysis = solve(position)
    elif analysis.position != position or not analysis.exact:
        raise ValueError("analysis must be an exact solve of the same position (with its total)")
    if rules == Rules.CLASSIC and len(analysis.mine_cells) == len(position.covered_cells):
        raise GameOverError("every covered cell is a mine: the game is won")
    player = make_agent(agent, **({"move_timeout": move_timeout} if move_timeout and is_command(agent) else {}))
    guesses: list[Guess] = []
    seen: list[Analysis] = []  # the exact agent's own solves (its proved mines shown as flags)
    if isinstance(player, ExactAgent):
        player.on_guess = guesses.append
        player.on_analysis = seen.append
    player.reset(rules=rules, seed=seed)
    try:
        action = player.act(position)
    except PlayerFault as fault:  # said with the player it is about
        raise AgentError(f"agent {agent!r}: {fault}") from None
    reason: str | None = "proved" if action.certain else (guesses[-1].reason if guesses else None)
    candidates: tuple = ()
    if explain and reason == "look-ahead" and isinstance(player, ExactAgent):
        candidates = tuple((view, view.score(player.options.progress)) for view in player.weigh(seen[-1]))
    # the engine counts a flag as a mine (a flag action on one lifts it)
    chance = Fraction(1) if flat[action.cell] == FLAG else Fraction(analysis.probability(action.cell))
    (least,) = analysis.least_probabilities(1)
    return Suggestion(table_name(agent), rules, action, reason, chance, Fraction(least), candidates)


class NotCountedError(CspminesError, ValueError):
    """The position was not counted within the time limit: no move can be judged exactly."""

    def __init__(self, seconds: float | None, *, memory: bool = False):
        self.seconds = seconds
        self.memory = memory  # the memory allowance stopped the count, not the clock
        within = "the memory allowance" if memory else f"the time limit ({seconds:g} s)"
        super().__init__(f"the position was not counted within {within}, so no move can be judged exactly")


@dataclass(frozen=True)
class Advice:
    """Agents' moves on one position, judged against its exact solve (see :func:`advise`)."""

    position: Position
    analysis: Analysis
    suggestions: tuple
    rules: str



def advise(position: Position, agents=("exact",), *, rules: str = "classic", seed=None, limit: Limit | None = None,
           explain: bool = False, move_timeout: float | None = None) -> Advice:
    """Each agent's move on ``position``, judged by the engine: the one service behind ``cspmines move``
    and the web page's ``/api/move``. The position is counted first, within ``limit`` (its time and memory).

    Raises
    ------
    MissingTotalError
        The position has no mine total (agents play games, where it is known).
    NotCountedError
        The count did not finish within the limit: no move could be judged exactly.

    >>> advice = advise(Position.from_string("3x1x1\\n.1."), ["exact", "random"], seed=0)
    >>> [(s.agent, str(s.mine_probability)) for s in advice.suggestions]
    [('exact', '1/2'), ('random', '1/2')]
    """
    if position.mines is None:
        raise MissingTotalError("the position's mine total is unknown: agents play games, where it is known")
    limit = read_limit(limit)
    analysis = solve(position, limit=Limit(time=limit.time, memory=limit.memory))
    if not analysis.exact:
        raise NotCountedError(limit.time, memory=any(report.stats.get("cut") == "memory" for report in analysis.chains))
    suggestions = tuple(suggest(position, spec, rules=rules, seed=seed, analysis=analysis, explain=explain,
                                move_timeout=move_timeout) for spec in agents)
    return Advice(position, analysis, suggestions, rules)
