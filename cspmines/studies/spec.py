"""A study file read and checked: the suites it names, their points, and how to play them.

A study is a TOML file (the format is in docs/studies.md)::

    title = "Classic presets"
    games = 1000
    seed = 0

    [[suite]]
    name = "beginner"
    size = "beginner"
    agents = ["exact", "greedy"]

Everything is checked before any game is played: an unknown key, a value of the
wrong type, a missing field, an agent or agent option that does not exist, a
board its first click cannot be played on. Each error is one line naming the
file, the line and the key.

>>> study = parse_study('title = "t"\\ngames = 5\\n[[suite]]\\nname = "b"\\nsize = "beginner"\\nagents = ["exact"]\\n')
>>> study.title, [(suite.name, [(x, point.mines) for x, point in suite.points]) for suite in study.suites]
('t', [('b', [(None, 10)])])
>>> parse_study('title = "t"\\n[[suite]]\\nname = "b"\\nagent = ["exact"]\\n', source="s.toml")
Traceback (most recent call last):
...
cspmines.studies.spec.StudyError: s.toml:4: suite "b": unknown key 'agent' (did you mean 'agents'?)
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..agents.external import DEFAULT_MOVE_TIMEOUT, table_name
from ..bench import Suite, SuiteVariant, sweep_suites
from ..bench.suite import SuiteError
from ..errors import CspminesError, PositionFormatError
from ..position import decode_text, is_whole

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = ["Study", "StudySuite", "StudyError", "parse_study", "read_study"]

SWEEPS = ("density_sweep", "size_sweep", "mines_sweep", "withheld_sweep")
_WHOLE_SWEEPS = ("size_sweep", "mines_sweep")
_TOP = {"title": str, "description": str, "games": int, "seed": int, "workers": int, "executor": str, "address": str,
        "judge": bool, "move_timeout": float, "suite": list}
_SUITE = {"name": str, "note": str, "size": str, "rules": str, "first_click": str, "withheld": float, "agents": list,
          "against": str, "games": int, "density": float, "density_sweep": list, "size_sweep": list, "mines_sweep": list,
          "withheld_sweep": list, "judge": bool, "no_guess": bool}
_REQUIRED = ("name", "agents")


class StudyError(CspminesError, ValueError):
    """A study file that cannot be played; the message names the file, the line and the key."""


@dataclass(frozen=True)
class StudySuite:
    """One suite of a study: its points (x, Suite), x None for a single point; ``sweep`` names the swept key;
    ``judge``: every open of its games judged (:mod:`cspmines.games.judge`)."""

    name: str
    note: str
    agents: tuple
    against: str
    sweep: str | None
    points: tuple
    density: float | None = None  # a size sweep's mine density
    judge: bool = False

    @property
    def slug(self) -> str:
        """The suite's name as a file name."""
        return re.sub(r"[^A-Za-z0-9_.-]+", "-", self.name).strip("-") or "suite"

    def __post_init__(self):
        """``agents`` and ``against`` as records and tables name them: a command's player (``cmd:``) by the name
        it gave (its points play the specs)."""
        object.__setattr__(self, "agents", tuple(table_name(agent) for agent in self.agents))
        object.__setattr__(self, "against", table_name(self.against))


@dataclass(frozen=True)
class Study:
    title: str
    description: str
    games: int
    seed: int
    workers: int | None
    executor: str
    address: str | None
    suites: tuple
    source: str = "<study>"


def read_study(path) -> Study:
    """The study in ``path`` (see :func:`parse_study`)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise StudyError(f"{path}: cannot read it: {error.strerror or error}") from None
    try:
        text = decode_text(data, str(path), "a study file")  # TOML is UTF-8 text: the line that is not is named
    except PositionFormatError as error:
        raise StudyError(str(error)) from None
    return parse_study(text, source=str(path))


def parse_study(text: str, *, source: str = "<study>") -> Study:
    """A study from TOML text, every value checked; raises :class:`StudyError` naming file, line and key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise StudyError(f"{source}: not valid TOML: {error}") from None
    lines = text.splitlines()
    where = _Locator(lines, source)
    _check_keys(data, _TOP, where, None, "the study")
    if not data.get("suite"):
        raise StudyError(f"{source}: no suites: add at least one [[suite]] table")
    games, seed = data.get("games", 100), data.get("seed", 0)
    for key, value in (("games", games), ("seed", seed)):
        if value < (1 if key == "games" else 0):
            raise StudyError(f"{where.line(None, key)}: {key} must be at least {1 if key == 'games' else 0}, got {value}")
    executor = data.get("executor", "process")
    if executor not in ("process", "ray"):
        raise StudyError(f"{where.line(None, 'executor')}: executor must be process or ray, got {executor!r}")
    suites = _suites(data["suite"], games, seed, where, data.get("judge", False))
    workers = data.get("workers")
    if workers is not None and workers < 1:
        raise StudyError(f"{where.line(None, 'workers')}: workers must be at least 1, got {workers}")
    move_timeout = data.get("move_timeout", DEFAULT_MOVE_TIMEOUT)  # what a cmd: player has for a move, everywhere
    if not move_timeout > 0:
        raise StudyError(f"{where.line(None, 'move_timeout')}: move_timeout must be seconds above 0, got {move_timeout}")
    suites = [replace(suite, points=tuple((x, replace(point, move_timeout=float(move_timeout))) for x, point in suite.points))
              for suite in suites]
    return Study(data.get("title", Path(source).stem), data.get("description", ""), games, seed, workers, executor,
                 data.get("address") or None, tuple(suites), source)


def _suites(tables, games: int, seed: int, where: _Locator, judge: bool) -> list[StudySuite]:
    """The ``[[suite]]`` tables, each checked (its keys, the required ones, a name of its own) and read."""
    suites = []
    names: set = set()
    for index, table in enumerate(tables):
        if not isinstance(table, dict):
            raise StudyError(f"{where.source}: suite must be a list of tables, [[suite]]")
        label = f'suite "{table.get("name", index + 1)}"'
        _check_keys(table, _SUITE, where, index, label)
        for key in _REQUIRED:
            if key not in table:
                raise StudyError(f"{where.table(index)}: {label}: the key {key!r} is missing")
        if table["name"] in names:
            raise StudyError(f"{where.line(index, 'name')}: {label}: another suite has this name")
        names.add(table["name"])
        suites.append(_suite(table, index, label, games, seed, where, judge))
    return suites


def _suite(table: dict, index: int, label: str, games: int, seed: int, where: _Locator, judge: bool = False) -> StudySuite:
    sweeps = [key for key in SWEEPS if key in table]
    if len(sweeps) > 1:
        raise StudyError(f"{where.line(index, sweeps[1])}: {label}: one sweep a suite, got {' and '.join(sweeps)}")
    sweep = sweeps[0] if sweeps else None
    if "density" in table and sweep != "size_sweep":  # dropped otherwise, silently
        raise StudyError(f"{where.line(index, 'density')}: {label}: density is the mine density of a size_sweep's boards, "
                         "and this suite has none: remove it, or give the mines in size")
    agents = table["agents"]
    if not agents or not all(isinstance(a, str) for a in agents):
        raise StudyError(f"{where.line(index, 'agents')}: {label}: agents must be a list of agent names")
    against = table.get("against", agents[0])
    if against not in agents:
        raise StudyError(f"{where.line(index, 'against')}: {label}: against must be one of its agents, got {against!r}")
    size = _board_size(table, sweep, where.line(index, "size"), label)
    try:
        base = Suite.create(agents=agents, size=size, rules=table.get("rules", "classic"), first_click=table.get("first_click", "safe"),
                            games=table.get("games", games), seed=seed,
                            variant=SuiteVariant(withheld=table.get("withheld", 0.0), no_guess=table.get("no_guess", False)))
    except (SuiteError, ValueError) as error:
        key = _key_of(str(error), table)
        raise StudyError(f"{where.line(index, key)}: {label}: {error}") from None
    values = table.get(sweep, []) if sweep else []
    whole = sweep in _WHOLE_SWEEPS  # sides and mine counts: 2.5 is no count, and true is no number
    fits = is_whole if whole else _is_number
    if sweep and (not values or not all(fits(v) for v in values)):
        raise StudyError(f"{where.line(index, sweep)}: {label}: {sweep} must be a list of {'whole ' if whole else ''}numbers")
    points: list
    try:
        if sweep == "density_sweep":
            points = list(sweep_suites(base, densities=values))
        elif sweep == "size_sweep":
            points = list(sweep_suites(base, sizes=[int(v) for v in values], density=table.get("density", 0.15)))
        elif sweep == "mines_sweep":
            points = [(int(m), _checked(replace(base, mines=int(m)))) for m in values]
        elif sweep == "withheld_sweep":
            points = [(float(p), _checked(replace(base, withheld=float(p)))) for p in values]
        else:
            points = [(None, base)]
    except (SuiteError, ValueError) as error:
        raise StudyError(f"{where.line(index, sweep)}: {label}: {error}") from None
    density = table.get("density", 0.15) if sweep == "size_sweep" else None
    return StudySuite(table["name"], table.get("note", ""), tuple(agents), against, sweep, tuple(points), density,
                      table.get("judge", judge))


def _board_size(table: dict, sweep: str | None, line: str, label: str) -> str:
    """The suite's ``size`` as :meth:`Suite.create` takes it. A density or mines sweep gives each point its
    mines, so its size names the board alone (``"8x8"`` or a preset); a size sweep gives each point its
    board, so the suite has no size. A value the sweep would drop is refused, naming what to write.

    >>> _board_size({"size": "8x8"}, "density_sweep", "s.toml:3", 'suite "a"')
    '8x8x0'
    >>> _board_size({"size": "8x8x10"}, "density_sweep", "s.toml:3", 'suite "a"')
    Traceback (most recent call last):
    ...
    cspmines.studies.spec.StudyError: s.toml:3: suite "a": size "8x8x10" names 10 mines, and density_sweep gives each point its own: name the board alone, size = "8x8"
    """
    size = table.get("size", "expert")
    parts = size.split("x") if isinstance(size, str) else []
    if sweep == "size_sweep" and "size" in table:
        raise StudyError(f"{line}: {label}: size_sweep gives each point its board (a square of each side at density): "
                         "remove size")
    if sweep in ("density_sweep", "mines_sweep") and all(part.isdigit() for part in parts):
        if len(parts) == 2:
            return f"{size}x0"  # the board alone: each point brings its mines
        if len(parts) == 3:
            raise StudyError(f'{line}: {label}: size "{size}" names {parts[2]} mines, and {sweep} gives each point its own: '
                             f'name the board alone, size = "{parts[0]}x{parts[1]}"')
    return size


def _is_number(value) -> bool:
    """An int or a float, not a bool (TOML's true is no number)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _checked(suite: Suite) -> Suite:
    """A sweep's point, checked as :meth:`Suite.create` checks a suite."""
    return Suite.create(agents=suite.agents, size=f"{suite.width}x{suite.height}x{suite.mines}", rules=suite.rules,
                        first_click=suite.first_click, games=suite.games, seed=suite.seed, variant=suite.variant)


def _key_of(message: str, table: dict) -> str:
    """The key a suite's error is about (its first word that names one), for the line number."""
    if "no room for a no-guess" in message:
        return "size"
    if "no-guess boards are drawn under" in message:
        return "first_click" if "first_click" in table else "no_guess"
    for key in ("agents", "rules", "first_click", "withheld", "games", "size"):
        if key.replace("_", " ") in message or key in message:
            return key
    if "agent" in message:
        return "agents"
    return "size" if "size" in table else "name"


def _check_keys(table: dict, allowed: dict, where: _Locator, index: int | None, label: str) -> None:
    for key, value in table.items():
        if key not in allowed:
            near = difflib.get_close_matches(key, list(allowed), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else f"; the keys are {', '.join(allowed)}"
            raise StudyError(f"{where.line(index, key)}: {label}: unknown key {key!r}{hint}")
        kind = allowed[key]
        fits = is_whole(value) if kind is int else _is_number(value) if kind is float else isinstance(value, kind)
        if not fits:
            raise StudyError(f"{where.line(index, key)}: {label}: {key} must be {_KINDS[kind]}, got {value!r}")


_KINDS = {str: "a string", int: "a whole number", float: "a number", list: "a list", bool: "true or false"}


class _Locator:
    """Line numbers of keys in the TOML text (tomllib gives values, not where they stand)."""

    def __init__(self, lines: list, source: str):
        self.lines, self.source = lines, source
        self.tables = [n for n, line in enumerate(lines) if re.match(r"\s*\[\[\s*suite\s*\]\]", line)]

    def table(self, index: int | None) -> str:
        if index is None or index >= len(self.tables):
            return self.source
        return f"{self.source}:{self.tables[index] + 1}"

    def line(self, index: int | None, key: str | None) -> str:
        start = 0 if index is None else self.tables[index] + 1 if index < len(self.tables) else 0
        end = (self.tables[0] if self.tables else len(self.lines)) if index is None else \
            (self.tables[index + 1] if index + 1 < len(self.tables) else len(self.lines))
        if key is not None:
            pattern = re.compile(rf"\s*{re.escape(key)}\s*=")
            for n in range(start, end):
                if pattern.match(self.lines[n]):
                    return f"{self.source}:{n + 1}"
        return self.table(index)
