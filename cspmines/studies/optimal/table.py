"""The optimal-play table computed into a folder, resumable: each board's optimum, then each agent's rate
under each rule on it, every result appended as one JSON line as it finishes.

``DIR/optimum.jsonl`` holds a line per board and mine count (:meth:`BoardOptimum.record`),
``DIR/pieces.jsonl`` each clue valued by the ``clues`` method (:meth:`Piece.record`), and
``DIR/agents.jsonl`` a line per board, mine count, rule and agent (:meth:`AgentRate.record`). Run again
on the same folder, the table goes on from where it stopped: an optimum found exactly is kept whatever
the budget, bounds only under the same budget and method (a larger budget tries again); a piece or an
agent's rate is kept when it was found the same way.

>>> import tempfile
>>> plan = TablePlan(boards=((3, 3, (1, 2)),), agents=("exact",))
>>> folder = tempfile.mkdtemp()
>>> done = run_table(plan, folder)
>>> [(o.mines, o.rule("none").low, o.rule("none").layouts) for o in done.optima], len(done.rates)
([(1, 8, 9), (2, 24, 36)], 6)
>>> run_table(plan, folder).computed_now   # everything was there
0
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ...agents.base import UnknownAgentError
from ...agents.registry import agent_names, known_agent
from ...engine.budget import Limit
from ...errors import CspminesError, TooLargeError
from .optimum import METHODS, BoardOptimum, Piece, board_optimum, check_budget
from .rates import AgentRate, Games, agent_rate
from .rules import FirstClickRule, layouts_under

__all__ = ["AGENTS", "OPTIMUM", "PIECES", "TableFileError", "TablePlan", "TableResult", "bundled_table", "counts_beyond", "counts_within",
           "gather_table", "read_table", "run_table"]

OPTIMUM, PIECES, AGENTS = "optimum.jsonl", "pieces.jsonl", "agents.jsonl"


class TableFileError(CspminesError, ValueError):
    """A results file with a line that is JSON but not one the table wrote."""


@dataclass(frozen=True)
class TablePlan:
    """What a table computes: ``boards`` as (width, height, mine counts), each count's optimum within
    ``limit`` (the board's whole budget) by ``method``, and ``agents``' rates under ``rules`` (every layout
    where there are at most ``exhaustive``, else ``sample`` games drawn with ``seed``)."""

    boards: tuple
    agents: tuple = field(default_factory=agent_names)
    rules: tuple = tuple(FirstClickRule)
    limit: Limit = field(default_factory=Limit)
    method: str = "board"
    exhaustive: int = 20_000
    sample: int = 2_000
    seed: int = 0

    def __post_init__(self):
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {self.method!r}")
        object.__setattr__(self, "rules", tuple(FirstClickRule.check(rule, "the first-click rule") for rule in self.rules))
        for spec in self.agents:
            if not known_agent(spec):
                raise UnknownAgentError(f"unknown agent {spec!r}; choose among {', '.join(agent_names())}")
        for width, height, counts in self.boards:
            for mines in counts:
                check_budget(width, height, mines, self.limit)

    @property
    def games(self) -> dict:
        """How the agents' games are chosen (a rate is kept on resume only when found the same way)."""
        return {"exhaustive": self.exhaustive, "sample": self.sample, "seed": self.seed}


@dataclass(frozen=True)
class TableResult:
    """The optima and the agents' rates in the folder, in the plan's order, and how many were computed now."""

    optima: tuple
    rates: tuple
    computed_now: int


def run_table(plan: TablePlan, out, *, tell: Callable[[str], None] | None = None) -> TableResult:
    """Compute ``plan`` into the folder ``out`` (made if missing), going on from what is there; ``tell`` is
    given a line as each result is found."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    optima, pieces, rates = _read(folder)
    budget = _limit_record(plan.limit)
    computed = 0
    for width, height, counts in plan.boards:
        for mines in counts:
            found = optima.get((width, height, mines))
            if found is None or not (found[0].exact or (found[1] == budget and found[0].method == plan.method)):
                known = tuple(piece for piece, spent in pieces.get((width, height, mines), ()) if piece.stopped_by is None or spent == budget)
                keep = _appender(folder / PIECES, {"width": width, "height": height, "mines": mines, "limit": budget})
                optimum = board_optimum(width, height, mines, limit=plan.limit, method=plan.method, known=known, keep=keep)
                _append(folder / OPTIMUM, {**optimum.record(), "limit": budget})
                optima[width, height, mines] = (optimum, budget)
                computed += 1
                _tell(tell, _optimum_line(optimum))
            computed += _play_agents(plan, folder, rates, width, height, mines, tell)
    return _result(plan, optima, rates, computed)


def _play_agents(plan: TablePlan, folder: Path, rates: dict, width: int, height: int, mines: int, tell) -> int:
    """Each agent's rate under each rule on the board, those not yet in the folder; how many were played."""
    played = 0
    for rule in plan.rules:
        for spec in plan.agents:
            key = (spec, str(rule), width, height, mines)
            if key in rates and _same_games(rates[key][0], rates[key][1], plan):
                continue
            rate = agent_rate(spec, width, height, mines, rule, Games(plan.exhaustive, plan.sample, plan.seed))
            _append(folder / AGENTS, {**rate.record(), "games_by": plan.games})
            rates[key] = (rate, plan.games)
            played += 1
            _tell(tell, f"{width}x{height}x{mines} {rule}: {spec} won {rate.wins:,} of {rate.games:,} ({float(rate.rate):.2%})"
                          f"{'' if rate.exact else ', an estimate'} in {rate.seconds:.1f} s")
    return played


def _same_games(rate: AgentRate, games: dict | None, plan: TablePlan) -> bool:
    """Whether ``rate``, found with ``games`` (:attr:`TablePlan.games`), is what ``plan`` would find: every layout
    played once both times (the seed then matters only to an agent that drew from its stream), else the same
    sample and seed.

    >>> plan = TablePlan(boards=(), agents=(), exhaustive=120)
    >>> rate = AgentRate("exact", FirstClickRule.NONE, 4, 4, 2, 120, 102, True, 0, 0.1)
    >>> _same_games(rate, {"exhaustive": 500, "sample": 10, "seed": 3}, plan)
    True
    >>> _same_games(rate, {"exhaustive": 500, "sample": 10, "seed": 3}, TablePlan(boards=(), agents=(), exhaustive=119))
    False
    """
    if games is None:
        return False
    if rate.exhaustive:
        every = layouts_under(rate.width, rate.height, rate.mines, rate.rule) <= plan.exhaustive
        return every and (rate.random_games == 0 or games.get("seed") == plan.seed)
    return games == plan.games


def gather_table(plan: TablePlan, out) -> TableResult:
    """What the folder ``out`` holds of ``plan``, computing nothing: the optima of its boards, and its agents'
    rates under its rules on them however their games were chosen (several runs' rates, for a report).

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> _ = run_table(TablePlan(boards=((2, 2, (1,)),), agents=("exact",), sample=5), folder)
    >>> found = gather_table(TablePlan(boards=((2, 2, (1, 2)),), agents=("exact",)), folder)
    >>> [o.mines for o in found.optima], len(found.rates), found.computed_now
    ([1], 3, 0)
    """
    optima, _, rates = _read(Path(out))
    keys = [(w, h, m) for w, h, counts in plan.boards for m in counts]
    wanted = [(spec, str(rule), *key) for key in keys for rule in plan.rules for spec in plan.agents]
    return TableResult(tuple(optima[key][0] for key in keys if key in optima), tuple(rates[key][0] for key in wanted if key in rates), 0)


def read_table(out) -> TableResult:
    """Every optimum and rate in the folder ``out``, by board, mine count, rule and agent."""
    optima, _, rates = _read(Path(out))
    return TableResult(tuple(optima[key][0] for key in sorted(optima)), tuple(rates[key][0] for key in sorted(rates, key=_rate_order)), 0)


def bundled_table() -> TableResult:
    """The table that ships with cspmines (``cspmines/data/optimal``, made by ``cspmines optimal``; the command
    is in ``docs/research.md``): every optimum and agent's rate in it."""
    from importlib.resources import files

    return read_table(files("cspmines") / "data" / "optimal")


def counts_within(width: int, height: int, limit: Limit) -> tuple[int, ...]:
    """The mine counts (0 to cells - 1) whose boards ``limit`` lets the value search list.

    >>> counts_within(6, 6, Limit(memory="1G"))
    (0, 1, 2, 3, 4, 5, 6, 30, 31, 32, 33, 34, 35)
    """
    return tuple(mines for mines in range(width * height) if not _beyond(width, height, mines, limit))


def counts_beyond(width: int, height: int, limit: Limit) -> list[tuple[int, int, int, str]]:
    """The mine counts :func:`counts_within` leaves out, as (width, height, mines, why).

    >>> [row[2] for row in counts_beyond(6, 6, Limit(memory="1G"))] == list(range(7, 30))
    True
    >>> counts_beyond(4, 4, Limit(memory="1G"))
    []
    """
    return [(width, height, mines, f"not tried: {why}") for mines in range(width * height) if (why := _beyond(width, height, mines, limit))]


def _beyond(width: int, height: int, mines: int, limit: Limit) -> str:
    """Why the board is beyond ``limit`` (:func:`check_budget`'s message), or "" when it is not."""
    try:
        check_budget(width, height, mines, limit)
    except TooLargeError as error:
        return str(error)
    return ""


def _result(plan: TablePlan, optima: dict, rates: dict, computed: int) -> TableResult:
    keys = [(w, h, m) for w, h, counts in plan.boards for m in counts]
    wanted = [(spec, str(rule), *key) for key in keys for rule in plan.rules for spec in plan.agents]
    kept = [rates[key] for key in wanted if key in rates]
    return TableResult(tuple(optima[key][0] for key in keys if key in optima), tuple(rate for rate, games in kept if _same_games(rate, games, plan)), computed)


def _rate_order(key: tuple) -> tuple:
    spec, rule, width, height, mines = key
    return width, height, mines, list(FirstClickRule.words()).index(rule), spec


def _read(folder: Path) -> tuple[dict, dict, dict]:
    """What the folder holds: {board key: (optimum, budget)}, {board key: [(piece, budget)]}, {rate key: (rate, games)};
    the last line of a key wins, a line cut short (a run stopped while writing) is left out, and a line that is
    JSON but not a record of the table is refused (:class:`TableFileError`)."""
    optima = {}
    for record in _records(folder / OPTIMUM, BoardOptimum.from_record):
        optima[record[0].key] = record
    pieces: dict = {}
    for piece, budget, board in _records(folder / PIECES, Piece.from_record, board=True):
        pieces.setdefault(board, []).append((piece, budget))
    rates = {}
    for rate, games in _records(folder / AGENTS, AgentRate.from_record, extra="games_by"):
        rates[rate.agent, str(rate.rule), rate.width, rate.height, rate.mines] = (rate, games)
    return optima, pieces, rates


def _records(path: Path, read: Callable, *, extra: str = "limit", board: bool = False):
    """Each line of ``path`` read by ``read``, with its ``extra`` field (and its board's key with ``board``)."""
    for number, record in _lines(path):
        try:
            found = read(record)
            yield (found, record.get(extra), (record["width"], record["height"], record["mines"])) if board else (found, record.get(extra))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise TableFileError(f"{path}, line {number}: not a line of the optimal-play table ({type(error).__name__}: {error}); "
                                 "move the file away or use another folder") from error


def _lines(path: Path):
    """(line number, JSON object) of each whole line of ``path``."""
    if not path.exists():
        return
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError:
                continue


def _append(path: Path, record: dict) -> None:
    """``record`` as a line at the end of ``path``, after a line a stopped run left cut short (which is then left out)."""
    with path.open("a+b") as handle:
        cut = handle.tell() > 0 and handle.seek(-1, 2) >= 0 and handle.read(1) != b"\n"
        handle.write((("\n" if cut else "") + json.dumps(record) + "\n").encode("utf-8"))


def _appender(path: Path, board: dict) -> Callable[[Piece], None]:
    return lambda piece: _append(path, {**board, **piece.record()})


def _limit_record(limit: Limit) -> dict:
    return {key: value for key, value in asdict(limit).items() if key != "max_chain"}


def _tell(tell, line: str) -> None:
    if tell is not None:
        tell(line)


def _optimum_line(optimum: BoardOptimum) -> str:
    value = optimum.rule(FirstClickRule.NONE)
    shown = f"{value.low:,} of {value.layouts:,}" if value.exact else f"{value.low:,} to {value.high:,} of {value.layouts:,} (stopped by {optimum.stopped_by})"
    memory = "" if optimum.peak_memory is None else f", peak {optimum.peak_memory / 2**20:.0f} MiB"
    return f"{optimum.width}x{optimum.height}x{optimum.mines}: best play wins {shown} ({optimum.cpu_seconds:.1f} s of CPU{memory})"
