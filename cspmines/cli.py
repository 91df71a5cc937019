"""The ``cspmines`` command line: a thin layer over the Python API.

Exit status: 0 on success, 2 on bad input (malformed or inconsistent
position, bad option), 130 when interrupted, 1 (silently) when the reader of
standard output goes away, as in ``cspmines solve ... | head``. Errors are
one line on standard error, never a traceback.

Examples
--------
>>> from importlib.resources import files
>>> example = files("cspmines") / "data" / "examples" / "tiny.txt"
>>> main(["solve", str(example), "--color", "never"])
 50  1  50
safe: none
mines: none
least risk: 0.5000 at 2 cell(s), first (0,0)
components: 1 (cells: 2)
0
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from . import __version__
from .backends import backend_names
from .errors import CspminesError, MissingTotalError
from .position import Position
from .render import analysis_json, board_text, summary_text
from .solver import solve

__all__ = ["main"]

BROKEN_PIPE = 1  # the exit status when standard output is closed under us (Python's own choice)


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cspmines", description="Exact Minesweeper analysis.")
    parser.add_argument("--version", action="version", version=f"cspmines {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    solve_cmd = commands.add_parser("solve", help="mine probabilities of a position file")
    solve_cmd.add_argument("file", help="position file in the shared text format, or - for standard input")
    solve_cmd.add_argument("--backend", default="auto", choices=backend_names())
    solve_cmd.add_argument("--mines", type=int, help="the mine total, overriding the file's header")
    solve_cmd.add_argument("--density", type=float, help="mine density when the total is unknown")
    solve_cmd.add_argument("--time-limit", type=float, help="seconds allowed for counting")
    solve_cmd.add_argument("--node-limit", type=int, help="work units allowed for counting")
    solve_cmd.add_argument("--exact", action="store_true", help="add the model count and exact fractions")
    solve_cmd.add_argument("--json", action="store_true", help="print JSON (schema in README)")
    solve_cmd.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    solve_cmd.add_argument("--svg", help="also write the picture as SVG here")
    solve_cmd.add_argument("--png", help="also write the picture as PNG here (needs matplotlib)")
    solve_cmd.add_argument("--outline", action="store_true", help="outline the components in the picture")

    sample = commands.add_parser("sample", help="mine layouts drawn uniformly from those a position allows")
    sample.add_argument("file", help="position file in the shared text format, or - for standard input")
    sample.add_argument("--count", type=int, default=1, help="how many layouts (default 1)")
    sample.add_argument("--seed", type=int, help="the same seed draws the same layouts")
    sample.add_argument("--mines", type=int, help="the mine total, overriding the file's header")
    sample.add_argument("--density", type=float, help="mine density when the total is unknown")
    sample.add_argument("--time-limit", type=float, help="seconds allowed; the layouts drawn by then are printed")
    sample.add_argument("--json", action="store_true", help="one board JSON object per line (as Board.from_json reads)")

    move = commands.add_parser("move", help="the move agents would make on a position, judged by the exact engine")
    move.add_argument("file", help="position file in the shared text format, or - for standard input")
    move.add_argument(
        "--agent", action="append", help="an agent, NAME or NAME:key=value,... (repeat for several; default exact)"
    )
    move.add_argument("--rules", choices=("classic", "minesearch", "score"), default="classic")
    move.add_argument("--seed", type=int, help="the agents' random seed (the same seed, the same moves)")
    move.add_argument("--mines", type=int, help="the mine total, overriding the file's header")
    move.add_argument("--explain", action="store_true", help="list the cells the exact agent's look-ahead weighed, with scores")
    move.add_argument("--json", action="store_true", help="print JSON (schema in README)")

    bench = commands.add_parser("bench", help="play seeded benchmark suites of agents")
    bench.add_argument("--agent", action="append", required=True, help="an agent, NAME or NAME:key=value,... (repeat for several)")
    board = bench.add_mutually_exclusive_group()
    board.add_argument("--preset", choices=("beginner", "intermediate", "expert"))
    board.add_argument("--size", help="WxHxM")
    bench.add_argument("--rules", choices=("classic", "minesearch", "score"), default="classic")
    bench.add_argument("--withheld", type=float, default=0.0, help="chance a clue is withheld")
    bench.add_argument("--first-click", choices=("safe", "opening", "unsafe"), default="safe")
    bench.add_argument("--games", type=int, default=100)
    bench.add_argument("--seed", type=int, default=0)
    bench.add_argument("--workers", type=int, default=1)
    bench.add_argument("--executor", choices=("process", "ray"), default="process")
    bench.add_argument("--address", help="Ray cluster address (none: a local instance)")
    bench.add_argument("--out", help="append each finished game to this JSONL file")
    bench.add_argument("--resume", action="store_true", help="skip the games already in --out")
    bench.add_argument("--json", action="store_true", help='print {"results": [...]} to standard output')
    bench.add_argument("--plot", help="save a figure here (PNG, SVG or PDF)")
    bench.add_argument("--quiet", action="store_true", help="no progress bar")
    bench.add_argument("--density-sweep", help="comma-separated mine densities on the chosen board size")
    bench.add_argument("--size-sweep", help="comma-separated side lengths of square boards")
    bench.add_argument("--density", type=float, default=0.15, help="mine density of a size sweep")
    bench.add_argument("--csv", help="save sweep results as CSV here")

    chains = commands.add_parser("chains", help="measure the chains of influence met in seeded games")
    size = chains.add_mutually_exclusive_group()
    size.add_argument("--preset", choices=("beginner", "intermediate", "expert"))
    size.add_argument("--size", help="WxHxM")
    chains.add_argument("--games", type=int, default=100)
    chains.add_argument("--seed", type=int, default=0)
    chains.add_argument("--first-click", choices=("safe", "opening", "unsafe"), default="safe")
    chains.add_argument("--workers", type=int, default=1)
    chains.add_argument("--density-sweep", help="comma-separated mine densities on the chosen board size")
    chains.add_argument("--size-sweep", help="comma-separated side lengths of square boards")
    chains.add_argument("--density", type=float, default=0.15, help="mine density of a size sweep")
    chains.add_argument("--json", action="store_true", help='print {"results": [...]} to standard output')
    chains.add_argument("--out", help="save every chain met, one JSON line per game, here")
    chains.add_argument("--csv", help="save the summary as CSV here")
    chains.add_argument("--plot", help="save the figure here")
    chains.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def _run_solve(args, out) -> int:
    position = Position.from_file(args.file)
    analysis = solve(
        position,
        backend=args.backend,
        mines=args.mines,
        density=args.density,
        time_limit=args.time_limit,
        node_limit=args.node_limit,
    )
    if args.svg:
        from .picture import render_svg

        with open(args.svg, "w", encoding="utf-8") as handle:
            handle.write(render_svg(analysis, components=args.outline))
    if args.png:
        from .picture import render_png

        render_png(analysis, args.png, components=args.outline)
    if args.json:
        json.dump(analysis_json(analysis, exact=args.exact), out)
        out.write("\n")
        return 0
    color = args.color == "always" or (args.color == "auto" and getattr(out, "isatty", lambda: False)())
    out.write(board_text(analysis, color=color) + "\n")
    out.write(summary_text(analysis, exact=args.exact) + "\n")
    return 0


def _run_sample(args, out) -> int:
    """Each layout as a whole board: the position format with mines as ``*``, or board JSON."""
    from .errors import BudgetExceededError
    from .games.board import Board
    from .sampling import sample_layouts

    position = Position.from_file(args.file)
    cut_short = None
    try:
        layouts = sample_layouts(
            position, args.count, seed=args.seed, mines=args.mines, density=args.density, time_limit=args.time_limit
        )
    except BudgetExceededError as error:
        layouts, cut_short = error.layouts or [], error
    for index, layout in enumerate(layouts):
        board = Board.from_layout(position.width, position.height, layout)
        if args.json:
            out.write(board.to_json() + "\n")
        else:
            out.write(("\n" if index else "") + str(board) + "\n")
    if cut_short is not None:
        print(f"cspmines: cut short: {cut_short}", file=sys.stderr)
    return 0


def _run_move(args, out) -> int:
    """Each agent's move, the chosen cell's exact chance of a mine, and the least chance on the board."""
    from .agents.advice import suggest

    position = Position.from_file(args.file)
    if args.mines is not None:
        position = position.with_mines(args.mines)
    if position.mines is None:  # agents play games, where the total is known: a density will not do
        print("cspmines: error: the position's mine total is unknown: pass --mines N", file=sys.stderr)
        return 2
    analysis = solve(position)
    suggestions = [
        suggest(position, spec, rules=args.rules, seed=args.seed, analysis=analysis, explain=args.explain)
        for spec in args.agent or ["exact"]
    ]
    least = suggestions[0].least
    at_least = analysis.cells_where(lambda p: p == least)
    if args.json:
        moves = [
            {
                "agent": s.agent,
                "action": s.action.kind,
                "cell": list(position.row_col(s.action.cell)),
                "certain": s.action.certain,
                "reason": s.reason,
                "mine_probability": float(s.mine_probability),
                "mine_fraction": str(s.mine_probability),
                **({"candidates": [_weighed(position, view, score) for view, score in s.candidates]} if args.explain else {}),
            }
            for s in suggestions
        ]
        summary = {"least_mine_probability": float(least), "least_mine_fraction": str(least)}
        json.dump({"schema": 1, "rules": args.rules, "moves": moves, **summary, "cells_at_least": len(at_least)}, out)
        out.write("\n")
        return 0
    width = max(len(s.agent) for s in suggestions)
    for s in suggestions:
        row, col = position.row_col(s.action.cell)
        line = f"{s.agent:<{width}}  {s.action.kind} ({row},{col})  mine chance {float(s.mine_probability):.4f} ({s.mine_probability})"
        if s.reason is not None:
            line += f"  {s.reason}"
        if not s.claim_holds:
            line += "  (claimed certain; the engine disagrees)"
        out.write(line + "\n")
        if s.candidates:
            out.write("    cell     safe  safe twice  progress  50/50  dead  score\n")
            for view, score in s.candidates:
                where = "({},{})".format(*position.row_col(view.cell))
                out.write(
                    f"    {where:<8} {view.safety:.4f}  {view.secondary:.4f}    {view.progress:.4f}    "
                    f"{view.influence:.2f}  {'yes' if view.dead else 'no ':<4} {score:.4f}\n"
                )
    out.write(f"least mine chance: {float(least):.4f} ({least}) at {len(at_least)} cell(s)\n")
    return 0


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


def _floats(text: str, what: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{what} must be comma-separated numbers, got {text!r}") from None


def _sweep_points(args, suite) -> list:
    """The (x, suite) points of --density-sweep or --size-sweep (empty without either)."""
    from .bench import sweep_suites

    return sweep_suites(
        suite,
        densities=_floats(args.density_sweep, "--density-sweep") if args.density_sweep else None,
        sizes=[int(x) for x in _floats(args.size_sweep, "--size-sweep")] if args.size_sweep else None,
        density=args.density,
    )


def _write_csv(path: str, rows: list) -> None:
    import csv

    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _run_bench(args, out) -> int:
    from .bench import Suite, run_suite
    from .plots import plot_summary, plot_sweep

    size = args.size or args.preset or "expert"
    suite = Suite.create(
        agents=args.agent,
        size=size,
        rules=args.rules,
        withheld=args.withheld,
        first_click=args.first_click,
        games=args.games,
        seed=args.seed,
    )
    progress = False if args.quiet else None
    options = dict(workers=args.workers, executor=args.executor, address=args.address, progress=progress)
    if args.density_sweep or args.size_sweep:
        if args.out or args.resume:
            raise ValueError("--out and --resume go with a single suite, not a sweep")
        points = _sweep_points(args, suite)
        x_label = "mine density" if args.density_sweep else "cells (grid area)"
        rows: list[dict] = []
        seconds, played = 0.0, 0
        for x, point in points:
            result = run_suite(point, **options)
            seconds += result.seconds
            played += result.played_now
            rows.extend({"x": x, **row} for row in result.summary)
            if result.interrupted:
                break
        if args.csv:
            _write_csv(args.csv, [{**r, "ci95": " ".join(f"{v:.4f}" for v in r["ci95"])} for r in rows])
        if args.plot:
            plot_sweep(rows, args.plot, x_label=x_label)
        _print_results(rows, seconds, played, args, out)
        return 0
    result = run_suite(suite, out=args.out, resume=args.resume, **options)
    if args.plot and result.summary:
        plot_summary(result.summary, args.plot)
    _print_results(result.summary, result.seconds, result.played_now, args, out)
    if result.interrupted:
        print(f"cspmines: interrupted; {len(result.records)} games are in the results", file=sys.stderr)
        return 130
    return 0


def _run_chains(args, out) -> int:
    from .bench import Suite, run_suite
    from .chains import chain_game, plot_chains, summarize_chains

    suite = Suite.create(
        agents=["exact"], size=args.size or args.preset or "expert", first_click=args.first_click, games=args.games, seed=args.seed
    )
    points = _sweep_points(args, suite) or [(suite.mines / (suite.width * suite.height), suite)]
    records: list[dict] = []
    summary: list[dict] = []
    seconds = 0.0
    for x, point in points:
        result = run_suite(point, workers=args.workers, progress=False if args.quiet else None, task=chain_game)
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
    out.write(f"{'x':>7} {'board':>9} {'games':>6} {'positions':>9} {'chains':>7} {'mean len':>8} {'longest':>8} "
              f"{'max len':>7} {'mean width':>10} {'max width':>9} {'0-cuts':>7} {'median ms':>9} {'max ms':>8}\n")
    for s in summary:
        out.write(
            f"{s['x']:7g} {str(s['width']) + 'x' + str(s['height']) + 'x' + str(s['mines']):>9} {s['games']:6d} "
            f"{s['positions']:9d} {s['chains']:7d} {s['mean_length']:8.2f} {s['mean_longest_length_per_game']:8.2f} "
            f"{s['max_length']:7d} {s['mean_width']:10.2f} {s['max_width']:9d} {s['zero_cut_fraction']:7.3f} "
            f"{s['median_solve_ms']:9.3f} {s['max_solve_ms']:8.1f}\n"
        )
    out.write(f"{len(records)} games in {seconds:.1f} s\n")
    return 0


def _print_results(rows: list, seconds: float, played: int, args, out) -> None:
    if args.json:
        json.dump({"results": rows}, out)
        out.write("\n")
        return
    from .plots import measure_of

    key, label, _ = measure_of(args.rules)
    head = f"{'x':>8} " if rows and "x" in rows[0] else ""
    out.write(
        head + f"{'agent':>15} {'games':>6} {'win rate':>9} {'95% interval':>15} {'opened':>7} {'score':>6} "
        f"{'guesses':>8} {'ms/game':>9} {'ms/move':>8} {'errors':>6}\n"
    )
    for r in rows:
        x = f"{r['x']:8g} " if "x" in r else ""
        rate = "-" if r["win_rate"] is None else f"{r['win_rate']:.2%}"
        fmt = lambda v, f: "-" if v is None else format(v, f)  # noqa: E731
        out.write(
            x + f"{r['agent']:>15} {r['games']:6d} {rate:>9} {r['ci95'][0]:7.2%}-{r['ci95'][1]:<7.2%} "
            f"{fmt(r['mean_opened_fraction'], '.3f'):>7} {fmt(r['mean_score'], '.3f'):>6} {fmt(r['mean_guesses'], '.2f'):>8} "
            f"{fmt(r['mean_seconds_per_game'] and r['mean_seconds_per_game'] * 1e3, '.2f'):>9} "
            f"{fmt(r['mean_seconds_per_move'] and r['mean_seconds_per_move'] * 1e3, '.3f'):>8} {r['errors']:6d}\n"
        )
    games_per_second = played / seconds if seconds else 0.0
    out.write(f"{played} games in {seconds:.1f} s: {games_per_second:.1f} games/s ({args.workers} worker(s), {args.executor}); measure: {label}\n")


def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    parser = _build_parser()
    out = sys.stdout
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its usage message
        return int(exit_.code or 0)
    try:
        if args.command == "solve":
            return _run_solve(args, out)
        if args.command == "sample":
            return _run_sample(args, out)
        if args.command == "move":
            return _run_move(args, out)
        if args.command == "bench":
            return _run_bench(args, out)
        if args.command == "chains":
            return _run_chains(args, out)
    except MissingTotalError:  # the library's message names its keywords; here the options are what to pass
        print("cspmines: error: the position's mine total is unknown: pass --mines N or --density P", file=sys.stderr)
        return 2
    except (CspminesError, ValueError) as error:
        print(f"cspmines: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`cspmines solve ... | head`): nothing is wrong here
        return BROKEN_PIPE
    except OSError as error:
        print(f"cspmines: error: {error.strerror or error}: {getattr(error, 'filename', '')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cspmines: interrupted", file=sys.stderr)
        return 130
    parser.error(f"unknown command {args.command}")  # unreachable: argparse checks choices
    return 2


def entry_point() -> None:
    """The ``cspmines`` console script."""
    status = main()
    try:
        sys.stdout.flush()  # now, while a closed pipe can still be told from a real failure
    except BrokenPipeError:
        status = BROKEN_PIPE
    if status == BROKEN_PIPE:
        # Python flushes stdout once more on exit; aim it at the null device so that stays quiet too
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(status)


if __name__ == "__main__":
    entry_point()
