"""Figures for benchmark results (matplotlib, imported only when a figure is asked for).

>>> summary = [{"agent": "exact", "rules": "classic", "win_rate": 0.9, "ci95": [0.8, 0.95], "games": 50}]
>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "s.png")
>>> plot_summary(summary, path); os.path.getsize(path) > 0
True
"""

from __future__ import annotations

from ..extras import install_hint

__all__ = ["title_of", "measure_of", "plot_summary", "plot_sweep"]

#: The measure each rule variant is judged by: (summary field, label, higher is better).
MEASURES = {
    "classic": ("win_rate", "win rate", True),
    "minesearch": ("mean_opened_fraction", "fraction of cells opened", False),
    "score": ("mean_score", "mean score (mines flagged / mines)", True),
}


def measure_of(rules: str) -> tuple[str, str, bool]:
    """(the summary field, its label, whether higher is better) that rule variant is judged by.

    >>> measure_of("minesearch")
    ('mean_opened_fraction', 'fraction of cells opened', False)
    """
    return MEASURES[rules]


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:  # pragma: no cover - matplotlib is in the bench and plot extras
        raise ImportError(f"figures need matplotlib: {install_hint('plot')}") from error
    return plt


def title_of(rows: list) -> str:
    """A figure's title: the rules, the board (or the sweep's boards), the first click and the games.

    >>> title_of([{"rules": "classic", "width": 30, "height": 16, "mines": 99, "first_click": "safe", "games": 500}])
    'classic on 30x16 with 99 mines, first click safe, 500 games per agent'
    >>> title_of([{"rules": "minesearch", "width": n, "height": n, "mines": n, "first_click": "safe", "games": 5, "x": n}
    ...           for n in (6, 10)])
    'minesearch on square boards, first click safe, 5 games a point'
    """
    first = rows[0]
    if len({(r.get("width"), r.get("height")) for r in rows}) > 1:
        board = "square boards"
    elif len({r.get("mines") for r in rows}) > 1:
        board = f"{first.get('width')}x{first.get('height')} boards"
    else:
        board = f"{first.get('width')}x{first.get('height')} with {first.get('mines')} mines"
    per = "a point" if "x" in first else "per agent"
    return f"{first['rules']} on {board}, first click {first.get('first_click')}, {first.get('games')} games {per}"


def plot_summary(summary: list, path) -> None:
    """One bar per agent: its measure, with the Wilson 95% interval for win rates."""
    plt = _pyplot()
    rules = summary[0]["rules"]
    key, label, _ = measure_of(rules)
    agents = [s["agent"] for s in summary]
    values = [s[key] or 0.0 for s in summary]
    figure, axes = plt.subplots(figsize=(max(4, 1.1 * len(agents)), 3.5))
    if key == "win_rate":
        low = [v - s["ci95"][0] for v, s in zip(values, summary, strict=True)]
        high = [s["ci95"][1] - v for v, s in zip(values, summary, strict=True)]
        axes.bar(agents, values, yerr=[low, high], capsize=4, color="#4c72b0")
    else:
        axes.bar(agents, values, color="#4c72b0")
    axes.set_ylabel(label)
    axes.set_title(title_of(summary), fontsize=9)
    axes.tick_params(axis="x", rotation=30)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def plot_sweep(rows: list, path, *, x_label: str, paired=None) -> None:
    """Panels against the sweep's x: each agent's measure, its seconds per game, and with ``paired``
    (rows of :func:`~cspmines.bench.compare.paired_table` carrying ``x``) each paired difference
    with its 95% band.

    >>> import os, tempfile
    >>> rows = [{"x": x, "agent": "a", "rules": "minesearch", "mean_opened_fraction": 0.5 + x,
    ...          "mean_seconds_per_game": 0.01} for x in (0.1, 0.2)]
    >>> path = os.path.join(tempfile.mkdtemp(), "sweep.png")
    >>> plot_sweep(rows, path, x_label="density"); os.path.getsize(path) > 0
    True
    """
    plt = _pyplot()
    key, label, _ = measure_of(rows[0]["rules"])
    panels = 3 if paired else 2
    figure, axes = plt.subplots(1, panels, figsize=(5 * panels, 3.8))
    left, right = axes[0], axes[1]
    for agent in dict.fromkeys(r["agent"] for r in rows):
        mine = sorted((r for r in rows if r["agent"] == agent), key=lambda r: r["x"])
        xs = [r["x"] for r in mine]
        left.plot(xs, [r[key] for r in mine], marker="o", label=agent)
        right.plot(xs, [r["mean_seconds_per_game"] for r in mine], marker="o", label=agent)
    left.set_xlabel(x_label)
    left.set_ylabel(label)
    right.set_xlabel(x_label)
    right.set_ylabel("seconds per game")
    right.set_yscale("log")
    left.legend(fontsize=8)
    if paired:
        _plot_paired(axes[2], paired, x_label)
    figure.suptitle(title_of(rows), fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def _plot_paired(axes, paired: list, x_label: str) -> None:
    """Each agent's paired difference from the other against x, its 95% interval as a band."""
    for (agent, against) in dict.fromkeys((r["agent"], r["against"]) for r in paired):
        mine = sorted((r for r in paired if r["agent"] == agent and r["against"] == against), key=lambda r: r["x"])
        xs = [r["x"] for r in mine]
        line, = axes.plot(xs, [r["difference"] for r in mine], marker="o", label=f"{agent} - {against}")
        axes.fill_between(xs, [r["ci95"][0] for r in mine], [r["ci95"][1] for r in mine], color=line.get_color(), alpha=0.2)
    axes.axhline(0.0, color="#888", linewidth=0.8)
    axes.set_xlabel(x_label)
    axes.set_ylabel(f"paired difference ({paired[0]['measure']})")
    axes.legend(fontsize=8)
