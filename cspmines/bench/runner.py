"""Running a suite: each game played once, on one machine or a Ray cluster, results streamed to disk.

:func:`run_suite` plays every game of a :class:`~cspmines.bench.suite.Suite`
with a *task*, a function ``task(suite, agent, i) -> record`` defined at a
module's top level (so worker processes can find it): :func:`play_game` by
default; studies bring their own (:func:`cspmines.studies.chains.chain_game`).

Examples
--------
>>> from cspmines.bench.suite import Suite
>>> suite = Suite.create(agents=["exact", "random"], size="beginner", games=4, seed=1)
>>> result = run_suite(suite, progress=False)
>>> [(s["agent"], s["games"]) for s in result.summary]
[('exact', 4), ('random', 4)]
>>> result.summary[0]["ci95"][0] <= result.summary[0]["win_rate"] <= result.summary[0]["ci95"][1]
True
"""

from __future__ import annotations

import concurrent.futures
import logging
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path

from ..agents import make_agent
from ..agents.external import close_players, is_command, table_name
from ..engine.budget import Limit, Stopwatch, check_board_size, read_limit
from ..engine.engine import default_engine
from ..extras import install_hint
from ..games import Game, play
from ..games.judge import JUDGE_LIMIT, judge_moves
from .records import Collected, records_before
from .stats import summarize
from .suite import AGENT, GAME, Suite, SuiteError, board_for, game_rng

__all__ = ["BenchResult", "ResultsFile", "Task", "Workers", "agent_seed", "new_game", "parallel_map", "play_game", "run_suite"]

#: What plays one game of a suite: ``task(suite, agent, i)`` returns the game's JSON-ready record, a dict
#: with at least ``agent`` and ``game``; records with ``won`` (or ``error``) are the games summarized.
Task = Callable[[Suite, str, int], dict]


def new_game(suite: Suite, i: int) -> Game:
    """Game ``i`` of ``suite`` before any move: its board, rules, withheld clues and their stream.

    >>> suite = Suite.create(agents=["exact"], size="beginner", games=1, seed=0)
    >>> new_game(suite, 0).status
    'playing'
    """
    return Game(board_for(suite, i), rules=suite.rules, withheld=suite.withheld, seed=game_rng(suite, i, GAME))


def agent_seed(suite: Suite, i: int):
    """The random stream the agent of game ``i`` is reset with (the same for every agent)."""
    return game_rng(suite, i, AGENT)


def play_game(suite: Suite, agent: str, i: int, *, player=None, judge: bool | Limit = False) -> dict:
    """Play game ``i`` of ``suite`` with ``agent``; a JSON-ready record (an error record if it fails).

    ``player`` replaces the agent made from its name (a configured instance, for studies).
    ``judge`` (True, or a :class:`~cspmines.Limit` for each count) judges every open once the game is
    played (:mod:`cspmines.games.judge`): the record then holds ``judged`` and ``judged_exact``.

    >>> suite = Suite.create(agents=["exact"], size="beginner", games=1, seed=0)
    >>> record = play_game(suite, "exact", 0)
    >>> record["agent"], record["game"], record["status"]
    ('exact', 0, 'won')
    """
    if player is None and is_command(agent):  # a player in another process: its move limit, and the game's number
        player = make_agent(agent, move_timeout=suite.move_timeout, index=i)
    base = {"agent": agent, "game": i, **suite.config}
    seen: list = []  # (position, action) before each move, judged after the game: the agent's time is its own
    observe = (lambda position, action: seen.append((position, action))) if judge else None
    try:  # each game timed from empty memories (the thread's, its players' and judge's), whoever met this board before
        default_engine().forget()
        record = play(player or make_agent(agent), new_game(suite, i), seed=agent_seed(suite, i), observe=observe)
        judged = judge_moves(seen, limit=JUDGE_LIMIT if judge is True else judge) if judge else None
    except Exception as error:  # reported with its game; the suite goes on
        return {**base, "error": f"{type(error).__name__}: {error}", "traceback": traceback.format_exc(limit=5)}
    figures = {} if judged is None else {"judged": judged.record(), "judged_exact": judged.exact}
    return {
        **base,
        **({"fault": record.fault, "fault_detail": record.fault_detail} if record.fault else {}),  # lost by it
        "status": record.status,
        "won": record.won,
        "moves": record.moves,
        "guesses": record.guesses,
        "opened_fraction": record.opened_fraction,
        "score": record.score,
        "mines_opened": record.mines_opened,
        "seconds": record.seconds,
        "seconds_per_move": record.seconds / max(1, record.moves),
        **figures,
    }


def _named(record: dict, spec: str, suite: Suite) -> dict:
    """A record naming its agent as tables do (a command's player by the name it gave, with its spec beside),
    and its place among the suite's agents, ``agent_order`` (0 the first: what a later comparison pairs
    against, whatever order the games finished in)."""
    name = table_name(spec)
    named = record if name == spec else {**record, "agent": name, "spec": spec}
    return {**named, "agent_order": suite.agents.index(spec)} if spec in suite.agents else named


def _key(record: dict) -> tuple:
    """The (agent spec, game) a record is the result of."""
    return record.get("spec", record["agent"]), record["game"]


def _suite_of(fields: dict) -> Suite:
    """The suite back from the plain fields sent to workers."""
    return Suite(**{**fields, "agents": tuple(fields["agents"])})


def _play_chunk(suite_fields: dict, chunk: list, task: Task) -> list:
    """A batch of games in one worker (the unit sent to processes and to Ray)."""
    suite = _suite_of(suite_fields)
    return [_named(task(suite, agent, i), agent, suite) for agent, i in chunk]


def _play_chunk_and_close(suite_fields: dict, chunk: list, task: Task) -> list:
    """A batch of games on Ray, whose workers outlive the run: the players they started end with the batch."""
    try:
        return _play_chunk(suite_fields, chunk, task)
    finally:
        close_players()


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


def _chunks(tasks: list, size: int) -> list:
    return [tasks[i : i + size] for i in range(0, len(tasks), size)]


@dataclass(frozen=True)
class Workers:
    """Where a suite's games run: ``count`` processes (``executor="process"``) or Ray tasks in flight
    (``"ray"``, the ``ray`` extra; ``address`` joins a cluster, none starts a local instance), each handed
    ``chunk_size`` games at a time (a size from the games and workers when None)."""

    count: int = 1
    executor: str = "process"
    address: str | None = None
    chunk_size: int | None = None

    def __post_init__(self):
        if self.executor not in ("process", "ray"):
            raise SuiteError(f"executor must be process or ray, got {self.executor!r}")
        if not isinstance(self.count, int) or self.count < 1:
            raise SuiteError(f"workers must be at least 1, got {self.count!r}")


@dataclass(frozen=True)
class ResultsFile:
    """Where each finished game is appended as one JSON line, and whether the games already there are kept
    and not played again (``resume``)."""

    path: Path | str
    resume: bool = False


def run_suite(
    suite: Suite,
    *,
    workers: int | Workers = 1,
    out: ResultsFile | Path | str | None = None,
    progress: bool | None = None,
    task: Task | None = None,
    judge: bool | Limit = False,
    limit: Limit | None = None,
) -> BenchResult:
    """Play every game of ``suite``; the Python API behind ``cspmines bench``.

    Parameters
    ----------
    workers : int or Workers
        Processes in flight, or where the games run (:class:`Workers`: processes or a Ray cluster).
    out : path or ResultsFile, optional
        Each finished game is appended there as one JSON line, as it completes; a :class:`ResultsFile`
        with ``resume`` skips the games already there.
    progress : bool, optional
        A progress bar on standard error (default: when it is a terminal).
    task : callable, optional
        What plays one game (see :data:`Task`): :func:`play_game` by default.
    judge : bool or Limit
        Judge every open of every game (:func:`play_game`'s ``judge``; with the default task only).
    limit : Limit, optional
        What a game may hold: its memory (the default allowance unless given; None: none); a board past it is
        refused (TooLargeError) before any game.

    Examples
    --------
    >>> suite = Suite.create(agents=["exact", "greedy"], size="beginner", games=20, seed=0)
    >>> result = run_suite(suite, workers=1, progress=False)
    >>> [(row["agent"], row["wins"], row["games"]) for row in result.summary]
    [('exact', 20, 20), ('greedy', 0, 20)]
    """
    check_board_size(suite.width, suite.height, read_limit(limit).memory)
    where = workers if isinstance(workers, Workers) else Workers(workers)
    task = _task_for(task, judge)
    results = out if isinstance(out, ResultsFile) or out is None else ResultsFile(out)
    out = Path(results.path) if results is not None else None
    records = records_before(out, suite, results is not None and results.resume)
    done = {_key(r) for r in records if "error" not in r}
    records = [r for r in records if "error" not in r]  # failed games are tried again on resume
    todo = [task for task in suite.tasks() if task not in done]
    chunks = _chunks(todo, where.chunk_size or max(1, min(16, len(todo) // (where.count * 8) or 1)))
    fields = {**asdict(suite), "agents": list(suite.agents)}
    watch = Stopwatch()
    interrupted = False
    with _collecting(records, out, progress, len(todo)) as collected:
        try:
            with stopped_by_sigterm():
                _dispatch(fields, chunks, where, task, collected.accept)
        except KeyboardInterrupt:
            interrupted = True
    order = {task: n for n, task in enumerate(suite.tasks())}
    records.sort(key=lambda r: order.get(_key(r), len(order)))
    games = [r for r in records if "won" in r or "error" in r]  # a study's task may record no outcome
    return BenchResult(records, summarize(games), watch.seconds, collected.played_now, interrupted,
                       collected.errors)


@contextmanager
def _collecting(records: list, out: Path | None, progress: bool | None, total: int):
    """A :class:`Collected` with its progress bar and its sink (the ``out`` file, appended to), both closed
    at the end, and the players this process started with them (the workers end theirs as they exit)."""
    from tqdm import tqdm

    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(total=total, disable=not show, file=sys.stderr, unit="game", dynamic_ncols=True)
    sink = out.open("a", encoding="utf-8") if out else None
    try:
        yield Collected(records, bar, sink)
    finally:
        close_players()
        bar.close()
        if sink:
            sink.close()


def _dispatch(fields: dict, chunks: list, where: Workers, task: Task, accept: Callable[[list], None]) -> None:
    """Play the chunks where ``where`` says: on a Ray cluster, in this process, or in a pool of processes."""
    if where.executor == "ray":
        _run_ray(fields, chunks, where.count, where.address, accept, task)
    elif where.count == 1:
        for chunk in chunks:
            accept(_play_chunk(fields, chunk, task))
    else:
        _run_processes(fields, chunks, where.count, accept, task)


def _task_for(task: Task | None, judge: bool | Limit) -> Task:
    """What plays each game (:func:`play_game` unless ``task`` is given), the run's options checked."""
    if judge and task is not None:
        raise SuiteError("judge goes with the bench's own games (no task): a task judges its games itself")
    task = task or (partial(play_game, judge=judge) if judge else play_game)
    if not callable(task):
        raise SuiteError(f"task must be a function task(suite, agent, i) -> record, got {task!r}")
    return task


def _crashed(chunk: list, fields: dict, why: str) -> list:
    suite = _suite_of(fields)
    return [{**_named({"agent": agent, "game": i, **suite.config}, agent, suite), "error": why} for agent, i in chunk]


def _run_processes(fields: dict, chunks: list, workers: int, accept, task: Task) -> None:
    """A process pool with a bounded window of chunks; a dead worker fails only its own game.

    When a worker dies the whole pool breaks and every chunk in flight fails
    with it, so those chunks are retried one by one in a fresh one-worker
    pool (:func:`_isolate`) before the rest of the suite goes on.
    """
    pending = list(reversed(chunks))
    while pending:
        suspects: list = []
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers)
        try:
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
        except BaseException:  # Ctrl-C, or SIGTERM turned into one: end the workers now, not after their games
            _end_workers(pool)
            raise
        pool.shutdown(wait=True)
        for chunk in suspects:
            _isolate(fields, chunk, accept, task)


def _end_workers(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Stop a pool's workers in the middle of their games (their finished games are kept already).

    The executor has no public way to end a busy worker: its processes are terminated directly
    (``_processes``, there since Python 3.2), then the pool is shut down without waiting."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


@contextmanager
def stopped_by_sigterm():
    """Within the block, SIGTERM (a timeout, a job scheduler) stops the run as Ctrl-C does: the workers
    are ended and every finished game is kept. Only the main thread can take signals; elsewhere
    nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    _take_sigterm()
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _take_sigterm() -> None:
    """SIGTERM raises KeyboardInterrupt here (again after Ray's start, which installs a handler of its own)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)


def _isolate(fields: dict, chunk: list, accept, task: Task) -> None:
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


def _run_ray(fields: dict, chunks: list, workers: int, address: str | None, accept, task: Task) -> None:
    try:
        import ray
    except ImportError as error:
        raise SuiteError(f"--executor ray needs Ray: {install_hint('ray')}") from error
    started_here = False  # a local cluster this run started (not one joined, nor one started before)
    if not ray.is_initialized():
        options = {"address": address} if address else {"num_cpus": workers, "include_dashboard": False}
        ray.init(ignore_reinit_error=True, logging_level=logging.ERROR, log_to_driver=False, **options)
        _take_sigterm()  # Ray's own handler would end the process without keeping the run's state
        started_here = not address
    remote = ray.remote(_play_chunk_and_close)
    pending = list(reversed(chunks))
    in_flight: dict = {}
    try:
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
    except BaseException:  # stopped: the tasks in flight are ended with their workers
        if started_here:
            # A cluster this run started goes down whole, its workers with it. Cancelling each task
            # first races the replies of tasks finishing at that moment, which Ray 2's core worker
            # can take for a bug and abort the process on (seen under SIGTERM in CI).
            ray.shutdown()
        else:
            for ref in in_flight:
                ray.cancel(ref, force=True)
        raise


def parallel_map(function, items, *, workers: int = 1, chunksize: int = 1) -> list:
    """``[function(item) for item in items]`` on ``workers`` processes (in this one when 1), in order.

    For the work of a study that is not one game each (judging positions,
    playing on from drawn layouts); games themselves go through
    :func:`run_suite`. ``function`` must be defined at a module's top level.

    >>> parallel_map(abs, [-2, 3, -4])
    [2, 3, 4]
    """
    if workers < 1:
        raise SuiteError(f"workers must be at least 1, got {workers}")
    if workers == 1:
        return [function(item) for item in items]
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(function, items, chunksize=chunksize))

