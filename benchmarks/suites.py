"""Named benchmark suites, run through the same API as ``cspmines bench``.

Usage::

    python benchmarks/suites.py classic [--games 10000] [--workers 2] [--agent exact]
    python benchmarks/suites.py seeds [--games 1000] [--workers 2] [--only 004] [--points 484,900] [--out results/]
    python benchmarks/suites.py scaling [--games 400]

``classic``: the three presets under the conventions of the published win
rates, beside them. ``seeds``: each seed's own experiment at its own settings and
measure (seed 004's AI-0 and AI-1 and seed 000's Algorithms 1 and 2 under
minesearch over density and grid area, seed 001's score on 4x4 and its
withheld-clue test), the seed's agents and ``exact`` on the same boards,
with the exact agent's paired difference from the best baseline.
``scaling``: games per second of the process pool with 1 and 2 workers.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from cspmines.bench import Suite, run_suite

#: (preset, first click, published win rates)
CLASSIC = [
    ("beginner", "safe", "91.69% (Tu et al. PSEQ-D256)"),
    ("intermediate", "safe", "78.23% (Tu et al.)"),
    ("expert", "safe", "41.13% (Hill, 10M games); 40.05% (Tu et al.)"),
    ("expert", "opening", "54.3% (Hill); 53.45% (Tu et al.)"),
]


def classic(args) -> None:
    print(f"{'preset':>13} {'first click':>11} {'agent':>8} {'games':>7} {'win rate':>9} {'95% interval':>17} {'games/s':>8}  published")
    for preset, first_click, published in CLASSIC:
        suite = Suite.create(agents=[args.agent], size=preset, first_click=first_click, games=args.games, seed=args.seed)
        result = run_suite(suite, workers=args.workers, progress=args.progress)
        (row,) = result.summary
        low, high = row["ci95"]
        print(
            f"{preset:>13} {first_click:>11} {args.agent:>8} {row['games']:7d} {row['win_rate']:9.2%} "
            f"{low:8.2%}-{high:<8.2%} {result.games_per_second:8.1f}  {published}",
            flush=True,
        )


#: Seed 004 plays 6x6 to 30x30. Seed 000 names no sizes: its sweep stops at 18x18, where the
#: two algorithms' order is long settled.
SIZES = (6, 10, 14, 18, 22, 26, 30)
SIZES_000 = (6, 10, 14, 18)

#: Each seed's experiment at its own settings: (name, seed and its figure, rules, first click, agents, measure,
#: points as (x, size, withheld)). The measure is the seed's own: squares mined (minesearch) or the share of
#: mines identified (score), or mines set off (seed 001's withheld-clue test).
SEED_EXPERIMENTS = [
    ("004 density", "seed 004: AI-0 mined 33% of 10x10 at 10% (one game shown)", "minesearch", "random-safe",
     ["risk-score", "single-point"], "opened_fraction", [(d, f"10x10x{round(d * 100)}", 0.0) for d in (0.1, 0.2, 0.3, 0.4, 0.5)]),
    ("004 size", "seed 004: AI-0 below AI-1 at every grid area", "minesearch", "random-safe",
     ["risk-score", "single-point"], "opened_fraction", [(n * n, f"{n}x{n}x{round(0.1 * n * n)}", 0.0) for n in SIZES]),
    ("000 density", "seed 000: Algorithm 1 below Algorithm 2 (no figures given)", "minesearch", "highest",
     ["greedy", "partition"], "opened_fraction", [(d, f"10x10x{round(d * 100)}", 0.0) for d in (0.1, 0.2, 0.3, 0.4, 0.5)]),
    ("000 size", "seed 000: Algorithm 1 below Algorithm 2 at every size", "minesearch", "highest",
     ["greedy", "partition"], "opened_fraction", [(n * n, f"{n}x{n}x{round(0.1 * n * n)}", 0.0) for n in SIZES_000]),
    ("001 score", "seed 001: 0.5-1 for 1-5 mines, 0-0.5 for 6-16 (4x4)", "score", "unsafe",
     ["knowledge-base:use_total=false", "knowledge-base", "set-theory"], "score", [(m, f"4x4x{m}", 0.0) for m in range(1, 17)]),
    ("001 withheld", "seed 001: 11 mines set off at p = 0, 14 at p = 0.3 (5x5, 15 mines, 10 games)", "score", "unsafe",
     ["knowledge-base:use_total=false", "knowledge-base", "set-theory"], "mines_opened", [(p, "5x5x15", p) for p in (0.0, 0.3)]),
]


def seeds(args) -> None:
    """Each seed's experiment at its settings; per point the seed's agents and ``exact`` on the same boards,
    with the exact agent's paired difference from the best baseline (95% interval)."""
    from cspmines.bench import paired_means

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name, figure, rules, first_click, baselines, measure, points in SEED_EXPERIMENTS:
        if args.only and not name.startswith(args.only):
            continue
        lower = measure != "score"
        print(f"\n{name} ({rules}, first click {first_click}, {args.games} boards a point; {measure}, "
              f"{'lower' if lower else 'higher'} is better); {figure}")
        agents = [*baselines, "exact"]
        widths = {a: max(15, len(a)) for a in agents}
        print(f"{'x':>6} " + " ".join(f"{a:>{widths[a]}}" for a in agents) + "   exact - best baseline (95%)")
        for x, size, withheld in points:
            if args.points and f"{x:g}" not in args.points:
                continue
            suite = Suite.create(agents=agents, size=size, rules=rules, first_click=first_click, withheld=withheld,
                                 games=args.games, seed=args.seed)
            log = out / f"seeds-{name.replace(' ', '-')}-{x:g}-{args.games}.jsonl"
            result = run_suite(suite, workers=args.workers, progress=args.progress, out=log, resume=True)
            values = {a: [r[measure] for r in sorted(result.records, key=lambda r: r["game"]) if r["agent"] == a] for a in agents}
            means = {a: sum(v) / len(v) for a, v in values.items()}
            best = (min if lower else max)(baselines, key=lambda a: means[a])
            paired = paired_means(values[best], values["exact"])
            print(f"{x:6g} " + " ".join(f"{means[a]:{widths[a]}.4f}" for a in agents)
                  + f"   {paired.difference:+.4f} ({paired.low:+.4f} .. {paired.high:+.4f}) vs {best}", flush=True)
            rows.extend({"experiment": name, "x": x, "agent": a, measure: means[a], "games": len(values[a])} for a in agents)
    if rows:
        with (out / "seeds.csv").open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=sorted({k for r in rows for k in r}))
            writer.writeheader()
            writer.writerows(rows)
        print(f"\nCSV in {out}/seeds.csv")

def scaling(args) -> None:
    suite = Suite.create(agents=["exact"], size="expert", games=args.games, seed=args.seed)
    rates = {}
    for workers in (1, 2):
        rates[workers] = run_suite(suite, workers=workers, progress=args.progress).games_per_second
        print(f"{workers} worker(s): {rates[workers]:.1f} expert games/s", flush=True)
    print(f"speed-up on 2 workers: {rates[2] / rates[1]:.2f}x")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", choices=("classic", "seeds", "scaling"))
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent", default="exact")
    parser.add_argument("--out", default="results")
    parser.add_argument("--progress", action="store_true", default=None)
    parser.add_argument("--points", type=lambda text: text.split(","),
                        help="seeds: only these points, as the x column prints them (for example 484,676,900)")
    parser.add_argument("--only", help="seeds: only the experiments whose name starts so (004, 000, 001)")
    args = parser.parse_args(argv)
    args.games = args.games or {"classic": 10_000, "seeds": 1000, "scaling": 400}[args.suite]
    {"classic": classic, "seeds": seeds, "scaling": scaling}[args.suite](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
