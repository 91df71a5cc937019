"""Where a suite's games are played: in this process, in a pool of processes, or on a Ray cluster
(:class:`Workers`), in chunks of games, each chunk's records handed back as it finishes; a process that
dies fails its chunk's games with an error record, and SIGTERM stops a run as Ctrl-C does.

:func:`parallel_map` is the same pool for any function (the studies' own loops).
"""

from __future__ import annotations

import concurrent.futures
import logging
import signal
import threading
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from ..agents.external import close_players, table_name
from ..extras import install_hint
from .suite import Suite, SuiteError

__all__ = ["Task", "Workers", "chunked", "dispatch", "named_record", "parallel_map", "stopped_by_sigterm"]

#: What plays one game of a suite: ``task(suite, agent, i)`` returns the game's JSON-ready record, a dict
#: with at least ``agent`` and ``game``; records with ``won`` (or ``error``) are the games summarized.
Task = Callable[[Suite, str, int], dict]


def named_record(record: dict, spec: str, suite: Suite) -> dict:
    """A record naming its agent as tables do (a command's player by the name it gave, with its spec beside),
    and its place among the suite's agents, ``agent_order`` (0 the first: what a later comparison pairs
    against, whatever order the games finished in)."""
    name = table_name(spec)
    named = record if name == spec else {**record, "agent": name, "spec": spec}
    return {**named, "agent_order": suite.agents.index(spec)} if spec in suite.agents else named



def _suite_of(fields: dict) -> Suite:
    """The suite back from the plain fields sent to workers."""
    return Suite(**{**fields, "agents": tuple(fields["agents"])})


def _play_chunk(suite_fields: dict, chunk: list, task: Task) -> list:
    """A batch of games in one worker (the unit sent to processes and to Ray)."""
    suite = _suite_of(suite_fields)
    return [named_record(task(suite, agent, i), agent, suite) for agent, i in chunk]


def _play_chunk_and_close(suite_fields: dict, chunk: list, task: Task) -> list:
    """A batch of games on Ray, whose workers outlive the run: the players they started end with the batch."""
    try:
        return _play_chunk(suite_fields, chunk, task)
    finally:
        close_players()


def chunked(tasks: list, size: int) -> list:
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


def dispatch(fields: dict, chunks: list, where: Workers, task: Task, accept: Callable[[list], None]) -> None:
    """Play the chunks where ``where`` says: on a Ray cluster, in this process, or in a pool of processes."""
    if where.executor == "ray":
        _run_ray(fields, chunks, where.count, where.address, accept, task)
    elif where.count == 1:
        for chunk in chunks:
            accept(_play_chunk(fields, chunk, task))
    else:
        _run_processes(fields, chunks, where.count, accept, task)


def _crashed(chunk: list, fields: dict, why: str) -> list:
    suite = _suite_of(fields)
    return [{**named_record({"agent": agent, "game": i, **suite.config}, agent, suite), "error": why} for agent, i in chunk]


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
