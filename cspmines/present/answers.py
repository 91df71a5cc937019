"""The JSON answers: what ``--json`` prints on the command line and the web API answers, one writer a kind.

Big integers are decimal strings and fractions ``"n/d"`` strings, so that no consumer rounds them.

Examples
--------
>>> import cspmines
>>> analysis = cspmines.solve(cspmines.Position.from_string("3x1x1\\n.1."))
>>> analysis_json(analysis)["probabilities"]
[[0.5, None, 0.5]]
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..agents.advice import Advice
from ..engine.analysis import Analysis
from ..engine.insight import Insight
from ..position import Position
from .render import decimal

__all__ = ["JSON_SCHEMA_VERSION", "analysis_json", "insight_json", "moves_json", "outcomes_json"]

#: Bumped whenever :func:`analysis_json` changes shape.
JSON_SCHEMA_VERSION = 1


def analysis_json(analysis: Analysis, *, exact: bool = False) -> dict:
    """A JSON-ready dict (schema in the README, ``schema`` field = :data:`JSON_SCHEMA_VERSION`).

    Big integers are decimal strings and fractions ``"n/d"`` strings, so that
    no consumer rounds them.

    >>> from cspmines import Position, solve
    >>> result = analysis_json(solve(Position.from_string("3x2x1\\n1..\\n...")), exact=True)
    >>> result["model_count"], result["safe"], result["fractions"]
    ('3', [[0, 2], [1, 2]], [[None, '1/3', '0'], ['1/3', '1/3', '0']])
    """
    position = analysis.position
    probabilities = analysis.probabilities()
    rc = lambda cells: [list(position.row_col(c)) for c in cells]  # noqa: E731
    result: dict[str, Any] = {
        "schema": JSON_SCHEMA_VERSION,
        "width": position.width,
        "height": position.height,
        "mines": analysis.mines,
        "backend": analysis.backend,
        "exact": analysis.exact,
        "model_count": None if analysis.model_count is None else decimal(analysis.model_count),
        "probabilities": [[None if v != v else float(v) for v in row] for row in probabilities],
        "safe": rc(analysis.safe_cells),
        "mines_certain": rc(analysis.mine_cells),
        "inexact": rc(sorted(analysis.inexact_cells)),
        "components": [
            {
                "cells": rc(chain.cells),
                "clues": rc(chain.clues),
                "boxes": chain.n_boxes,
                "mine_range": list(chain.mine_range),
                "layouts": decimal(chain.layouts),
                "exact": chain.exact,
                "backend": chain.stats.get("backend"),
                "seconds": chain.stats.get("seconds"),
            }
            for chain in analysis.chains
        ],
    }
    if exact:
        result["fractions"] = [[None if v is None else decimal(v) for v in row] for row in analysis.probabilities(exact=True)]
    return result


def outcomes_json(position, spreads, *, exact: bool = False) -> list:
    """The same as JSON: ``{"cell": [row, col], "mine": float, "clues": [9 floats]}`` a cell, with
    ``fractions`` (the mine, then clues 0 to 8, ``"n/d"`` strings) when ``exact``.

    >>> from cspmines import Position, solve
    >>> from cspmines.engine.clues import clue_spreads
    >>> analysis = solve(Position.from_string("3x1x1\\n..."))
    >>> outcomes_json(analysis.position, clue_spreads(analysis, [1]), exact=True)[0]["fractions"][:3]   # the middle: safe, it sees the mine
    ['1/3', '0', '2/3']
    """
    result = []
    written: dict = {}  # (layouts, of how many) -> its fraction's text: cells off the front share their counts
    for cell, spread in spreads.items():
        mine, *clues = spread.floats()
        entry: dict[str, Any] = {"cell": list(position.row_col(cell)), "mine": mine, "clues": clues}
        if exact:
            entry["fractions"] = [_fraction_text(w, spread.total, written) for w in (spread.mine, *spread.clues)]
        result.append(entry)
    return result


def insight_json(position, insight: Insight) -> dict:
    """The insight as JSON: ``dead`` (cells), ``fifty_fifties`` (``halves``: two lists of cells, ``kind``,
    ``tellers``), ``endgame`` (the value of the position under best play: ``layouts``, ``exact``, ``chance`` and
    ``fraction`` of winning where exact (else null), ``low`` and ``high`` its bounds as fractions, ``stopped_by``,
    ``best`` cells, ``cells``: ``{"cell", "exact", "chance", "fraction", "low", "high"}`` for every covered cell),
    each null where not worked out, and ``missing``: part -> why. Cells are ``[row, col]``.

    >>> from cspmines import Position, insight_of, solve
    >>> analysis = solve(Position.from_string("3x2x1\\n1..\\n1.."))
    >>> seen = insight_json(analysis.position, insight_of(analysis))
    >>> seen["fifty_fifties"], seen["endgame"]["fraction"]
    ([{'halves': [[[0, 1]], [[1, 1]]], 'kind': 'unavoidable', 'tellers': []}], '1/2')
    """
    rc = lambda cells: [list(position.row_col(c)) for c in cells]  # noqa: E731
    fifties = None if insight.fifty_fifties is None else [
        {"halves": [rc(half) for half in fifty.halves], "kind": str(fifty.kind), "tellers": rc(fifty.tellers)}
        for fifty in insight.fifty_fifties
    ]
    endgame = insight.endgame
    played = None if endgame is None else {
        **_won(endgame.wins, endgame.wins_high, endgame.layouts),
        "layouts": endgame.layouts,
        "stopped_by": endgame.stopped_by,
        "best": rc(endgame.best_cells),
        "cells": [{"cell": list(position.row_col(cell)), **_won(value.low, value.high, value.layouts)}
                  for cell, value in sorted(endgame.cells.items())],
    }
    return {"dead": None if insight.dead is None else rc(insight.dead), "fifty_fifties": fifties, "endgame": played,
            "missing": dict(insight.missing)}


def _won(low: int, high: int, layouts: int) -> dict:
    """A chance of winning with best play as JSON: exact (``chance`` and ``fraction``), else only its bounds."""
    exact = low == high
    return {"exact": exact, "chance": float(Fraction(low, layouts)) if exact else None,
            "fraction": decimal(Fraction(low, layouts)) if exact else None,
            "low": decimal(Fraction(low, layouts)), "high": decimal(Fraction(high, layouts))}


def moves_json(advice: Advice, *, explain: bool = False) -> dict:
    """The agents' moves of an :class:`~cspmines.agents.advice.Advice` as JSON (what ``cspmines move --json``
    prints and ``POST /api/move`` answers); ``explain`` adds the look-ahead's weighed candidates.

    >>> from cspmines import Position
    >>> from cspmines.agents.advice import advise
    >>> answer = moves_json(advise(Position.from_string("3x1x1\\n.1."), ["exact"], seed=0))
    >>> answer["moves"][0]["cell"], answer["moves"][0]["mine_fraction"], answer["cells_at_least"]
    ([0, 0], '1/2', 2)
    """
    position, analysis, suggestions, rules = advice.position, advice.analysis, list(advice.suggestions), advice.rules
    if not suggestions:
        raise ValueError("moves_json needs at least one suggestion")
    least = suggestions[0].least
    at_least = analysis.cells_where(lambda p: p == least)
    moves = [
        {
            "agent": s.agent,
            "action": s.action.kind,
            "cell": list(position.row_col(s.action.cell)),
            "certain": s.action.certain,
            "reason": s.reason,
            "mine_probability": float(s.mine_probability),
            "mine_fraction": str(s.mine_probability),
            **({"candidates": [_weighed(position, view, score) for view, score in s.candidates]} if explain else {}),
        }
        for s in suggestions
    ]
    return {"schema": 1, "rules": rules, "moves": moves, "least_mine_probability": float(least),
            "least_mine_fraction": str(least), "cells_at_least": len(at_least)}


def _weighed(position: Position, view, score: float) -> dict:
    """One look-ahead candidate as JSON."""
    return {
        "cell": list(position.row_col(view.cell)),
        "safety": view.safety,
        "secondary_safety": view.secondary,
        "progress": view.progress,
        "influence": view.influence,
        "dead": view.dead,
        "score": score,
    }


def _fraction_text(layouts: int, total: int, written: dict) -> str:
    text = written.get((layouts, total))
    if text is None:
        text = written[layouts, total] = decimal(Fraction(layouts, total))
    return text
