"""What the suite commands (``bench``, ``compare``, ``chains``) share: their sweeps, their tables and their CSV files."""

from __future__ import annotations

import json

from ..actions import Rules

__all__ = ["check_boards", "print_results", "results_text", "sweep_label", "sweep_points", "write_csv", "write_results_csv"]


def _floats(text: str, what: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{what} must be comma-separated numbers, got {text!r}") from None


def sweep_points(args, suite) -> list:
    """The (x, suite) points of --density-sweep or --size-sweep (empty without either)."""
    from ..bench import sweep_suites

    return sweep_suites(
        suite,
        densities=_floats(args.density_sweep, "--density-sweep") if args.density_sweep else None,
        sizes=[int(x) for x in _floats(args.size_sweep, "--size-sweep")] if args.size_sweep else None,
        density=args.density,
    )


def check_boards(points, memory) -> None:
    """Refuse, before any game, a sweep with a point whose board is too large for ``--memory``."""
    from ..engine.budget import check_board_size

    for _, suite in points:
        check_board_size(suite.width, suite.height, memory)


def write_results_csv(path: str, rows: list) -> None:
    """The results table of ``bench`` (one row an agent, and a point of a sweep), its interval as two numbers."""
    write_csv(path, [{**row, "ci95": " ".join(f"{v:.4f}" for v in row["ci95"])} for row in rows])


def write_csv(path: str, rows: list) -> None:
    import csv

    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def print_results(rows: list, paired: list, seconds: float, played: int, args, out, judged: dict | None = None) -> None:
    """The summary table, then the paired differences, then the judged tables when the games were judged
    (JSON: ``results``, ``paired`` and ``judged``)."""
    if args.json:
        json.dump({"results": rows, "paired": paired, **({"judged": judged} if judged else {})}, out)
        out.write("\n")
        return
    from ..bench.compare import paired_text
    from ..bench.judged import judged_text
    from ..present.plots import measure_of

    out.write(results_text(rows, args.rules, sweep_label=sweep_label(args)) + "\n")
    if paired:
        out.write(paired_text(paired, x_label=sweep_label(args) if "x" in paired[0] else None) + "\n")
    if judged:
        out.write(judged_text(judged) + "\n")
    games_per_second = played / seconds if seconds else 0.0
    workers = f"{args.workers} worker" + ("" if args.workers == 1 else "s")
    out.write(f"{played} games in {seconds:.1f} s: {games_per_second:.1f} games/s ({workers}, {args.executor}); "
              f"measure: {measure_of(args.rules)[1]}\n")


def results_text(rows: list, rules: str, *, sweep_label: str = "") -> str:
    """The summary table: the rule's own measure first (classic: win rate and its interval; minesearch:
    the fraction of cells opened; score: the share of mines flagged), then guesses and time."""
    fmt = lambda v, f: "-" if v is None else format(v, f)  # noqa: E731
    if rules == Rules.CLASSIC:
        head = f"{'win rate':>9} {'95% interval':>15}"
        measure = lambda r: (f"{fmt(r['win_rate'], '.2%'):>9} {r['ci95'][0]:7.2%}-{r['ci95'][1]:<7.2%}")  # noqa: E731
    elif rules == Rules.MINESEARCH:
        head = f"{'opened':>7}"
        measure = lambda r: f"{fmt(r['mean_opened_fraction'], '.4f'):>7}"  # noqa: E731
    else:
        head = f"{'score':>7}"
        measure = lambda r: f"{fmt(r['mean_score'], '.4f'):>7}"  # noqa: E731
    sweep = f"{sweep_label:>8} " if rows and "x" in rows[0] else ""
    lines = [sweep + f"{'agent':>15} {'games':>6} {head} {'guesses':>8} {'ms/game':>9} {'ms/move':>8} {'errors':>6}"]
    for r in rows:
        x = f"{r['x']:8g} " if "x" in r else ""
        lines.append(
            x + f"{r['agent']:>15} {r['games']:6d} {measure(r)} {fmt(r['mean_guesses'], '.2f'):>8} "
            f"{fmt(r['mean_seconds_per_game'] and r['mean_seconds_per_game'] * 1e3, '.2f'):>9} "
            f"{fmt(r['mean_seconds_per_move'] and r['mean_seconds_per_move'] * 1e3, '.3f'):>8} {r['errors']:6d}"
        )
    return "\n".join(lines)


def sweep_label(args) -> str:
    """The heading of a sweep's first column."""
    return "density" if getattr(args, "density_sweep", None) else "cells"

