"""The drawing of positions and analyses as SVG (what they show in a notebook, and files).

Covered cells are shaded from green (safe) to red (mine) by their mine
probability, with a colour scale underneath; proved cells carry a white
letter (``S`` safe, ``M`` mine, as in the text output); clues, flags,
opened mines and withheld clues are drawn as a player sees them. Rows and
columns are numbered from 0 along the edges. The chains of influence can be
outlined, one colour each (the legend says so). The drawing reads its subject by
what it has (a position's cells, an analysis's chances) and depends on nothing of
the package but the cell codes, so it sits below :class:`~cspmines.Position` and
:class:`~cspmines.Analysis`, which draw themselves with it (``_repr_svg_``);
:mod:`cspmines.present.picture` adds the PNG and is where users take pictures from.

>>> from cspmines import Position, solve
>>> svg = render_svg(solve(Position.from_string("3x1x1\\n.1.")), chains=True)
>>> svg.startswith("<svg") and svg.count("<rect") >= 3
True
"""

from __future__ import annotations

from html import escape

from .cells import COVERED, FLAG, MINE, WITHHELD

__all__ = ["legend_note", "render_svg", "scene", "shade"]

_CLUE_COLOURS = ["#808080", "#1f3fbf", "#1a7f1a", "#c41e1e", "#1a1a7f", "#7f1a1a", "#1a7f7f", "#000000", "#606060"]
_OUTLINES = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"]


def shade(p: float) -> str:
    """Green (0) through yellow (0.5) to red (1)."""
    p = min(1.0, max(0.0, p))
    red = int(60 + 195 * min(1.0, 2 * p))
    green = int(60 + 170 * min(1.0, 2 * (1 - p)))
    return f"#{red:02x}{green:02x}50"


def scene(subject, *, chains: bool = False, components: bool = False) -> dict:
    """What to draw, independent of the output format: cells with fill, text and mark;
    outline edges per chain (with ``chains``; ``components`` is its earlier name). ``subject`` is
    a Position or an Analysis.

    >>> from cspmines import Position, solve
    >>> drawn = scene(solve(Position.from_string("3x2x1\\n1..\\n...")), chains=True)
    >>> drawn["cells"][2]["mark"], drawn["cells"][1]["title"], len(drawn["outlines"])   # one chain of 3 cells
    ('safe', '(0, 1): 0.3333', 8)
    """
    analysis = subject if hasattr(subject, "probabilities") else None
    position = analysis.position if analysis is not None else subject
    if analysis is not None:
        probabilities, certain = analysis.probabilities(), (set(analysis.safe_cells), set(analysis.mine_cells))
        cells = [_covered_item(position, cell, analysis, probabilities, certain) if position.code(cell) == COVERED
                 else _cell_item(position, cell) for cell in range(position.size)]
    else:
        cells = [_cell_item(position, cell) for cell in range(position.size)]
    outlines = _outlines(position, analysis) if (chains or components) and analysis is not None else []
    estimated = analysis is not None and not analysis.exact
    return {"width": position.width, "height": position.height, "cells": cells, "outlines": outlines, "estimated": estimated}


def _cell_item(position, cell: int) -> dict:
    """How a cell is drawn with no analysis (or when it is not covered): its fill, and its text in its colour."""
    row, col = position.row_col(cell)
    code = position.code(cell)
    item = {"row": row, "col": col, "fill": "#d9d9d9", "text": "", "colour": "#000000", "mark": None, "title": ""}
    if code == COVERED:
        item["fill"] = "#b0b0b0"
    elif code == FLAG:
        item.update(fill="#b0b0b0", text="F", colour="#c41e1e")
    elif code == MINE:
        item.update(fill="#f0f0f0", text="*", colour="#000000")
    elif code == WITHHELD:
        item.update(fill="#f0f0f0", text="?", colour="#606060")
    else:
        item.update(fill="#f0f0f0", text=str(code) if code else "", colour=_CLUE_COLOURS[code])
    return item


def _covered_item(position, cell: int, analysis, probabilities, certain: tuple[set, set]) -> dict:
    """How a covered cell of an analysis is drawn: shaded by its mine chance, marked when it is certain
    (``certain``: the safe cells and the mines), its chance on hover, and a ~ on it where the chance is an
    estimate."""
    row, col = position.row_col(cell)
    p = float(probabilities[row, col])
    safe, mines = certain
    mark = "safe" if cell in safe else "mine" if cell in mines else None
    item = {"row": row, "col": col, "fill": shade(p), "text": "", "colour": "#000000", "mark": mark, "title": ""}
    estimated = cell in analysis.inexact_cells and mark is None
    item["title"] = f"({row}, {col}): ~{p:.4f} (an estimate)" if estimated else f"({row}, {col}): {p:.4f}"
    if estimated:  # drawn with a ~, so an estimate never passes for an exact chance
        item.update(text="~", colour="#333333")
    return item


def _outlines(position, analysis) -> list[tuple]:
    """The edges around each chain of influence, (colour, x1, y1, x2, y2) in cells, a colour a chain."""
    outlines = []
    for index, chain in enumerate(analysis.chains):
        members = set(chain.cells)
        colour = _OUTLINES[index % len(_OUTLINES)]
        for cell in members:
            row, col = position.row_col(cell)
            for dr, dc, edge in ((-1, 0, (0, 0, 1, 0)), (1, 0, (0, 1, 1, 1)), (0, -1, (0, 0, 0, 1)), (0, 1, (1, 0, 1, 1))):
                r, c = row + dr, col + dc
                inside = 0 <= r < position.height and 0 <= c < position.width and r * position.width + c in members
                if not inside:
                    outlines.append((colour, col + edge[0], row + edge[1], col + edge[2], row + edge[3]))
    return outlines


def render_svg(subject, *, chains: bool = False, components: bool = False, cell_size: int = 22) -> str:
    """An SVG picture of a Position or an Analysis (what ``_repr_svg_`` shows in a notebook): the board
    with numbered rows and columns, and for an analysis a colour scale and a legend beneath it; the
    chains of influence outlined with ``chains`` (``components``: its earlier name).

    >>> from cspmines import Position
    >>> svg = render_svg(Position.from_string("3x2x1\\n1..\\n..."), cell_size=20)
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="80" height="60"'), svg.count("<rect")
    (True, 6)
    """
    drawn = scene(subject, chains=chains or components)
    s = cell_size
    analysed = hasattr(subject, "probabilities")
    left, top = s, s  # room for the row and column numbers
    width = max(left + drawn["width"] * s, 11 * s) if analysed else left + drawn["width"] * s
    lines = _note_lines(legend_note(drawn), width - left - s * 0.2, s * 0.42) if analysed else []
    legend = (2 + 0.5 * max(0, len(lines) - 1)) * s if analysed else 0
    height = top + drawn["height"] * s + legend
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-weight="bold">'
    ]
    small = f'font-size="{s * 0.45:.0f}" fill="#555555" text-anchor="middle"'
    for col in range(drawn["width"]):
        parts.append(f'<text x="{left + col * s + s / 2}" y="{top - s * 0.3:.1f}" {small}>{col}</text>')
    for row in range(drawn["height"]):
        parts.append(f'<text x="{left / 2}" y="{top + row * s + s * 0.65:.1f}" {small}>{row}</text>')
    for item in drawn["cells"]:
        x, y = left + item["col"] * s, top + item["row"] * s
        title = f"<title>{escape(item['title'])}</title>" if item["title"] else ""
        parts.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{item["fill"]}" stroke="#ffffff" stroke-width="1">{title}</rect>')
        text, colour = item["text"], item["colour"]
        if item["mark"]:
            text, colour = ("S" if item["mark"] == "safe" else "M"), "#ffffff"
        if text:
            parts.append(
                f'<text x="{x + s / 2}" y="{y + s * 0.72}" font-size="{s * 0.6:.0f}" text-anchor="middle" fill="{colour}">{escape(text)}</text>'
            )
    for colour, x1, y1, x2, y2 in drawn["outlines"]:
        parts.append(f'<line x1="{left + x1 * s}" y1="{top + y1 * s}" x2="{left + x2 * s}" y2="{top + y2 * s}" stroke="{colour}" stroke-width="3"/>')
    if analysed:
        parts.append(_svg_legend(s, top + drawn["height"] * s + s * 0.3, left, lines))
    parts.append("</svg>")
    return "".join(parts)


def legend_note(drawn: dict) -> str:
    """What the letters, marks and outlines of a picture mean."""
    return ("mine chance; S proved safe, M proved mine" + ("; ~ an estimate (not exact)" if drawn.get("estimated") else "")
            + ("; outlines: chains of influence" if drawn["outlines"] else ""))


def _note_lines(note: str, width: float, font: float) -> list[str]:
    """The note in lines that fit ``width`` pixels at ``font`` size (a bold sans-serif letter is ~0.6 em),
    broken between its clauses where it can, so that no clause is split across lines.

    >>> _note_lines("mine chance; S proved safe, M proved mine", 220, 9)
    ['mine chance;', 'S proved safe, M proved mine']
    """
    import textwrap

    most = max(12, int(width / (0.6 * font)))
    lines: list[str] = []
    for clause in note.split("; "):
        clause_lines = textwrap.wrap(clause, most)
        if lines and len(lines[-1]) + 2 + len(clause) <= most:
            lines[-1] += "; " + clause
        else:
            if lines:
                lines[-1] += ";"
            lines.extend(clause_lines)
    return lines


def _svg_legend(s: int, y: float, x: float, lines: list) -> str:
    """The colour scale (mine chance 0% to 100%) and what the letters and outlines mean, in ``lines``."""
    steps = 10
    parts: list[str] = []
    for i in range(steps):
        parts.append(f'<rect x="{x + i * s * 0.8:.1f}" y="{y:.1f}" width="{s * 0.8:.1f}" height="{s * 0.5:.1f}" fill="{shade((i + 0.5) / steps)}"/>')
    label = f'font-size="{s * 0.42:.0f}" fill="#333333"'
    parts.append(f'<text x="{x}" y="{y + s * 1.05:.1f}" {label}>0%</text>')
    parts.append(f'<text x="{x + steps * s * 0.8:.1f}" y="{y + s * 1.05:.1f}" {label} text-anchor="end">100%</text>')
    for k, line in enumerate(lines):
        parts.append(f'<text x="{x}" y="{y + s * (1.55 + 0.5 * k):.1f}" {label}>{escape(line)}</text>')
    return "".join(parts)
