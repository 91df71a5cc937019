"""Processes seen from outside, for the tests that check a run leaves none behind (Linux's /proc)."""

from __future__ import annotations

import os
from pathlib import Path


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text() if (task / "children").exists() else ""
        found.extend(int(child) for child in text.split())
    return found


def descendants(pid: int) -> list[int]:
    """Every process started under ``pid`` (Ray's raylet and workers are grandchildren)."""
    found, todo = [], children(pid)
    while todo:
        child = todo.pop()
        found.append(child)
        todo.extend(children(child))
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "zombie" not in status.read_text()
