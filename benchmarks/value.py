"""The value of a position under best play, timed on positions from real games, beside Hill's brute-force analysis.

Usage::

    python benchmarks/value.py --games 1500 --seed 2026 --out DIR [--budget 10] [--hill CLASSES]

Plays ``--games`` expert games of ``cspmines bench`` at ``--seed`` (safe
corner) with the exact agent at its defaults and keeps the position at
each of its guesses; those with ``--least`` to ``--most`` layouts (1,000
to 100,000) are measured. For each, :func:`cspmines.engine.value.value_of`
is called cold (a fresh call in a fresh process forked for it) within
``Limit(time=--budget)`` (a wall-clock budget, with the default memory
allowance), and its CPU and wall seconds are taken, with its peak memory:
how far the process's resident set rose over the call, from Linux's
high-water mark (``VmHWM``, what ``resource``'s ``ru_maxrss`` reports)
reset through ``/proc/self/clear_refs`` just before it. That counts what
the compiled search allocates, which ``tracemalloc`` does not see; where
those files are missing the peak is not measured.

With ``--hill CLASSES`` (or ``$HILL_CLASSES``: Hill's compiled classes with
our ``hill/HillValue.java`` driver, compiled as its header says; without
them, or without ``java``, this says so and measures ours alone) his solver
is shown each position once with his SMALL_ANALYSIS settings (at most 400
solutions, his bulk runs') and once with LARGE_ANALYSIS (4,000), single
thread, and the driver reports whether his brute-force analysis of the
whole board completed and the chance of winning it found; his calls are
timed on a second pass over the positions, once his virtual machine has
compiled his code (ours is compiled before it starts), and his CPU is his
virtual machine's, its collector's and compiler's threads included. Where both are
exact the two values are compared as fractions: both are optimal, so they
must be equal; any that differ are listed with their positions.

Printed: a table by layouts (1k-2k up to 50k-100k, each bin from its
least up to its most, 100,000 in the last; all; and 15k-25k, "20,000
layouts", both ends included): positions, our median and 90th-percentile CPU seconds and
median wall seconds, the share exact within the budget, our largest peak
memory, his share answered with each setting and his median CPU
milliseconds where he answered, and how many positions both answered
exactly and agreed on.

With ``--out DIR`` every step is kept there and a run cut short resumes
where it stopped: the games with every guess's position
(``games-expert-SEED.jsonl``), our values (``ours-BUDGET.jsonl``) and his
(``hill-small.jsonl``, ``hill-large.jsonl``), each a line per position.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path

from cspmines import Limit, Position
from cspmines.agents import make_agent
from cspmines.bench import ResultsFile, Suite, play_game, run_suite
from cspmines.engine.value import value_of

#: The table's rows: (label, least layouts, most layouts), each from its least up to, not including, its most.
BINS = (("1k-2k", 1_000, 2_000), ("2k-5k", 2_000, 5_000), ("5k-10k", 5_000, 10_000), ("10k-20k", 10_000, 20_000),
        ("20k-50k", 20_000, 50_000), ("50k-100k", 50_000, 100_001))
#: The "20,000 layouts" row: the positions of 15,000 to 25,000 layouts, both ends included.
AROUND_20K = ("15k-25k", 15_000, 25_001)
SETTINGS = ("small", "large")
CLEAR_REFS, STATUS = Path("/proc/self/clear_refs"), Path("/proc/self/status")


@dataclass(frozen=True)
class Kept:
    """A position met at a guess: its game, the guess's number in the game (from 1), its layouts and its text."""

    game: int
    guess: int
    layouts: int
    text: str

    @property
    def key(self) -> str:
        return f"{self.game}:{self.guess}"


# -- the positions ---------------------------------------------------------------------------------


def guesses_game(suite: Suite, agent: str, i: int) -> dict:
    """Game ``i`` (a bench task) with the position at each guess of the agent and its layouts (None where
    the engine did not count them)."""
    met: list = []
    last: dict = {}
    player = make_agent(agent)
    player.on_analysis = partial(last.__setitem__, "analysis")
    player.on_guess = lambda _guess: met.append(
        {"layouts": last["analysis"].model_count, "position": str(last["analysis"].position)})
    return {**play_game(suite, agent, i, player=player), "at_guesses": met}


def kept_positions(records: Iterable[dict], least: int, most: int) -> list[Kept]:
    """The positions of ``records`` with ``least`` to ``most`` layouts (both included), in game order.

    >>> record = {"game": 3, "at_guesses": [{"layouts": 999, "position": "a"}, {"layouts": 1000, "position": "b"},
    ...                                  {"layouts": None, "position": "c"}, {"layouts": 1001, "position": "d"}]}
    >>> [(k.key, k.text) for k in kept_positions([record], 1000, 1000)]
    [('3:2', 'b')]
    """
    kept = []
    for record in sorted(records, key=lambda r: r["game"]):
        for number, guess in enumerate(record["at_guesses"], start=1):
            layouts = guess["layouts"]
            if layouts is not None and least <= layouts <= most:
                kept.append(Kept(record["game"], number, layouts, guess["position"]))
    return kept


# -- ours ------------------------------------------------------------------------------------------


def _status_kib(field: str) -> int:
    for line in STATUS.read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise OSError(f"no {field} in {STATUS}")


def _reset_peak() -> int | None:
    """The resident set in KiB now, its high-water mark reset to it; None where Linux's files are not there."""
    try:
        CLEAR_REFS.write_text("5")
        return _status_kib("VmRSS")
    except OSError:
        return None


def measure(text: str, budget: float) -> dict:
    """``value_of`` on the position ``text`` within ``budget`` seconds: its answer, CPU and wall seconds, and the
    growth of the resident set over the call in MiB (None where it could not be read)."""
    position = Position.from_string(text)
    before = _reset_peak()
    cpu, wall = time.process_time(), time.perf_counter()
    found = value_of(position, limit=Limit(time=budget))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = None if before is None else (_status_kib("VmHWM") - before) / 1024
    best = [list(position.row_col(cell)) for cell in found.best_cells]
    return {"layouts": found.layouts, "wins": found.wins, "wins_high": found.wins_high, "exact": found.exact,
            "stopped_by": found.stopped_by, "states": found.states, "cpu_s": cpu, "wall_s": wall, "peak_mib": peak,
            "best": best}


def _measure_apart(text: str, budget: float) -> dict:
    """:func:`measure` in a process forked for it alone (no memory of an earlier call left to reuse)."""
    with multiprocessing.get_context("fork").Pool(1) as pool:
        return pool.apply(measure, (text, budget))


def read_lines(path: Path | None) -> dict:
    """{key: record} of a JSON Lines file of results (none when there is no file); a line cut short is left
    out, to be measured again."""
    found: dict = {}
    if path is None or not path.exists():
        return found
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        found[record["key"]] = record
    return found


def resumed(kept: list[Kept], path: Path | None, run: Callable[[list[Kept]], Iterable[dict]]) -> dict:
    """{key: record} for every position of ``kept``: those in ``path`` read back, the others from ``run``
    (records in the order of the positions given it), each appended to ``path`` as it comes."""
    found = read_lines(path)
    todo = [k for k in kept if k.key not in found]
    if not todo:
        return found
    sink = path.open("a") if path is not None else None
    try:
        for position, record in zip(todo, run(todo), strict=True):
            record = {"key": position.key, **record}
            found[position.key] = record
            if sink is not None:
                sink.write(json.dumps(record) + "\n")
                sink.flush()
    finally:
        if sink is not None:
            sink.close()
    return found


def ours(kept: list[Kept], budget: float, path: Path | None) -> dict:
    def run(todo):
        for n, position in enumerate(todo, start=1):
            record = _measure_apart(position.text, budget)
            print(f"ours {n}/{len(todo)}: {position.layouts} layouts, {record['cpu_s']:.2f} s, exact {record['exact']}",
                  file=sys.stderr, flush=True)
            yield record

    return resumed(kept, path, run)


# -- Hill's ----------------------------------------------------------------------------------------


def hill_missing(classes: str | None) -> str | None:
    """Why Hill's analysis cannot run here, None when it can."""
    if not classes or not (Path(classes) / "BoardFileRun.class").exists():
        return "no classes of Hill's solver (pass --hill or set HILL_CLASSES)"
    if not (Path(classes) / "HillValue.class").exists():
        return (f"no HillValue driver among the classes: compile it first: javac -cp {classes} -d {classes} "
                "benchmarks/hill/HillPlayer.java benchmarks/hill/HillValue.java")
    if shutil.which("java") is None:
        return "no java on this machine"
    return None


def hill_input(text: str) -> str:
    """The driver's line for a position (its size, mine total and rows).

    >>> hill_input("3x2x1\\n1..\\n1F.")
    '{"width": 3, "height": 2, "mines": 1, "rows": ["1..", "1F."]}'
    """
    position = Position.from_string(text)
    height, width = position.grid.shape
    return json.dumps({"width": width, "height": height, "mines": position.mines, "rows": text.splitlines()[1:]})


def run_hill(classes: str, setting: str, todo: list[Kept]) -> Iterator[dict]:
    """The driver's line for each position of ``todo`` as it comes, from one Java process (his ``setting``), timed
    once every position has been analysed a first time (his code compiled by then, as ours is before it starts)."""
    with tempfile.TemporaryFile("w+") as given:
        given.write("".join(hill_input(position.text) + "\n" for position in todo))
        given.seek(0)
        with subprocess.Popen(["java", "-XX:ActiveProcessorCount=1", "-cp", classes, "HillValue", setting, "warm"], stdin=given,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as java:
            assert java.stdout is not None
            for line in java.stdout:
                yield {name: value for name, value in json.loads(line).items() if name != "line"}  # its place in this batch
        if java.returncode:
            raise SystemExit(f"Hill's driver stopped with exit code {java.returncode} (run it by hand to see why)")


def hill(kept: list[Kept], classes: str, setting: str, path: Path | None) -> dict:
    print(f"Hill's {setting} analysis on {len(kept)} positions", file=sys.stderr, flush=True)
    return resumed(kept, path, partial(run_hill, classes, setting))


def answered(line: dict | None) -> bool:
    """Whether his line holds the value of the whole position: his analysis of the whole board completed.

    >>> answered({"complete": True, "scope": "Game", "wins": 3}), answered({"complete": False, "scope": "Isolated Edge"})
    (True, False)
    """
    return bool(line) and line["complete"] and line["scope"] == "Game"


# -- the table -------------------------------------------------------------------------------------


def percentile(values: list, percent: int) -> float | None:
    """The ``percent``-th percentile of ``values`` by nearest rank (the least value with at least that share
    of them at or below it); None for none.

    >>> percentile([5, 1, 4, 2, 3], 50), percentile(list(range(1, 11)), 90), percentile(list(range(1, 12)), 90)
    (3, 9, 10)
    >>> percentile([7], 90), percentile([], 90)
    (7, None)
    """
    if not values:
        return None
    rank = -(-len(values) * percent // 100)  # the ceiling, in whole numbers
    return sorted(values)[max(rank, 1) - 1]


def his_value(line: dict) -> Fraction:
    return Fraction(line["wins"], line["analysed"])


def our_value(record: dict) -> Fraction:
    return Fraction(record["wins"], record["layouts"])


def disagreements(kept: list[Kept], mine: dict, his: dict[str, dict]) -> list[tuple[Kept, Fraction, Fraction, str]]:
    """(position, our value, his, his setting) wherever both are exact and differ as fractions.

    >>> k = Kept(0, 1, 4, "")
    >>> disagreements([k], {"0:1": {"exact": True, "wins": 2, "layouts": 4}},
    ...               {"small": {"0:1": {"complete": True, "scope": "Game", "wins": 3, "analysed": 6}}})
    []
    >>> disagreements([k], {"0:1": {"exact": True, "wins": 2, "layouts": 4}},
    ...               {"large": {"0:1": {"complete": True, "scope": "Game", "wins": 3, "analysed": 5}}})
    [(Kept(game=0, guess=1, layouts=4, text=''), Fraction(1, 2), Fraction(3, 5), 'large')]
    >>> disagreements([k], {"0:1": {"exact": False, "wins": 2, "layouts": 4}},
    ...               {"large": {"0:1": {"complete": True, "scope": "Game", "wins": 3, "analysed": 5}}})
    []
    """
    found = []
    for position in kept:
        our = mine[position.key]
        for setting, lines in his.items():
            line = lines.get(position.key)
            if our["exact"] and answered(line) and our_value(our) != his_value(line):
                found.append((position, our_value(our), his_value(line), setting))
    return found


def _figure(value, form: str) -> str:
    return "-" if value is None else format(value, form)


def our_cells(records: list[dict]) -> str:
    """Our columns for a row's records: CPU median and 90th percentile, wall median, share exact, largest peak."""
    cpu = [r["cpu_s"] for r in records]
    peaks = [r["peak_mib"] for r in records if r["peak_mib"] is not None]
    return (f"{statistics.median(cpu):>10.3f} {percentile(cpu, 90):>8.3f} {statistics.median(r['wall_s'] for r in records):>9.3f} "
            f"{sum(r['exact'] for r in records) / len(records):>7.1%} {_figure(max(peaks, default=None), '.0f'):>8}")


def hill_cells(kept: list[Kept], lines: dict | None) -> str:
    """His columns for one setting: the share of ``kept`` answered, and his median CPU milliseconds there."""
    if lines is None:
        return f"{'-':>8} {'-':>8}"
    took = [lines[k.key]["cpu_ms"] for k in kept if answered(lines.get(k.key))]
    return f"{len(took) / len(kept):>8.1%} {_figure(statistics.median(took) if took else None, '.1f'):>8}"


def agreement(kept: list[Kept], mine: dict, his: dict[str, dict]) -> tuple[int, int]:
    """(positions both sides answered exactly, those where every answer of his is our value).

    >>> k = [Kept(0, 1, 4, ""), Kept(0, 2, 4, "")]
    >>> ours = {"0:1": {"exact": True, "wins": 2, "layouts": 4}, "0:2": {"exact": True, "wins": 1, "layouts": 4}}
    >>> line = {"complete": True, "scope": "Game", "wins": 1, "analysed": 2}
    >>> agreement(k, ours, {"small": {"0:1": line}, "large": {"0:1": line, "0:2": line}})
    (2, 1)
    """
    both = agree = 0
    for position in kept:
        done = [lines[position.key] for lines in his.values() if answered(lines.get(position.key))]
        if mine[position.key]["exact"] and done:
            both += 1
            agree += all(his_value(line) == our_value(mine[position.key]) for line in done)
    return both, agree


def row(label: str, kept: list[Kept], mine: dict, his: dict[str, dict]) -> str:
    """One line of the table: ``kept``'s positions, our figures, his for each setting, and the agreement."""
    if not kept:
        return f"{label:>9} {0:>9}"
    both, agree = agreement(kept, mine, his) if his else ("-", "-")
    cells = [f"{label:>9} {len(kept):>9}", our_cells([mine[k.key] for k in kept]),
             *(hill_cells(kept, his.get(setting)) for setting in SETTINGS), f"{both:>6} {agree:>6}"]
    return " ".join(cells)


def within(kept: list[Kept], least: int, below: int) -> list[Kept]:
    """The positions of ``least`` layouts up to, not including, ``below``.

    >>> [k.layouts for k in within([Kept(0, 1, n, "") for n in (999, 1000, 1999, 2000)], 1000, 2000)]
    [1000, 1999]
    """
    return [k for k in kept if least <= k.layouts < below]


def print_table(kept: list[Kept], mine: dict, his: dict[str, dict], budget: float) -> None:
    print(f"{'':>9} {'':>9} {'ours: CPU s':>19} {'wall s':>9} {'exact':>7} {'peak':>8} "
          f"{'Hill small':>17} {'Hill large':>17} {'both exact':>13}")
    print(f"{'layouts':>9} {'positions':>9} {'median':>10} {'p90':>8} {'median':>9} {f'in {budget:g} s':>7} {'MiB':>8} "
          f"{'answered':>8} {'CPU ms':>8} {'answered':>8} {'CPU ms':>8} {'both':>6} {'agree':>6}")
    for label, least, below in BINS:
        print(row(label, within(kept, least, below), mine, his))
    print(row("all", kept, mine, his))
    label, least, below = AROUND_20K
    print(row(label, within(kept, least, below), mine, his))


def print_peer(kept: list[Kept], mine: dict, his: dict[str, dict]) -> None:
    """Where his count of solutions is not ours of layouts, and where the two values differ, with the positions."""
    counted = [k for k in kept if his["small"][k.key]["solutions"] not in (None, str(k.layouts))]
    print(f"positions where his count of solutions is not our count of layouts: {len(counted)}")
    for position in counted:
        print(f"game {position.game}, guess {position.guess}: ours {position.layouts}, his {his['small'][position.key]['solutions']}")
    differ = disagreements(kept, mine, his)
    print(f"values that differ where both are exact: {len(differ)}")
    for position, value, theirs, setting in differ:
        print(f"game {position.game}, guess {position.guess} ({position.layouts} layouts): ours {value}, "
              f"Hill's {setting} {theirs}\n{position.text}")


# -- the run ---------------------------------------------------------------------------------------


def positions(args, out: Path | None) -> list[Kept]:
    suite = Suite.create(agents=["exact"], size="expert", games=args.games, seed=args.seed)
    log = None if out is None else out / f"games-expert-{args.seed}.jsonl"
    played = run_suite(suite, workers=args.workers, progress=False, task=guesses_game, out=ResultsFile(log, resume=True) if log else None)
    games = [r for r in played.records if "at_guesses" in r and r["game"] < args.games]
    kept = kept_positions(games, args.least, args.most)
    guesses = sum(len(r["at_guesses"]) for r in games)
    print(f"{len(games)} expert games of the exact agent (safe corner, seed {args.seed}): {guesses} guesses, "
          f"{len(kept)} at positions of {args.least:,} to {args.most:,} layouts")
    return kept[: args.positions] if args.positions else kept


def parse(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="expert games of the exact agent, safe corner")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1, help="processes playing the games")
    parser.add_argument("--least", type=int, default=1_000, help="fewest layouts of a position kept")
    parser.add_argument("--most", type=int, default=100_000, help="most layouts of a position kept")
    parser.add_argument("--positions", type=int, help="measure only the first this many positions kept")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds value_of may take (Limit(time=...))")
    parser.add_argument("--hill", default=os.environ.get("HILL_CLASSES"), help="Hill's compiled classes (or $HILL_CLASSES)")
    parser.add_argument("--out", help="keep the positions and every result in this folder, and resume from them")
    args = parser.parse_args(argv)
    for name in ("games", "least", "most"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, not {getattr(args, name)}")
    if args.positions is not None and args.positions < 1:
        parser.error(f"--positions must be at least 1, not {args.positions}")
    if args.least > args.most:
        parser.error(f"--least ({args.least}) is above --most ({args.most})")
    if not args.budget > 0:
        parser.error(f"--budget must be a number of seconds above 0, not {args.budget}")
    return args


def main(argv=None) -> int:
    args = parse(argv)
    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    kept = positions(args, out)
    mine = ours(kept, args.budget, None if out is None else out / f"ours-{args.budget:g}.jsonl")
    missing = hill_missing(args.hill)
    his = {} if missing is not None else {
        setting: hill(kept, args.hill, setting, None if out is None else out / f"hill-{setting}.jsonl") for setting in SETTINGS}
    print(f"value_of within Limit(time={args.budget:g}), each call in a fresh process; peak: the resident set's growth over it")
    print_table(kept, mine, his, args.budget)
    if missing is not None:
        print(f"peer not run: {missing}")
        return 0
    print_peer(kept, mine, his)
    return 0


if __name__ == "__main__":
    sys.exit(main())
