"""What keeps the server answering under load and hostile input: JSON for every answer, a cap on bodies,
a bounded game store, and a gate that answers 503 rather than queue without end.

* Every answer is JSON, errors included: 400 (bad input), 404 (no such path
  or game), 405 (wrong method), 410 (a game dropped from the store), 413 (a
  body over the cap), 503 (every worker busy), and a JSON 500 for a fault of
  ours (none is known; the tests send every input they can think of).
* :func:`read_body` refuses a body over the cap from its ``Content-Length``
  before reading it, and stops reading one that runs past the cap.
* :class:`GameStore` keeps the games played on the server, at most ``limit``,
  the least recently used dropped first; a dropped game answers 410 saying so.
* :class:`Gate` lets ``workers`` requests count at once; the next waits up to
  ``wait`` seconds for a turn and then answers 503 with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import threading
import weakref
from collections import OrderedDict
from typing import Generic, TypeVar

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

__all__ = ["BadRequest", "Busy", "Gate", "GameStore", "Gone", "TooLarge", "error_handlers", "read_body", "web_message"]


class BadRequest(ValueError):
    """A request the API cannot answer: its message is the answer (400)."""

    status = 400


class Gone(BadRequest):
    """A game the store dropped to make room (410)."""

    status = 410


class TooLarge(BadRequest):
    """A body over the server's cap (413)."""

    status = 413


class Busy(Exception):
    """Every worker is busy and the wait for one ran out (503)."""


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (:class:`TooLarge`) past ``limit`` bytes without reading it whole."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            size = int(declared)
        except ValueError:
            raise BadRequest(f"the Content-Length header is not a number: {declared!r}") from None
        if size > limit:
            raise TooLarge(f"the body is {size:,} bytes; this server reads at most {limit:,}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"the body runs past {limit:,} bytes, the most this server reads")
        chunks.append(chunk)
    return b"".join(chunks)


Entry = TypeVar("Entry")


class GameStore(Generic[Entry]):
    """The games on the server by id, at most ``limit``; the least recently used go first."""

    def __init__(self, limit: int):
        self.limit = limit
        self.lock = threading.Lock()
        self._games: OrderedDict = OrderedDict()
        self._dropped: OrderedDict = OrderedDict()  # ids dropped lately, to say so rather than "no such game"
        self._ids = itertools.count(1)

    def add(self, entry: Entry) -> str:
        with self.lock:
            game_id = str(next(self._ids))
            self._games[game_id] = entry
            while len(self._games) > self.limit:
                dropped, _ = self._games.popitem(last=False)
                self._dropped[dropped] = True
                while len(self._dropped) > 10 * self.limit:
                    self._dropped.popitem(last=False)
            return game_id

    def get(self, game_id: str) -> Entry:
        with self.lock:
            if game_id in self._games:
                self._games.move_to_end(game_id)
                return self._games[game_id]
            if game_id in self._dropped:
                raise Gone(f"game {game_id} was dropped: this server keeps its {self.limit:,} most recently used games")
        raise BadRequest(f"no game {game_id!r} on this server")

    def __len__(self) -> int:
        return len(self._games)


class Gate:
    """At most ``workers`` requests counting at once; a request waits at most ``wait`` seconds for a turn."""

    def __init__(self, workers: int, wait: float):
        self.workers, self.wait = workers, wait
        # one semaphore per event loop (a server has one; a test client may run several), made on first use
        self._turns: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        turns = self._turns.get(loop)
        if turns is None:
            turns = self._turns[loop] = asyncio.Semaphore(self.workers)
        return turns

    async def __aenter__(self):
        try:
            await asyncio.wait_for(self._semaphore().acquire(), timeout=self.wait)
        except asyncio.TimeoutError:
            raise Busy(f"all {self.workers} workers are busy; try again shortly") from None
        return self

    async def __aexit__(self, *exc):
        self._semaphore().release()


def web_message(error: Exception) -> str:
    """An error's message for a page: the readers name their source as a file (``<request>:2:3: ...``,
    for the command line); here it is ``line 2, column 3: ...``.

    >>> web_message(ValueError("<request>:2:3: clue 9 is above 8: '.9.'"))
    "line 2, column 3: clue 9 is above 8: '.9.'"
    >>> web_message(ValueError("<upload>: not an MBF board"))
    'not an MBF board'
    """
    text = str(error)
    found = re.match(r"<(?:request|upload|string|bytes)>(?::(\d+))?(?::(\d+))?: (.*)", text, re.S)
    if not found:
        return text
    line, column, rest = found.groups()
    where = ", ".join(part for part in (line and f"line {line}", column and f"column {column}") if part)
    return f"{where}: {rest}" if where else rest


def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    reason = {404: f"no such page or endpoint: {request.url.path}",
              405: f"{request.method} is not allowed on {request.url.path}"}.get(error.status_code, str(error.detail))
    return JSONResponse({"error": reason}, status_code=error.status_code, headers=getattr(error, "headers", None))


def _fault(request: Request, error: Exception) -> JSONResponse:
    return JSONResponse({"error": f"internal error ({type(error).__name__}); the request was {request.method} "
                                  f"{request.url.path}"}, status_code=500)


#: Starlette's exception handlers: every error a JSON answer.
error_handlers = {HTTPException: _http_error, Exception: _fault}
