"""Train a masked PPO policy on Minesweeper, then play it in the bench beside the exact agent on other boards.

MaskablePPO (sb3-contrib) reads the environment's own ``action_masks()``, so there is no wrapper to write; the
policy reads the board as one-hot planes (``observation="channels"``) through a small convolutional network
that keeps the board's size. It trains from seeds 1,000,000 and up and is evaluated on the bench's seed 0,
so it is never scored on a board it trained on, and it plays the bench deterministically (``deterministic=True``:
the most likely action, not a draw from torch's random stream), so every run of the evaluation plays the same
games with the same moves.

Needs torch, stable-baselines3 and sb3-contrib beside ``cspmines[gym]``; none of them is one of the package's
extras. From the repository's root (a CPU build of torch is enough)::

    python3 -m pip install -e ".[gym]" stable-baselines3 sb3-contrib
    python3 examples/gym/train_maskable.py --minutes 1

``--help`` lists the options: the board, the training time, the environments, the seeds, the games evaluated
and where the model is saved.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from cspmines.agents import register_agent
from cspmines.bench import Suite, run_suite
from cspmines.bench.compare import paired_table
from cspmines.gym import ENV_ID, PolicyPlayer


class BoardNet(BaseFeaturesExtractor):
    """Three 3x3 convolutions that keep the board's size (each cell, then its neighbours' neighbours), flattened
    into ``features``: SB3's default NatureCNN starts with an 8x8 kernel of stride 4 and needs 36x36 cells."""

    def __init__(self, observation_space, features: int = 128):
        super().__init__(observation_space, features)
        channels, height, width = observation_space.shape
        self.net = nn.Sequential(
            nn.Conv2d(channels, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
            nn.Flatten(), nn.Linear(32 * height * width, features), nn.ReLU(),
        )

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.net(observations)


class Stopwatch(BaseCallback):
    """Stops training after ``seconds``, and counts the games won and finished on the way."""

    def __init__(self, seconds: float):
        super().__init__()
        self.seconds, self.started = seconds, time.monotonic()
        self.won = self.finished = 0

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "episode" in info:  # the step that ended an episode (its game's last info)
                self.finished += 1
                self.won += info["status"] == "won"
        return time.monotonic() - self.started < self.seconds


def train(args) -> MaskablePPO:
    """A MaskablePPO model trained for ``args.minutes`` on the training seeds."""
    options = {"size": args.size, "observation": "channels", "reward": "progress"}
    # environment i starts at suite seed train_seed + i and walks on through its games: none is an evaluation board
    envs = make_vec_env(ENV_ID, n_envs=args.envs, seed=args.train_seed, env_kwargs=options)
    model = MaskablePPO("CnnPolicy", envs, n_steps=256, batch_size=256, n_epochs=4, seed=args.train_seed,
                        device="cpu", policy_kwargs={"features_extractor_class": BoardNet, "normalize_images": False})
    watch = Stopwatch(60 * args.minutes)
    model.learn(total_timesteps=10**9, callback=watch)  # the stopwatch ends it
    rate = watch.won / max(1, watch.finished)
    print(f"trained {model.num_timesteps:,} steps in {time.monotonic() - watch.started:.0f} s: "
          f"{watch.finished:,} games, {rate:.1%} won while learning")
    model.save(args.model)
    return model


def evaluate(model: MaskablePPO, args) -> None:
    """The policy and the exact agent on the same ``args.eval_games`` boards of the evaluation seed."""

    def policy(observation, info):
        masks = info["action_mask"].astype(bool)
        action, _ = model.predict(observation, action_masks=masks, deterministic=True)  # no draw: the same game every run
        return int(action)

    register_agent("maskable-ppo", lambda: PolicyPlayer(policy, name="maskable-ppo", observation="channels"))
    suite = Suite.create(agents=["exact", "maskable-ppo"], size=args.size, games=args.eval_games, seed=args.eval_seed)
    result = run_suite(suite, progress=False)
    for row in result.summary:
        print(f"{row['agent']:>13}: {row['win_rate']:.3f} won of {row['games']} games (seed {args.eval_seed})")
    for row in paired_table(result.records):
        print(f"{row['agent']} - {row['against']}: {row['difference']:+.3f}, 95% CI {np.round(row['ci95'], 3).tolist()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="beginner", help="a preset or WxHxM (default: beginner)")
    parser.add_argument("--minutes", type=float, default=1.0, help="training time (default: 1)")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together (default: 4)")
    parser.add_argument("--train-seed", type=int, default=1_000_000, help="the first training seed (default: 1000000)")
    parser.add_argument("--eval-seed", type=int, default=0, help="the bench's seed for the evaluation (default: 0)")
    parser.add_argument("--eval-games", type=int, default=200, help="games evaluated (default: 200)")
    parser.add_argument("--model", default="maskable_ppo_minesweeper.zip", help="where the model is saved")
    parser.add_argument("--threads", type=int, default=1, help="torch's threads (default: 1; a network this small "
                        "runs slower on more, which wait on each other)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    if args.eval_seed in range(args.train_seed, args.train_seed + args.envs):
        parser.error(f"--eval-seed {args.eval_seed} is a training seed: evaluate on boards the policy did not train on")
    evaluate(train(args), args)


if __name__ == "__main__":
    main()
