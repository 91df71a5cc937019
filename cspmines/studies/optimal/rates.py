"""An agent's win rate on a whole board under a first-click rule: every layout played once where there are
few enough, else a sample drawn the same for every agent.

Game i plays the layout of rank r_i among those the rule draws from (:func:`~.rules.layout_at`): every
rank once (``exhaustive``), or ranks drawn uniformly, with replacement, by
``numpy.random.default_rng([seed, width, height, mines, rule])``, the same for every agent (paired). The
agent is reset for game i with ``numpy.random.default_rng([seed, width, height, mines, i])``, whatever
the rule and the agent. Each rule is played as the optimum is computed for it:

* ``none``: the board has no first click (:class:`~cspmines.games.Board` ``first_click=None``, the
  simulator's ``unsafe``): the agent clicks first, and may hit a mine;
* ``protected``: the agent, reset with game i's stream, is shown the empty board and names its first
  cell c; the layout is rank r_i among those with c safe, and the game is played from the start with
  the agent reset with the same stream, so it opens c again (checked: it must);
* ``corner``: the layout is rank r_i among those with the corner safe and the game opens the corner
  first (``first_click=0``, as ``Board.random(first_click="safe")`` draws its boards).

Agents are deterministic given their stream. A game in which the agent drew nothing from it was played
as it would be with any seed; when no game drew, an exhaustive rate is the agent's exact rate. Otherwise
it is the rate of this seeding, an estimate of the rate over the agent's own chances, with the Wilson 95%
interval (``random_games`` says how many games drew).

>>> rate = agent_rate("exact", 3, 3, 1, "corner")
>>> rate.games, rate.wins, rate.exhaustive, rate.exact
(8, 8, True, True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction

import numpy as np

from ...actions import ActionKind, Rules
from ...agents import make_agent
from ...bench.stats import wilson_interval
from ...engine.budget import Stopwatch
from ...errors import CspminesError
from ...games import Board, Game, play
from .rules import CORNER, FirstClickRule, empty_board, layout_at, layouts_under

__all__ = ["AgentRate", "FirstClickMismatch", "Games", "agent_rate", "game_ranks", "gap", "play_rank"]

_RULE_NUMBER = {rule: number for number, rule in enumerate(FirstClickRule)}


class FirstClickMismatch(CspminesError, RuntimeError):
    """An agent whose first cell, under ``protected``, was not the one it named on the empty board with the
    same stream: the rule cannot be played with it."""


@dataclass(frozen=True)
class Games:
    """How an agent's games on a board are chosen: every layout once where a rule draws from at most
    ``exhaustive``, else ``sample`` drawn with ``seed`` (which also seeds the agent's stream)."""

    exhaustive: int = 20_000
    sample: int = 2_000
    seed: int = 0


@dataclass(frozen=True)
class AgentRate:
    """An agent's games on a ``width`` x ``height`` board with ``mines`` mines under ``rule``: ``wins`` of
    ``games``, every layout once (``exhaustive``) or a sample; ``random_games`` drew from the agent's stream;
    ``seconds`` of CPU in all."""

    agent: str
    rule: FirstClickRule
    width: int
    height: int
    mines: int
    games: int
    wins: int
    exhaustive: bool
    random_games: int
    seconds: float

    @property
    def rate(self) -> Fraction:
        return Fraction(self.wins, self.games)

    @property
    def exact(self) -> bool:
        """Whether ``rate`` is the agent's exact rate (every layout, and no game depended on the seed)."""
        return self.exhaustive and self.random_games == 0

    @property
    def ci95(self) -> tuple[float, float] | None:
        """The Wilson 95% interval of the rate; None when the rate is exact."""
        return None if self.exact else wilson_interval(self.wins, self.games)

    def record(self) -> dict:
        """The rate as one JSON object (what :meth:`from_record` reads)."""
        return {**asdict(self), "rule": str(self.rule)}

    @classmethod
    def from_record(cls, record: dict) -> AgentRate:
        fields = {name: record[name] for name in cls.__dataclass_fields__}
        return cls(**{**fields, "rule": FirstClickRule.check(record["rule"])})


def game_ranks(width: int, height: int, mines: int, rule, games: Games = Games()) -> tuple[range | np.ndarray, bool]:
    """The layout ranks of the games (see the module), and whether they are every layout once: all of them
    when there are at most ``games.exhaustive``, else ``games.sample`` drawn.

    >>> game_ranks(4, 4, 2, "none", Games(exhaustive=200, sample=10))
    (range(0, 120), True)
    >>> ranks, every = game_ranks(4, 4, 8, "none", Games(exhaustive=200, sample=10)); len(ranks), every
    (10, False)
    """
    rule = FirstClickRule.check(rule, "the first-click rule")
    layouts = layouts_under(width, height, mines, rule)
    if layouts <= games.exhaustive:
        return range(layouts), True
    rng = np.random.default_rng([games.seed, width, height, mines, _RULE_NUMBER[rule]])
    return rng.integers(0, layouts, size=games.sample, dtype=np.int64), False


def agent_rate(spec: str, width: int, height: int, mines: int, rule, games: Games = Games()) -> AgentRate:
    """``spec``'s win rate under ``rule`` on the board, on the games ``games`` chooses (see the module)."""
    rule = FirstClickRule.check(rule, "the first-click rule")
    ranks, every = game_ranks(width, height, mines, rule, games)
    agent = make_agent(spec)
    wins = drew = 0
    with Stopwatch(cpu=True) as watch:
        for i, rank in enumerate(ranks):
            stream = np.random.SeedSequence([games.seed, width, height, mines, i])
            won, random = play_rank(agent, width, height, mines, rule, int(rank), stream)
            wins += won
            drew += random
    return AgentRate(spec, rule, width, height, mines, len(ranks), wins, every, drew, watch.seconds)


def play_rank(agent, width: int, height: int, mines: int, rule: FirstClickRule, rank: int, stream: np.random.SeedSequence) -> tuple[bool, bool]:
    """One game of ``agent`` on the layout of ``rank`` under ``rule``, the agent reset with ``stream``:
    (won, whether the agent drew from its stream)."""
    first: int | None = None
    drew = False
    cells = list(range(width * height))
    if rule is FirstClickRule.PROTECTED:
        first, drew = _first_cell(agent, width, height, mines, stream)
    elif rule is FirstClickRule.CORNER:
        first = CORNER
    layout = layout_at(rank, cells if first is None else [c for c in cells if c != first], mines)
    board = Board.from_layout(width, height, layout)
    # under protected the agent clicks first itself, on a board drawn with its cell safe; the corner the game opens
    game = Game(Board(board.mines, first_click=CORNER if rule is FirstClickRule.CORNER else None))
    rng = np.random.default_rng(stream)
    before = rng.bit_generator.state
    opened: list = []
    record = play(agent, game, seed=rng, observe=lambda _position, action: opened.append(action))
    if rule is FirstClickRule.PROTECTED and (not opened or opened[0].cell != first or opened[0].kind != ActionKind.OPEN):
        raise FirstClickMismatch(f"agent {agent.name!r} named cell {first} first on the empty board, then played {opened[:1]} "
                                 "with the same stream")
    return record.won, drew or rng.bit_generator.state != before


def _first_cell(agent, width: int, height: int, mines: int, stream: np.random.SeedSequence) -> tuple[int, bool]:
    """The cell ``agent``, reset with ``stream``, opens first on the empty board, and whether it drew to choose."""
    rng = np.random.default_rng(stream)
    before = rng.bit_generator.state
    agent.reset(rules=Rules.CLASSIC, seed=rng)
    action = agent.act(empty_board(width, height, mines))
    if action.kind != ActionKind.OPEN:
        raise FirstClickMismatch(f"agent {agent.name!r} did not open a cell first on the empty board: {action}")
    return action.cell, rng.bit_generator.state != before


def gap(rate: AgentRate, value) -> tuple[float, float]:
    """The agent's rate minus the optimum ``value`` (a :class:`~.optimum.RuleValue`), in points: at least and
    at most (equal when both are exact; the agent's interval is not in it)."""
    low, high = value.bounds
    return float(rate.rate - high) * 100, float(rate.rate - low) * 100
