"""What a benchmark plays: a suite of seeded games, and the board of each.

Game ``i`` of a suite uses the board drawn from ``(seed, i)`` alone, so every
agent meets the same boards, whatever the executor or the number of workers,
and a game's result (timings aside) is the same everywhere. Each game has
three random streams, all from ``(seed, i)``: the board, the game (withheld
clues) and the agent (:func:`game_rng`).

>>> suite = Suite.create(agents=["exact"], size="beginner", games=3, seed=1)
>>> [board_for(suite, i).n_mines for i in range(3)]
[10, 10, 10]
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..actions import Rules
from ..agents import agent_names
from ..agents.external import DEFAULT_MOVE_TIMEOUT, is_command, player_name, table_name
from ..agents.registry import known_agent, make_agent
from ..errors import CspminesError
from ..games import FIRST_CLICKS, Board, parse_size
from ..games.board import check_first_click
from ..games.noguess import NoGuessError, draw_no_guess
from ..games.noguess import check_no_guess as check_drawable
from ..position import is_whole

__all__ = ["BOARD", "GAME", "AGENT", "Suite", "SuiteError", "SuiteVariant", "board_for", "game_rng", "sweep_suites"]

#: The random streams of a game: its board, the game itself (withheld clues) and the agent.
BOARD, GAME, AGENT = 0, 1, 2


class SuiteError(CspminesError, ValueError):
    """A suite that cannot run as asked (bad options, or an --out file of another suite)."""


@dataclass(frozen=True)
class SuiteVariant:
    """A suite's rarer choices: the chance an opened cell's clue is ``withheld`` (seed 001's variant), boards
    drawn ``no_guess`` (every one its first click solves without a guess, uniformly among them:
    :func:`~cspmines.games.noguess.draw_no_guess`), and the seconds a player from outside has for a move
    (``move_timeout``)."""

    withheld: float = 0.0
    no_guess: bool = False
    move_timeout: float = DEFAULT_MOVE_TIMEOUT


@dataclass(frozen=True)
class Suite:
    """What to play: agents, board, rules, how many games, from which seed.

    Build it with :meth:`create`, which checks the options; every agent plays
    the same boards (:func:`board_for`), so agents are compared game by game.

    >>> suite = Suite.create(agents=["exact", "greedy"], size="beginner", games=20, seed=0)
    >>> suite.width, suite.height, suite.mines, suite.first_click
    (9, 9, 10, 'safe')
    >>> Suite.create(agents=["nope"])
    Traceback (most recent call last):
    ...
    cspmines.bench.suite.SuiteError: unknown or missing agents ['nope']; choose from exact, greedy, knowledge-base, partition, random, risk-score, set-theory, single-point (or a plugin's name, cmd:COMMAND, FILE.py:CLASS)
    >>> Suite.create(agents=["exact"], seed=-1)
    Traceback (most recent call last):
    ...
    cspmines.bench.suite.SuiteError: seed must be a whole number >= 0, got -1
    >>> Suite.create(agents=["exact:lookahead=-1"])
    Traceback (most recent call last):
    ...
    cspmines.bench.suite.SuiteError: agent 'exact:lookahead=-1': exact option lookahead=-1 is invalid: it takes a whole number >= 0
    """

    agents: tuple
    width: int
    height: int
    mines: int
    rules: str = "classic"
    withheld: float = 0.0
    first_click: str = "safe"
    games: int = 100
    seed: int = 0
    move_timeout: float = DEFAULT_MOVE_TIMEOUT  # seconds a player outside the process has for a move
    no_guess: bool = False

    @classmethod
    def create(
        cls, *, agents, size="expert", rules="classic", first_click="safe", games=100, seed=0,
        variant: SuiteVariant | None = None,
    ) -> Suite:
        """A validated suite; ``size`` is a preset name or ``"WxHxM"``; ``agents`` a list of agent
        specs (or one spec as a string). A ``cmd:`` player is started here, to learn its name (which must
        be no other agent's) or why it cannot play. ``variant``: withheld clues, no-guess boards, the move
        time of players from outside (:class:`SuiteVariant`).

        >>> Suite.create(agents=["exact"], size="beginner", variant=SuiteVariant(no_guess=True)).config["no_guess"]
        True
        >>> Suite.create(agents=["exact"], variant=SuiteVariant(no_guess=True), first_click="highest")
        Traceback (most recent call last):
        ...
        cspmines.bench.suite.SuiteError: no-guess boards are drawn under the first click safe or opening, got 'highest'
        """
        variant = variant or SuiteVariant()
        withheld, move_timeout, no_guess = variant.withheld, variant.move_timeout, variant.no_guess
        agents = (agents,) if isinstance(agents, str) else tuple(agents)
        unknown = [a for a in agents if not known_agent(a)]
        if not agents or unknown:
            raise SuiteError(f"unknown or missing agents {unknown}; choose from {', '.join(agent_names())} "
                             "(or a plugin's name, cmd:COMMAND, FILE.py:CLASS)")
        if not isinstance(move_timeout, (int, float)) or not move_timeout > 0:
            raise SuiteError(f"move_timeout must be seconds above 0, got {move_timeout!r}")
        for spec in agents:  # an option an agent does not take fails here, not in every game
            try:
                make_agent(spec, **({"move_timeout": move_timeout} if is_command(spec) else {}))
                if is_command(spec):
                    player_name(spec, move_timeout=move_timeout)
            except (CspminesError, ValueError) as error:
                raise SuiteError(f"agent {spec!r}: {error}") from None
        _check_names(agents)
        try:
            rules = Rules.check(rules).value
        except ValueError as error:
            raise SuiteError(str(error)) from None
        if first_click not in FIRST_CLICKS:
            raise SuiteError(f"first_click must be one of {', '.join(FIRST_CLICKS)}, got {first_click!r}")
        if not 0 <= withheld < 1:
            raise SuiteError(f"withheld must lie in [0, 1), got {withheld}")
        if not is_whole(games) or games < 1:
            raise SuiteError(f"games must be a whole number of at least 1, got {games!r}")
        if not is_whole(seed) or seed < 0:
            raise SuiteError(f"seed must be a whole number >= 0, got {seed!r}")
        width, height, mines = parse_size(size)
        check_first_click(width, height, mines, first_click)
        if no_guess:
            check_no_guess(width, height, mines, first_click)
        return cls(agents, width, height, mines, rules, float(withheld), first_click, int(games), int(seed),
                   float(move_timeout), bool(no_guess))

    @property
    def config(self) -> dict:
        """What identifies the suite's games (not the agents or how many games); ``no_guess`` only where set,
        so the records of other suites read as they always did."""
        config = {
            "width": self.width,
            "height": self.height,
            "mines": self.mines,
            "rules": self.rules,
            "withheld": self.withheld,
            "first_click": self.first_click,
            "seed": self.seed,
        }
        if self.no_guess:
            config["no_guess"] = True
        return config

    @property
    def variant(self) -> SuiteVariant:
        """The suite's rarer choices, as :meth:`create` takes them."""
        return SuiteVariant(self.withheld, self.no_guess, self.move_timeout)

    def tasks(self) -> list[tuple[str, int]]:
        return [(agent, i) for i in range(self.games) for agent in self.agents]


def _check_names(agents: tuple) -> None:
    """Every agent of a suite has a name of its own in the tables (a command's player goes by the one it gave)."""
    seen: dict = {}
    for spec in agents:
        name = table_name(spec)
        if name in seen and seen[name] != spec:
            raise SuiteError(f"agents {seen[name]!r} and {spec!r} are both named {name!r} in the tables: "
                             "give each player a name of its own")
        seen[name] = spec


def game_rng(suite: Suite, i: int, stream: int) -> np.random.Generator:
    """The random stream ``stream`` (:data:`BOARD`, :data:`GAME` or :data:`AGENT`) of game ``i``.

    >>> suite = Suite.create(agents=["exact"], size="beginner", seed=5)
    >>> int(game_rng(suite, 3, AGENT).integers(1000)) == int(game_rng(suite, 3, AGENT).integers(1000))
    True
    """
    return np.random.default_rng([suite.seed, i, stream])


def board_for(suite: Suite, i: int) -> Board:
    """The board of game ``i``: from ``(seed, i)`` alone, whatever the agent, worker or run (a no-guess
    suite's: the no-guess board drawn from that stream).

    >>> suite = Suite.create(agents=["exact"], size="beginner", games=2, seed=0)
    >>> str(board_for(suite, 1)) == str(board_for(suite, 1)) != str(board_for(suite, 0))
    True
    """
    size, rng = (suite.width, suite.height, suite.mines), game_rng(suite, i, BOARD)
    if suite.no_guess:
        return draw_no_guess(size, seed=rng, first_click=suite.first_click).board
    return Board.random(size, seed=rng, first_click=suite.first_click)


def check_no_guess(width: int, height: int, mines: int, first_click: str) -> None:
    """Raise :class:`SuiteError` where no-guess boards cannot be drawn so: a first click that names no cell,
    or no room for it."""
    try:
        check_drawable(width, height, mines, first_click)
    except NoGuessError as error:
        raise SuiteError(str(error)) from None


def sweep_suites(base: Suite, *, densities=None, sizes=None, density: float = 0.15) -> list[tuple[float, Suite]]:
    """The suites of a density sweep (same board size) or a size sweep (square boards, same density),
    each with its x value: the density, or the number of cells.

    >>> base = Suite.create(agents=["exact"], size="10x10x10", games=5)
    >>> [(x, s.mines) for x, s in sweep_suites(base, densities=[0.1, 0.3])]
    [(0.1, 10), (0.3, 30)]
    >>> [(x, s.width, s.mines) for x, s in sweep_suites(base, sizes=[4], density=0.25)]
    [(16, 4, 4)]
    >>> sweep_suites(base, densities=[1.5])
    Traceback (most recent call last):
    ...
    cspmines.bench.suite.SuiteError: a density of a sweep must lie between 0 and 1, got 1.5
    >>> sweep_suites(base, sizes=[1])   # one cell, one mine: no safe corner to click
    Traceback (most recent call last):
    ...
    cspmines.bench.suite.SuiteError: a point of the sweep cannot be played: a 1x1 board with 1 mine has no safe cell for the first click 'safe'
    """
    suites = []
    for d in densities or []:
        if not 0 <= d <= 1:
            raise SuiteError(f"a density of a sweep must lie between 0 and 1, got {d}")
        mines = max(1, round(d * base.width * base.height))
        suites.append((d, replace(base, mines=mines)))
    if sizes and not 0 <= density <= 1:
        raise SuiteError(f"the density of a size sweep must lie between 0 and 1, got {density}")
    for n in sizes or []:
        if n < 1:
            raise SuiteError(f"a side length of a size sweep must be at least 1, got {n}")
        mines = max(1, round(density * n * n))
        suites.append((n * n, replace(base, width=n, height=n, mines=mines)))
    for _, suite in suites:  # every point must be a board its first click can be played on
        try:
            check_first_click(suite.width, suite.height, suite.mines, suite.first_click)
            if suite.no_guess:
                check_no_guess(suite.width, suite.height, suite.mines, suite.first_click)
        except ValueError as error:
            raise SuiteError(f"a point of the sweep cannot be played: {error}") from None
    return suites
