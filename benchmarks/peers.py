"""The exact agent beside Hill's Java solver, the strongest public player, on the very same boards.

Usage::

    python benchmarks/peers.py --hill CLASSES --preset expert --games 10000 --seed 31 [--first-click opening] [--out DIR]
    python benchmarks/peers.py --hill CLASSES --games 40000 --seed S --analysis large --block 2000

``CLASSES`` (or the environment variable ``HILL_CLASSES``) is a folder of
compiled classes holding Hill's solver and a ``BoardFileRun`` driver that
plays a JSON Lines file of boards (``Board.to_json()``, one a line) with the
first click at a given cell and writes ``index,won,...`` per board. Where
there is no such folder, or no ``java``, this prints what is missing and
plays our side alone (CI needs no Java).

The two play in alternating blocks of ``--block`` boards (ours, then his, block by block), so
that both are timed in the same minutes (this machine's speed drifts within an hour).
``--analysis large`` plays his solver with his large brute-force analysis instead of the small one
of his bulk runs (our driver ``hill/HillBulkRun.java``, compiled into ``CLASSES``).

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


def hill_block(classes: Path, suite: Suite, games: range, kept: Path | None, analysis: str) -> tuple[dict, float | None]:
    """{game: (won, guesses)} from Hill's solver on the suite's boards ``games``, and its CPU seconds
    (None when read back from ``kept``, the CSV of an earlier run of the same block)."""
    if kept is not None and kept.exists():
        with kept.open() as handle:
            earlier = read_hill_csv(handle)
        if len(earlier) == len(games):
            return {games[i]: result for i, result in earlier.items()}, None
    played, cpu = run_hill(classes, [board_for(suite, i) for i in games], kept=kept, analysis=analysis)
    return {games[i]: result for i, result in played.items()}, cpu


def run_hill(classes: Path, boards: list, kept: Path | None = None, analysis: str = "small") -> tuple[dict, float]:
    """{index: (won, guesses)} from Hill's solver playing ``boards`` in one Java process (index i is
    ``boards[i]``; the first click of the first board is every game's), and that process's CPU
    seconds, start-up included; its CSV is copied to ``kept`` when given. ``analysis`` is his
    brute-force analysis: ``small`` (his bulk runs' setting) or ``large`` (our driver
    ``hill/HillBulkRun.java`` passes it)."""
    with tempfile.TemporaryDirectory() as scratch:
        listed, results = Path(scratch) / "boards.jsonl", Path(scratch) / "hill.csv"
        listed.write_text("".join(board.to_json() + "\n" for board in boards))
        row, col = divmod(boards[0].first_click, boards[0].width)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        command = ["java", "-XX:ActiveProcessorCount=1", "-cp", str(classes), "BoardFileRun", str(listed), str(results), str(row), str(col)]
        if analysis != "small":
            command[4] = "HillBulkRun"
            command.append(f"{analysis.upper()}_ANALYSIS")
        subprocess.run(command, check=True, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        with results.open() as handle:
            played = read_hill_csv(handle)
        if kept is not None:
            shutil.copyfile(results, kept)
    return played, cpu


def side_by_side(args, suite: Suite, log: Path | None, resumed: int, classes: Path | None, out: Path | None, name: str):
    """(ours, his, our CPU ms a game, his) over ``args.games`` boards, played in alternating blocks of
    ``args.block`` (ours, then his, block by block: the same minutes for both); CPU over the games
    played in this run (None where every game was read back); his side skipped without ``classes``."""
    ours, hill, our_cpu, hill_cpu, our_now, hill_now = {}, {}, 0.0, 0.0, 0, 0
    for start in range(0, args.games, args.block):
        games = range(start, min(args.games, start + args.block))
        block = Suite.create(agents=[args.agent], size=args.preset, first_click=args.first_click, games=games.stop, seed=args.seed)
        before = cpu_seconds()
        played = run_suite(block, workers=args.workers, progress=False, out=ResultsFile(log, resume=True) if log else None)
        now = len(games) - max(0, min(resumed, games.stop) - games.start)  # the games of the block not read back
        our_cpu, our_now = our_cpu + cpu_seconds() - before, our_now + now
        ours.update({r["game"]: (r["won"], r["guesses"]) for r in played.records if "won" in r and r["agent"] == args.agent})
        if classes is not None:
            kept = None if out is None else out / f"hill-{args.analysis}-{name}-{games.start}.csv"
            found, cpu = hill_block(classes, suite, games, kept, args.analysis)
            hill.update(found)
            if cpu is not None:
                hill_cpu, hill_now = hill_cpu + cpu, hill_now + len(games)
    return ours, hill, our_cpu / our_now * 1e3 if our_now else None, hill_cpu / hill_now * 1e3 if hill_now else None


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
    parser.add_argument("--analysis", default="small", choices=("small", "large"),
                        help="Hill's brute-force analysis: small (his bulk runs' setting) or large (needs hill/HillBulkRun.java compiled)")
    parser.add_argument("--block", type=int, default=2000,
                        help="play the two in alternating blocks of this many boards (the machine's speed drifts)")
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
    missing = None
    driver = "BoardFileRun" if args.analysis == "small" else "HillBulkRun"
    if not args.hill or not (Path(args.hill) / f"{driver}.class").exists():
        missing = f"no classes of Hill's solver with {driver} (pass --hill or set HILL_CLASSES)"
    elif shutil.which("java") is None:
        missing = "no java on this machine"
    ours, hill, our_ms, hill_ms = side_by_side(args, suite, log, resumed, None if missing else Path(args.hill), out, name)
    rows = [(f"cspmines {args.agent}", ours, our_ms)]
    if missing is None:
        rows.append((f"Hill's solver ({args.analysis})", hill, hill_ms))
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
    if rows[0][2] and rows[1][2]:
        print(f"CPU a game, ours over his: {rows[0][2] / rows[1][2]:.2f}")
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
