"""Named benchmark suites, run through the same API as ``cspmines bench``.

Usage::

    python benchmarks/suites.py classic [--games 10000] [--workers 2] [--agent exact]
    python benchmarks/suites.py seeds [--games 25] [--workers 2] [--out results/]
    python benchmarks/suites.py scaling [--games 400]

``classic``: the three presets under the conventions of the published win
rates, beside them. ``seeds``: the seeds' own experiments (minesearch: bomb
density and grid area against run time and cells opened, for every seed
agent and the exact one, on the same boards), saved as CSV and figures.
``scaling``: games per second of the process pool with 1 and 2 workers.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from cspmines.bench import Suite, run_suite, sweep_suites
from cspmines.plots import plot_sweep

#: (preset, first click, published win rates)
CLASSIC = [
    ("beginner", "safe", "91.69% (Tu et al. PSEQ-D256)"),
    ("intermediate", "safe", "78.23% (Tu et al.)"),
    ("expert", "safe", "41.13% (Hill, 10M games); 40.05% (Tu et al.)"),
    ("expert", "opening", "54.3% (Hill); 53.45% (Tu et al.)"),
]
SEED_AGENTS = ["greedy", "partition", "risk-score", "single-point", "exact"]


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


def seeds(args) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    base = Suite.create(agents=SEED_AGENTS, size="20x20x40", rules="minesearch", games=args.games, seed=args.seed)
    experiments = {
        "density": (sweep_suites(base, densities=[0.05, 0.1, 0.15, 0.2, 0.25, 0.3]), "bomb density"),
        "size": (sweep_suites(base, sizes=[5, 10, 15, 20, 25, 30], density=0.15), "grid area (cells)"),
    }
    for name, (points, x_label) in experiments.items():
        rows = []
        for x, suite in points:
            rows.extend({"x": x, **row} for row in run_suite(suite, workers=args.workers, progress=args.progress).summary)
        with (out / f"seeds-{name}.csv").open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        plot_sweep(rows, out / f"seeds-{name}.png", x_label=x_label)
        print(f"\n{x_label}: fraction of cells opened (lower is better) / ms per game")
        agents = list(dict.fromkeys(r["agent"] for r in rows))
        print(f"{'x':>8} " + " ".join(f"{a:>20}" for a in agents))
        for x in dict.fromkeys(r["x"] for r in rows):
            cells = {r["agent"]: r for r in rows if r["x"] == x}
            print(
                f"{x:8g} "
                + " ".join(
                    f"{cells[a]['mean_opened_fraction']:9.3f} /{cells[a]['mean_seconds_per_game'] * 1e3:8.2f}" for a in agents
                )
            )
    print(f"\nCSV and figures in {out}/")


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
    args = parser.parse_args(argv)
    args.games = args.games or {"classic": 10_000, "seeds": 25, "scaling": 400}[args.suite]
    {"classic": classic, "seeds": seeds, "scaling": scaling}[args.suite](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
