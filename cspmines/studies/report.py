"""A study's report: ``report.md`` with each suite's table and paired intervals, and its figures in PNG and SVG.

The report holds no timings, so the same games give the same report however
they were played (straight through or resumed, on processes or Ray).
"""

from __future__ import annotations

import importlib.util
import statistics
from pathlib import Path

from ..bench import mean_interval, summarize, wilson_interval
from ..bench.compare import in_points, measure_for, paired_table
from ..bench.judged import judged_tables
from .spec import Study, StudySuite

__all__ = ["REPORT", "SWEEP_HEADS", "suite_facts", "suite_rows", "suite_text", "write_report"]

REPORT = "report.md"
X_LABELS = {"density_sweep": "mine density", "size_sweep": "cells (grid area)", "mines_sweep": "mines",
            "withheld_sweep": "chance a clue is withheld"}


#: The head of a sweep's column in the command's tables: what the sweep varies.
SWEEP_HEADS = {"density_sweep": "density", "size_sweep": "size", "mines_sweep": "mines", "withheld_sweep": "withheld"}


def suite_measure(suite: StudySuite):
    """The suite's measure: its rules' own, and mines set off at every point when it withholds clues anywhere
    (seed 001's test compares p = 0 with p = 0.3 on that count)."""
    point = suite.points[0][1]
    return measure_for(point.rules, max(p.withheld for _, p in suite.points))


def suite_rows(suite: StudySuite, records: list) -> tuple[list, list]:
    """(one row per agent and point: its measure and 95% interval; the paired rows) of one suite's records."""
    rows: list = []
    paired: list = []
    measure = suite_measure(suite)
    for x, _point in suite.points:
        games = [r for r in records if r["suite"] == suite.name and r["x"] == x]
        for agent in suite.agents:
            played = [r for r in games if r["agent"] == agent and "error" not in r]
            values = [float(r[measure.field]) for r in played]
            if not values:
                continue
            if measure.proportion:
                mean = statistics.fmean(values)
                low, high = wilson_interval(sum(1 for v in values if v), len(values))
            else:  # a share or a count: the normal interval, cut to what the measure can be
                least, most = measure.mean_range
                mean, low, high = mean_interval(values, least=least, most=most)
            errors = sum(1 for r in games if r["agent"] == agent and "error" in r)
            rows.append({"x": x, "agent": agent, "games": len(values), "measure": measure.name, "value": mean,
                         "ci95": [low, high], "guesses": statistics.fmean(r["guesses"] for r in played), "errors": errors})
        paired.extend({"x": x, **row} for row in paired_table(games, against=suite.against, agents=suite.agents, measure=measure))
    return rows, paired


def _listed(values: list) -> str:
    """``4 and 5``, ``0.1, 0.2 and 0.3``; a long list by its ends, ``2 to 16 (15 points)``."""
    texts = [f"{value:g}" for value in values]
    if len(texts) > 4:
        return f"{texts[0]} to {texts[-1]} ({len(texts)} points)"
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]


def suite_facts(suite: StudySuite) -> str:
    """One line: the suite's rules, boards (with a sweep, what it varies), first click and measure.

    >>> from cspmines.studies.spec import parse_study
    >>> study = parse_study('[[suite]]\\nname = "a"\\nsize = "6x6"\\nagents = ["exact"]\\nmines_sweep = [2, 4]\\n')
    >>> suite_facts(study.suites[0])
    'classic rules, 6x6 with 2 and 4 mines, first click safe; measure: win rate (higher is better)'
    """
    point = suite.points[0][1]
    xs = [x for x, _ in suite.points]
    boards = f"{point.width}x{point.height} with {point.mines} mines"
    withheld = f", clues withheld with chance {point.withheld:g}" if point.withheld else ""
    if suite.sweep == "density_sweep":
        boards = f"{point.width}x{point.height} at mine densities {_listed(xs)}"
    elif suite.sweep == "size_sweep":
        boards = f"square boards of sides {_listed([p.width for _, p in suite.points])} at density {suite.density:g}"
    elif suite.sweep == "mines_sweep":
        boards = f"{point.width}x{point.height} with {_listed(xs)} mines"
    elif suite.sweep == "withheld_sweep":
        withheld = f", clues withheld with chance {_listed(xs)}"
    measure = suite_measure(suite)
    if point.no_guess:
        boards = f"no-guess boards ({boards}, drawn uniformly among those the first click solves)"
    return (f"{point.rules} rules, {boards}, first click {point.first_click}{withheld}; "
            f"measure: {measure.name} ({'higher' if measure.higher_is_better else 'lower'} is better)")


def suite_text(suite: StudySuite, records: list) -> str:
    """What ``cspmines study`` prints of a suite: its facts, each agent's measure with its 95% interval (at
    each point of a sweep, the column headed by what the sweep varies), then the paired differences."""
    from ..bench.compare import paired_text

    rows, paired = suite_rows(suite, records)
    measure = suite_measure(suite)
    head = SWEEP_HEADS.get(suite.sweep or "")
    shown = {x: f"{p.width}x{p.height}" if suite.sweep == "size_sweep" else x for x, p in suite.points}
    x_text = (lambda x: f"{shown[x]:>8} " if isinstance(shown[x], str) else f"{shown[x]:8g} ") if head else (lambda x: "")
    width = max(9, len(measure.name))
    lines = [suite.name, suite_facts(suite),
             (f"{head:>8} " if head else "") + f"{'agent':>15} {'games':>6} {measure.name:>{width}} {'95% interval':>17} "
             f"{'guesses':>8} {'errors':>6}"]
    for row in rows:
        low, high = (_value(v, measure.proportion) for v in row["ci95"])
        lines.append(x_text(row["x"]) + f"{row['agent']:>15} {row['games']:6d} {_value(row['value'], measure.proportion):>{width}} "
                     f"{low + ' .. ' + high:>17} {row['guesses']:8.2f} {row['errors']:6d}")
    if paired:
        lines.append(paired_text([{**row, "x": shown[row["x"]]} for row in paired], x_label=head))
    return "\n".join(lines)


def write_report(study: Study, records: list, folder, *, command: str = "") -> list[Path]:
    """Write ``report.md`` and each suite's figure into ``folder``; returns the files written."""
    folder = Path(folder)
    figures = importlib.util.find_spec("matplotlib") is not None
    lines = [f"# {study.title}", ""]
    if study.description:
        lines += [study.description.strip(), ""]
    lines += [f"{study.games} games a point unless a suite says otherwise, seed {study.seed}; every agent of a suite "
              "plays the same boards, and each is paired with the suite's first agent (or its `against`) board by board.",
              ""]
    if command:
        lines += [f"Made by `{command}`.", ""]
    written = []
    for suite in study.suites:
        rows, paired = suite_rows(suite, records)
        measure = suite_measure(suite)
        lines += [f"## {suite.name}", ""]
        if suite.note:
            lines += [suite.note.strip(), ""]
        lines += [suite_facts(suite) + ".", ""]
        x_head = f"{X_LABELS[suite.sweep]} | " if suite.sweep else ""
        x_rule = "--- | " if suite.sweep else ""
        lines += [f"| {x_head}agent | games | {measure.name} | 95% interval | guesses a game | errors |",
                  f"| {x_rule}--- | --- | --- | --- | --- | --- |"]
        for row in rows:
            x = f"{row['x']:g} | " if suite.sweep else ""
            lines.append(f"| {x}{row['agent']} | {row['games']:,} | {_value(row['value'], measure.proportion)} | "
                         f"{_value(row['ci95'][0], measure.proportion)} .. {_value(row['ci95'][1], measure.proportion)} | "
                         f"{row['guesses']:.2f} | {row['errors']} |")
        if paired:
            points = in_points(measure.name)  # a win rate's differences in points, as README gives them
            scale, digits, unit = (100, 2, " (points)") if points else (1, 4, "")
            lines += ["", f"Paired on the same boards, agent minus `{suite.against}`:", "",
                      f"| {x_head}agent | games | difference{unit} | 95% interval | better | worse |",
                      f"| {x_rule}--- | --- | --- | --- | --- | --- |"]
            for row in paired:
                x = f"{row['x']:g} | " if suite.sweep else ""
                low, high = (scale * value for value in row["ci95"])
                lines.append(f"| {x}{row['agent']} | {row['games']:,} | {scale * row['difference']:+.{digits}f} | "
                             f"{low:+.{digits}f} .. {high:+.{digits}f} | {row['better']:,} | {row['worse']:,} |")
        lines += _judged_lines(suite, records)
        if figures and rows:
            written.extend(_figures(suite, records, folder, paired))
            lines += ["", f"![{suite.name}]({suite.slug}.svg)"]
        lines.append("")
    if not figures:
        lines += ["(Figures need matplotlib: pip install 'cspmines[plot]'.)", ""]
    report = folder / REPORT
    report.write_text("\n".join(lines), encoding="utf-8")
    return [report, *written]


def _judged_lines(suite: StudySuite, records: list) -> list[str]:
    """The suite's judged figures (games played with ``judge``): each agent's means with their 95% intervals,
    then the pairs with the suite's ``against``, judged exactly on the same boards."""
    x_head, x_rule = (f"{X_LABELS[suite.sweep]} | ", "--- | ") if suite.sweep else ("", "")
    means: list = []
    pairs: list = []
    for x, _ in suite.points:
        tables = judged_tables([r for r in records if r["suite"] == suite.name and r["x"] == x and r["agent"] in suite.agents],
                               against=suite.against, agents=suite.agents)
        if tables:
            means += [(x, row) for row in tables["results"]]
            pairs += [(x, row) for row in tables["paired"]]
    if not means:
        return []
    lines = ["", "Judged by the engine before every open (a game's mean and its 95% interval; games judged "
             "under a cut budget are counted as not exact and left out). Loss is the winning chance given up to best "
             "play, over the valued games (every guess valued within the value budget); expected win, a game's win with "
             "the luck of its valued guesses taken out (minus its paired difference is that of the loss per game over "
             "every move); unvalued, a game's guesses not valued; valued, the share of guesses valued:", "",
             f"| {x_head}agent | games | not exact | guesses | needless | blunders | excess risk | survival | loss | expected win "
             "| valued games | unvalued | valued |",
             f"| {x_rule}--- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for x, row in means:
        cells = " | ".join(_mean_cell(row, figure)
                           for figure in ("guesses", "needless", "blunders", "excess_risk", "survival", "loss", "expected_win"))
        unvalued = "-" if row["unvalued"] is None else f"{row['unvalued']:.2f}"
        valued = "-" if row["valued_guesses"] is None else f"{row['valued_guesses']:.1%}"
        lines.append(f"| {_x(suite, x)}{row['agent']} | {row['games']:,} | {row['not_exact']:,} | {cells} | {row['valued_games']:,} | "
                     f"{unvalued} | {valued} |")
    if pairs:
        lines += ["", f"Judged, paired on the same boards, agent minus `{suite.against}`:", "",
                  f"| {x_head}measure | agent | games | difference | 95% interval | better | worse |",
                  f"| {x_rule}--- | --- | --- | --- | --- | --- | --- |"]
        for x, row in pairs:
            low, high = row["ci95"]
            lines.append(f"| {_x(suite, x)}{row['measure']} | {row['agent']} | {row['games']:,} | {row['difference']:+.4f} | "
                         f"{low:+.4f} .. {high:+.4f} | {row['better']:,} | {row['worse']:,} |")
    return lines


def _x(suite: StudySuite, x) -> str:
    return f"{x:g} | " if suite.sweep else ""


def _mean_cell(row: dict, figure: str) -> str:
    mean, (low, high) = row[figure], row[f"{figure}_ci95"]
    return "-" if mean is None else f"{mean:.4f} ({low:.4f} .. {high:.4f})"


def _value(value: float, proportion: bool) -> str:
    return f"{value:.2%}" if proportion else f"{value:.4f}"


def _figures(suite: StudySuite, records: list, folder: Path, paired: list) -> list[Path]:
    """The suite's figure as PNG and SVG: its measure (and paired differences, for a sweep) by point."""
    from ..present.plots import plot_summary, plot_sweep

    paths = []
    games = [r for r in records if r["suite"] == suite.name and r["agent"] in suite.agents and ("won" in r or "error" in r)]
    for extension in ("png", "svg"):
        path = folder / f"{suite.slug}.{extension}"
        if suite.sweep is None:
            plot_summary(summarize(games), path)
        else:
            rows = [{"x": x, **row} for x, _ in suite.points for row in summarize([r for r in games if r["x"] == x])]
            plot_sweep(rows, path, x_label=X_LABELS[suite.sweep], paired=paired)
        paths.append(path)
    return paths
