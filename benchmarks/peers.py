"""The exact agent beside Hill's Java solver, the strongest public player, on the very same boards.

Usage::

    python benchmarks/peers.py --hill CLASSES --preset expert --games 10000 --seed 31 [--first-click opening] [--out DIR]

``CLASSES`` (or the environment variable ``HILL_CLASSES``) is a folder of
compiled classes holding Hill's solver and a ``BoardFileRun`` driver that
plays a JSON Lines file of boards (``Board.to_json()``, one a line) with the
first click at a given cell and writes ``index,won,...`` per board. Where
there is no such folder, or no ``java``, this prints what is missing and
plays our side alone (CI needs no Java).

Both play game i of ``cspmines bench --preset P --seed S --first-click F``:
the boards come from the bench's own ``board_for``. Printed: each side's win
rate with its 95% interval, the four-way table (both won, only ours, only
Hill's, both lost), the paired difference ours - Hill's with its 95%
interval, and CPU time per game for each, measured the same way (ours: this
process and its workers over the games, start-up of the workers included;
Hill's: the Java process over the games, start-up included, single-threaded).
Then where each side loses: of the games that reached their k-th guess,
the share lost on it (both sides count guesses the same way: a move not
proved safe, the first click excepted), with 95% intervals.

With ``--protocol`` Hill's solver also plays the same boards through the line protocol
(``cspmines bench --agent "cmd:java ... HillPlayer"``, the adapter ``hill/HillPlayer.java`` compiled
into ``CLASSES``), and the script says on how many boards it won or lost as his own driver did, and
made as many guesses.

With ``--out DIR`` both sides' results are kept there (ours as the bench's
JSON Lines, Hill's as his driver's CSV) and a run cut short resumes where
it stopped; CPU a game is then over the games played in this run.
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from cspmines.bench import ResultsFile, Suite, board_for, paired_wins, run_suite, wilson_interval


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its finished children (user and system)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def read_hill_csv(handle) -> dict:
    """{game: (won, guesses)} from the driver's CSV (``index,won,guesses,...``)."""
    return {int(r["index"]): (r["won"] == "1", int(r["guesses"])) for r in csv.DictReader(handle)}


def losses_by_guess(results: dict, deepest: int = 8) -> list[tuple[int, int, int]]:
    """(k, games that reached their k-th guess, games lost on it) for k = 1 .. ``deepest``, the
    last row ``deepest`` and beyond, from {game: (won, guesses)}; a lost game was lost on its last guess.

    >>> losses_by_guess({0: (False, 1), 1: (True, 1), 2: (False, 3), 3: (True, 0)}, deepest=2)
    [(1, 3, 1), (2, 1, 1)]
    """
    rows = []
    for k in range(1, deepest + 1):
        last = k == deepest
        reached = sum(1 for _, guesses in results.values() if guesses >= k)
        lost = sum(1 for won, guesses in results.values() if not won and (guesses >= k if last else guesses == k))
        rows.append((k, reached, lost))
    return rows


def hill_results(classes: Path, suite: Suite, kept: Path | None = None) -> tuple[dict, float | None]:
    """{game: (won, guesses)} from Hill's solver on the suite's boards, and its CPU seconds in all
    (None when the results were read back from ``kept``, a CSV of an earlier run of every game)."""
    if kept is not None and kept.exists():
        with kept.open() as handle:
            earlier = read_hill_csv(handle)
        if len(earlier) == suite.games:
            return earlier, None
    played, cpu = run_hill(classes, [board_for(suite, i) for i in range(suite.games)], kept=kept)
    return played, cpu


def run_hill(classes: Path, boards: list, kept: Path | None = None) -> tuple[dict, float]:
    """{index: (won, guesses)} from Hill's solver playing ``boards`` in one Java process (index i is
    ``boards[i]``; the first click of the first board is every game's), and that process's CPU
    seconds, start-up included; its CSV is copied to ``kept`` when given."""
    with tempfile.TemporaryDirectory() as scratch:
        listed, results = Path(scratch) / "boards.jsonl", Path(scratch) / "hill.csv"
        listed.write_text("".join(board.to_json() + "\n" for board in boards))
        row, col = divmod(boards[0].first_click, boards[0].width)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(["java", "-XX:ActiveProcessorCount=1", "-cp", str(classes), "BoardFileRun", str(listed), str(results),
                        str(row), str(col)], check=True, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        with results.open() as handle:
            played = read_hill_csv(handle)
        if kept is not None:
            shutil.copyfile(results, kept)
    return played, cpu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hill", default=os.environ.get("HILL_CLASSES"), help="Hill's compiled classes (or $HILL_CLASSES)")
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--first-click", default="safe", choices=("safe", "opening"))
    parser.add_argument("--agent", default="exact")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", help="keep both sides' results in this folder, and resume from them")
    parser.add_argument("--protocol", action="store_true",
                        help="also play Hill's solver through the line protocol (HillPlayer) and compare it board by board")
    args = parser.parse_args(argv)
    suite = Suite.create(agents=[args.agent], size=args.preset, first_click=args.first_click, games=args.games, seed=args.seed)
    print(f"{args.games} classic {args.preset} boards, first click {args.first_click}, seed {args.seed} "
          f"(the boards of cspmines bench at that seed)")
    out = Path(args.out) if args.out else None
    name = f"{args.preset}-{args.first_click}-{args.seed}-{args.games}"
    log = None
    resumed = 0
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        log = out / f"ours-{args.agent.replace(':', '_')}-{name}.jsonl"
        resumed = sum(1 for _ in log.open()) if log.exists() else 0
    before = cpu_seconds()
    played = run_suite(suite, workers=args.workers, progress=False, out=ResultsFile(log, resume=True) if log else None)
    ours = {r["game"]: (r["won"], r["guesses"]) for r in played.records if "won" in r and r["agent"] == args.agent}
    now = len(played.records) - resumed  # CPU is over the games played in this run, as Hill's is measured
    our_ms = (cpu_seconds() - before) / now * 1e3 if now > 0 else None
    rows = [(f"cspmines {args.agent}", ours, our_ms)]
    missing = None
    if not args.hill or not (Path(args.hill) / "BoardFileRun.class").exists():
        missing = "no classes of Hill's solver (pass --hill or set HILL_CLASSES)"
    elif shutil.which("java") is None:
        missing = "no java on this machine"
    if missing is None:
        hill, cpu = hill_results(Path(args.hill), suite, None if out is None else out / f"hill-{name}.csv")
        rows.append(("Hill's Java solver", hill, None if cpu is None else cpu / args.games * 1e3))
    print(f"{'player':>22} {'games':>7} {'win rate':>9} {'95% interval':>17} {'ms a game':>10}")
    for name, results, ms in rows:
        won = {game: result[0] for game, result in results.items()}
        wins = sum(won.values())
        low, high = wilson_interval(wins, len(won))
        cpu = "(kept)" if ms is None else f"{ms:.1f}"
        print(f"{name:>22} {len(won):7d} {wins / len(won):9.2%} {low:8.2%}-{high:<8.2%} {cpu:>10}")
    if missing is not None:
        print(f"peer not run: {missing}")
        return 0
    common = sorted(set(ours) & set(hill))
    paired = paired_wins([hill[i][0] for i in common], [ours[i][0] for i in common])
    both = sum(ours[i][0] and hill[i][0] for i in common)
    print(f"both won {both}, only ours {paired.gained}, only Hill's {paired.lost}, "
          f"both lost {len(common) - both - paired.gained - paired.lost}")
    print(f"paired difference ours - Hill's: {100 * paired.difference:+.2f} points "
          f"(95% {100 * paired.low:+.2f} .. {100 * paired.high:+.2f}) over {len(common)} boards")
    print("lost on the k-th guess, of the games that reached it (95% interval):")
    print(f"{'k':>4} {'ours':>26} {'Hill':>26}")
    sides = [losses_by_guess({i: ours[i] for i in common}), losses_by_guess({i: hill[i] for i in common})]
    for (k, *our_row), (_, *hill_row) in zip(*sides, strict=True):
        cells = []
        for reached, lost in (our_row, hill_row):
            low, high = wilson_interval(lost, reached) if reached else (0.0, 1.0)
            cells.append(f"{lost / max(reached, 1):6.2%} ({low:.2%}-{high:.2%}) of {reached}")
        print(f"{k:>3}{'+' if k == len(sides[0]) else ' '} {cells[0]:>26} {cells[1]:>26}")
    if args.protocol:
        same_as_driver(Path(args.hill), suite, hill, None if out is None else out / f"hill-protocol-{name}.jsonl")
    return 0


def same_as_driver(classes: Path, suite: Suite, driver: dict, log: Path | None) -> None:
    """Hill's solver on the suite's boards through the line protocol (``cmd:java ... HillPlayer``), beside his
    own driver's results ``driver`` ({game: (won, guesses)}): on how many boards the two agree."""
    if not (classes / "HillPlayer.class").exists():
        print(f"not played through the protocol: compile it first: javac -cp {classes} -d {classes} benchmarks/hill/HillPlayer.java")
        return
    command = f"cmd:java -XX:ActiveProcessorCount=1 -cp {shlex.quote(str(classes))} HillPlayer"
    through = Suite.create(agents=[command], size=f"{suite.width}x{suite.height}x{suite.mines}", first_click=suite.first_click,
                           games=suite.games, seed=suite.seed)
    records = run_suite(through, workers=1, progress=False, out=ResultsFile(log, resume=True) if log else None).records
    played = {r["game"]: (r["won"], r["guesses"]) for r in records if "won" in r}
    faults = sum(1 for r in records if "fault" in r)
    common = sorted(set(played) & set(driver))
    print(f"through the protocol (cspmines bench --agent \"{command}\"): won {sum(played[i][0] for i in common)} of "
          f"{len(common)}, {faults} faults; the same outcome as his own driver on {sum(played[i][0] == driver[i][0] for i in common)} "
          f"boards, the same guesses on {sum(played[i][1] == driver[i][1] for i in common)}")


if __name__ == "__main__":
    sys.exit(main())
