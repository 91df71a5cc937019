"""CPU time of the exact agent per game, here and (optionally) at an earlier revision.

Usage::

    python benchmarks/agent_time.py --games 300 --rounds 2 --against 289d0e1

Plays the same ``--games`` classic expert games (safe corner, default
``exact`` agent, boards from ``--seed``) in a fresh process per round and
prints the median and mean CPU milliseconds per game, each game's fastest
round counting. With ``--against REV`` the revision is checked out into a
temporary git worktree and played in alternating rounds with this tree (this
machine's speed drifts), and the games' results are checked to be the same.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAYER = """
import json, sys, time
from cspmines.agents import make_agent
from cspmines.games import Board, Game, play
games, seed = int(sys.argv[1]), int(sys.argv[2])
rows = []
for i in range(games):
    board = Board.random("expert", seed=seed + i, first_click="safe")
    started = time.process_time()
    record = play(make_agent("exact"), Game(board, rules="classic"), seed=i)
    rows.append((time.process_time() - started, record.status, record.moves))
print(json.dumps(rows))
"""


def one_round(source: Path, games: int, seed: int) -> list:
    """[(CPU seconds, status, moves)] per game, the package imported from ``source``."""
    env = dict(os.environ, PYTHONPATH=str(source))
    done = subprocess.run([sys.executable, "-c", PLAYER, str(games), str(seed)], env=env, cwd=tempfile.gettempdir(),
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--against", help="a git revision to time beside this tree")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        sources = {"this tree": ROOT}
        if args.against:
            worktree = Path(scratch) / "against"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(worktree), args.against], check=True)
            sources[args.against] = worktree
        try:
            rounds: dict[str, list] = {name: [] for name in sources}
            for _ in range(args.rounds):
                for name, source in sources.items():
                    rounds[name].append(one_round(source, args.games, args.seed))
        finally:
            if args.against:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], check=True)
    print(f"{args.games} expert games x {args.rounds} rounds, default exact agent, CPU ms per game (fastest round)")
    print(f"{'version':>12} {'median':>8} {'mean':>8} {'wins':>6}")
    results = {}
    for name, played in rounds.items():
        per_game = [min(times) * 1e3 for times in zip(*([row[0] for row in r] for r in played))]
        results[name] = [row[1:] for row in played[0]]
        wins = sum(status == "won" for status, _ in results[name])
        print(f"{name:>12} {statistics.median(per_game):8.1f} {statistics.mean(per_game):8.1f} {wins:6d}")
    if args.against:
        same = results["this tree"] == results[args.against]
        print(f"same results (status and moves of every game): {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
