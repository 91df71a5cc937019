"""``cspmines chains``: the chains of influence met in seeded games, measured."""

from __future__ import annotations

import json
import os

from ..options import (
    Help,
    add_board_options,
)
from ..tables import check_boards, sweep_label, sweep_points, write_csv

__all__ = ["add_parser", "run"]

HELP = """\
The chains of influence the exact agent meets in seeded games: how long, how wide,
how costly to count. Each position of each game is solved again with its chains as
the clues give them and each chain measured, so a game costs about 0.35 s of CPU on
expert (0.5 s without the compiled kernels; a bench game, some 20 ms): start with
--games 20.

columns:
  density     the board's mine density, mines over cells
  cells       a size sweep's first column in its place: the board's cells
  board       width x height x mines
  games       games played
  positions   positions the exact agent met, each solved again
  chains      chains of influence counted in them (the chains as the clues
              give them, cells a single clue forces kept)
  mean-len    a chain's length, averaged: the diameter of its cell graph (cells
              joined when one clue covers both), how far influence travels
  longest     each game's longest chain, averaged over the games
  max-len     the longest chain met
  mean-width  a chain's width, averaged: the most clues open at once along its
              counting order (the count's cost grows with it)
  max-width   the widest chain met
  0-cuts      the share of positions cut in two by a full row or column of
              revealed 0s (0.250: one in four)
  median-ms   the time to count one chain, the median, in milliseconds
  max-ms      the time to count one chain, the most, in milliseconds

examples:
  cspmines chains --preset expert --games 20
  cspmines chains --size 16x16x40 --games 50 --plot chains.png
  cspmines chains --preset expert --density-sweep 0.1,0.15,0.2 --games 20 --csv chains.csv
"""


def add_parser(commands) -> None:
    """The ``chains`` command's options, and :func:`run` to run it."""
    chains = commands.add_parser("chains", help="measure the chains of influence met in seeded games",
                                 description=HELP, formatter_class=Help)
    add_board_options(chains, os.cpu_count() or 1)
    chains.add_argument("--json", action="store_true", help='print {"results": [...]} to standard output')
    chains.add_argument("--out", help="save every chain met, one JSON line per game, here")
    chains.add_argument("--csv", help="save the summary as CSV here")
    chains.add_argument("--plot", help="save the figure here (needs matplotlib)")
    chains.set_defaults(run=run)


def run(args, out) -> int:
    from ...bench import Suite, run_suite
    from ...engine.budget import Limit
    from ...studies.chains import chain_game, plot_chains, summarize_chains

    suite = Suite.create(
        agents=["exact"], size=args.size or args.preset or "expert", first_click=args.first_click, games=args.games, seed=args.seed
    )
    points = sweep_points(args, suite) or [(suite.mines / (suite.width * suite.height), suite)]
    check_boards(points, args.memory)
    records: list[dict] = []
    summary: list[dict] = []
    seconds = 0.0
    for x, point in points:
        result = run_suite(point, workers=args.workers, progress=False if args.quiet else None, task=chain_game,
                           limit=Limit(memory=args.memory))
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
        write_csv(args.csv, summary)
    if args.plot:
        by_size = bool(args.size_sweep)
        plot_chains(summary, records, args.plot, x_key="x", x_label="cells (grid area)" if by_size else "mine density")
    if args.json:
        json.dump({"results": summary}, out)
        out.write("\n")
        return 0
    # one word a heading, so each reads as one column
    out.write(f"{sweep_label(args) if len(points) > 1 else 'density':>7} {'board':>9} {'games':>6} {'positions':>9} {'chains':>7} {'mean-len':>8} {'longest':>8} "
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
