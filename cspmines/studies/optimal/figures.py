"""The optimal-play table's figures: best play's chance of winning against the mine density (a panel per
first-click rule, a line per board size, the exact agent's rate beside it), and each agent's gap to it.
Both need matplotlib (the ``plot`` extra).
"""

from __future__ import annotations

from .rates import AgentRate, gap
from .rules import FirstClickRule

__all__ = ["plot_gaps", "plot_values"]


def plot_values(optima, rates, path, *, agent: str = "exact") -> None:
    """Best play's chance of winning against the mine density: a panel per rule, a line per board size
    through the exact values (a board known only within bounds drawn as a bar between them), and ``agent``'s rate on the same
    boards, dashed, where it played."""
    from ...present.plots import _pyplot

    plt = _pyplot()
    sizes = sorted({(o.width, o.height) for o in optima})
    figure, axes = plt.subplots(1, len(FirstClickRule), figsize=(4.2 * len(FirstClickRule), 3.4), squeeze=False, sharey=True)
    by_key = {(r.agent, r.rule, r.width, r.height, r.mines): r for r in rates}
    for panel, rule in zip(axes[0], FirstClickRule, strict=True):
        for number, size in enumerate(sizes):
            color = f"C{number}"
            points = [(o.mines / (size[0] * size[1]), *(float(b) for b in o.rule(rule).bounds), by_key.get((agent, rule, *o.key)))
                      for o in optima if (o.width, o.height) == size]
            xs, lows, highs, played = zip(*points, strict=True)
            exact = [low if low == high else float("nan") for low, high in zip(lows, highs, strict=True)]  # bounds: a bar alone
            panel.plot(*_broken(xs, exact, 1 / (size[0] * size[1])), marker="o", markersize=3, color=color, label=f"{size[0]}x{size[1]} best play")
            spans = [(x, low, high) for x, low, high in zip(xs, lows, highs, strict=True) if high > low]
            if spans:
                panel.vlines(*zip(*spans, strict=True), color=color, linewidth=3, alpha=0.4)
            mine = [(x, float(rate.rate)) for x, rate in zip(xs, played, strict=True) if isinstance(rate, AgentRate)]
            if mine:
                at, rate_of = zip(*mine, strict=True)
                panel.plot(*_broken(at, rate_of, 1 / (size[0] * size[1])), linestyle="--", color=color, linewidth=1, label=f"{size[0]}x{size[1]} {agent}")
        panel.set_title(f"first click {rule}", fontsize=9)
        panel.set_xlabel("mine density")
        panel.set_ylim(0, 1.02)
    axes[0][0].set_ylabel("chance of winning")
    axes[0][0].legend(fontsize=7)
    figure.suptitle("best play's chance of winning a whole board", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def plot_gaps(optima, rates, agents, path) -> None:
    """Each agent's gap to the optimum against the density: a panel per rule (rows) and board size
    (columns), a line per agent; boards whose optimum is only bounded are left out, and an estimated
    rate's Wilson 95% interval is drawn as a bar."""
    from ...present.plots import _pyplot

    plt = _pyplot()
    sizes = sorted({(o.width, o.height) for o in optima if o.exact})
    rules = list(FirstClickRule)
    figure, axes = plt.subplots(len(rules), len(sizes), figsize=(4.2 * len(sizes), 3.0 * len(rules)), squeeze=False, sharey=True)
    by_key = {(r.agent, r.rule, r.width, r.height, r.mines): r for r in rates}
    for row, rule in enumerate(rules):
        for column, size in enumerate(sizes):
            panel = axes[row][column]
            for agent in agents:
                points = _gap_points(optima, by_key, agent, rule, size)
                if points:
                    xs, ys, errors = zip(*points, strict=True)
                    panel.errorbar(xs, ys, yerr=list(zip(*errors, strict=True)), marker="o", markersize=3, capsize=2, label=agent)
            panel.axhline(0.0, color="#888", linewidth=0.8)
            panel.set_title(f"{size[0]}x{size[1]}, first click {rule}", fontsize=9)
            panel.set_xlabel("mine density")
            if column == 0:
                panel.set_ylabel("gap to optimal (points)")
    labelled = next((panel for row in axes for panel in row if panel.get_legend_handles_labels()[0]), None)
    if labelled is not None:  # the first panel with an agent drawn (a rule may not have been played)
        labelled.legend(fontsize=7)
    figure.suptitle("agents' win rate minus best play's, on whole boards", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def _gap_points(optima, by_key: dict, agent: str, rule: FirstClickRule, size: tuple) -> list:
    """(density, gap, (below, above)) of an agent under a rule on boards of one size whose optimum is exact."""
    points = []
    for optimum in optima:
        rate = by_key.get((agent, rule, *optimum.key))
        if (optimum.width, optimum.height) != size or rate is None or not optimum.exact:
            continue
        value, (at, _) = optimum.rule(rule), gap(rate, optimum.rule(rule))
        low, high = rate.ci95 or (float(rate.rate), float(rate.rate))
        optimal = float(value.bounds[0])
        below, above = max(0.0, at - (low - optimal) * 100), max(0.0, (high - optimal) * 100 - at)  # not below 0 by rounding
        points.append((optimum.mines / (size[0] * size[1]), at, (below, above)))
    return points


def _broken(xs, ys, step: float) -> tuple[list, list]:
    """The points with a gap (NaN) wherever the next density is more than one mine on, so that no line is drawn
    across the counts not reached.

    >>> _broken([0.1, 0.2, 0.5], [3, 2, 1], 0.1)
    ([0.1, 0.2, nan, 0.5], [3, 2, nan, 1])
    """
    out_x, out_y = [], []
    for k, (x, y) in enumerate(zip(xs, ys, strict=True)):
        if k and x - xs[k - 1] > step * 1.5:
            out_x.append(float("nan"))
            out_y.append(float("nan"))
        out_x.append(x)
        out_y.append(y)
    return out_x, out_y
