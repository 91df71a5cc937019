"""Reading a request: its JSON body's fields and its query's parameters, each checked for its type and range and
refused in one line otherwise (:class:`~cspmines.web.guard.BadRequest`, a 400).

A whole number in a body is a JSON integer: not 1.5, nor ``"1"``, nor ``true`` (Python's bool is an int, JSON's
true is no number); in a query, where every value is text, it is written in the digits 0 to 9 alone. A choice is
one of its words, a flag is true or false, and a field or parameter the endpoint does not read is refused by name,
so a misspelt one is not silently left out.

>>> data = body_object(b'{"row": 2, "col": 1.5}')
>>> whole(data, "row", below=9)
2
>>> whole(data, "col", below=9, where="on this 9x9 board")
Traceback (most recent call last):
...
cspmines.web.guard.BadRequest: col must be a whole number from 0 to 8 on this 9x9 board, got 1.5
>>> only(data, ("row", "column"), "a move")
Traceback (most recent call last):
...
cspmines.web.guard.BadRequest: a move has no field 'col': it takes row and column
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from starlette.requests import Request

from ..actions import RULES
from ..bench import Suite, SuiteVariant
from ..games.board import FIRST_CLICKS
from ..position import is_whole
from .guard import BadRequest

__all__ = ["REQUIRED", "BenchRecord", "body_object", "boolean", "choice", "listed", "number", "only", "only_parameters", "query_flag",
           "query_number", "query_parts", "query_whole", "text", "whole"]

REQUIRED = object()  # a field with no default: missing, it is refused
_DIGITS = re.compile(r"[0-9]+")
_FLAGS = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False, "": False}


def listed(words) -> str:
    """Words as a sentence lists them: ``a, b and c``.

    >>> listed(["row", "col", "kind"]), listed(["seed"]), listed([])
    ('row, col and kind', 'seed', 'none')
    """
    words = list(words)
    if not words:
        return "none"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def body_object(body: bytes) -> dict:
    """The body as a JSON object (an empty body: ``{}``), or a one-line refusal of what is not one."""
    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BadRequest(f"the body is not JSON: {error}") from None
    except RecursionError:
        raise BadRequest("the body is not JSON this server reads: it nests lists or objects too deep") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    return data


def only(data: dict, fields, what: str) -> None:
    """Refuse a field of ``data`` not among ``fields`` (``what`` names the request: "a move")."""
    for name in data:
        if name not in fields:
            raise BadRequest(f"{what} has no field {name!r}: it takes {listed(fields)}")


def _range(low: int, below: int | None) -> str:
    return f">= {low}" if below is None else f"from {low} to {below - 1}"


def _missing(data: dict, name: str, default, kind: str):
    """The default of a field left out, or its refusal when it has none."""
    if default is REQUIRED:
        raise BadRequest(f"{name} is missing: {kind}")
    return default


def whole(data: dict, name: str, *, low: int = 0, below: int | None = None, where: str = "", default=REQUIRED):
    """The field ``name``: a JSON integer from ``low`` up to (not including) ``below``; ``where`` ends the
    message ("on this 9x9 board")."""
    kind = f"a whole number {_range(low, below)}" + (f" {where}" if where else "")
    if name not in data:
        return _missing(data, name, default, kind)
    value = data[name]
    if default is not REQUIRED and value is None:
        return default
    if not (is_whole(value) and value >= low and (below is None or value < below)):
        raise BadRequest(f"{name} must be {kind}, got {value!r}")
    return int(value)


def number(data: dict, name: str, *, low: float, below: float, default=REQUIRED) -> float:
    """The field ``name``: a JSON number (an integer or not, never true or false) from ``low`` up to (not
    including) ``below``."""
    kind = f"a number from {low:g} up to (not including) {below:g}"
    if name not in data:
        return _missing(data, name, default, kind)
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (low <= value < below):
        raise BadRequest(f"{name} must be {kind}, got {value!r}")
    return float(value)


def choice(data: dict, name: str, words, *, default=REQUIRED) -> str:
    """The field ``name``: one of ``words`` (a string, not another JSON value that equals one)."""
    words = tuple(words)
    if name not in data:
        return _missing(data, name, default, f"one of {', '.join(words)}")
    value = data[name]
    if not (isinstance(value, str) and value in words):
        raise BadRequest(f"{name} must be one of {', '.join(words)}, got {value!r}")
    return value


def boolean(data: dict, name: str, *, default=REQUIRED) -> bool:
    """The field ``name``: JSON's true or false."""
    if name not in data:
        return _missing(data, name, default, "true or false")
    value = data[name]
    if not isinstance(value, bool):
        raise BadRequest(f"{name} must be true or false, got {value!r}")
    return value


def text(data: dict, name: str, what: str, *, default=REQUIRED) -> str:
    """The field ``name``: a JSON string (``what`` says which: "an agent's name")."""
    if name not in data:
        return _missing(data, name, default, what)
    value = data[name]
    if not isinstance(value, str):
        raise BadRequest(f"{name} must be {what}, got {value!r}")
    return value


@dataclass(frozen=True)
class BenchRecord:
    """What a line of ``cspmines bench --out`` says of the game it records: enough to play it again (its other
    fields, the results, are not read)."""

    agent: str
    game: int
    width: int
    height: int
    mines: int
    rules: str
    withheld: float
    first_click: str
    seed: int
    no_guess: bool

    NOT_ONE = "not a game record of cspmines bench --out"  # the refusals' opening words

    @classmethod
    def read(cls, body: bytes) -> BenchRecord:
        """The record in ``body``, each field checked (a refusal names the field).

        >>> BenchRecord.read(b'{"agent": "exact", "game": "1"}')
        Traceback (most recent call last):
        ...
        cspmines.web.guard.BadRequest: not a game record of cspmines bench --out: game must be a whole number >= 0, got '1'
        """
        try:
            record = body_object(body)
            agent, game = text(record, "agent", "an agent's name"), whole(record, "game")  # read in the record's order
            sizes = {name: whole(record, name, low=low) for name, low in (("width", 1), ("height", 1), ("mines", 0))}
            return cls(agent, game, **sizes,
                       rules=choice(record, "rules", RULES), withheld=number(record, "withheld", low=0, below=1),
                       first_click=choice(record, "first_click", FIRST_CLICKS), seed=whole(record, "seed"),
                       no_guess=boolean(record, "no_guess", default=False))
        except BadRequest as error:
            raise BadRequest(f"{cls.NOT_ONE}: {error}") from None

    def suite(self) -> Suite:
        """The suite the game was played in, as far as its game (the bench checks the rest as it reads a suite)."""
        return Suite.create(agents=[self.agent], size=f"{self.width}x{self.height}x{self.mines}", rules=self.rules,
                            first_click=self.first_click, games=self.game + 1, seed=self.seed,
                            variant=SuiteVariant(withheld=self.withheld, no_guess=self.no_guess))


# -- the query: every value is text ------------------------------------------------------------------------------


def only_parameters(request: Request, names) -> None:
    """Refuse a query parameter the endpoint does not read (the endpoint named by its path)."""
    for name in request.query_params:
        if name not in names:
            raise BadRequest(f"{request.url.path} has no parameter {name!r}: it takes {listed(names)}")


def query_whole(request: Request, name: str, *, low: int = 0):
    """The parameter ``name`` as a whole number >= ``low`` written in digits, or None when it is not given."""
    value = request.query_params.get(name)
    if value in (None, ""):
        return None
    if not _DIGITS.fullmatch(value) or int(value) < low:
        raise BadRequest(f"{name} must be a whole number >= {low}, got {value!r}")
    return int(value)


def query_number(request: Request, name: str):
    """The parameter ``name`` as a number (as Python spells a float: ``nan`` and ``inf`` are left to the reader
    that checks its range), or None when it is not given."""
    value = request.query_params.get(name)
    if value in (None, ""):
        return None
    try:
        return float(value)
    except ValueError:
        raise BadRequest(f"{name} must be a number, got {value!r}") from None


def query_flag(request: Request, name: str) -> bool:
    """The parameter ``name``: true or false (also 1 or 0, yes or no), false when it is not given or empty."""
    value = request.query_params.get(name, "false")
    try:
        return _FLAGS[value.lower()]
    except KeyError:
        raise BadRequest(f"{name} must be true or false, got {value!r}") from None


def query_parts(request: Request, name: str, parts) -> tuple:
    """The parameter ``name``: a flag (true: every one of ``parts``, false or not given: none), or some of
    ``parts`` separated by commas, each once, in the order ``parts`` gives them.

    >>> from starlette.requests import Request
    >>> asked = lambda query: Request({"type": "http", "query_string": query.encode(), "path": "/api/solve"})
    >>> parts = ("dead", "fifty_fifties", "endgame")
    >>> query_parts(asked("insight=yes"), "insight", parts), query_parts(asked("insight=endgame,dead"), "insight", parts)
    (('dead', 'fifty_fifties', 'endgame'), ('dead', 'endgame'))
    >>> query_parts(asked("insight=values"), "insight", parts)
    Traceback (most recent call last):
    ...
    cspmines.web.guard.BadRequest: insight must be true, false or some of dead, fifty_fifties and endgame separated by commas, got 'values'
    """
    value = request.query_params.get(name, "false")
    if value.lower() in _FLAGS:
        return tuple(parts) if _FLAGS[value.lower()] else ()
    asked = [word.strip() for word in value.split(",")]
    if any(word not in parts for word in asked):
        raise BadRequest(f"{name} must be true, false or some of {listed(parts)} separated by commas, got {value!r}")
    return tuple(part for part in parts if part in asked)
