"""Pictures of positions and analyses: SVG (drawn by :mod:`cspmines.drawing`, what they show in a notebook)
and PNG (drawn with matplotlib from the same scene). The one module to import pictures from.

>>> from cspmines import Position, solve
>>> svg = render_svg(solve(Position.from_string("3x1x1\\n.1.")), chains=True)
>>> svg.startswith("<svg") and svg.count("<rect") >= 3
True
"""

from __future__ import annotations

from ..drawing import legend_note, render_svg, scene, shade

__all__ = ["render_svg", "render_png", "scene"]


def render_png(subject, path, *, chains: bool = False, components: bool = False, cell_size: int = 22) -> None:
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
    from matplotlib.colors import LinearSegmentedColormap
    from matplotlib.patches import Rectangle

    drawn = scene(subject, chains=chains or components)
    analysed = hasattr(subject, "probabilities")
    dpi = 100
    figure = plt.figure(figsize=(max(drawn["width"] + 2, 18 if analysed else 0) * cell_size / dpi, (drawn["height"] + (4 if analysed else 2)) * cell_size / dpi), dpi=dpi)
    axes = figure.add_axes((0.08, 0.2 if analysed else 0.05, 0.9, 0.72 if analysed else 0.9))
    axes.set_xlim(0, drawn["width"])
    axes.set_ylim(drawn["height"], 0)
    axes.set_aspect("equal", anchor="W")  # square cells, whatever room the legend takes
    axes.set_xticks([c + 0.5 for c in range(drawn["width"])], [str(c) for c in range(drawn["width"])], fontsize=6)
    axes.set_yticks([r + 0.5 for r in range(drawn["height"])], [str(r) for r in range(drawn["height"])], fontsize=6)
    axes.xaxis.tick_top()
    axes.tick_params(length=0)
    for spine in axes.spines.values():
        spine.set_visible(False)
    font = cell_size * 0.6 * 72 / dpi
    for item in drawn["cells"]:
        x, y = item["col"], item["row"]
        axes.add_patch(Rectangle((x, y), 1, 1, facecolor=item["fill"], edgecolor="#ffffff", linewidth=0.7))
        text, colour = item["text"], item["colour"]
        if item["mark"]:
            text, colour = ("S" if item["mark"] == "safe" else "M"), "#ffffff"
        if text:
            axes.text(x + 0.5, y + 0.55, text, ha="center", va="center", color=colour, fontsize=font, fontweight="bold")
    for colour, x1, y1, x2, y2 in drawn["outlines"]:
        axes.plot([x1, x2], [y1, y2], color=colour, linewidth=2.5)
    if analysed:
        scale = LinearSegmentedColormap.from_list("mine chance", [shade(i / 10) for i in range(11)])
        bar = figure.add_axes((0.08, 0.1, 0.5, 0.035))
        figure.colorbar(matplotlib.cm.ScalarMappable(cmap=scale), cax=bar, orientation="horizontal", ticks=[0, 0.5, 1])
        bar.set_xticklabels(["0%", "50%", "100%"], fontsize=6)
        figure.text(0.02, 0.015, legend_note(drawn), fontsize=5.5, va="bottom", wrap=True)
    figure.savefig(path, dpi=dpi)
    plt.close(figure)
