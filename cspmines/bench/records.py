"""Game records on disk: one JSON line per finished game, written as it finishes and read back to resume a
suite.

>>> import tempfile, pathlib
>>> from cspmines.bench.suite import Suite
>>> suite = Suite.create(agents=["random"], size="beginner", games=1)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "out.jsonl"
>>> _ = path.write_text('{"agent": "random", "game": 0, "width": 9, "height": 9, "mines": 10, "rules": "classic", '
...                     '"withheld": 0.0, "first_click": "safe", "seed": 0, "won": false}\\n{"cut')
>>> [record["game"] for record in read_records(path, suite)]   # the line cut short is skipped, with a word
[0]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .suite import Suite, SuiteError

__all__ = ["TIMING_FIELDS", "Collected", "json_lines", "read_records", "records_before"]

#: Fields of a game record that vary from run to run (left out when results are compared).
TIMING_FIELDS = ("seconds", "seconds_per_move")


def json_lines(path: Path):
    """``(line number, the line's JSON or None when it does not parse)`` for each line of ``path`` that is
    not blank: a results file as the bench writes it, one game a line.

    Raises
    ------
    SuiteError
        A line that is not UTF-8 text, named by the file and the line (a binary file given by mistake).
    """
    with Path(path).open("rb") as handle:
        for number, data in enumerate(handle, start=1):
            try:
                line = data.decode("utf-8")
            except UnicodeDecodeError:
                raise SuiteError(f"{path}:{number}: not a results file of cspmines bench --out: it is not UTF-8 text "
                                 "(a binary file?)") from None
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError:
                yield number, None


def read_records(path: Path, suite: Suite) -> list:
    """The records in ``path``, each checked to belong to ``suite``'s games."""
    records = []
    for number, record in json_lines(path):
        if record is None:
            print(f"cspmines bench: {path}:{number}: skipping a line cut short", file=sys.stderr)
            continue
        mismatch = {k: (record.get(k), v) for k, v in suite.config.items() if record.get(k) != v}
        if mismatch:
            raise SuiteError(f"{path}:{number} holds results of another suite ({mismatch}): choose another --out")
        records.append(record)
    return records


def records_before(out: Path | None, suite: Suite, resume: bool) -> list:
    """The games an earlier run left in ``out`` when resuming it; none for a new file, and a file with games
    in it is not written over."""
    if out and out.exists() and resume:
        return read_records(out, suite)
    if out and out.exists() and out.stat().st_size:
        raise SuiteError(f"{out} exists: pass --resume to continue it, or choose another --out")
    return []


class Collected:
    """The games as they finish: kept in ``records``, appended to the ``--out`` file (``sink``), counted on
    the progress bar, and a failed game or one lost by a fault said on standard error."""

    def __init__(self, records: list, bar, sink) -> None:
        self.records, self.bar, self.sink = records, bar, sink
        self.played_now = 0
        self.errors: list = []
        # games with an outcome and games won, for the bar (a study's task may record no outcome): kept
        # as running totals, since rescanning every record after each batch is quadratic in the games
        self.decided = sum(1 for r in records if "won" in r)
        self.won = sum(1 for r in records if r.get("won"))

    def accept(self, batch: list) -> None:
        for record in batch:
            self.records.append(record)
            self.played_now += 1
            if "won" in record:
                self.decided += 1
                self.won += bool(record["won"])
            if "error" in record:
                self.errors.append(record)
                print(f"cspmines bench: game {record['game']} of {record['agent']} failed: {record['error']}", file=sys.stderr)
            if "fault" in record:
                print(f"cspmines bench: game {record['game']} of {record['agent']} lost by a fault: {record['fault']}: "
                      f"{record['fault_detail']}", file=sys.stderr)
            if self.sink:
                self.sink.write(json.dumps(record) + "\n")
                self.sink.flush()
        self.bar.update(len(batch))
        if self.decided:
            self.bar.set_postfix(win_rate=f"{self.won / self.decided:.3f}")
