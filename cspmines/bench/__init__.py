"""Benchmark suites: many seeded games per agent, on one machine or a Ray cluster.

* :mod:`~cspmines.bench.suite`: what is played (:class:`Suite`) and the board of each game (:func:`board_for`);
* :mod:`~cspmines.bench.runner`: playing it (:func:`run_suite`, :func:`play_game`);
* :mod:`~cspmines.bench.workers`: where the games run (:class:`Workers`: this process, processes or Ray);
* :mod:`~cspmines.bench.stats`: intervals, summaries and paired comparisons on shared boards;
* :mod:`~cspmines.bench.records`: results as JSON lines, read back to resume.

Examples
--------
>>> suite = Suite.create(agents=["exact", "random"], size="beginner", games=4, seed=1)
>>> result = run_suite(suite, progress=False)
>>> [(s["agent"], s["games"]) for s in result.summary]
[('exact', 4), ('random', 4)]
"""

from .records import TIMING_FIELDS, read_records
from .runner import BenchResult, ResultsFile, agent_seed, new_game, play_game, run_suite
from .stats import Paired, mean_interval, paired_means, paired_wins, summarize, wilson_interval
from .suite import AGENT, BOARD, GAME, Suite, SuiteError, SuiteVariant, board_for, game_rng, sweep_suites
from .workers import Task, Workers, parallel_map

__all__ = [
    "AGENT",
    "BOARD",
    "GAME",
    "BenchResult",
    "Paired",
    "ResultsFile",
    "Suite",
    "SuiteVariant",
    "SuiteError",
    "TIMING_FIELDS",
    "Task",
    "Workers",
    "agent_seed",
    "board_for",
    "new_game",
    "parallel_map",
    "game_rng",
    "mean_interval",
    "paired_means",
    "paired_wins",
    "play_game",
    "read_records",
    "run_suite",
    "summarize",
    "sweep_suites",
    "wilson_interval",
]
