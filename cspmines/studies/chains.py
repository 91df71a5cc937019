"""Chains of influence: what the engine meets in real play, measured (seed 001, section 4).

Seed 001 asks what the longest chain of influence is and what determines it,
how the cost of solving grows with it, where long chains form, and whether
keeping chains short is the better trade. :func:`chain_game` plays one seeded
game with the exact agent and records every chain of every position
the engine solves: cells, boxes, clues, length (the diameter of its cell
graph), width (most rules open at once while counting), layouts and time,
and whether a full row or column of revealed zeros cuts the board in two.
Chains are taken as the clues give them (``solve(settle=False)``): the
cells single clues force stay in them.
It is a task for :func:`cspmines.bench.run_suite` (``task=chain_game``):
``cspmines chains`` runs it over many games, seeded as ``cspmines bench``
seeds them, and aggregates.

>>> from cspmines.bench import Suite
>>> record = chain_game(Suite.create(agents=["exact"], size="beginner", games=1, seed=3), "exact", 0)
>>> record["positions"] >= 1 and all(c["length"] >= 0 for c in record["chains"])
True
"""

from __future__ import annotations

import math
import statistics

import numpy as np

from ..agents.exact import ExactAgent
from ..bench import play_game
from ..engine.engine import solve

__all__ = ["chain_game", "chain_rows", "summarize_chains", "zero_cut", "plot_chains"]


def zero_cut(position) -> bool:
    """Whether a full row or column of revealed zeros cuts the board in two.

    >>> from cspmines import Position
    >>> zero_cut(Position.from_string("3x3\\n...\\n000\\n...")), zero_cut(Position.from_string("3x3\\n...\\n010\\n..."))
    (True, False)
    """
    zeros = position.grid == 0
    inner_rows = zeros[1:-1].all(axis=1) if position.height > 2 else np.zeros(0, bool)
    inner_cols = zeros[:, 1:-1].all(axis=0) if position.width > 2 else np.zeros(0, bool)
    return bool(inner_rows.any() or inner_cols.any())


def chain_rows(analysis) -> list[dict]:
    """One row per chain of an analysis: its size, ``length`` (how far influence travels),
    ``width`` and counting cost.

    >>> from cspmines import Position, solve
    >>> (row,) = chain_rows(solve(Position.from_string("3x2x1\\n1..\\n...")))
    >>> row["cells"], row["boxes"], row["clues"], row["length"]   # three cells all beside the one clue
    (3, 1, 1, 1)
    """
    return [
        {
            "cells": c.n_cells,
            "boxes": c.n_boxes,
            "clues": c.n_clues,
            "length": c.length,
            "width": c.width,
            "log10_layouts": math.log10(c.layouts) if c.layouts else None,
            "seconds": c.stats.get("seconds"),
            "backend": c.stats.get("backend"),
        }
        for c in analysis.chains
    ]


class _Surveyor:
    """Plays as the exact agent does, and solves every position it is shown first.

    The exact agent calls the engine only when cheap deductions run out, so its
    own analyses would over-sample hard positions; a study wants them all.
    """

    name = "exact"

    def __init__(self, record):
        self.player = ExactAgent()
        self.record = record

    def reset(self, *, rules: str, seed) -> None:
        self.player.reset(rules=rules, seed=seed)

    def act(self, position):
        # chains as the clues give them: the engine settles forced cells out of its
        # chains first (solve's ``settle``), which would hide the chains players build
        self.record(solve(position, settle=False))
        return self.player.act(position)


def chain_game(suite, agent: str, i: int) -> dict:
    """Game ``i`` of ``suite`` played by the exact agent, with the chains of every position it saw.

    >>> from cspmines.bench import Suite
    >>> record = chain_game(Suite.create(agents=["exact"], size="beginner", games=1, seed=0), "exact", 0)
    >>> record["status"], record["positions"], len(record["chains"]), sorted(record["chains"][0])[:3]
    ('won', 20, 29, ['backend', 'boxes', 'cells'])
    """
    chains, positions, cuts = [], 0, 0

    def record(analysis) -> None:
        nonlocal positions, cuts
        positions += 1
        cuts += zero_cut(analysis.position)
        for row in chain_rows(analysis):
            chains.append({**row, "move": positions})

    result = play_game(suite, "exact", i, player=_Surveyor(record))
    return {**result, "positions": positions, "zero_cut_positions": cuts, "chains": chains}


def summarize_chains(records: list) -> list[dict]:
    """Per configuration: games, positions solved, chains met, their lengths, widths and cost.

    >>> from cspmines.bench import Suite
    >>> suite = Suite.create(agents=["exact"], size="beginner", games=2, seed=0)
    >>> (row,) = summarize_chains([chain_game(suite, "exact", i) for i in range(2)])
    >>> row["games"], row["positions"], row["chains"], row["max_length"], row["win_rate"]
    (2, 36, 60, 8, 1.0)
    """
    groups: dict[tuple, list] = {}
    for record in records:
        if "error" in record:
            continue
        groups.setdefault((record["width"], record["height"], record["mines"]), []).append(record)
    out = []
    for (width, height, mines), group in groups.items():
        chains = [c for r in group for c in r["chains"]]
        positions = sum(r["positions"] for r in group)
        longest = [max((c["length"] for c in r["chains"]), default=0) for r in group]
        seconds = [c["seconds"] for c in chains if c["seconds"] is not None]
        out.append(
            {
                "width": width,
                "height": height,
                "mines": mines,
                "density": mines / (width * height),
                "games": len(group),
                "positions": positions,
                "chains": len(chains),
                "mean_length": statistics.fmean(c["length"] for c in chains) if chains else 0.0,
                "mean_longest_length_per_game": statistics.fmean(longest),
                "max_length": max((c["length"] for c in chains), default=0),
                "mean_width": statistics.fmean(c["width"] for c in chains) if chains else 0.0,
                "max_width": max((c["width"] for c in chains), default=0),
                "mean_cells": statistics.fmean(c["cells"] for c in chains) if chains else 0.0,
                "zero_cut_fraction": sum(r["zero_cut_positions"] for r in group) / positions if positions else 0.0,
                "median_solve_ms": statistics.median(seconds) * 1e3 if seconds else 0.0,
                "max_solve_ms": max(seconds) * 1e3 if seconds else 0.0,
                "win_rate": sum(r["won"] for r in group) / len(group),
            }
        )
    return out


def plot_chains(summary: list, records: list, path, *, x_key: str = "density", x_label: str = "mine density") -> None:
    """Three panels: chain length against x, solve cost against length and width, zero cuts against x."""
    from ..present.plots import _pyplot

    plt = _pyplot()
    figure, (left, middle, right) = plt.subplots(1, 3, figsize=(14, 3.8))
    xs = [s[x_key] for s in summary]
    left.plot(xs, [s["mean_longest_length_per_game"] for s in summary], marker="o", label="longest per game (mean)")
    left.plot(xs, [s["mean_length"] for s in summary], marker="o", label="all chains (mean)")
    left.plot(xs, [s["max_length"] for s in summary], marker="o", label="longest seen")
    left.set_xlabel(x_label)
    left.set_ylabel("chain length (cell-graph diameter)")
    left.legend(fontsize=8)
    chains = [c for r in records if "error" not in r for c in r["chains"] if c["seconds"]]
    middle.scatter([c["length"] for c in chains], [c["seconds"] * 1e3 for c in chains], s=4, alpha=0.4, label="by length")
    middle.scatter([c["width"] for c in chains], [c["seconds"] * 1e3 for c in chains], s=4, alpha=0.4, label="by width")
    middle.set_yscale("log")
    middle.set_xlabel("chain length / front width")
    middle.set_ylabel("solve ms (chain)")
    middle.legend(fontsize=8)
    right.plot(xs, [s["zero_cut_fraction"] for s in summary], marker="o")
    right.set_xlabel(x_label)
    right.set_ylabel("positions cut by a row/column of 0s")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
