"""The environment's options that are words, their one error, and the oracle's budget: shared by
:class:`~cspmines.gym.env.MinesweeperEnv`, :class:`~cspmines.gym.player.PolicyPlayer` and the views.

>>> read_option(Reward, "progress", "reward")
'progress'
>>> read_option(Reward, "money", "reward")
Traceback (most recent call last):
...
cspmines.gym.options.EnvOptionError: reward must be one of win, progress, measure, got 'money'
>>> oracle_limit(None).time, oracle_limit(0.5).time
(None, 0.5)
"""

from __future__ import annotations

import math

from ..actions import Vocabulary
from ..engine.question import Limit
from ..errors import CspminesError

__all__ = ["ORACLE_TIME_LIMIT", "EnvOptionError", "EvaluationBoardsWarning", "ObservationKind", "RenderMode", "Reward", "oracle_limit", "read_number", "read_option"]

#: Seconds the oracle may count one position for (``time_limit``): a position from play is counted in
#: milliseconds (of some 5,000 on the presets, half took under 0.2 ms and the slowest a quarter of a second),
#: so a second is spent only on a front too wide to count, which is then estimated and marked
#: ``mine_chance_exact`` False, rather than holding up every environment of a vector for a minute.
ORACLE_TIME_LIMIT = 1.0


class EnvOptionError(CspminesError, ValueError):
    """An environment option or a reset option that cannot be used; says which and why."""


class EvaluationBoardsWarning(UserWarning):
    """Training is about to walk the boards the bench evaluates on by default (seed 0)."""


class Reward(Vocabulary):
    """The reward shapes (see :mod:`cspmines.gym.env`)."""

    WIN = "win"
    PROGRESS = "progress"
    MEASURE = "measure"


class ObservationKind(Vocabulary):
    """What an observation is: the grid of cell codes, or one-hot planes for networks (see
    :mod:`cspmines.gym.views`)."""

    GRID = "grid"
    CHANNELS = "channels"


class RenderMode(Vocabulary):
    """What ``render()`` gives: the board as text, as a picture in an array, or shown in a window."""

    ANSI = "ansi"
    RGB_ARRAY = "rgb_array"
    HUMAN = "human"


def read_option(vocabulary: type[Vocabulary], value, name: str):
    """The member of ``vocabulary`` named ``value``, or an :class:`EnvOptionError` naming the option and its
    choices."""
    try:
        return vocabulary.check(value, name)
    except ValueError as error:
        raise EnvOptionError(str(error)) from None


def read_number(value, name: str) -> float:
    """``value`` as a float, or an :class:`EnvOptionError` when it is not a number (NaN included)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if math.isnan(number) or isinstance(value, bool):
        raise EnvOptionError(f"{name} must be a number, got {value!r}")
    return number


def oracle_limit(time_limit) -> Limit:
    """The oracle's budget for ``time_limit`` seconds (None: no time limit), or an :class:`EnvOptionError`."""
    try:
        return Limit(time=time_limit)
    except ValueError as error:
        raise EnvOptionError(f"time_limit: {error}") from None
