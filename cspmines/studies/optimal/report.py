"""The optimal-play table's report: a Markdown table of each board's optimum under each rule beside every
agent's rate and its gap to it, what each optimum cost, what was not reached and why, and the figures
(:mod:`~cspmines.studies.optimal.figures`).

A row's agent cell reads ``rate (gap)`` in percent and points: ``52.14 (-0.66)``; a rate that is an
estimate (a sample, or an agent that drew from its stream) carries the larger half of its Wilson 95%
interval, ``37.86±2.23 (-14.92)``; where the optimum is known only within bounds the gap is a range. Best
first cells are written by one cell of each group the board's symmetries make and the group's size:
``(0,1)x8`` is (0,1) and the 7 cells symmetric to it.

>>> from cspmines.studies.optimal.optimum import board_optimum
>>> from cspmines.studies.optimal.rates import agent_rate
>>> optimum = board_optimum(4, 4, 4)
>>> rates = [agent_rate("exact", 4, 4, 4, "corner")]
>>> print(markdown_rows([optimum], rates, ["exact"])[4])
| 4x4 | 4 | 0.250 | corner | 949/1365 | 69.52% | (0,0) by rule | 69.52 (+0.00) |
"""

from __future__ import annotations

from pathlib import Path

from .optimum import BoardOptimum, RuleValue
from .rates import AgentRate, gap
from .rules import FirstClickRule, distinct_cells

__all__ = ["cost_rows", "markdown_rows", "unreached_rows", "write_report"]


def markdown_rows(optima, rates, agents) -> list[str]:
    """The table's heading, its rule and a row per board, mine count and rule."""
    head = ["board", "mines", "density", "rule", "optimum", "%", "best first cells", *agents]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    by_key = {(r.agent, r.rule, r.width, r.height, r.mines): r for r in rates}
    for optimum in optima:
        for rule in FirstClickRule:
            value = optimum.rule(rule)
            cells = [_agent_cell(by_key.get((agent, rule, *optimum.key)), value) for agent in agents]
            lines.append(f"| {optimum.width}x{optimum.height} | {optimum.mines} | {optimum.mines / (optimum.width * optimum.height):.3f} "
                         f"| {rule} | {_fraction(value)} | {_percent(value)} | {_cells(optimum, value)} | {' | '.join(cells)} |")
    return lines


def cost_rows(optima) -> list[str]:
    """A row per board and mine count: its layouts, whether exact, the states searched, time and memory."""
    lines = ["| board | mines | layouts | exact | stopped by | states | CPU s | wall s | peak memory |", "|" + " --- |" * 9]
    for o in optima:
        memory = "-" if o.peak_memory is None else f"{o.peak_memory / 2**20:,.0f} MiB"
        lines.append(f"| {o.width}x{o.height} | {o.mines} | {o.rule(FirstClickRule.NONE).layouts:,} | {'yes' if o.exact else 'bounds'} "
                     f"| {o.stopped_by or '-'} | {o.states:,} | {o.cpu_seconds:,.2f} | {o.seconds:,.2f} | {memory} |")
    return lines


def unreached_rows(optima, left_out=()) -> list[str]:
    """A line for each board and mine count not reached exactly, and why: ``left_out`` as (width, height,
    mines, why) for those not computed (consecutive counts left out for the same reason on one line), then
    each optimum whose search stopped short, with the bounds it proved.

    >>> why = "not tried: a 6x6 board with {} mines has {} layouts, more than the 10 the budget lists"
    >>> unreached_rows([], [(6, 6, 7, why.format(7, 11)), (6, 6, 8, why.format(8, 12)), (6, 6, 10, "not computed")])
    ['* 6x6 with 7 to 8 mines: not tried: each has more layouts than the 10 the budget lists', '* 6x6 with 10 mines: not computed']
    """
    lines = []
    for width, height, first, last, why in _runs(left_out):
        counts = f"{first} mines" if first == last else f"{first} to {last} mines"
        lines.append(f"* {width}x{height} with {counts}: {why}")
    for o in optima:
        if not o.exact:
            value = o.rule(FirstClickRule.NONE)
            lines.append(f"* {o.width}x{o.height} with {o.mines} mines: stopped by {o.stopped_by} after {o.seconds:,.0f} s; best play "
                         f"wins {value.low:,} to {value.high:,} of {value.layouts:,} layouts (no first-click rule)")
    return lines


def _runs(left_out) -> list[tuple]:
    """``left_out`` as runs of consecutive counts of a board left out for the same reason (the layouts each has
    said once for all): (width, height, first, last, why)."""
    import re

    runs: list[list] = []
    for width, height, mines, why in left_out:
        shared = re.sub(r"a \S+ board with \d+ mines has [\d,]+ layouts, more", "each has more layouts", why)
        if runs and runs[-1][:2] == [width, height] and runs[-1][3] == mines - 1 and runs[-1][5] == shared:
            runs[-1][3], runs[-1][4] = mines, shared
        else:
            runs.append([width, height, mines, mines, why, shared])
    return [tuple(run[:5]) for run in runs]


def write_report(optima, rates, agents, folder, *, command: str = "", figure: bool = True, left_out=()) -> list[Path]:
    """``report.md`` and, with ``figure``, the figures in ``folder``: ``optimum.png`` and ``.svg`` (best play's chance
    against the density) and, where some optimum is exact and some agent played, ``gaps.png`` and ``.svg``; the
    paths written. ``left_out``: the counts not tried, as (width, height, mines, why) (:func:`unreached_rows`)."""
    folder = Path(folder)
    lines = ["# Optimal play on whole small boards", ""]
    if command:
        made = "Written, from the results already in the folder, by" if "--report-only" in command else "Made by"
        lines += [made, "", "```sh", command, "```", ""]
    lines += ["Best play's chance of winning the empty board (exact where the search finished within its budget), "
              "and each agent's win rate on the same boards under the same rule, with its gap to the optimum in "
              "points. " + _NOTATION, "", *markdown_rows(optima, rates, agents), "", "What each optimum cost:",
              "", *cost_rows(optima), ""]
    unreached = unreached_rows(optima, left_out)
    if unreached:
        lines += ["Not reached exactly within the budget:", "", *unreached, ""]
    report = folder / "report.md"
    report.write_text("\n".join(lines), encoding="utf-8")
    return [report, *(_figures(optima, rates, agents, folder) if figure and optima else [])]


def _figures(optima, rates, agents, folder: Path) -> list[Path]:
    from .figures import plot_gaps, plot_values

    written = []
    for extension in ("png", "svg"):
        plot_values(optima, rates, folder / f"optimum.{extension}")
        written.append(folder / f"optimum.{extension}")
    if any(o.exact for o in optima) and rates:
        for extension in ("png", "svg"):
            plot_gaps(optima, rates, agents, folder / f"gaps.{extension}")
            written.append(folder / f"gaps.{extension}")
    return written


_NOTATION = ("An agent's cell is `rate (gap)`; `±` gives the larger half of the Wilson 95% interval of a rate that is "
             "an estimate (a sample, or an agent that drew from its random stream); `(0,1)x8` is (0,1) and the cells "
             "symmetric to it.")


def _agent_cell(rate: AgentRate | None, value: RuleValue) -> str:
    if rate is None:
        return "-"
    shown = f"{float(rate.rate) * 100:.2f}"
    if rate.ci95 is not None:
        low, high = rate.ci95
        shown += f"±{max(float(rate.rate) - low, high - float(rate.rate)) * 100:.2f}"
    below, above = gap(rate, value)
    return f"{shown} ({below:+.2f})" if value.exact else f"{shown} ({below:+.2f}..{above:+.2f})"


def _fraction(value: RuleValue) -> str:
    return f"{value.low}/{value.layouts}" if value.exact else f"{value.low}..{value.high}/{value.layouts}"


def _percent(value: RuleValue) -> str:
    low, high = value.bounds
    return f"{float(low):.2%}" if value.exact else f"{float(low):.2%}..{float(high):.2%}"


def _cells(optimum: BoardOptimum, value: RuleValue) -> str:
    """The best first cells by group (see the module); ``any`` when every cell is."""
    if len(value.best_cells) == optimum.width * optimum.height:
        return "any"
    best = set(value.best_cells)
    shown = [f"({orbit[0] // optimum.width},{orbit[0] % optimum.width})x{len(orbit)}"
             for orbit in distinct_cells(optimum.width, optimum.height) if orbit[0] in best]
    return ", ".join(shown) if value.rule is not FirstClickRule.CORNER else "(0,0) by rule"

