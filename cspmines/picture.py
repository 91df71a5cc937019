"""Pictures of positions and analyses: SVG (for notebooks and files) and PNG.

Covered cells are shaded from green (safe) to red (mine) by their mine
probability; certain cells carry a mark (a dot: safe, a cross: mine); clues,
flags, opened mines and withheld clues are drawn as a player sees them.
Components can be outlined, one colour each.

>>> from cspmines import Position, solve
>>> svg = render_svg(solve(Position.from_string("3x1x1\\n.1.")), components=True)
>>> svg.startswith("<svg") and svg.count("<rect") >= 3
True
"""

from __future__ import annotations

from html import escape

from .position import COVERED, FLAG, MINE, WITHHELD, Position

__all__ = ["render_svg", "render_png", "scene"]

_CLUE_COLOURS = ["#808080", "#1f3fbf", "#1a7f1a", "#c41e1e", "#1a1a7f", "#7f1a1a", "#1a7f7f", "#000000", "#606060"]
_OUTLINES = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"]


def _shade(p: float) -> str:
    """Green (0) through yellow (0.5) to red (1)."""
    p = min(1.0, max(0.0, p))
    red = int(60 + 195 * min(1.0, 2 * p))
    green = int(60 + 170 * min(1.0, 2 * (1 - p)))
    return f"#{red:02x}{green:02x}50"


def scene(subject, *, components: bool = False) -> dict:
    """What to draw, independent of the output format: cells with fill, text and mark;
    outline edges per component. ``subject`` is a Position or an Analysis.

    >>> from cspmines import Position, solve
    >>> drawn = scene(solve(Position.from_string("3x2x1\\n1..\\n...")), components=True)
    >>> drawn["cells"][2]["mark"], drawn["cells"][1]["title"], len(drawn["outlines"])   # one chain of 3 cells
    ('safe', '(0, 1): 0.3333', 8)
    """
    analysis = subject if hasattr(subject, "probabilities") else None
    position: Position = analysis.position if analysis is not None else subject
    probabilities = analysis.probabilities() if analysis is not None else None
    safe = set(analysis.safe_cells) if analysis else set()
    mines = set(analysis.mine_cells) if analysis else set()
    cells = []
    for cell in range(position.size):
        row, col = position.row_col(cell)
        code = position.code(cell)
        item = {"row": row, "col": col, "fill": "#d9d9d9", "text": "", "colour": "#000000", "mark": None, "title": ""}
        if code == COVERED:
            if probabilities is not None:
                p = float(probabilities[row, col])
                item["fill"] = _shade(p)
                item["title"] = f"({row}, {col}): {p:.4f}"
                item["mark"] = "safe" if cell in safe else "mine" if cell in mines else None
            else:
                item["fill"] = "#b0b0b0"
        elif code == FLAG:
            item.update(fill="#b0b0b0", text="F", colour="#c41e1e")
        elif code == MINE:
            item.update(fill="#f0f0f0", text="*", colour="#000000")
        elif code == WITHHELD:
            item.update(fill="#f0f0f0", text="?", colour="#606060")
        else:
            item.update(fill="#f0f0f0", text=str(code) if code else "", colour=_CLUE_COLOURS[code])
        cells.append(item)
    outlines = []
    if components and analysis is not None:
        for index, component in enumerate(analysis.components):
            members = set(component.cells)
            colour = _OUTLINES[index % len(_OUTLINES)]
            for cell in members:
                row, col = position.row_col(cell)
                for dr, dc, edge in ((-1, 0, (0, 0, 1, 0)), (1, 0, (0, 1, 1, 1)), (0, -1, (0, 0, 0, 1)), (0, 1, (1, 0, 1, 1))):
                    r, c = row + dr, col + dc
                    inside = 0 <= r < position.height and 0 <= c < position.width and r * position.width + c in members
                    if not inside:
                        outlines.append((colour, col + edge[0], row + edge[1], col + edge[2], row + edge[3]))
    return {"width": position.width, "height": position.height, "cells": cells, "outlines": outlines}


def render_svg(subject, *, components: bool = False, cell_size: int = 22) -> str:
    """An SVG picture of a Position or an Analysis (what ``_repr_svg_`` shows in a notebook).

    >>> from cspmines import Position
    >>> svg = render_svg(Position.from_string("3x2x1\\n1..\\n..."), cell_size=20)
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40"'), svg.count("<rect")
    (True, 6)
    """
    drawn = scene(subject, components=components)
    s = cell_size
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{drawn["width"] * s}" height="{drawn["height"] * s}" '
        f'viewBox="0 0 {drawn["width"] * s} {drawn["height"] * s}" font-family="sans-serif" font-weight="bold">'
    ]
    for item in drawn["cells"]:
        x, y = item["col"] * s, item["row"] * s
        title = f"<title>{escape(item['title'])}</title>" if item["title"] else ""
        parts.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{item["fill"]}" stroke="#ffffff" stroke-width="1">{title}</rect>')
        if item["text"]:
            parts.append(
                f'<text x="{x + s / 2}" y="{y + s * 0.72}" font-size="{s * 0.6:.0f}" text-anchor="middle" fill="{item["colour"]}">{escape(item["text"])}</text>'
            )
        if item["mark"] == "safe":
            parts.append(f'<circle cx="{x + s / 2}" cy="{y + s / 2}" r="{s * 0.18:.1f}" fill="#ffffff"/>')
        elif item["mark"] == "mine":
            a, b = s * 0.28, s * 0.72
            parts.append(
                f'<path d="M{x + a},{y + a} L{x + b},{y + b} M{x + b},{y + a} L{x + a},{y + b}" stroke="#ffffff" stroke-width="{s * 0.12:.1f}"/>'
            )
    for colour, x1, y1, x2, y2 in drawn["outlines"]:
        parts.append(f'<line x1="{x1 * s}" y1="{y1 * s}" x2="{x2 * s}" y2="{y2 * s}" stroke="{colour}" stroke-width="3"/>')
    parts.append("</svg>")
    return "".join(parts)


def render_png(subject, path, *, components: bool = False, cell_size: int = 22) -> None:
    """The same picture as :func:`render_svg`, drawn with matplotlib into a PNG file.

    >>> import os, tempfile
    >>> from cspmines import Position
    >>> path = os.path.join(tempfile.mkdtemp(), "p.png")
    >>> render_png(Position.from_string("3x1x1\\n.1."), path); open(path, "rb").read(4)
    b'\\x89PNG'
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    drawn = scene(subject, components=components)
    dpi = 100
    figure = plt.figure(figsize=(drawn["width"] * cell_size / dpi, drawn["height"] * cell_size / dpi), dpi=dpi)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, drawn["width"])
    axes.set_ylim(drawn["height"], 0)
    axes.axis("off")
    font = cell_size * 0.6 * 72 / dpi
    for item in drawn["cells"]:
        x, y = item["col"], item["row"]
        axes.add_patch(Rectangle((x, y), 1, 1, facecolor=item["fill"], edgecolor="#ffffff", linewidth=0.7))
        if item["text"]:
            axes.text(x + 0.5, y + 0.55, item["text"], ha="center", va="center", color=item["colour"], fontsize=font, fontweight="bold")
        if item["mark"] == "safe":
            axes.add_patch(matplotlib.patches.Circle((x + 0.5, y + 0.5), 0.18, color="#ffffff"))
        elif item["mark"] == "mine":
            axes.plot([x + 0.28, x + 0.72], [y + 0.28, y + 0.72], color="#ffffff", linewidth=2)
            axes.plot([x + 0.72, x + 0.28], [y + 0.28, y + 0.72], color="#ffffff", linewidth=2)
    for colour, x1, y1, x2, y2 in drawn["outlines"]:
        axes.plot([x1, x2], [y1, y2], color=colour, linewidth=2.5)
    figure.savefig(path, dpi=dpi)
    plt.close(figure)
