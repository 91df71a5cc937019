"""What the line protocol costs a move: the same Python player in cspmines' process and in its own.

Usage::

    python research/protocol.py --preset expert --games 200 --seed 0

Plays ``examples/players/python/single_point.py`` on the bench's boards (game i of ``cspmines bench
--seed S``) both ways, game by game in turn in this one process: loaded as a class
(``FILE.py:SinglePoint``, the Agent protocol) and as a program through the line protocol
(``cmd:python3 FILE.py``, its own process). The two make the very same moves (checked, move by move).
Printed: each way's mean and median ms a move as the bench times a move (from the position handed to the
agent to its move back), the difference (what the protocol costs: the position encoded, two pipes, the
player's decoding, two process switches) with the median of the move-by-move differences (each move is
made both ways), and this process's CPU a move through the protocol.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from cspmines.agents import make_agent
from cspmines.agents.external import close_players
from cspmines.bench import Suite, agent_seed, new_game
from cspmines.games import play

PLAYER = Path(__file__).resolve().parent.parent / "examples" / "players" / "python" / "single_point.py"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    inside, outside = f"{PLAYER}:SinglePoint", f"cmd:{sys.executable} {PLAYER}"
    suite = Suite.create(agents=[inside, outside], size=args.preset, games=args.games, seed=args.seed)
    seconds = {inside: [], outside: []}  # every move's time, each way
    cpu_outside = 0.0
    for i in range(suite.games):
        moves = {}
        for spec in (inside, outside):
            cpu = time.process_time()
            record = play(make_agent(spec), new_game(suite, i), seed=agent_seed(suite, i))
            if spec == outside:
                cpu_outside += time.process_time() - cpu
            seconds[spec].extend(move.seconds for move in record.history)
            moves[spec] = [move.action for move in record.history]
        if moves[inside] != moves[outside]:
            raise SystemExit(f"game {i}: the two ways played different moves")
    close_players()
    count = len(seconds[inside])
    ms = {spec: 1e3 * sum(values) / count for spec, values in seconds.items()}
    print(f"{suite.games} {args.preset} games, seed {args.seed}: {count} moves each way, the same moves")
    print(f"{'way':>36} {'ms a move':>10} {'median ms':>10}")
    for label, spec in (("in-process (FILE.py:SinglePoint)", inside), ("through the protocol (cmd:)", outside)):
        print(f"{label:>36} {ms[spec]:10.3f} {1e3 * statistics.median(seconds[spec]):10.3f}")
    paired = [1e3 * (b - a) for a, b in zip(seconds[inside], seconds[outside], strict=True)]  # the same move, each way
    print(f"protocol overhead: {ms[outside] - ms[inside]:+.3f} ms a move (median of the move-by-move differences "
          f"{statistics.median(paired):+.3f}; this process's CPU through the protocol, the game included: "
          f"{1e3 * cpu_outside / count:.3f} ms a move)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
