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

import sys
import traceback
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path

from ..actions import Rules
from ..agents import make_agent
from ..agents.external import close_players, is_command
from ..engine.budget import Limit, Stopwatch, check_board_size, read_limit
from ..engine.engine import default_engine
from ..games import Game, play
from ..games.board import FirstClick
from ..games.judge import JUDGE_LIMIT, JUDGE_VALUE_LIMIT, judge_moves
from .records import Collected, records_before
from .stats import summarize
from .suite import AGENT, GAME, Suite, SuiteError, board_for, game_rng
from .workers import Task, Workers, chunked, dispatch, stopped_by_sigterm

__all__ = ["BenchResult", "ResultsFile", "agent_seed", "new_game", "play_game", "run_suite"]



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


def play_game(suite: Suite, agent: str, i: int, *, player=None, judge: bool | Limit = False,
              value: Limit | None = JUDGE_VALUE_LIMIT) -> dict:
    """Play game ``i`` of ``suite`` with ``agent``; a JSON-ready record (an error record if it fails).

    ``player`` replaces the agent made from its name (a configured instance, for studies).
    ``judge`` (True, or a :class:`~cspmines.Limit` for each count) judges every open once the game is
    played (:mod:`cspmines.games.judge`): the record then holds ``judged`` and ``judged_exact``.
    ``value`` is the budget for valuing each guess (its ``loss``; None: not valued). Only classic games
    with every clue shown are valued: the value of a position is the chance of winning such a game.

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
        judged = judge_moves(seen, limit=JUDGE_LIMIT if judge is True else judge, value=_valued(suite, value),
                             won=record.won if _layouts_alike(suite) else None) if judge else None
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


def _valued(suite: Suite, value: Limit | None) -> Limit | None:
    """The value budget for the suite's games: none where winning is not what is played for (minesearch and
    score rules) or a clue may be withheld (a move there may tell less than the value counts on)."""
    return value if suite.rules == Rules.CLASSIC and not suite.withheld else None


def _layouts_alike(suite: Suite) -> bool:
    """Whether every layout a position of the suite's games allows is as likely as any other, as the value
    counts them (what the expected win rests on): not on no-guess boards, nor where the first click goes to a
    highest clue (which tells more than the clue shown)."""
    return not suite.no_guess and suite.first_click != FirstClick.HIGHEST


def _key(record: dict) -> tuple:
    """The (agent spec, game) a record is the result of."""
    return record.get("spec", record["agent"]), record["game"]


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
        Judge every open of every game and value each guess (:func:`play_game`'s ``judge``, its ``value`` at
        :data:`~cspmines.games.judge.JUDGE_VALUE_LIMIT`; another value budget: ``task=partial(play_game, ...)``).
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
    chunks = chunked(todo, where.chunk_size or max(1, min(16, len(todo) // (where.count * 8) or 1)))
    fields = {**asdict(suite), "agents": list(suite.agents)}
    watch, interrupted = Stopwatch(), False
    with _collecting(records, out, progress, len(todo)) as collected:
        try:
            with stopped_by_sigterm():
                dispatch(fields, chunks, where, task, collected.accept)
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


def _task_for(task: Task | None, judge: bool | Limit) -> Task:
    """What plays each game (:func:`play_game` unless ``task`` is given), the run's options checked."""
    if judge and task is not None:
        raise SuiteError("judge goes with the bench's own games (no task): a task judges its games itself")
    task = task or (partial(play_game, judge=judge) if judge else play_game)
    if not callable(task):
        raise SuiteError(f"task must be a function task(suite, agent, i) -> record, got {task!r}")
    return task


