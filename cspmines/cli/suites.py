"""The benchmark commands: ``bench`` (suites and sweeps of agents) and ``chains`` (chains of influence)."""

from __future__ import annotations

import json
import sys

__all__ = ["run_bench", "run_chains", "run_compare", "run_study", "results_text"]


def _floats(text: str, what: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{what} must be comma-separated numbers, got {text!r}") from None


def _sweep_points(args, suite) -> list:
    """The (x, suite) points of --density-sweep or --size-sweep (empty without either)."""
    from ..bench import sweep_suites

    return sweep_suites(
        suite,
        densities=_floats(args.density_sweep, "--density-sweep") if args.density_sweep else None,
        sizes=[int(x) for x in _floats(args.size_sweep, "--size-sweep")] if args.size_sweep else None,
        density=args.density,
    )


def _check_boards(points, memory) -> None:
    """Refuse, before any game, a sweep with a point whose board is too large for ``--memory``."""
    from ..engine.question import check_board_size

    for _, suite in points:
        check_board_size(suite.width, suite.height, memory)


def _write_results_csv(path: str, rows: list) -> None:
    """The results table of ``bench`` (one row an agent, and a point of a sweep), its interval as two numbers."""
    _write_csv(path, [{**row, "ci95": " ".join(f"{v:.4f}" for v in row["ci95"])} for row in rows])


def _write_csv(path: str, rows: list) -> None:
    import csv

    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def run_bench(args, out) -> int:
    from dataclasses import replace

    from ..agents.external import table_name
    from ..bench import Suite, run_suite
    from ..bench.compare import paired_table
    from ..bench.judged import judged_tables
    from ..present.plots import plot_summary

    size = args.size or args.preset or "expert"
    suite = Suite.create(
        agents=args.agent or ["exact"],
        size=size,
        rules=args.rules,
        withheld=args.withheld,
        first_click=args.first_click,
        games=args.games,
        seed=args.seed,
        move_timeout=args.move_timeout,
    )
    names = tuple(table_name(spec) for spec in suite.agents)  # a command's player goes by the name it gave
    if args.against is not None:
        args.against = _against_name(args.against, suite.agents, names)
    progress = False if args.quiet else None
    options = dict(workers=args.workers, executor=args.executor, address=args.address, progress=progress, judge=args.judge,
                   memory=args.memory)
    if args.density_sweep or args.size_sweep:
        return _run_sweep(args, suite, names, options, out)
    result = run_suite(suite, out=args.out, resume=args.resume, **options)
    suite = replace(suite, agents=names)  # played as specs, shown by name from here on
    asked = [row for row in result.summary if row["agent"] in suite.agents]  # --resume may hold other agents' games
    paired = paired_table(result.records, against=args.against, agents=suite.agents)
    judged = judged_tables([r for r in result.records if r["agent"] in suite.agents], against=args.against, agents=suite.agents)
    _print_results(asked, paired, result.seconds, result.played_now, args, out, judged)
    if args.csv and asked:
        _write_results_csv(args.csv, asked)
    if args.plot and asked:
        plot_summary(asked, args.plot)
    if result.interrupted:
        print(f"cspmines: interrupted; {len(result.records)} games are in the results", file=sys.stderr)
        return 130
    return _went_wrong(asked)


#: The exit status of a bench where every game of some player went wrong: its table says nothing of its play.
WENT_WRONG = 1


def _went_wrong(rows: list) -> int:
    """:data:`WENT_WRONG`, each such player said on standard error, when every game of a player failed or was
    lost by its fault (over every point of a sweep); else 0."""
    totals: dict = {}
    for row in rows:
        failed, faults, games = totals.get(row["agent"], (0, 0, 0))
        totals[row["agent"]] = (failed + row["errors"] - row["faults"], faults + row["faults"], games + row["games"])
    wrong = [(agent, failed, faults) for agent, (failed, faults, games) in totals.items() if faults == games and failed + faults]
    for agent, failed, faults in wrong:
        how = ", ".join(part for part in (f"{failed} failed" if failed else "", f"{faults} lost by a fault" if faults else "") if part)
        print(f"cspmines: error: every game of {agent} went wrong ({how}): its results say nothing of its play", file=sys.stderr)
    return WENT_WRONG if wrong else 0


def _against_name(against: str, specs: tuple, names: tuple) -> str:
    """The table name of the player ``--against`` names (by its spec or its name), checked to be one of them."""
    if against not in specs and against not in names:
        raise ValueError(f"--against {against}: name one of the --agent players ({', '.join(names)})")
    return names[specs.index(against)] if against in specs else against


def _run_sweep(args, suite, names: tuple, options: dict, out) -> int:
    """``bench --density-sweep`` or ``--size-sweep``: ``suite`` played at each point of the sweep (its agents
    as specs), the tables shown with each point's x and the agents by their ``names``."""
    from ..bench import run_suite
    from ..bench.compare import paired_table
    from ..bench.judged import judged_tables
    from ..present.plots import plot_sweep

    if args.out or args.resume:
        raise ValueError("--out and --resume go with a single suite, not a sweep")
    points = _sweep_points(args, suite)
    _check_boards(points, args.memory)
    x_label = "mine density" if args.density_sweep else "cells (grid area)"
    rows: list[dict] = []
    paired: list[dict] = []
    swept: dict = {"results": [], "paired": []}  # the judged tables, each point's rows with its x
    seconds, played = 0.0, 0
    for x, point in points:
        result = run_suite(point, **options)
        seconds += result.seconds
        played += result.played_now
        rows.extend({"x": x, **row} for row in result.summary)
        paired.extend({"x": x, **row} for row in paired_table(result.records, against=args.against, agents=names))
        for key, found in (judged_tables(result.records, against=args.against, agents=names) or {}).items():
            swept[key].extend({"x": x, **row} for row in found)
        if result.interrupted:
            break
    if args.csv:
        _write_results_csv(args.csv, rows)
    _print_results(rows, paired, seconds, played, args, out, swept if swept["results"] else None)
    if args.plot:
        plot_sweep(rows, args.plot, x_label=x_label, paired=paired)
    return _went_wrong(rows)


def run_compare(args, out) -> int:
    from ..bench import summarize
    from ..bench.compare import baseline_text, paired_table, paired_text, read_result_files
    from ..bench.judged import judged_tables, judged_text

    records = read_result_files(args.files)  # each file's agents in its bench's order: the first is the baseline
    rows = summarize(records)
    paired = paired_table(records, against=args.against)
    judged = judged_tables(records, against=args.against)
    baseline = baseline_text(records, paired, args.against)
    if args.csv:
        if not paired:
            raise ValueError("--csv: nothing to pair: the files hold the games of one agent")
        _write_csv(args.csv, [{**row, "ci95": " ".join(f"{v:.6f}" for v in row["ci95"])} for row in paired])
    if args.json:
        base = args.against or (paired[0]["against"] if paired else rows[0]["agent"])
        json.dump({"results": rows, "baseline": base, "paired": paired, **({"judged": judged} if judged else {})}, out)
        out.write("\n")
        return 0
    out.write(results_text(rows, rows[0]["rules"]) + "\n")
    if paired:
        out.write(baseline + "\n" + paired_text(paired) + "\n")
    else:
        out.write("nothing to pair: the files hold the games of one agent\n")
    if judged:
        out.write(judged_text(judged) + "\n")
    return 0


def run_study(args, out) -> int:
    import shlex
    from pathlib import Path

    from ..studies import read_study, write_report
    from ..studies import run_study as play_study
    from ..studies.report import suite_text

    study = read_study(args.file)
    folder = Path(args.out)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {args.out}: a file is there, not a folder")
    result = play_study(study, folder, workers=args.workers, executor=args.executor, address=args.address,
                        progress=False if args.quiet else None)
    records = list(result.records)
    if result.interrupted:
        print(f"cspmines: interrupted; {len(records)} games are kept in {folder}: run the same command to go on",
              file=sys.stderr)
        return 130
    written = write_report(study, records, folder, command=f"cspmines study {shlex.quote(args.file)} --out {shlex.quote(args.out)}")
    for suite in study.suites:
        out.write(suite_text(suite, records) + "\n\n")
    out.write(f"{len(records)} games ({result.played_now} played now, {result.seconds:.1f} s); wrote {folder / 'results.jsonl'}, "
              + ", ".join(str(path) for path in written) + "\n")
    return 0


def run_chains(args, out) -> int:
    from ..bench import Suite, run_suite
    from ..studies.chains import chain_game, plot_chains, summarize_chains

    suite = Suite.create(
        agents=["exact"], size=args.size or args.preset or "expert", first_click=args.first_click, games=args.games, seed=args.seed
    )
    points = _sweep_points(args, suite) or [(suite.mines / (suite.width * suite.height), suite)]
    _check_boards(points, args.memory)
    records: list[dict] = []
    summary: list[dict] = []
    seconds = 0.0
    for x, point in points:
        result = run_suite(point, workers=args.workers, progress=False if args.quiet else None, task=chain_game,
                           memory=args.memory)
        records.extend(result.records)
        seconds += result.seconds
        summary.extend({"x": x, **row} for row in summarize_chains(result.records))
        if result.interrupted:
            break
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(record) + "\n")
    if args.csv:
        _write_csv(args.csv, summary)
    if args.plot:
        by_size = bool(args.size_sweep)
        plot_chains(summary, records, args.plot, x_key="x", x_label="cells (grid area)" if by_size else "mine density")
    if args.json:
        json.dump({"results": summary}, out)
        out.write("\n")
        return 0
    # one word a heading, so each reads as one column
    out.write(f"{_sweep_label(args) if len(points) > 1 else 'density':>7} {'board':>9} {'games':>6} {'positions':>9} {'chains':>7} {'mean-len':>8} {'longest':>8} "
              f"{'max-len':>7} {'mean-width':>10} {'max-width':>9} {'0-cuts':>7} {'median-ms':>9} {'max-ms':>8}\n")
    for s in summary:
        out.write(
            f"{s['x']:7g} {str(s['width']) + 'x' + str(s['height']) + 'x' + str(s['mines']):>9} {s['games']:6d} "
            f"{s['positions']:9d} {s['chains']:7d} {s['mean_length']:8.2f} {s['mean_longest_length_per_game']:8.2f} "
            f"{s['max_length']:7d} {s['mean_width']:10.2f} {s['max_width']:9d} {s['zero_cut_fraction']:7.3f} "
            f"{s['median_solve_ms']:9.3f} {s['max_solve_ms']:8.1f}\n"
        )
    out.write(f"{len(records)} games in {seconds:.1f} s\n")
    return 0


def _print_results(rows: list, paired: list, seconds: float, played: int, args, out, judged: dict | None = None) -> None:
    """The summary table, then the paired differences, then the judged tables when the games were judged
    (JSON: ``results``, ``paired`` and ``judged``)."""
    if args.json:
        json.dump({"results": rows, "paired": paired, **({"judged": judged} if judged else {})}, out)
        out.write("\n")
        return
    from ..bench.compare import paired_text
    from ..bench.judged import judged_text
    from ..present.plots import measure_of

    out.write(results_text(rows, args.rules, sweep_label=_sweep_label(args)) + "\n")
    if paired:
        out.write(paired_text(paired, x_label=_sweep_label(args) if "x" in paired[0] else None) + "\n")
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
    if rules == "classic":
        head = f"{'win rate':>9} {'95% interval':>15}"
        measure = lambda r: (f"{fmt(r['win_rate'], '.2%'):>9} {r['ci95'][0]:7.2%}-{r['ci95'][1]:<7.2%}")  # noqa: E731
    elif rules == "minesearch":
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


def _sweep_label(args) -> str:
    """The heading of a sweep's first column."""
    return "density" if getattr(args, "density_sweep", None) else "cells"
