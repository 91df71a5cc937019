"""The environment's options that are words, their one error, and the oracle's budget: shared by
:class:`~cspmines.gym.env.MinesweeperEnv`, :class:`~cspmines.gym.player.PolicyPlayer` and the views.

>>> read_option(Reward, "progress", "reward")
'progress'
>>> read_option(Reward, "money", "reward")
Traceback (most recent call last):
...
cspmines.gym.options.EnvOptionError: reward must be one of win, progress, measure, got 'money'
>>> oracle_limit(None).time, oracle_limit(Limit(time=0.5)).time
(1.0, 0.5)
"""

from __future__ import annotations

import math

from ..actions import Vocabulary
from ..engine.budget import Limit
from ..errors import CspminesError

__all__ = ["ORACLE_LIMIT", "ORACLE_TIME_LIMIT", "EnvOptionError", "EvaluationBoardsWarning", "ObservationKind", "RenderMode", "Reward", "oracle_limit", "read_number", "read_option"]

#: Seconds the oracle may count one position for (its ``limit``'s time): a position from play is counted in
#: milliseconds (of some 5,000 on the presets, half took under 0.2 ms and the slowest a quarter of a second),
#: so a second is spent only on a front too wide to count, which is then estimated and marked
#: ``mine_chance_exact`` False, rather than holding up every environment of a vector for a minute.
ORACLE_TIME_LIMIT = 1.0

#: The oracle's budget unless one is given: :data:`ORACLE_TIME_LIMIT` seconds a position, the default memory.
ORACLE_LIMIT = Limit(time=ORACLE_TIME_LIMIT)


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


def oracle_limit(limit) -> Limit:
    """The oracle's budget: ``limit`` (a :class:`~cspmines.Limit`), :data:`ORACLE_LIMIT` when None, or an
    :class:`EnvOptionError` for anything else."""
    if limit is None:
        return ORACLE_LIMIT
    if not isinstance(limit, Limit):
        raise EnvOptionError(f"limit must be a cspmines.Limit, got {type(limit).__name__}")
    return limit
