"""Every click of a recorded game judged exactly: what it risked, whether it had to, and what the exact agent would have done.

For each click that opened cells, on the position the player saw just before
it (their flags read as covered cells), with the board's mine total, the judge
of :mod:`cspmines.games.judge` (the same that judges a program's games in
``cspmines bench --judge``):

* its **chance**: the exact probability that it sets off a mine (a chord: that
  any cell it opens is one);
* its **class**: ``proved`` (chance 0), ``forced`` (a guess with no provably
  safe cell anywhere), ``needless`` (a guess while a provably safe cell existed);
  a needless guess is ``nearby`` when a proved-safe cell was within two cells of
  the click (rows and columns) or on its chain (joined to it through clues: covered
  cells are joined when one clue touches both), ``elsewhere`` when not;
* its **thinking time**: the seconds since the click before it (from the start, for
  the first), while the player looked at the position it is judged on;
* at each guess, the ``exact`` agent's move there and its chance;
* its **loss**: the winning chance it gave up to best play (the value of the
  position minus the value of the click, :mod:`cspmines.games.loss`), where the
  value search finishes within its budget (:data:`~cspmines.games.judge.JUDGE_VALUE_LIMIT`);
  a guess it does not finish, or a chord that guesses, is **unvalued**: counted, never
  guessed at. A proved click loses nothing. A first click the program keeps safe
  is not a move of the valued game (the mines are placed after it): the game's
  loss is counted from the position it shows, and the click's is 0.

The game's **survival** is the product of one minus each chance, an exact
fraction: how likely a game played click by click as this one was is to get
through. ``luck_bits`` is ``-log2`` of it. Its **loss** is the sum of the
clicks' losses, ``unvalued`` the guesses not valued (0: the loss is the game's
whole loss). For a game that ended, its **expected win** is its win with the
luck of its valued guesses taken out (:func:`~cspmines.games.judge.expected_win`):
a player's chance of winning, from one game, with less spread than the win.

Most clicks of a real game open cells that single clues prove safe: those are
settled without counting. The others are counted, with the memories of recent
chains carried over between consecutive moments, so a click recounts only the
chains it changed.

>>> from cspmines.replays import Replay, analyse_replay
>>> replay = Replay.from_moves([[0, 0, 0, 0], [1, 0, 0, 1]], [("open", 0, 0), ("open", 1, 1), ("open", 0, 3)])
>>> result = analyse_replay(replay, agent=False)
>>> [(str(click.chance), click.kind.value) for click in result.clicks]
[('0', 'proved'), ('1/3', 'forced'), ('1/2', 'needless')]
>>> result.clicks[2].where.value, result.clicks[2].thinking   # (0,2), proved safe, is beside (0,3)
('nearby', 1.0)
>>> result.survival, round(result.luck_bits, 4)
(Fraction(1, 3), 1.585)
>>> [click.loss for click in result.clicks], result.unvalued   # neither guess gave up any winning chance
([Fraction(0, 1), Fraction(0, 1), Fraction(0, 1)], 0)
>>> lost = analyse_replay(Replay.from_moves([[0, 0, 0, 0], [1, 0, 0, 1]], [("open", 0, 0), ("open", 1, 1), ("open", 1, 0)]), agent=False)
>>> lost.replay.outcome.value, lost.expected_win, result.expected_win   # the game above did not end: none
('lost', Fraction(1, 12), None)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

from ..actions import Action, Vocabulary
from ..engine.budget import Budget, Limit, read_limit
from ..games.judge import (
    JUDGE_VALUE_LIMIT,
    ClickClass,
    GameJudgement,
    OpenJudgement,
    as_seen,
    judge_open,
    product,
    with_next_values,
)
from ..games.loss import move_loss
from ..position import COVERED, FLAG, Position
from .advice import agent_advice, nearest_proved
from .reader import NOT_UNIFORM_MODES, FirstClickRule, Outcome, Replay, ReplayClick

__all__ = ["ClickClass", "ClickAnalysis", "Needless", "ReplayAnalysis", "analyse_replay", "judge_click"]


class Needless(Vocabulary):
    """Where the proved-safe cell of a needless guess was: near the click (within two cells, or on its chain)
    or only elsewhere on the board."""

    NEARBY = "nearby"
    ELSEWHERE = "elsewhere"


@dataclass(frozen=True)
class ClickAnalysis:
    """One click judged.

    Attributes
    ----------
    click : ReplayClick
    chance : Fraction or float
        The chance the click sets off a mine; a float (the engine's estimate) when the
        count did not finish within the budget (``exact`` False).
    kind : ClickClass
    exact : bool
    agent_action : Action or None
        The move advised at a guess (None where the click was proved: the agent
        opens a proved cell too, at chance 0, or where ``agent=False``): at a needless
        guess the proved-safe cell nearest the click, at a forced one the exact agent's
        move (:mod:`cspmines.replays.advice`).
    agent_chance : Fraction, float or None
        The chance the advised move sets off a mine.
    agent_reason : str or None
        What chose it: ``"proved"``, or the exact agent's rule (``"look-ahead"``, ...).
    agent_why : str or None
        Why, in words, where the advice risks more than the click or the guess was needless.
    least : Fraction or float
        The least mine chance of any covered cell at that moment.
    blunder : bool
        The click opened a proved mine.
    where : Needless or None
        Of a needless guess: whether a proved-safe cell was near the click.
    thinking : float
        Seconds since the click before it (the first click: since the start).
    loss : Fraction or None
        The winning chance the click gave up to best play (0 for a proved click); None when it was not valued.
    unvalued : bool
        A guess whose value search did not finish within the budget (or a chord that guesses): not valued.
    value : Fraction or None
        The chance best play wins from the position the click was made in, where a search found it.
    """

    click: ReplayClick
    chance: Fraction | float
    kind: ClickClass
    exact: bool = True
    agent_action: Action | None = None
    agent_chance: Fraction | float | None = None
    least: Fraction | float = Fraction(0)
    agent_reason: str | None = None
    agent_why: str | None = None
    blunder: bool = False
    where: Needless | None = None
    thinking: float = 0.0
    loss: Fraction | None = None
    unvalued: bool = False
    value: Fraction | None = None

    @property
    def judgement(self) -> OpenJudgement:
        """The click as the shared judge gives it (:class:`~cspmines.games.judge.OpenJudgement`)."""
        return OpenJudgement(self.chance, self.kind, self.least, self.blunder, self.exact, loss=self.loss, unvalued=self.unvalued,
                             value=self.value)


@dataclass(frozen=True)
class ReplayAnalysis:
    """A whole game judged: each click, and the totals over them; ``valued`` when its guesses were valued
    (their losses asked for)."""

    replay: Replay
    clicks: tuple
    valued: bool = False
    complete: bool = True  # every click judged (False: the analysis's time ran out first; ``clicks`` judged are the first)

    @property
    def exact(self) -> bool:
        """True when every chance is exact (no count was cut short by the budget)."""
        return all(click.exact for click in self.clicks)

    @property
    def guesses(self) -> tuple:
        return tuple(click for click in self.clicks if click.kind != ClickClass.PROVED)

    @property
    def forced(self) -> int:
        return sum(1 for click in self.clicks if click.kind == ClickClass.FORCED)

    @property
    def needless(self) -> int:
        return sum(1 for click in self.clicks if click.kind == ClickClass.NEEDLESS)

    @property
    def nearby(self) -> int:
        """Needless guesses with a proved-safe cell near the click."""
        return sum(1 for click in self.clicks if click.where == Needless.NEARBY)

    @property
    def elsewhere(self) -> int:
        """Needless guesses whose proved-safe cells were all away from the click."""
        return sum(1 for click in self.clicks if click.where == Needless.ELSEWHERE)

    @property
    def fatal(self) -> ClickAnalysis | None:
        """The click that set off a mine, in a lost game (its last)."""
        return self.clicks[-1] if self.replay.outcome == Outcome.LOST and self.clicks and self.complete else None

    @property
    def judgement(self) -> GameJudgement:
        """The game's totals as ``cspmines bench --judge`` gives a program's: guesses, needless guesses,
        blunders, excess risk, survival, loss, the guesses not valued and, for a game that ended, its
        expected win."""
        # the clicks not judged keep their luck unknown, and a program that does not draw its layouts uniformly
        # (a no-guess or can-guess mode) does not play the game the values are of
        won = _won(self.replay.outcome) if self.complete and self.replay.mode not in NOT_UNIFORM_MODES else None
        return GameJudgement.of((click.judgement for click in self.clicks), valued=self.valued, won=won)

    @property
    def loss(self) -> Fraction | None:
        """The winning chance the clicks gave up to best play, summed over those valued; None when not valued."""
        return self.judgement.loss

    @property
    def expected_win(self) -> Fraction | None:
        """The game's win with the luck of its valued guesses taken out (:func:`~cspmines.games.judge.expected_win`);
        None when not valued, when the game did not end or was not judged to its end (``complete`` False), and
        in a mode whose layouts are not drawn uniformly."""
        return self.judgement.expected_win

    @property
    def unvalued(self) -> int | None:
        """The guesses not valued (chords, and searches past the value budget); None when not valued."""
        return self.judgement.unvalued

    @property
    def survival(self) -> Fraction | float:
        """The product of ``1 - chance`` over the clicks: exact unless some chance is an estimate."""
        return self.judgement.survival

    @property
    def luck_bits(self) -> float:
        """``-log2(survival)``; infinite when a click was a certain mine."""
        return _bits(self.survival)

    @property
    def agent_survival(self) -> Fraction | float | None:
        """The same product for the exact agent's moves at the player's guesses (where the player's
        click was proved, the agent's move is proved too); None when the agent was not asked."""
        if any(click.agent_chance is None for click in self.guesses):
            return None
        return product(1 - click.agent_chance for click in self.guesses)

    @property
    def agent_luck_bits(self) -> float | None:
        survival = self.agent_survival
        return None if survival is None else _bits(survival)


def _bits(survival) -> float:
    if survival == 0:
        return math.inf
    if isinstance(survival, Fraction):  # log2 of each big integer: a float of the ratio would underflow
        return math.log2(survival.denominator) - math.log2(survival.numerator)
    return -math.log2(survival)


def analyse_replay(replay: Replay, *, agent: bool = True, limit: Limit | None = None, value: Limit | None = JUDGE_VALUE_LIMIT,
                   total: Limit | None = None, progress=None) -> ReplayAnalysis:
    """Judge every click of ``replay`` (see the module's description).

    Parameters
    ----------
    replay : Replay
    agent : bool, keyword-only
        Ask the exact agent for its move at each guess (a look-ahead each: the costly part).
    limit : Limit, keyword-only
        What each position's count may spend: its time (a count cut short gives the engine's estimate,
        and the click is marked not exact) and its memory (the engine's default unless given; None: none;
        a board too large for it is refused, TooLargeError, at its first click).
    value : Limit or None, keyword-only
        What valuing each guess may spend (its loss; a search that does not finish leaves it not valued);
        None: no guess is valued.
    total : Limit or None, keyword-only
        The time the whole analysis may take (a server's request): each click's count and value search
        take at most what is left of it, and once it is spent no more clicks are judged: the answer holds
        the clicks judged so far, ``complete`` False. None: every click is judged, each with ``limit``
        and ``value`` whole.
    progress : callable, keyword-only
        Called with no argument after each click (a progress bar's update).

    Examples
    --------
    >>> from cspmines.replays import Replay
    >>> replay = Replay.from_moves([[1, 0, 0], [0, 0, 0]], [("open", 1, 2), ("open", 1, 0)])
    >>> [str(click.chance) for click in analyse_replay(replay, agent=False).clicks]
    ['0', '1/2']
    """
    clock = None if total is None else read_limit(total).start()
    judged: list[ClickAnalysis] = []
    for index in range(len(replay.clicks)):
        if clock is not None and clock.expired():
            return ReplayAnalysis(replay, tuple(judged), valued=value is not None, complete=False)
        judged.append(judge_click(replay, index, agent=agent, limit=_within(limit, clock), value=None if value is None else _within(value, clock)))
        if progress is not None:
            progress()
    if value is not None and _won(replay.outcome) is not None:
        # a guess after a valued one, itself not valued, has its position valued alone (as the bench's judge does)
        judged = with_next_values(judged, lambda i: judged[i].click.seen, read_limit(_within(value, clock)))
    return ReplayAnalysis(replay, tuple(judged), valued=value is not None)


def _within(limit: Limit | None, clock: Budget | None) -> Limit | None:
    """``limit`` (None: the engine's default) with its time cut to what ``clock`` has left, at least a sliver: a
    step begun once the clock has run out finds its time spent at once; ``limit`` as it is without a clock."""
    left = None if clock is None else clock.rest().time
    if left is None:  # no clock, or one with no time to keep
        return limit
    whole = read_limit(limit)
    return replace(whole, time=left if whole.time is None else min(whole.time, left))


def judge_click(replay: Replay, index: int, *, agent: bool = True, limit: Limit | None = None,
                value: Limit | None = JUDGE_VALUE_LIMIT) -> ClickAnalysis:
    """Click ``index`` (from 0) of ``replay`` judged, as :func:`analyse_replay` judges each.

    >>> from cspmines.replays import Replay
    >>> replay = Replay.from_moves([[1, 0, 0], [0, 0, 0]], [("open", 1, 2), ("open", 1, 0)])
    >>> judged = judge_click(replay, 1, agent=False)
    >>> str(judged.chance), judged.kind.value, judged.thinking
    ('1/2', 'forced', 1.0)
    """
    click = replay.clicks[index]
    one = _first_click(replay, click, value) if index == 0 else _judge(click, agent=agent, limit=read_limit(limit), value=value)
    before = replay.clicks[index - 1].time if index else 0.0
    return replace(one, thinking=max(0.0, click.time - before))


def _first_click(replay: Replay, click: ReplayClick, value: Limit | None) -> ClickAnalysis:
    """The first click follows the program's rule: never a mine (or an opening: placed after it, the mines make
    no valued move of it, and it loses 0), or a plain draw (valued on the covered board, where its layouts are
    few enough)."""
    if replay.first_click != FirstClickRule.ANY:
        return ClickAnalysis(click, Fraction(0), ClickClass.PROVED, loss=Fraction(0))
    chance = Fraction(replay.mines, replay.width * replay.height)  # every cell alike: the least chance too
    lost = None if value is None else move_loss(as_seen(click.seen), click.opens, limit=value)
    loss = None if lost is None else lost.loss
    return ClickAnalysis(click, chance, ClickClass.FORCED, least=chance, loss=loss, unvalued=value is not None and loss is None,
                         value=None if lost is None else lost.value)


def _judge(click: ReplayClick, *, agent: bool, limit: Limit, value: Limit | None) -> ClickAnalysis:
    judged = judge_open(click.seen, click.opens, limit=limit, value=value)
    where = None
    if judged.kind == ClickClass.NEEDLESS and judged.analysis is not None:
        where = _where(click, judged.analysis.safe_cells)
    analysis = ClickAnalysis(click, judged.chance, judged.kind, judged.exact, least=judged.least, blunder=judged.blunder,
                             where=where, loss=judged.loss, unvalued=judged.unvalued, value=judged.value)
    if judged.kind == ClickClass.PROVED or not agent or not judged.exact or judged.analysis is None:
        return analysis
    if judged.kind == ClickClass.NEEDLESS:  # where the player looked: the proved cell nearest the click
        advised = nearest_proved(click.seen, click.row, click.col, judged.analysis.safe_cells)
    else:
        advised = agent_advice(click.seen, click.opens, judged.chance, judged.analysis)
    return replace(analysis, agent_action=advised.action, agent_chance=advised.chance, agent_reason=advised.reason,
                   agent_why=advised.why)


def _won(outcome: Outcome) -> bool | None:
    """Whether the recorded game was won; None when it did not end."""
    return None if outcome == Outcome.UNFINISHED else outcome == Outcome.WON


def _where(click: ReplayClick, safe: tuple) -> Needless:
    """Whether a proved-safe cell was near a needless guess: within two rows and two columns of the cell
    clicked, or on the chain of a cell it opens (covered cells joined when one clue touches both; the
    player's flags are covered cells here, as in the judging)."""
    position = click.seen
    if any(max(abs(r - click.row), abs(c - click.col)) <= 2 for r, c in map(position.row_col, safe)):
        return Needless.NEARBY
    chain = _chain(position, click.opens)
    return Needless.NEARBY if chain.intersection(safe) else Needless.ELSEWHERE


def _chain(position: Position, cells: tuple) -> set:
    """The covered cells joined to ``cells`` through clues (two covered cells are joined when a clue touches both)."""
    grid = position.grid.ravel()
    chain, stack = set(cells), list(cells)
    while stack:
        cell = stack.pop()
        for clue in position.neighbours(cell):
            if grid[clue] < 0:
                continue
            for other in position.neighbours(clue):
                if other not in chain and grid[other] in (COVERED, FLAG):
                    chain.add(other)
                    stack.append(other)
    return chain

