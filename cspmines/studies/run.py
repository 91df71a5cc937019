"""Playing a study: every point of every suite on the bench's runner, resumable, into one results file.

Each point's games go to ``DIR/games/<suite>-<k>.jsonl`` as they finish (the
bench's ``--out`` with ``--resume``), so a study stopped at any moment goes on
from where it stopped when run again. When the games are in, ``DIR/results.jsonl``
holds them all, each record with its suite's name and its point's ``x``, in a
fixed order (suite, point, game, agent): a resumed study writes the same file
as one run straight through, timings aside.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..bench import TIMING_FIELDS, ResultsFile, Workers, run_suite
from ..engine.budget import DEFAULT_MEMORY, check_board_size
from ..errors import TooLargeError
from .spec import Study

__all__ = ["StudyResult", "run_study", "RESULTS", "GAMES"]

RESULTS = "results.jsonl"
GAMES = "games"


@dataclass(frozen=True)
class StudyResult:
    """The records of a study (each with ``suite`` and ``x``), whether it was interrupted, and the games
    played in this run (not read back)."""

    records: tuple
    interrupted: bool
    played_now: int
    seconds: float


def run_study(study: Study, out, *, workers: int | None = None, executor: str | None = None,
              address: str | None = None, progress: bool | None = None) -> StudyResult:
    """Play ``study`` into the folder ``out`` (made if missing); options given here override the study's.

    >>> import tempfile
    >>> from cspmines.studies.spec import parse_study
    >>> study = parse_study('games = 2\\n[[suite]]\\nname = "b"\\nsize = "5x5x3"\\nagents = ["exact", "random"]\\n')
    >>> result = run_study(study, tempfile.mkdtemp(), workers=1, progress=False)
    >>> [(r["suite"], r["agent"], r["game"]) for r in result.records]
    [('b', 'exact', 0), ('b', 'random', 0), ('b', 'exact', 1), ('b', 'random', 1)]
    """
    for suite in study.suites:  # every board checked before the first game, and before the folder is made
        for _, point in suite.points:
            try:
                check_board_size(point.width, point.height, DEFAULT_MEMORY)
            except TooLargeError as error:
                raise TooLargeError(f"suite {suite.name!r}: {error}") from None
    folder = Path(out)
    (folder / GAMES).mkdir(parents=True, exist_ok=True)
    workers = workers or study.workers or 1
    executor = executor or study.executor
    address = address if address is not None else study.address
    records: list = []
    interrupted, played, seconds = False, 0, 0.0
    for suite in study.suites:
        for k, (x, point) in enumerate(suite.points):
            result = run_suite(point, out=ResultsFile(folder / GAMES / f"{suite.slug}-{k}.jsonl", resume=True),
                               workers=Workers(workers, executor, address), progress=progress, judge=suite.judge)
            records.extend({**record, "suite": suite.name, "x": x} for record in result.records)
            played += result.played_now
            seconds += result.seconds
            if result.interrupted:
                interrupted = True
                break
        if interrupted:
            break
    with (folder / RESULTS).open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")
    return StudyResult(tuple(records), interrupted, played, seconds)


def without_timings(record: dict) -> dict:
    """A record less the fields that differ from run to run (to compare two runs' results)."""
    return {key: value for key, value in record.items() if key not in TIMING_FIELDS}
