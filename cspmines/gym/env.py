"""Minesweeper as a Gymnasium environment, on the bench's very boards.

``reset(seed=S, options={"game": I})`` starts game ``I`` of the suite with seed
``S``: the board, the first click and the withheld clues of game ``I`` of
``cspmines bench --seed S`` with the same size, rules and first click
(:func:`cspmines.bench.new_game`). Without ``game`` a seeded reset starts game
0, and each reset after it the next game of the same seed; the first reset
without any seed draws one from the environment's own generator. A game the
first click already ends (its cascade opens every safe cell) leaves nothing to
learn, so a reset never hands one back: it plays the next game of the same seed
instead, as many times as needed (:data:`MOST_REDRAWS` at most), and
``redrawn`` says how many it passed over. The same seed gives the same games.

The observation is the board as the player sees it, an int8 array of shape
``(height, width)``: -1 covered, 0-8 clues; -2 a flag (with ``flags=True``),
-3 an opened mine (minesearch and score rules), -4 a withheld clue. With
``observation="channels"`` it is the same cells as one-hot planes for a
network, a ``(13, height, width)`` uint8 array of 0s and 1s
(:data:`~cspmines.gym.views.CHANNEL_CODES` says which code each plane marks). An action
opens a cell (``row * width + col``); with ``flags=True`` the actions from
``width * height`` on flag one. ``info["action_mask"]`` marks the actions that
can be taken (none once the game is over), and ``action_masks()`` gives it as
booleans, as MaskablePPO asks; an action that cannot be taken changes nothing,
is rewarded ``invalid_reward`` and sets ``info["invalid"]``. ``info["status"]`` is ``playing``, ``won``,
``lost`` or, under score rules, ``finished`` (every cell opened or flagged,
not every mine flagged). With ``oracle=True``, ``info["mine_chance"]`` holds
every cell's exact mine chance (a float array shaped as the observation) and
``info["mine_chance_exact"]`` whether the count finished within the ``limit``.

``render_mode="rgb_array"`` makes ``render()`` return the board as a picture, an
``(height * 16, width * 16, 3)`` uint8 array drawn with numpy alone
(:mod:`cspmines.gym.frames`), for videos and notebooks; ``"human"`` shows it in a
window after every reset and step (Tk, Python's own; a one-line error where
there is no display); ``"ansi"`` returns it as text, in the position format.

Rewards (``reward=``):

``win`` (the default)
    +1 on the step that wins, -1 on the step that loses, 0 otherwise.
``progress``
    The share of the board's safe cells a step opens (a won game sums to 1),
    and -1 for each mine it opens.
``measure``
    The change in the rules' own measure, signed so that more is better: the
    episode's return is the bench's measure of the game (classic: 1 won, 0
    lost; minesearch: minus the fraction of cells opened; score: the share of
    mines flagged; with withheld clues: minus the mines set off).

>>> env = MinesweeperEnv("beginner")
>>> observation, info = env.reset(seed=0, options={"game": 3})
>>> observation.shape, observation.dtype, info["status"], int(info["action_mask"].sum()) < 81
((9, 9), dtype('int8'), 'playing', True)
"""

from __future__ import annotations

import warnings
from dataclasses import replace

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.envs.registration import EnvSpec

from ..bench.compare import measure_for
from ..bench.runner import new_game
from ..bench.suite import Suite, SuiteVariant
from ..engine.budget import Limit
from ..games import Game, IllegalMoveError, Status
from ..position import is_whole
from .frames import board_frame
from .options import (
    EnvOptionError,
    EvaluationBoardsWarning,
    ObservationKind,
    RenderMode,
    Reward,
    oracle_limit,
    read_number,
    read_option,
)
from .views import action_mask, info_for, mask_for, observation, observation_space, to_action
from .window import Window

__all__ = ["MOST_REDRAWS", "MinesweeperEnv", "Reward", "EnvOptionError", "default_max_steps"]

#: The most games in a row a reset passes over because the first click ended them: past it the board is one
#: whose first click (nearly) always ends the game, and the reset says so rather than searching on.
MOST_REDRAWS = 1000


class MinesweeperEnv(gymnasium.Env):
    """Minesweeper under the classic rules or a variant (see the module's description).

    Parameters
    ----------
    size : str or (width, height, mines)
        A preset (beginner, intermediate, expert) or ``"WxHxM"``.
    rules, withheld, first_click : keyword-only
        As ``cspmines bench`` takes them.
    reward : {"win", "progress", "measure"}, keyword-only
    flags : bool, keyword-only
        Add the flag actions (score rules measure flags).
    oracle : bool, keyword-only
        Put every cell's exact mine chance in ``info`` (a count a step).
    invalid_reward : float, keyword-only
        The reward of an action the mask forbids (nothing changes).
    max_steps : int, keyword-only
        Steps before the episode is truncated (default: four a cell, as the bench allows moves).
    limit : Limit, keyword-only
        What the oracle's count of one position may spend (default ``Limit(time=1)``: a count cut short
        gives estimates, and ``info["mine_chance_exact"]`` is False).
    render_mode : {"ansi", "rgb_array", "human", None}, keyword-only
        What ``render()`` gives (see the module's description).
    observation : {"grid", "channels"}, keyword-only
        The cell codes as they are (``"grid"``), or one-hot planes, channels first (``"channels"``).

    Attributes
    ----------
    suite_seed, game_index : int
        The bench's seed and game number being played.
    game : cspmines.games.Game
        The game being played.
    steps : int
        Steps taken in the episode.
    redrawn : int
        Games the last reset passed over because the first click had ended them.
    """

    metadata = {"render_modes": RenderMode.words(), "render_fps": 4}
    _spec: EnvSpec | None = None

    def __init__(self, size="beginner", *, rules: str = "classic", withheld: float = 0.0, first_click: str = "safe",
                 reward: str = "win", flags: bool = False, oracle: bool = False, invalid_reward: float = -0.1,
                 max_steps: int | None = None, limit: Limit | None = None, render_mode: str | None = None,
                 observation: str = "grid"):
        # the boards depend on the size, rules, first click and seed alone: the suite's agent is a placeholder
        self._suite = Suite.create(agents=["random"], size=size, rules=rules, first_click=first_click,
                                   variant=SuiteVariant(withheld=withheld))
        self.reward_shape = read_option(Reward, reward, "reward")
        self.observation_kind = read_option(ObservationKind, observation, "observation")
        self.render_mode = _read_render_mode(render_mode)
        cells = self._suite.width * self._suite.height
        self.max_steps = _read_max_steps(max_steps, self._suite.width, self._suite.height)
        self.flags, self.oracle, self.invalid_reward = bool(flags), bool(oracle), read_number(invalid_reward, "invalid_reward")
        self.limit = oracle_limit(limit)
        self.observation_space = observation_space(self.observation_kind, self._suite.width, self._suite.height)
        self.action_space = spaces.Discrete(2 * cells if self.flags else cells)
        self._measure = measure_for(self._suite.rules, self._suite.withheld)
        self.suite_seed: int | None = None
        self.game_index = -1
        self.game: Game | None = None
        self.steps = 0
        self.redrawn = 0  # games the last reset passed over, over before the first move
        self._warned = False  # of walking the bench's default boards: once an environment
        # the window opens with the environment, so that a missing display is said at once, not mid-training
        self._window = Window(f"cspmines {self._suite.width}x{self._suite.height}x{self._suite.mines}",
                              fps=self.metadata["render_fps"]) if self.render_mode == RenderMode.HUMAN else None

    @property
    def spec(self) -> EnvSpec | None:
        """The id and options the environment was made from (``gymnasium.make``; None when made directly),
        its ``max_episode_steps`` where episodes are cut."""
        return self._spec

    @spec.setter
    def spec(self, spec: EnvSpec | None) -> None:
        # make() files every environment's spec with no cut, and wraps a TimeLimit only where the
        # registration has one; this environment cuts its own episodes at max_steps, so its spec says where
        if spec is not None and spec.max_episode_steps is None:
            spec = replace(spec, max_episode_steps=self.max_steps)
        self._spec = spec

    @property
    def suite(self) -> Suite:
        """The bench suite whose games the environment plays (its seed the last reset's)."""
        return replace(self._suite, seed=self.suite_seed or 0)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - {"game"}
        if unknown:
            raise EnvOptionError(f"reset options are {{'game': I}}, got {sorted(unknown)}")
        self._mind_the_evaluation_boards(seed, options)
        if seed is not None:
            self.suite_seed, game = seed, 0
        elif self.suite_seed is None:
            self.suite_seed, game = int(self.np_random.integers(2**31)), 0
        else:
            game = self.game_index + 1
        game = options.get("game", game)
        if not is_whole(game) or game < 0:
            raise EnvOptionError(f"the game must be a whole number >= 0, got {game!r}")
        self.game_index, self.game, self.redrawn = self._playable_game(int(game))
        self.steps = 0
        self._show()
        return observation(self.game.position, self.observation_kind), self._info()

    def step(self, action):
        game = self._game()
        if game.status != Status.PLAYING:
            raise IllegalMoveError(f"the game is over ({game.status}): reset the environment")
        if not self.action_space.contains(action):
            raise EnvOptionError(f"action {action!r} is outside Discrete({self.action_space.n})")
        index, size = int(action), self._suite.width * self._suite.height
        before = self._tally(game)
        invalid = not action_mask(game.position, flags=self.flags)[index]
        if not invalid:
            game.apply(to_action(index, size))
        self.steps += 1
        reward = self.invalid_reward if invalid else self._reward(before, self._tally(game), game)
        terminated = game.status != Status.PLAYING
        truncated = not terminated and self.steps >= self.max_steps
        self._show()
        return observation(game.position, self.observation_kind), reward, terminated, truncated, self._info(invalid)

    def action_masks(self) -> np.ndarray:
        """The actions that can be taken now, as booleans: ``info["action_mask"]`` under the name and type that
        MaskablePPO (sb3-contrib) asks an environment for; none once the game is over.

        >>> env = MinesweeperEnv("beginner")
        >>> _, info = env.reset(seed=0, options={"game": 3})
        >>> masks = env.action_masks()
        >>> masks.dtype, bool((masks == info["action_mask"].astype(bool)).all())
        (dtype('bool'), True)
        """
        game = self._game()
        return mask_for(game.position, game.status, flags=self.flags).astype(bool)

    def render(self):
        """The board as text (``"ansi"``), as an RGB picture (``"rgb_array"``), or None: ``"human"`` shows it
        in its window at every reset and step, and without a render mode there is nothing to give."""
        if self.render_mode == RenderMode.ANSI:
            return str(self._game().position) + "\n"
        if self.render_mode == RenderMode.RGB_ARRAY:
            return board_frame(self._game().position)
        return None

    def close(self):
        if self._window is not None:
            self._window.close()

    # -- helpers -------------------------------------------------------------
    def _playable_game(self, first: int) -> tuple[int, Game, int]:
        """Game ``first`` of the suite, or the first game after it that is not over before the first move, as
        (its number, the game, how many games were passed over). The bench plays and counts every game; a
        learner can do nothing in one the first click won, and ``step`` would refuse every action."""
        suite = self.suite
        for index in range(first, first + MOST_REDRAWS + 1):
            game = new_game(suite, index)
            if game.status == Status.PLAYING:
                return index, game, index - first
        counted = f"{suite.mines} mine" + ("s" if suite.mines != 1 else "")
        raise EnvOptionError(
            f"games {first} to {first + MOST_REDRAWS} of seed {suite.seed} are all over before the first move: a "
            f"{suite.width}x{suite.height} board with {counted} and the first click {suite.first_click!r} leaves nothing "
            "to play (choose another size or first click)")

    def _mind_the_evaluation_boards(self, seed, options: dict) -> None:
        """Warn, once, of a walk through seed 0's games: ``make_vec_env(seed=0)`` starts its first environment
        so, and ``cspmines bench`` and ``Suite.create`` evaluate on those very boards unless told otherwise.
        A game asked for by number is a bench game played on purpose."""
        if seed == 0 and "game" not in options and not self._warned:
            self._warned = True
            warnings.warn("reset(seed=0) walks the games of `cspmines bench --seed 0`, the boards the bench and "
                          "Suite.create evaluate on unless given another seed: train from other seeds (say "
                          "make_vec_env(..., seed=1_000_000)) or evaluate on another seed (docs/gym.md)",
                          EvaluationBoardsWarning, stacklevel=3)

    def _show(self) -> None:
        if self._window is not None:
            self._window.show(board_frame(self._game().position))

    def _game(self) -> Game:
        if self.game is None:
            raise IllegalMoveError("the environment has no game yet: call reset() first")
        return self.game

    def _info(self, invalid: bool = False) -> dict:
        game = self._game()
        return info_for(game.position, game.status, flags=self.flags, oracle=self.oracle, invalid=invalid, limit=self.limit)

    def _tally(self, game: Game) -> tuple:
        """(safe cells opened, mines opened, the measure's field) now."""
        measure = {"won": float(game.won), "opened_fraction": game.opened_fraction, "score": game.score,
                   "mines_opened": float(game.mines_opened)}[self._measure.field]
        return game.opened, game.mines_opened, measure

    def _reward(self, before: tuple, after: tuple, game: Game) -> float:
        if self.reward_shape == Reward.WIN:
            return 1.0 if game.status == Status.WON else -1.0 if game.status == Status.LOST else 0.0
        if self.reward_shape == Reward.PROGRESS:
            return (after[0] - before[0]) / max(1, game.safe_cells) - float(after[1] - before[1])
        change = after[2] - before[2]
        return float(change if self._measure.higher_is_better else -change)


def default_max_steps(width: int, height: int) -> int:
    """Where an episode is cut unless told otherwise: four steps a cell, as the bench allows moves.

    >>> default_max_steps(9, 9)
    324
    """
    return 4 * width * height


def _read_max_steps(max_steps, width: int, height: int) -> int:
    steps = default_max_steps(width, height) if max_steps is None else max_steps
    if not is_whole(steps) or steps < 1:
        raise EnvOptionError(f"max_steps must be a whole number of at least 1, got {max_steps!r}")
    return int(steps)


def _read_render_mode(render_mode) -> str | None:
    """The render mode as the plain word (wrappers such as RecordVideo compare it with theirs), or None."""
    if render_mode is not None and render_mode not in RenderMode.words():
        raise EnvOptionError(f"render_mode must be one of {', '.join(RenderMode.words())} or None, got {render_mode!r}")
    return None if render_mode is None else str(render_mode)
