"""A policy as a player of the bench: any callable from (observation, info) to an action number.

:class:`PolicyPlayer` is an agent (``reset`` and ``act``) that shows its policy
each position as :class:`~cspmines.gym.env.MinesweeperEnv` shows it (the same
observation and ``info``, :mod:`cspmines.gym.views`) and plays the action it
chooses, so a policy trained in the environment plays the bench's games and is
paired with any other player on the same boards. In the bench a policy must
choose an action its mask allows: any other is an error of that game.

Two ways to make one:

* give the policy: ``PolicyPlayer(my_policy, name="ppo")``;
* subclass it and write the policy as a method (a user's file read by
  ``--agent path/file.py:ClassName`` is constructed with no arguments)::

      class FirstCovered(PolicyPlayer):
          name = "first-covered"

          def policy(self, observation, info):
              return int(info["action_mask"].argmax())

The player's random stream for the game is ``self.rng`` (from the bench's seed for
the game, as every agent's): a policy that draws from it, or draws nothing, plays
the same game on every run. One that draws from another stream does not: a
stable-baselines3 model's ``predict`` samples from torch's global stream unless
given ``deterministic=True``.

>>> from cspmines.games import Board, Game, play
>>> player = PolicyPlayer(lambda observation, info: int(info["action_mask"].argmax()), name="first-covered")
>>> play(player, Game(Board.random("beginner", seed=1)), seed=1).agent
'first-covered'
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..actions import Action
from ..agents.base import SeededAgent
from ..engine.budget import Limit
from ..games.playing import AgentError
from ..position import Position
from .options import ObservationKind, oracle_limit, read_option
from .views import info_for, observation, to_action

__all__ = ["PolicyPlayer", "Policy"]

#: A policy: the observation and info of a step in, an action number out.
Policy = Callable[[np.ndarray, dict], int]


class PolicyPlayer(SeededAgent):
    """A policy playing as an agent (see the module's description).

    Parameters
    ----------
    policy : callable, optional
        ``policy(observation, info) -> action``; none when a subclass writes :meth:`policy`.
    name : str, keyword-only
        The name in results (default: the class's ``name``, ``"policy"``).
    oracle : bool, keyword-only
        Put every cell's exact mine chance in ``info``, as the environment's ``oracle=True``.
    flags : bool, keyword-only
        The policy's actions include flags, as the environment's ``flags=True``.
    limit : Limit, keyword-only
        What the oracle's count of one position may spend, as the environment's (default ``Limit(time=1)``).
    observation : {"grid", "channels"}, keyword-only
        The observation the policy was trained on, as the environment's ``observation=``.
    """

    name = "policy"

    def __init__(self, policy: Policy | None = None, *, name: str | None = None, oracle: bool = False,
                 flags: bool = False, limit: Limit | None = None, observation: str = "grid"):
        if policy is None and type(self).policy is PolicyPlayer.policy:
            raise TypeError("PolicyPlayer needs a policy: PolicyPlayer(policy) or a subclass with a policy() method")
        if policy is not None and not callable(policy):
            raise TypeError(f"a policy is a callable policy(observation, info) -> action, got {policy!r}")
        self._policy = policy
        self.name = name or type(self).name
        self.oracle, self.flags, self.limit = bool(oracle), bool(flags), oracle_limit(limit)
        self.observation_kind = read_option(ObservationKind, observation, "observation")
        super().__init__()

    def policy(self, observation: np.ndarray, info: dict) -> int:
        """The action number for this observation (a subclass may write its own)."""
        assert self._policy is not None
        return self._policy(observation, info)

    def act(self, position: Position) -> Action:
        info = info_for(position, "playing", flags=self.flags, oracle=self.oracle, limit=self.limit)
        chosen = self.policy(observation(position, self.observation_kind), info)
        mask = info["action_mask"]
        if not isinstance(chosen, (int, np.integer)) or isinstance(chosen, bool) or not 0 <= chosen < len(mask):
            raise AgentError(f"policy of {self.name!r} chose {chosen!r}: an action is a whole number from 0 to {len(mask) - 1}")
        if not mask[chosen]:
            raise AgentError(f"policy of {self.name!r} chose action {int(chosen)}, which the action mask forbids")
        return to_action(int(chosen), position.size)
