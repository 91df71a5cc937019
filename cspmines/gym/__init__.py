"""Minesweeper for reinforcement learning: a Gymnasium environment on the bench's boards, and policies as players.

Needs the ``gym`` extra (``pip install 'cspmines[gym]'``: gymnasium). Importing
this package registers the environment as ``cspmines/Minesweeper-v0`` (any size,
rules and options), and one id a preset with its size fixed and its episodes cut
at four steps a cell (``max_episode_steps``), as MiniGrid registers one a grid
size: ``cspmines/Minesweeper-Beginner-v0``, ``-Intermediate-v0``, ``-Expert-v0``.

>>> import gymnasium
>>> import cspmines.gym
>>> env = gymnasium.make("cspmines/Minesweeper-v0", size="beginner", oracle=True)
>>> observation, info = env.reset(seed=0, options={"game": 0})
>>> sorted(info)
['action_mask', 'invalid', 'mine_chance', 'mine_chance_exact', 'status']
>>> gymnasium.make("cspmines/Minesweeper-Expert-v0").spec.max_episode_steps
1920

* :class:`MinesweeperEnv`: the environment (:mod:`cspmines.gym.env` describes it);
* :class:`PolicyPlayer`: a policy ``(observation, info) -> action`` as a player the bench runs.
"""

try:
    import gymnasium
except ModuleNotFoundError as error:  # the extra is missing: say which
    raise ModuleNotFoundError("cspmines.gym needs gymnasium: pip install 'cspmines[gym]'", name=error.name) from None

from ..games import PRESETS
from .env import EnvOptionError, MinesweeperEnv, Reward, default_max_steps
from .options import EvaluationBoardsWarning
from .player import Policy, PolicyPlayer

__all__ = ["ENV_ID", "PRESET_IDS", "EnvOptionError", "EvaluationBoardsWarning", "MinesweeperEnv", "Policy", "PolicyPlayer", "Reward"]

#: The environment's id for ``gymnasium.make``: any size and options (its spec's ``max_episode_steps`` is
#: its ``max_steps``, known once it is made).
ENV_ID = "cspmines/Minesweeper-v0"

#: The id of each preset: its size fixed, its episodes cut at four steps a cell, said in its registration.
PRESET_IDS = {preset: f"cspmines/Minesweeper-{preset.capitalize()}-v0" for preset in PRESETS}


def _register() -> None:
    """File the ids with gymnasium (once: importing again finds them there)."""
    entry_point = "cspmines.gym.env:MinesweeperEnv"
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=entry_point)
    for preset, env_id in PRESET_IDS.items():
        if env_id not in gymnasium.registry:
            width, height, _ = PRESETS[preset]
            gymnasium.register(id=env_id, entry_point=entry_point, kwargs={"size": preset},
                               max_episode_steps=default_max_steps(width, height))


_register()
