"""What a learning player sees of a position: the observation, the action mask, and with the oracle every cell's
exact mine chance. One view for the environment and for :class:`~cspmines.gym.player.PolicyPlayer`, so a policy
meets the same arrays in training and in the bench.

The observation is the grid of cell codes (``"grid"``), or the same cells as one-hot planes (``"channels"``): an
image, channels first, of 0s and 1s, that a convolutional network reads as it is (plane ``k`` marks the cells
whose code is ``CHANNEL_CODES[k]``).

>>> from cspmines import Position
>>> position = Position.from_string("3x2x1\\n1..\\n...")
>>> observation(position).tolist()
[[1, -1, -1], [-1, -1, -1]]
>>> planes = observation(position, "channels")
>>> planes.shape, planes.dtype, planes[0].tolist(), planes[CHANNEL_CODES.index(1)].tolist()
((13, 2, 3), dtype('uint8'), [[0, 1, 1], [1, 1, 1]], [[1, 0, 0], [0, 0, 0]])
>>> action_mask(position, flags=False).tolist()
[0, 1, 1, 1, 1, 1]
>>> chances, exact = mine_chances(position)
>>> chances.round(4).tolist(), exact
([[0.0, 0.3333, 0.0], [0.3333, 0.3333, 0.0]], True)
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..actions import Action
from ..engine.budget import Limit
from ..engine.engine import solve
from ..games.game import Status
from ..games.judge import JUDGE_LIMIT, as_seen
from ..position import COVERED, FLAG, MINE, WITHHELD, Position
from .options import ObservationKind

__all__ = ["CHANNEL_CODES", "observation", "observation_space", "action_mask", "mask_for", "mine_chances", "info_for", "to_action"]


#: The cell code each plane of a ``"channels"`` observation marks, in order: covered, the clues 0 to 8, a
#: flag, an opened mine, a withheld clue. The same thirteen planes under every rule and option (a plane that
#: cannot occur stays 0), so one network reads every variant.
CHANNEL_CODES = (COVERED, 0, 1, 2, 3, 4, 5, 6, 7, 8, FLAG, MINE, WITHHELD)


def observation(position: Position, kind: str = ObservationKind.GRID) -> np.ndarray:
    """The position as the player sees it, a new array: with ``"grid"`` its cell codes, ``(height, width)``
    int8 (-1 covered, 0-8 clues, -2 a flag, -3 an opened mine under minesearch and score, -4 a withheld clue);
    with ``"channels"`` a ``(13, height, width)`` uint8 array of 0s and 1s, plane ``k`` the cells of code
    ``CHANNEL_CODES[k]``."""
    if kind == ObservationKind.CHANNELS:
        codes = np.array(CHANNEL_CODES, dtype=np.int8).reshape(-1, 1, 1)
        return (position.grid[np.newaxis] == codes).astype(np.uint8)
    return position.grid.astype(np.int8, copy=True)


def observation_space(kind: str, width: int, height: int) -> spaces.Box:
    """The space of :func:`observation`'s arrays of this kind on a ``width`` x ``height`` board.

    >>> observation_space("grid", 9, 9), observation_space("channels", 9, 9)
    (Box(-4, 8, (9, 9), int8), Box(0, 1, (13, 9, 9), uint8))
    """
    if kind == ObservationKind.CHANNELS:
        return spaces.Box(0, 1, shape=(len(CHANNEL_CODES), height, width), dtype=np.uint8)
    return spaces.Box(WITHHELD, 8, shape=(height, width), dtype=np.int8)


def action_mask(position: Position, *, flags: bool) -> np.ndarray:
    """1 for each action that can be taken, as int8 (gymnasium's masks are): open a covered cell (the first
    ``width * height`` actions), and with ``flags`` flag one (the next ``width * height``) while flags and
    opened mines are fewer than the mines."""
    grid = position.grid.ravel()
    covered = (grid == COVERED).astype(np.int8)
    if not flags:
        return covered
    known = int(np.count_nonzero((grid == FLAG) | (grid == MINE)))
    room = position.mines is None or known < position.mines
    return np.concatenate([covered, covered if room else np.zeros_like(covered)])


def mask_for(position: Position, status: str, *, flags: bool) -> np.ndarray:
    """:func:`action_mask` while the game is on, and nothing allowed once it is over (no move is taken after
    the end: a masked policy must not be shown the covered mines as choices)."""
    mask = action_mask(position, flags=flags)
    if status != Status.PLAYING:
        mask[:] = 0
    return mask


def mine_chances(position: Position, *, limit: Limit | None = JUDGE_LIMIT) -> tuple[np.ndarray, bool]:
    """Every cell's mine chance as a ``(height, width)`` float array, and whether all are exact: a covered or
    flagged cell's chance from the engine (flags read as covered, as the judge reads them), 0 for an opened
    safe cell, 1 for an opened mine. A count cut short by ``limit`` gives the engine's estimates."""
    analysis = solve(as_seen(position), limit=limit, explain=False)
    chances = analysis.probabilities()
    chances[np.isnan(chances)] = 0.0
    chances[position.grid == MINE] = 1.0
    return chances, analysis.exact


def info_for(position: Position, status: str, *, flags: bool, oracle: bool, invalid: bool = False,
             limit: Limit | None = JUDGE_LIMIT) -> dict:
    """The ``info`` of a step: ``action_mask`` (nothing allowed once the game is over), ``status``, ``invalid``
    (the action taken could not be), and with the oracle ``mine_chance`` and ``mine_chance_exact``."""
    info: dict = {"action_mask": mask_for(position, status, flags=flags), "status": str(status), "invalid": invalid}
    if oracle:
        info["mine_chance"], info["mine_chance_exact"] = mine_chances(position, limit=limit)
    return info


def to_action(index: int, size: int) -> Action:
    """The game's action for an action number: open cell ``index``, or flag cell ``index - size``.

    >>> to_action(4, 6), to_action(7, 6)
    (Action(kind='open', cell=4, certain=False), Action(kind='flag', cell=1, certain=False))
    """
    return Action.open(index) if index < size else Action.flag(index - size)
