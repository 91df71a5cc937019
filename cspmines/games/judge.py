"""Moves judged exactly: what an open risked, whether it had to, and the totals over a game.

One judge for every game, a program's (``cspmines bench --judge``) and a
person's (``cspmines replay``), so the two are judged alike. Each open is
judged on the position the player saw just before it, with the board's mine
total, every mine layout that fits it taken as equally likely; flags are read
as covered cells (a flag is the player's belief, not a proof: a wrong one must
not change the chances). An open is the cells one click opens before any
opening spreads: one cell, or a chord's covered neighbours, judged together.

* **chance**: the exact probability that the open sets off a mine (a chord: that
  any of its cells is one);
* **least**: the least mine chance of any covered cell at that moment;
* **kind**: ``proved`` (every cell it opens is proved safe), ``forced`` (a guess
  while no covered cell anywhere was provably safe), ``needless`` (a guess while
  one was);
* **blunder**: a cell it opens was a proved mine;
* **loss**: the winning chance the open gives up to best play, the value of the
  position minus the value of the move (:mod:`cspmines.games.loss`), where the
  position's value search finishes within its own budget (``value``,
  :data:`JUDGE_VALUE_LIMIT` by default); a guess it does not finish, or a chord
  that is a guess, is **unvalued**: counted, never guessed at. A proved open loses
  nothing, without a search; an open of a proved mine loses the position's whole
  value (one search for the position's value alone).

Over a game (:class:`GameJudgement`): ``guesses`` (opens not proved safe),
``needless``, ``blunders``, ``excess_risk`` (the sum of ``chance - least``) and
``survival`` (the product of ``1 - chance``), exact fractions unless a count was
cut short by the budget (``exact`` False: the figures are then the engine's
estimates); ``loss`` (the sum of the valued opens' losses, exact) and
``unvalued`` (the guesses not valued: 0 when the game's loss is its whole loss,
:attr:`GameJudgement.fully_valued`), both None when the game was judged without
values; and ``expected_win``, the game's win with the luck of its valued guesses
taken out (:func:`expected_win`), when the game's outcome is given.

**Expected win.** After a guess, the value of the position the game reaches is on
average the value of the guess (:mod:`cspmines.games.loss`), and a proved open keeps
the value on average. So a game's win, 1 or 0, less each valued guess's luck (the
value of the position at the game's next guess, or its outcome after the last, minus
the value of the guess) has the same expectation as the win: the player's chance of
winning. Where every guess from some point on is valued, it is the value of the
position at the first of them less the losses of those guesses. Summed over every
move, a game's loss is on average the value of its first position minus its win; two
players of the same board start from the same position, so the paired difference of
their loss per game over every move, those past the value budget included, is minus
the paired difference of their expected wins.

Most opens are proved by single clues: those are settled without counting
(:func:`~cspmines.engine.constraints.settle_position`), on a window of the board
around the open first and on the whole board when that is not enough; the
others are counted by :func:`~cspmines.engine.solver.solve`.

>>> from cspmines import Position
>>> position = Position.from_string("4x2x2\\n1...\\n1...")
>>> judged = judge_open(position, (3,))
>>> judged.chance, judged.least, judged.kind.value, judged.blunder   # the second mine is in one of 4 cells
(Fraction(1, 4), Fraction(1, 4), 'forced', False)
>>> riskier = judge_open(position, (1,))   # (0,1) or (1,1) holds the 1s' mine
>>> riskier.chance, riskier.excess, riskier.loss   # riskier, yet it loses nothing: every cell here is worth 1/4
(Fraction(1, 2), Fraction(1, 4), Fraction(0, 1))
>>> game = GameJudgement.of([judged, riskier], valued=True)
>>> game.guesses, game.excess_risk, game.survival, game.record()["survival"], game.loss, game.unvalued
(2, Fraction(1, 4), Fraction(3, 8), 0.375, Fraction(0, 1), 0)
>>> judge_open(Position.from_string("5x1x2\\n....1"), (1,)).loss   # safe, it shows 1 whichever end the mine is at
Fraction(1, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import pairwise

import numpy as np

from ..actions import Action, ActionKind, Vocabulary
from ..engine.analysis import Analysis
from ..engine.budget import Limit
from ..engine.constraints import settle_position
from ..engine.engine import solve
from ..errors import InconsistentPositionError
from ..position import COVERED, FLAG, WITHHELD, Position
from .loss import MoveLoss, mine_loss, move_loss, position_value

__all__ = ["ClickClass", "OpenJudgement", "GameJudgement", "JUDGED_FIELDS", "JUDGE_LIMIT", "JUDGE_VALUE_LIMIT", "expected_win", "judge_open",
           "judge_moves", "opened_cells", "as_seen", "product", "with_next_values"]

#: The figures of a judged game, as a game record's ``judged`` object holds them (``loss`` and ``unvalued``
#: null when the game was judged without values; absent from the records written before they were kept).
JUDGED_FIELDS = ("guesses", "needless", "blunders", "excess_risk", "survival", "loss", "unvalued", "expected_win")

#: The budget for counting one position when none is given: the command line's (a front too wide for it
#: is estimated and the game marked not exact rather than left counting for hours).
JUDGE_LIMIT = Limit(time=60.0)

#: The budget for valuing one guess (its position's value and every cell's, one search). The search's states
#: are the budget, so that the same game is valued alike on every machine: 250,000 states took 2.6 to 4 seconds
#: on the empty 5x5, 6x4 and 5x4 boards of 5 mines (one core of a loaded 2-core machine). The memory allowance
#: caps the layouts listed (about 50,000 on 120 covered cells; a position with more is refused at once,
#: without listing them: ``unvalued``) and sizes the search's table; the time is a net, far above what the
#: states take, that a search stopped by it reports as such (``unvalued`` too). On an expert board the
#: guesses of the opening and middle game have far more layouts than the budget lists (one with 132 covered
#: cells had 902,538, and a search of 5 million states did not finish it in a minute): mostly the endgame's are
#: valued (docs/studies.md: 136 of the exact agent's 1,049 guesses on 300 expert games).
JUDGE_VALUE_LIMIT = Limit(time=10.0, nodes=250_000, memory=16 << 20)


class ClickClass(Vocabulary):
    """What an open was: proved safe, a guess with no safe cell anywhere, or a guess while one existed."""

    PROVED = "proved"
    FORCED = "forced"
    NEEDLESS = "needless"


@dataclass(frozen=True)
class OpenJudgement:
    """One open judged (see the module's description).

    ``chance`` and ``least`` are Fractions, or floats (the engine's estimates) when ``exact`` is
    False; ``analysis`` is the engine's answer on the position when it was counted (None when
    single clues proved the open), for a caller that asks more of it. ``loss`` is the exact winning
    chance the open gave up (0 for a proved open), None when it was not valued: ``unvalued`` says
    that it was asked and not given (a chord, or a search past its budget), rather than not asked.
    """

    chance: Fraction | float
    kind: ClickClass
    least: Fraction | float = Fraction(0)
    blunder: bool = False
    exact: bool = True
    analysis: Analysis | None = field(default=None, compare=False, repr=False)
    loss: Fraction | None = None  # the winning chance lost; None when not valued
    unvalued: bool = False  # a guess asked to be valued and not: a chord, or a search past its budget
    value: Fraction | None = None  # the position's value, where a search found it (a guess valued, or its position alone)

    @property
    def excess(self) -> Fraction | float:
        """What the open risked above the least risky cell then: ``chance - least``."""
        return self.chance - self.least


#: An open proved safe: nothing risked, nothing above the least (the opened cell is at 0 itself), and no
#: winning chance lost. Opening a safe cell never lowers the value: any play from the position can be played
#: after it, its clue ignored, and wins the same layouts (none of which it ends); and best play may open the
#: cell first itself. So the move's value is the position's, and no search is needed to say so.
PROVED = OpenJudgement(Fraction(0), ClickClass.PROVED, loss=Fraction(0))


@dataclass(frozen=True)
class GameJudgement:
    """The totals over a game's opens (see the module's description).

    ``loss`` and ``unvalued`` are None when the opens were judged without values (``valued`` False);
    ``loss`` is the game's whole loss when ``unvalued`` is 0 (:attr:`fully_valued`), else the sum over
    the guesses valued. ``expected_win`` (:func:`expected_win`) is None unless the game was judged with
    values and its outcome given; ``luck_kept`` counts its valued guesses whose luck stays in it (the
    value of the position at the next guess was not found).

    >>> GameJudgement.of([]).record()
    {'guesses': 0, 'needless': 0, 'blunders': 0, 'excess_risk': 0.0, 'survival': 1.0, 'loss': None, 'unvalued': None, 'expected_win': None}
    """

    guesses: int
    needless: int
    blunders: int
    excess_risk: Fraction | float
    survival: Fraction | float
    exact: bool = True
    loss: Fraction | None = None
    unvalued: int | None = None
    expected_win: Fraction | None = None
    luck_kept: int = 0

    @classmethod
    def of(cls, judgements: Iterable[OpenJudgement], *, valued: bool = False, won: bool | None = None) -> GameJudgement:
        """The totals of ``judgements``; with ``valued``, their losses summed (those valued: the rest are
        counted in ``unvalued``), and with ``won`` too (the game's outcome; None: not finished, or not
        known) its expected win."""
        judgements = list(judgements)
        guesses = [j for j in judgements if j.kind != ClickClass.PROVED]
        expected, kept = expected_win(guesses, won) if valued and won is not None else (None, 0)
        return cls(
            guesses=len(guesses),
            needless=sum(1 for j in guesses if j.kind == ClickClass.NEEDLESS),
            blunders=sum(1 for j in judgements if j.blunder),
            excess_risk=sum((j.excess for j in guesses), start=Fraction(0)),
            survival=product(1 - j.chance for j in guesses),
            exact=all(j.exact for j in judgements),
            loss=sum((j.loss for j in judgements if j.loss is not None), start=Fraction(0)) if valued else None,
            unvalued=sum(1 for j in guesses if j.loss is None) if valued else None,
            expected_win=expected,
            luck_kept=kept,
        )

    @property
    def fully_valued(self) -> bool:
        """Whether every open was valued: ``loss`` is then the game's whole loss (exactly)."""
        return self.unvalued == 0

    def record(self) -> dict:
        """The figures as a game record keeps them: counts as ints, the rest as the floats nearest the exact
        fractions (a game's fraction is recomputed from its board and moves when wanted); ``loss`` and
        ``unvalued`` None (null) when the game was judged without values."""
        return {"guesses": self.guesses, "needless": self.needless, "blunders": self.blunders,
                "excess_risk": float(self.excess_risk), "survival": float(self.survival),
                "loss": None if self.loss is None else float(self.loss), "unvalued": self.unvalued,
                "expected_win": None if self.expected_win is None else float(self.expected_win)}


def expected_win(guesses: list[OpenJudgement], won: bool) -> tuple[Fraction, int]:
    """A game's win with the luck of its valued guesses taken out, and how many valued guesses kept theirs.

    ``guesses`` are the game's guesses judged in order, ``won`` its outcome. Each valued guess's luck is the
    value of the position at the next guess (after the last: the outcome) minus the value of the guess;
    the win less every such luck is an estimate of the player's chance of winning with the same
    expectation, and less spread (see the module's description). A valued guess whose next position has
    no value found keeps its luck (counted).

    >>> from fractions import Fraction as F
    >>> guess = OpenJudgement(F(1, 2), ClickClass.FORCED, loss=F(1, 8), value=F(3, 4))   # the move was worth 5/8
    >>> expected_win([guess], won=False)   # lost: 0, less its bad luck of -5/8
    (Fraction(5, 8), 0)
    >>> expected_win([OpenJudgement(F(1, 2), ClickClass.FORCED, unvalued=True), guess], won=True)   # the first one's luck stays
    (Fraction(5, 8), 0)
    """
    result = Fraction(int(won))
    kept = 0
    for i, guess in enumerate(guesses):
        if guess.loss is None or guess.value is None:
            continue
        after = Fraction(int(won)) if i + 1 == len(guesses) else guesses[i + 1].value
        if after is None:
            kept += 1
            continue
        result -= after - (guess.value - guess.loss)
    return result, kept


def product(values) -> Fraction | float:
    """The product of ``values`` from an exact 1 (a Fraction while every value is one)."""
    result: Fraction | float = Fraction(1)
    for value in values:
        result *= value
    return result


def as_seen(position: Position) -> Position:
    """``position`` with its flags read as covered cells (the total unchanged): what is judged.

    >>> print(as_seen(Position.from_string("3x1x1\\nF1.")))
    3x1x1
    .1.
    """
    grid = position.grid
    if not (grid == FLAG).any():
        return position
    grid = grid.copy()
    grid[grid == FLAG] = COVERED
    return Position(grid, mines=position.mines)


def judge_open(position: Position, opens, *, limit: Limit | None = JUDGE_LIMIT,
               value: Limit | None = JUDGE_VALUE_LIMIT) -> OpenJudgement:
    """The open of the covered cells ``opens`` (flat) on ``position``, judged (flags read as covered).

    ``limit`` bounds each count (None: no bound); a count cut short gives the engine's
    estimates and ``exact`` False. ``value`` bounds the search that values a guess
    (:func:`~cspmines.games.loss.move_loss`); None: guesses are not valued (``loss`` None,
    ``unvalued`` False).

    >>> from cspmines import Position
    >>> judge_open(Position.from_string("3x2x1\\n1..\\n..."), (2,)).kind.value   # the 1's mine is by it: (0,2) is safe
    'proved'
    >>> judge_open(Position.from_string("3x2x1\\n1..\\n..."), (1,)).kind.value
    'needless'
    """
    position = as_seen(position)
    opens = tuple(opens)
    if not opens:
        return PROVED
    if _proved_nearby(position, opens) or settle_position(position).safe_cells.issuperset(opens):
        return PROVED  # single clues prove it: no count needed
    analysis = solve(position, limit=limit, explain=False)
    safe = analysis.safe_cells
    if set(safe).issuperset(opens):  # proved cells are proved whatever the budget
        return OpenJudgement(Fraction(0), ClickClass.PROVED, analysis=analysis, loss=Fraction(0))
    chance, exact = _chance(analysis, opens, limit)
    (least,) = analysis.least_probabilities(1)
    mines = set(analysis.mine_cells)
    blunder = any(cell in mines for cell in opens)
    lost = MoveLoss(None) if value is None else _loss(position, opens, blunder, value)
    return OpenJudgement(chance, ClickClass.NEEDLESS if safe else ClickClass.FORCED, least, blunder=blunder,
                         exact=exact and analysis.exact, analysis=analysis, loss=lost.loss,
                         unvalued=value is not None and lost.loss is None, value=lost.value)


def _loss(position: Position, opens: tuple, blunder: bool, value: Limit) -> MoveLoss:
    """The loss of a guess: a proved mine's is the position's whole value (the cells' own not searched); a
    chord's is not valued."""
    if blunder and len(opens) == 1:
        return mine_loss(position, limit=value)
    return move_loss(position, opens, limit=value)


def _proved_nearby(position: Position, opens: tuple, radius: int = 3) -> bool:
    """Whether the clues around ``opens`` prove every cell of it safe on their own, rule by rule.

    Most opens of a game are proved so, and a window of the board settles far faster than the
    whole. The clues on the window's inner edge may see cells outside it, so they are read as
    withheld (opened, saying nothing): every rule left is one of the board's, and a cell they
    prove safe is safe. When they do not, the whole board is asked (False says nothing)."""
    where = [position.row_col(cell) for cell in opens]
    top, left = max(0, min(r for r, _ in where) - radius), max(0, min(c for _, c in where) - radius)
    bottom = min(position.height, max(r for r, _ in where) + radius + 1)
    right = min(position.width, max(c for _, c in where) + radius + 1)
    grid = position.grid[top:bottom, left:right].copy()
    edge = np.zeros(grid.shape, dtype=bool)
    edge[0, :] |= top > 0
    edge[-1, :] |= bottom < position.height
    edge[:, 0] |= left > 0
    edge[:, -1] |= right < position.width
    grid[edge & (grid >= 0)] = WITHHELD
    window = Position._trusted(grid, None)
    safe = settle_position(window).safe_cells
    return all((r - top) * grid.shape[1] + (c - left) in safe for r, c in where)


def _chance(analysis: Analysis, opens: tuple, limit: Limit | None) -> tuple[Fraction | float, bool]:
    """The chance that any cell of ``opens`` is a mine, and whether it is exact."""
    unsure = [cell for cell in opens if analysis.probability(cell) != 0]
    if not unsure:  # estimates of 0 (the cells are not proved safe, or the open would be proved)
        return Fraction(0), False
    if len(unsure) == 1:
        return analysis.probability(unsure[0]), analysis.exact
    if any(cell in analysis.mine_cells for cell in unsure):  # a proved mine: no layout has them all safe
        return Fraction(1), True
    if analysis.exact and analysis.model_count is not None:
        # P(all safe) = layouts with every opened cell safe / all layouts: the cells as opened, clues unknown
        grid = analysis.position.grid.copy()
        grid.flat[unsure] = WITHHELD
        try:
            opened = solve(Position(grid, mines=analysis.position.mines), limit=limit, explain=False)
        except InconsistentPositionError:  # no layout has them all safe (one of two cells holding a mine, say)
            return Fraction(1), True
        if opened.exact and opened.model_count is not None:
            return 1 - Fraction(opened.model_count, analysis.model_count), True
    # an estimate: the cells as if independent
    return 1 - product(1 - analysis.probability(cell, exact=False) for cell in unsure), False


def opened_cells(action: Action) -> tuple:
    """The cells an action opens before any opening spreads (a flag opens none)."""
    return (action.cell,) if action.kind == ActionKind.OPEN else ()


def judge_moves(moves, *, limit: Limit | None = JUDGE_LIMIT, value: Limit | None = JUDGE_VALUE_LIMIT,
                won: bool | None = None) -> GameJudgement:
    """A game's opens judged from its ``(position seen, action)`` pairs, in order (as :func:`~cspmines.games.play`'s
    ``observe`` sees them); ``limit`` and ``value`` as :func:`judge_open` takes them (``value`` None: not valued).
    With ``won``, the game's outcome, its expected win too (:func:`expected_win`): a guess not valued that
    follows a valued one has its position's value searched alone, within ``value``, so that the valued
    guess's luck can be taken out.

    >>> from cspmines.agents import make_agent
    >>> from cspmines.games import Board, Game, play
    >>> moves = []
    >>> _ = play(make_agent("exact"), Game(Board.random("beginner", seed=4)), seed=0, observe=lambda p, a: moves.append((p, a)))
    >>> judge_moves(moves, won=True)   # won without a guess: its expected win is its win
    GameJudgement(guesses=0, needless=0, blunders=0, excess_risk=Fraction(0, 1), survival=Fraction(1, 1), exact=True, loss=Fraction(0, 1), unvalued=0, expected_win=Fraction(1, 1), luck_kept=0)
    """
    moves = list(moves)
    judged = [judge_open(position, opened_cells(action), limit=limit, value=value) for position, action in moves]
    if value is not None and won is not None:
        judged = with_next_values(judged, lambda i: moves[i][0], value)
    return GameJudgement.of(judged, valued=value is not None, won=won)


def with_next_values(judged: list, position_of: Callable[[int], Position], value: Limit) -> list:
    """``judged`` (judgements with ``kind``, ``loss`` and ``value``, in the game's order) with the position's value
    of each guess that follows a valued guess and has none, searched alone
    (:func:`~cspmines.games.loss.position_value`) within ``value`` on ``position_of(i)``, the position judgement
    ``i`` was made in: so that the valued guess's luck can be taken out of the expected win (:func:`expected_win`).

    >>> from fractions import Fraction as F
    >>> valued, chord = OpenJudgement(F(1, 2), ClickClass.FORCED, loss=F(0), value=F(1, 2)), OpenJudgement(F(1, 2), ClickClass.FORCED, unvalued=True)
    >>> with_next_values([valued, chord], lambda i: Position.from_string("3x1x1\\n.1."), Limit())[1].value   # a 50/50 left
    Fraction(1, 2)
    """
    judged = list(judged)
    guesses = [i for i, j in enumerate(judged) if j.kind != ClickClass.PROVED]
    for before, i in pairwise(guesses):
        if judged[before].loss is not None and judged[i].value is None:
            judged[i] = replace(judged[i], value=position_value(as_seen(position_of(i)), limit=value))
    return judged
