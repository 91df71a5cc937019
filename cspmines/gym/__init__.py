"""Minesweeper for reinforcement learning: a Gymnasium environment on the bench's boards, and policies as players.

Needs the ``gym`` extra (``pip install 'cspmines[gym]'``: gymnasium). Importing
this package registers the environment as ``cspmines/Minesweeper-v0``:

>>> import gymnasium
>>> import cspmines.gym
>>> env = gymnasium.make("cspmines/Minesweeper-v0", size="beginner", oracle=True)
>>> observation, info = env.reset(seed=0, options={"game": 0})
>>> sorted(info)
['action_mask', 'invalid', 'mine_chance', 'mine_chance_exact', 'status']

* :class:`MinesweeperEnv`: the environment (:mod:`cspmines.gym.env` describes it);
* :class:`PolicyPlayer`: a policy ``(observation, info) -> action`` as a player the bench runs.
"""

try:
    import gymnasium
except ModuleNotFoundError as error:  # the extra is missing: say which
    raise ModuleNotFoundError("cspmines.gym needs gymnasium: pip install 'cspmines[gym]'", name=error.name) from None

from .env import EnvOptionError, MinesweeperEnv, Reward
from .player import Policy, PolicyPlayer

__all__ = ["ENV_ID", "EnvOptionError", "MinesweeperEnv", "Policy", "PolicyPlayer", "Reward"]

#: The environment's id for ``gymnasium.make``.
ENV_ID = "cspmines/Minesweeper-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="cspmines.gym.env:MinesweeperEnv")
