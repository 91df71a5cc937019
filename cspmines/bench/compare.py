"""Paired comparisons from game records: each agent against one other, board by board, on the rule's own measure.

Every agent of a suite meets the same boards, so two agents are compared on
each board they both played: the difference of their measure there, averaged,
with its 95% interval (:func:`~cspmines.bench.stats.paired_wins` for win rates,
:func:`~cspmines.bench.stats.paired_means` otherwise), and on how many boards
each did better. :func:`paired_table` turns records (a bench run's, or
``--out`` files from other runs) into those rows; ``cspmines bench``,
``cspmines compare`` and ``cspmines study`` all print them.

>>> base = {"width": 9, "height": 9, "mines": 10, "rules": "classic", "withheld": 0.0, "first_click": "safe", "seed": 0}
>>> records = [{**base, "agent": agent, "game": i, "won": won}
...            for i, (a, b) in enumerate([(True, False), (True, True), (False, False)])
...            for agent, won in (("exact", a), ("greedy", b))]
>>> row, = paired_table(records)
>>> row["agent"], row["against"], row["measure"], round(row["difference"], 4), row["better"], row["worse"]
('greedy', 'exact', 'win rate', -0.3333, 0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..actions import Rules
from .records import json_lines
from .stats import paired_means, paired_wins
from .suite import SuiteError

__all__ = ["CONFIG_KEYS", "Measure", "baseline_text", "in_bench_order", "in_points", "measure_for", "measure_value", "paired_table",
           "read_result_files", "paired_text"]

#: What identifies a suite's boards: records that differ in any of these are not paired.
CONFIG_KEYS = ("width", "height", "mines", "rules", "withheld", "first_click", "seed")
#: what a record may add to its suite's identity (absent from the records of every other suite): no-guess boards
OPTIONAL_KEYS = ("no_guess",)


@dataclass(frozen=True)
class Measure:
    """What a game is judged by: a record field, its name, and which way is better. Every measure is a count,
    a share, a yes/no or an estimate of a chance: a mean is never below 0."""

    field: str
    name: str
    higher_is_better: bool
    proportion: bool = False  # a yes/no per game (a win): paired as proportions
    share: bool = False  # a game's value lies between 0 and 1 (a fraction of cells, a chance)
    # a game's value may pass 1 (or, as an estimate, fall below 0), but its expectation is a chance (a game's
    # loss: the winning chance given up to best play; its expected win), so its mean's interval is kept within
    # 0 to 1 as a share's is
    expected_chance: bool = False

    @property
    def mean_range(self) -> tuple[float, float | None]:
        """What a mean of the measure can be: from 0, to 1 for a share, a proportion or a chance's expectation
        (a count: no top)."""
        return 0.0, 1.0 if self.share or self.proportion or self.expected_chance else None

    @property
    def difference_range(self) -> tuple[float | None, float | None]:
        """What a paired difference can be: -1 to 1 for a share, a proportion or a chance's expectation; a
        count's, any."""
        return (-1.0, 1.0) if self.share or self.proportion or self.expected_chance else (None, None)


def measure_for(rules: str, withheld: float = 0.0) -> Measure:
    """The measure of a rule variant, as its seed states it: games won under classic rules, the
    fraction of squares opened to find every mine under minesearch (fewer is better), the share of
    mines identified under score, and the mines set off when clues are withheld (fewer is better).

    >>> measure_for("minesearch").name, measure_for("score", 0.3).name
    ('squares opened', 'mines set off')
    """
    if withheld:
        return Measure("mines_opened", "mines set off", False)
    if rules == Rules.MINESEARCH:
        return Measure("opened_fraction", "squares opened", False, share=True)
    if rules == Rules.SCORE:
        return Measure("score", "mines identified", True, share=True)
    return Measure("won", "win rate", True, proportion=True)


def measure_value(record: dict, measure: Measure):
    """The record's value of ``measure``: its field, or for ``judged.<figure>`` that figure of an exactly
    judged game (``cspmines bench --judge``); None where the record has none (a game not judged, or
    judged under a budget that cut a count short: estimates are not paired with exact figures).

    >>> measure_value({"judged": {"survival": 0.5}, "judged_exact": True}, Measure("judged.survival", "survival", True))
    0.5
    >>> measure_value({"judged": {"survival": 0.5}, "judged_exact": False}, Measure("judged.survival", "survival", True)) is None
    True
    """
    group, _, figure = measure.field.partition(".")
    if not figure:
        return record.get(measure.field)
    return record[group].get(figure) if group in record and record.get(f"{group}_exact", True) else None


def _config(record: dict) -> tuple:
    return tuple(record.get(key) for key in CONFIG_KEYS) + tuple(bool(record.get(key, False)) for key in OPTIONAL_KEYS)


def paired_table(records, *, against: str | None = None, agents=None, measure: Measure | None = None) -> list[dict]:
    """One row for each agent after the first (or each other than ``against``): its paired
    difference from that agent on every board both played, at each suite the records hold
    (a sweep's points each in turn, in first-seen order).

    Each row has exactly ``agent``, ``against``, ``measure``, ``difference`` (agent minus the
    other, in the measure's units), ``ci95`` ([low, high]), ``games``, ``better`` and ``worse``
    (the boards where the agent did better and worse, whichever way the measure points).
    ``measure`` overrides the rule's own (a sweep of withheld clues counts mines set off at p = 0 too).

    Raises
    ------
    SuiteError
        ``against`` names no agent of the records.
    """
    suites: dict[tuple, dict] = {}
    for record in records:
        if "error" in record:
            continue
        by_agent = suites.setdefault(_config(record), {})
        by_agent.setdefault(record["agent"], {})[record["game"]] = record
    rows = []
    for config, by_agent in suites.items():
        names = [a for a in (agents or by_agent) if a in by_agent]
        if against is not None and against not in by_agent:
            raise SuiteError(f"--against {against}: no games of that agent; the agents are {', '.join(by_agent)}")
        base = against if against is not None else (names[0] if names else None)
        judged = measure or measure_for(config[CONFIG_KEYS.index("rules")], config[CONFIG_KEYS.index("withheld")] or 0.0)
        for agent in names:
            if agent == base:
                continue
            mine, theirs = ({g: measure_value(r, judged) for g, r in by_agent[name].items()} for name in (agent, base))
            games = sorted(g for g in set(mine) & set(theirs) if mine[g] is not None and theirs[g] is not None)
            if not games:
                continue
            first = [theirs[g] for g in games]
            second = [mine[g] for g in games]
            paired = paired_wins(first, second) if judged.proportion else paired_means(first, second)
            better, worse = (paired.gained, paired.lost) if judged.higher_is_better else (paired.lost, paired.gained)
            least, most = judged.difference_range  # the normal interval cut to what a difference can be
            low = paired.low if least is None else max(least, paired.low)
            high = paired.high if most is None else min(most, paired.high)
            rows.append({"agent": agent, "against": base, "measure": judged.name, "difference": paired.difference,
                         "ci95": [low, high], "games": paired.games, "better": better, "worse": worse})
    return rows


def in_points(measure_name: str) -> bool:
    """Whether differences of this measure are read in points: a win rate's are (+5.28 points is 0.0528 of
    the games, as README and docs write them); the other measures keep their own units.

    >>> in_points("win rate"), in_points("squares opened")
    (True, False)
    """
    return measure_name == measure_for("classic").name


def paired_text(rows: list, *, x_label: str | None = None) -> str:
    """The paired rows as a table (a sweep's point first when the rows carry ``x``: a number, or a point's own
    text such as ``6x6``); a win rate's differences in points, other measures' in their units."""
    if not rows:
        return ""
    points = in_points(rows[0]["measure"])
    scale, digits = (100, 2) if points else (1, 4)
    head = f"{x_label:>8} " if x_label else ""
    lines = [f"paired on the same boards, agent minus the other ({rows[0]['measure']}{', in points' if points else ''}):",
             head + f"{'agent':>15} {'against':>15} {'games':>6} {'difference':>11} {'95% interval':>22} {'better':>7} {'worse':>6}"]
    for row in rows:
        x = (f"{row['x']:>8} " if isinstance(row["x"], str) else f"{row['x']:8g} ") if x_label else ""
        low, high = (scale * value for value in row["ci95"])
        lines.append(x + f"{row['agent']:>15} {row['against']:>15} {row['games']:6d} {scale * row['difference']:+11.{digits}f} "
                     f"{low:+10.{digits}f} .. {high:+8.{digits}f} {row['better']:7d} {row['worse']:6d}")
    return "\n".join(lines)


def _check_once(played: dict, record: dict, path: Path, number: int) -> None:
    """Refuse a game an agent played twice in one file (two files joined into one, say). A failed game and
    its replay on ``--resume`` are both kept: the failure counts as an error, the replay as the game."""
    if "error" in record:
        return
    first = played.setdefault((record["agent"], record["game"]), number)
    if first != number:
        raise SuiteError(f"{path}:{number}: game {record['game']} of {record['agent']} again (first at line {first})")


def read_result_files(paths) -> list[dict]:
    """The game records of several ``bench --out`` files, matched for pairing.

    Every file must hold games of one suite (the same board size, rules, withheld clues,
    first click and seed), and all files the same one. An agent whose games appear in more
    than one file with the same game numbers (the same agent from two runs or revisions) is
    named after its file in each, ``exact (run-b)``, so the two are compared with each other.

    Raises
    ------
    SuiteError
        A file that is missing, not JSON lines, empty, or from another suite than the first;
        the message names the file, the line where it applies, and the difference.
    """
    files: list[tuple[str, list]] = []
    reference: tuple | None = None
    given: dict[Path, Path] = {}
    for path in map(Path, paths):
        if not path.is_file():
            raise SuiteError(f"{path}: no such file")
        earlier = given.setdefault(path.resolve(), path)
        if earlier is not path:  # its games would count twice in the results table, once in the paired one
            raise SuiteError(f"{path}: the same file as {earlier}, given twice")
        records, reference = _file_records(path, reference)
        files.append((str(path), records))
    return _named_apart(files)


def _file_records(path: Path, reference: tuple | None) -> tuple[list, tuple | None]:
    """One ``bench --out`` file's game records, each checked: a game record, each game once, all of the
    suite of ``reference`` (the first record read, and where it was; none before the first file)."""
    records = []
    played: dict[tuple, int] = {}  # (agent, game) -> the line of its played record
    for number, record in json_lines(path):
        if record is None:
            raise SuiteError(f"{path}:{number}: not a JSON line of cspmines bench --out")
        if not isinstance(record, dict) or not {"agent", "game", *CONFIG_KEYS} <= set(record):
            raise SuiteError(f"{path}:{number}: not a game record of cspmines bench --out")
        config = _config(record)
        if reference is None:
            reference = (config, f"{path}:{number}")
        elif config != reference[0]:
            first, first_name = reference
            differences = ", ".join(f"{key} {a} against {b}" for key, a, b in zip((*CONFIG_KEYS, *OPTIONAL_KEYS), first, config, strict=True)
                                    if a != b)
            raise SuiteError(f"{path}:{number} is from another suite than {first_name}: {differences}")
        _check_once(played, record, path, number)
        records.append(record)
    if not records:
        raise SuiteError(f"{path}: no game records in it")
    return in_bench_order(records), reference


def in_bench_order(records: list) -> list:
    """One file's records, its agents in the order its bench was given them (each record's ``agent_order``;
    the agents of a file written before records carried it, in the order they are first met), each agent's
    games in their own order: the bench's first agent first, as the bench pairs against it.

    >>> records = [{"agent": "b", "agent_order": 1, "game": 0}, {"agent": "a", "agent_order": 0, "game": 0}]
    >>> [record["agent"] for record in in_bench_order(records)]
    ['a', 'b']
    """
    met: dict = {}
    for record in records:
        met.setdefault(record["agent"], len(met))

    def place(record: dict) -> tuple:
        order = record.get("agent_order")
        return (0, order) if isinstance(order, int) and not isinstance(order, bool) else (1, met[record["agent"]])

    return sorted(records, key=place)


def baseline_text(records: list, paired: list, against: str | None) -> str:
    """The line that says which agent the others are paired with, and why that one.

    >>> baseline_text([{"agent": "a", "agent_order": 0}], [{"against": "a"}], None)
    "baseline: a, the bench's first agent (--against NAME pairs with another)"
    """
    if against is not None:
        return f"baseline: {against} (--against)"
    name = paired[0]["against"] if paired else records[0]["agent"]
    ordered = any(record["agent"] == name and "agent_order" in record for record in records)
    why = "the bench's first agent" if ordered else "the first agent met (the file does not say the bench's order)"
    return f"baseline: {name}, {why} (--against NAME pairs with another)"


def _named_apart(files: list[tuple[str, list]]) -> list[dict]:
    """Every file's records in one list, an agent that appears in more than one file with the same games
    named after its file in each (its stem, or its whole name where two stems are the same)."""
    seen: dict[tuple, str] = {}
    repeated: set = set()
    for name, records in files:
        for record in records:
            key = (record["agent"], record["game"])
            if seen.setdefault(key, name) != name:
                repeated.add(record["agent"])
    stems = [Path(name).stem for name, _ in files]
    short = {name: (stem if stems.count(stem) == 1 else name) for (name, _), stem in zip(files, stems, strict=True)}
    merged = []
    for name, records in files:
        name = short[name]
        for record in records:
            agent = record["agent"]
            merged.append({**record, "agent": f"{agent} ({name})"} if agent in repeated else record)
    return merged
