"""Game records on disk: one JSON line per finished game, read back to resume a suite.

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

__all__ = ["TIMING_FIELDS", "json_lines", "read_records"]

#: Fields of a game record that vary from run to run (left out when results are compared).
TIMING_FIELDS = ("seconds", "seconds_per_move")


def json_lines(path: Path):
    """``(line number, the line's JSON or None when it does not parse)`` for each line of ``path`` that is
    not blank: a results file as the bench writes it, one game a line."""
    with Path(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
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


