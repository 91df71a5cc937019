"""Benchmark suites: many seeded games per agent, on one machine or a Ray cluster.

Game ``i`` of a suite uses the board drawn from ``(seed, i)`` alone, so every
agent meets the same boards, whatever the executor or the number of workers,
and a game's result (timings aside) is the same everywhere.

Examples
--------
>>> suite = Suite.create(agents=["exact", "random"], size="beginner", games=4, seed=1)
>>> result = run_suite(suite, progress=False)
>>> [(s["agent"], s["games"]) for s in result.summary]
[('exact', 4), ('random', 4)]
>>> result.summary[0]["ci95"][0] <= result.summary[0]["win_rate"] <= result.summary[0]["ci95"][1]
True
"""

from __future__ import annotations

import concurrent.futures
import json
import logging
import statistics
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from .agents import agent_names, make_agent
from .agents.base import parse_agent_spec
from .errors import CspminesError
from .games import Board, Game, parse_size, play

__all__ = ["Suite", "BenchResult", "run_suite", "summarize", "wilson_interval", "board_for", "play_game", "SuiteError"]

#: Fields of a game record that vary from run to run (left out when results are compared).
TIMING_FIELDS = ("seconds", "seconds_per_move")


class SuiteError(CspminesError, ValueError):
    """A suite that cannot run as asked (bad options, or an --out file of another suite)."""


@dataclass(frozen=True)
class Suite:
    """What to play: agents, board, rules, how many games, from which seed.

    Build it with :meth:`create`, which checks the options; every agent plays
    the same boards (:func:`board_for`), so agents are compared game by game.

    >>> suite = Suite.create(agents=["exact", "greedy"], size="beginner", games=20, seed=0)
    >>> suite.width, suite.height, suite.mines, suite.first_click
    (9, 9, 10, 'safe')
    >>> Suite.create(agents=["nope"])
    Traceback (most recent call last):
    ...
    cspmines.bench.SuiteError: unknown or missing agents ['nope']; choose from exact, greedy, knowledge-base, partition, random, risk-score, set-theory, single-point
    """

    agents: tuple
    width: int
    height: int
    mines: int
    rules: str = "classic"
    withheld: float = 0.0
    first_click: str = "safe"
    games: int = 100
    seed: int = 0

    @classmethod
    def create(
        cls, *, agents, size="expert", rules="classic", withheld=0.0, first_click="safe", games=100, seed=0
    ) -> "Suite":
        """A validated suite; ``size`` is a preset name or ``"WxHxM"``."""
        agents = tuple(agents)
        unknown = [a for a in agents if parse_agent_spec(a)[0] not in agent_names()]
        if not agents or unknown:
            raise SuiteError(f"unknown or missing agents {unknown}; choose from {', '.join(agent_names())}")
        if rules not in ("classic", "minesearch", "score"):
            raise SuiteError(f"rules must be classic, minesearch or score, got {rules!r}")
        if first_click not in ("safe", "opening", "unsafe"):
            raise SuiteError(f"first_click must be safe, opening or unsafe, got {first_click!r}")
        if not 0 <= withheld < 1:
            raise SuiteError(f"withheld must lie in [0, 1), got {withheld}")
        if games < 1:
            raise SuiteError(f"games must be at least 1, got {games}")
        width, height, mines = parse_size(size)
        return cls(agents, width, height, mines, rules, float(withheld), first_click, int(games), int(seed))

    @property
    def config(self) -> dict:
        """What identifies the suite's games (not the agents or how many games)."""
        return {
            "width": self.width,
            "height": self.height,
            "mines": self.mines,
            "rules": self.rules,
            "withheld": self.withheld,
            "first_click": self.first_click,
            "seed": self.seed,
        }

    def tasks(self) -> list[tuple[str, int]]:
        return [(agent, i) for i in range(self.games) for agent in self.agents]


def _rng(suite: Suite, i: int, stream: int) -> np.random.Generator:
    return np.random.default_rng([suite.seed, i, stream])


def board_for(suite: Suite, i: int) -> Board:
    """The board of game ``i``: from ``(seed, i)`` alone, whatever the agent, worker or run.

    >>> suite = Suite.create(agents=["exact"], size="beginner", games=2, seed=0)
    >>> str(board_for(suite, 1)) == str(board_for(suite, 1)) != str(board_for(suite, 0))
    True
    """
    return Board.random((suite.width, suite.height, suite.mines), seed=_rng(suite, i, 0), first_click=suite.first_click)


def play_game(suite: Suite, agent: str, i: int, *, player=None) -> dict:
    """Play game ``i`` of ``suite`` with ``agent``; a JSON-ready record (an error record if it fails).

    ``player`` replaces the agent made from its name (a configured instance, for studies).

    >>> suite = Suite.create(agents=["exact"], size="beginner", games=1, seed=0)
    >>> record = play_game(suite, "exact", 0)
    >>> record["agent"], record["game"], record["status"]
    ('exact', 0, 'won')
    """
    base = {"agent": agent, "game": i, **suite.config}
    try:
        game = Game(board_for(suite, i), rules=suite.rules, withheld=suite.withheld, seed=_rng(suite, i, 1))
        record = play(player or make_agent(agent), game, seed=_rng(suite, i, 2))
    except Exception as error:  # reported with its game; the suite goes on
        return {**base, "error": f"{type(error).__name__}: {error}", "traceback": traceback.format_exc(limit=5)}
    return {
        **base,
        "status": record.status,
        "won": record.won,
        "moves": record.moves,
        "guesses": record.guesses,
        "opened_fraction": record.opened_fraction,
        "score": record.score,
        "mines_opened": record.mines_opened,
        "seconds": record.seconds,
        "seconds_per_move": record.seconds / max(1, record.moves),
    }


def _task(name: str):
    """The function that plays one game for a task name (``play``, or ``chains`` for studies)."""
    if name == "play":
        return play_game
    if name == "chains":
        from .chains import chain_game

        return chain_game
    raise SuiteError(f"unknown task {name!r}")


def _suite_of(fields: dict) -> Suite:
    """The suite back from the plain fields sent to workers."""
    return Suite(**{**fields, "agents": tuple(fields["agents"])})


def _play_chunk(suite_fields: dict, chunk: list, task: str = "play") -> list:
    """A batch of games in one worker (the unit sent to processes and to Ray)."""
    suite = _suite_of(suite_fields)
    run = _task(task)
    return [run(suite, agent, i) for agent, i in chunk]


def wilson_interval(successes: int, trials: int, *, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (scipy's ``binomtest``).

    >>> [round(x, 4) for x in wilson_interval(41, 100)]
    [0.3187, 0.508]
    """
    from scipy.stats import binomtest

    if trials == 0:
        return (0.0, 1.0)
    interval = binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(interval.low), float(interval.high))


def summarize(records: list) -> list[dict]:
    """One summary per agent and configuration, in first-seen order.

    >>> record = {"agent": "a", "game": 0, "width": 9, "height": 9, "mines": 10, "rules": "classic",
    ...           "withheld": 0.0, "first_click": "safe", "won": True, "moves": 20, "guesses": 1,
    ...           "opened_fraction": 0.9, "score": 0.0, "seconds": 0.002}
    >>> row, = summarize([record, {**record, "game": 1, "won": False}])
    >>> row["games"], row["wins"], row["win_rate"]
    (2, 1, 0.5)
    """
    groups: dict[tuple, list] = {}
    for record in records:
        key = (record["agent"], *(record[k] for k in ("width", "height", "mines", "rules", "withheld", "first_click")))
        groups.setdefault(key, []).append(record)
    out = []
    for (agent, width, height, mines, rules, withheld, first_click), group in groups.items():
        played = [r for r in group if "error" not in r]
        wins = sum(r["won"] for r in played)
        mean = lambda key: statistics.fmean(r[key] for r in played) if played else None  # noqa: E731
        moves = sum(r["moves"] for r in played)
        out.append(
            {
                "agent": agent,
                "width": width,
                "height": height,
                "mines": mines,
                "rules": rules,
                "withheld": withheld,
                "first_click": first_click,
                "games": len(played),
                "errors": len(group) - len(played),
                "wins": wins,
                "win_rate": wins / len(played) if played else None,
                "ci95": list(wilson_interval(wins, len(played))),
                "mean_opened_fraction": mean("opened_fraction"),
                "mean_score": mean("score"),
                "mean_guesses": mean("guesses"),
                "mean_seconds_per_game": mean("seconds"),
                "mean_seconds_per_move": (sum(r["seconds"] for r in played) / moves) if moves else None,
            }
        )
    return out


@dataclass
class BenchResult:
    records: list
    summary: list
    seconds: float
    played_now: int  # games played in this run (not read back from --out)
    interrupted: bool = False
    errors: list = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.played_now / self.seconds if self.seconds else 0.0


def _read_existing(path: Path, suite: Suite) -> list:
    records = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                print(f"cspmines bench: {path}:{number}: skipping a line cut short", file=sys.stderr)
                continue
            mismatch = {k: (record.get(k), v) for k, v in suite.config.items() if record.get(k) != v}
            if mismatch:
                raise SuiteError(f"{path}:{number} holds results of another suite ({mismatch}): choose another --out")
            records.append(record)
    return records


def _chunks(tasks: list, size: int) -> list:
    return [tasks[i : i + size] for i in range(0, len(tasks), size)]


def run_suite(
    suite: Suite,
    *,
    workers: int = 1,
    executor: str = "process",
    address: str | None = None,
    out=None,
    resume: bool = False,
    progress: bool | None = None,
    chunk_size: int | None = None,
    task: str = "play",
) -> BenchResult:
    """Play every game of ``suite``; the Python API behind ``cspmines bench``.

    Parameters
    ----------
    workers : int
        Processes (``executor="process"``) or Ray tasks in flight.
    executor : {"process", "ray"}
        ``ray`` needs the ``ray`` extra; ``address`` joins a cluster, none starts a local instance.
    out : path, optional
        Each finished game is appended there as one JSON line, as it completes.
    resume : bool
        Skip the games already in ``out``.
    progress : bool, optional
        A progress bar on standard error (default: when it is a terminal).

    Examples
    --------
    >>> suite = Suite.create(agents=["exact", "greedy"], size="beginner", games=20, seed=0)
    >>> result = run_suite(suite, workers=1, progress=False)
    >>> [(row["agent"], row["wins"], row["games"]) for row in result.summary]
    [('exact', 20, 20), ('greedy', 0, 20)]
    """
    if executor not in ("process", "ray"):
        raise SuiteError(f"executor must be process or ray, got {executor!r}")
    if workers < 1:
        raise SuiteError(f"workers must be at least 1, got {workers}")
    out = Path(out) if out else None
    records = []
    if out and out.exists() and resume:
        records = _read_existing(out, suite)
    elif out and out.exists() and out.stat().st_size:
        raise SuiteError(f"{out} exists: pass --resume to continue it, or choose another --out")
    done = {(r["agent"], r["game"]) for r in records if "error" not in r}
    records = [r for r in records if "error" not in r]  # failed games are tried again on resume
    todo = [task for task in suite.tasks() if task not in done]
    chunk_size = chunk_size or max(1, min(16, len(todo) // (workers * 8) or 1))
    chunks = _chunks(todo, chunk_size)
    fields = {**asdict(suite), "agents": list(suite.agents)}
    _task(task)  # fail early on a bad name

    from tqdm import tqdm

    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(total=len(todo), disable=not show, file=sys.stderr, unit="game", dynamic_ncols=True)
    sink = out.open("a", encoding="utf-8") if out else None
    started = time.perf_counter()
    played_now, interrupted, errors = 0, False, []

    def accept(batch: list) -> None:
        nonlocal played_now
        for record in batch:
            records.append(record)
            played_now += 1
            if "error" in record:
                errors.append(record)
                print(f"cspmines bench: game {record['game']} of {record['agent']} failed: {record['error']}", file=sys.stderr)
            if sink:
                sink.write(json.dumps(record) + "\n")
                sink.flush()
        bar.update(len(batch))
        played = [r for r in records if "error" not in r]
        if played:
            bar.set_postfix(win_rate=f"{sum(r['won'] for r in played) / len(played):.3f}")

    try:
        if executor == "ray":
            _run_ray(fields, chunks, workers, address, accept, task)
        elif workers == 1:
            for chunk in chunks:
                accept(_play_chunk(fields, chunk, task))
        else:
            _run_processes(fields, chunks, workers, accept, task)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
        if sink:
            sink.close()
    order = {task: n for n, task in enumerate(suite.tasks())}
    records.sort(key=lambda r: order.get((r["agent"], r["game"]), len(order)))
    return BenchResult(records, summarize(records), time.perf_counter() - started, played_now, interrupted, errors)


def _crashed(chunk: list, fields: dict, why: str) -> list:
    config = _suite_of(fields).config
    return [{"agent": agent, "game": i, **config, "error": why} for agent, i in chunk]


def _run_processes(fields: dict, chunks: list, workers: int, accept, task: str = "play") -> None:
    """A process pool with a bounded window of chunks; a dead worker fails only its own game.

    When a worker dies the whole pool breaks and every chunk in flight fails
    with it, so those chunks are retried one by one in a fresh one-worker
    pool (:func:`_isolate`) before the rest of the suite goes on.
    """
    pending = list(reversed(chunks))
    while pending:
        suspects: list = []
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            in_flight: dict = {}
            while (pending or in_flight) and not suspects:
                while pending and len(in_flight) < workers * 4:
                    chunk = pending.pop()
                    in_flight[pool.submit(_play_chunk, fields, chunk, task)] = chunk
                finished, _ = concurrent.futures.wait(in_flight, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in finished:
                    chunk = in_flight.pop(future)
                    try:
                        accept(future.result())
                    except concurrent.futures.process.BrokenProcessPool:
                        suspects.append(chunk)
            if suspects:
                suspects.extend(in_flight.values())  # the broken pool takes these down too
        for chunk in suspects:
            _isolate(fields, chunk, accept, task)


def _isolate(fields: dict, chunk: list, accept, task: str = "play") -> None:
    """Play ``chunk`` in a pool of its own, halving it until the game that kills its worker is found."""
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        try:
            accept(pool.submit(_play_chunk, fields, chunk, task).result())
            return
        except concurrent.futures.process.BrokenProcessPool:
            pass
    if len(chunk) == 1:
        accept(_crashed(chunk, fields, "the worker process died"))
        return
    middle = len(chunk) // 2
    _isolate(fields, chunk[:middle], accept, task)
    _isolate(fields, chunk[middle:], accept, task)


def _run_ray(fields: dict, chunks: list, workers: int, address: str | None, accept, task: str = "play") -> None:
    try:
        import ray
    except ImportError as error:
        raise SuiteError("--executor ray needs Ray: pip install 'cspmines[ray]'") from error
    if not ray.is_initialized():
        options = {"address": address} if address else {"num_cpus": workers, "include_dashboard": False}
        ray.init(ignore_reinit_error=True, logging_level=logging.ERROR, log_to_driver=False, **options)
    remote = ray.remote(_play_chunk)
    pending = list(reversed(chunks))
    in_flight: dict = {}
    while pending or in_flight:
        while pending and len(in_flight) < workers * 4:
            chunk = pending.pop()
            in_flight[remote.remote(fields, chunk, task)] = chunk
        ready, _ = ray.wait(list(in_flight), num_returns=1)
        for ref in ready:
            chunk = in_flight.pop(ref)
            try:
                accept(ray.get(ref))
            except ray.exceptions.RayError as error:  # a crashed worker or task: fail this chunk only
                accept(_crashed(chunk, fields, f"Ray: {type(error).__name__}"))


def sweep_suites(base: Suite, *, densities=None, sizes=None, density: float = 0.15) -> list[tuple[float, Suite]]:
    """The suites of a density sweep (same board size) or a size sweep (square boards, same density),
    each with its x value: the density, or the number of cells.

    >>> base = Suite.create(agents=["exact"], size="10x10x10", games=5)
    >>> [(x, s.mines) for x, s in sweep_suites(base, densities=[0.1, 0.3])]
    [(0.1, 10), (0.3, 30)]
    >>> [(x, s.width, s.mines) for x, s in sweep_suites(base, sizes=[4], density=0.25)]
    [(16, 4, 4)]
    """
    suites = []
    for d in densities or []:
        mines = max(1, round(d * base.width * base.height))
        suites.append((d, replace(base, mines=mines)))
    for n in sizes or []:
        mines = max(1, round(density * n * n))
        suites.append((n * n, replace(base, width=n, height=n, mines=mines)))
    return suites
