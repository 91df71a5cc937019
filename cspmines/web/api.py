"""The web API: JSON over HTTP on the engine, the agents, the game simulator and the bench.

Every answer is JSON; bad input answers 400 with ``{"error": "..."}``, the
same one-line message the command line prints (a position's place written
``line 2, column 3``); 404, 405, 410 (a game dropped from the store), 413 (a
body over the cap) and 503 (every worker busy, with ``Retry-After``) are JSON
too (:mod:`cspmines.web.guard`). Every field and query parameter is read by its
type and range (a row is a JSON integer on the board: not 1.5, ``"1"`` nor
true), and one an endpoint does not read is refused by name (:mod:`cspmines.web.fields`).

* ``POST /api/solve?mines=&density=&time_limit=&outcomes=&insight=`` (body: a position in the text format):
  what ``cspmines solve --json --exact`` prints; with ``outcomes=ROW,COL;ROW,COL...`` (or ``all``,
  every covered cell) also ``outcomes``, what opening each of those cells ends in (``cspmines solve
  --outcomes``' entries), or null with ``outcomes_missing`` saying why (a density, a count cut short,
  or the time limit spent counting the clues by the front); with ``insight=true`` also ``insight``,
  the dead cells, 50/50s and endgame winning chances (``cspmines solve --insight --json``'s field), or
  null with ``insight_missing`` saying why (``insight=endgame``, or ``dead,fifty_fifties``: only the parts
  named, the others null and "not asked"). The endgame is the value of the position under best play with
  every covered cell's winning chance, searched within :data:`~cspmines.web.limits.ENDGAME_SHARE` of the
  time left for it: exact, or past it proven bounds (``exact`` false, ``chance`` null, ``low`` and ``high``);
  null, with the reason in the insight's ``missing``, where its layouts are more than the server's time or
  memory can list and search; with ``agent=NAME`` (``rules=``, ``seed=``) also ``advice``, its move
  with the least chance and ``why`` it beats it (:mod:`cspmines.web.moves`), or null with ``advice_missing``.
* ``POST /api/move?agent=exact&rules=classic&seed=&explain=`` (body: a position, ``agent`` repeatable):
  what ``cspmines move --json`` prints; with ``explain=true`` each move also says ``why``.
* ``POST /api/games`` (JSON: ``size``, ``rules``, ``first_click``, ``seed``, ``no_guess`` (a board the first click
  solves without a guess, drawn uniformly among them; ``method``: ``adjust`` for faster, not uniform); or ``board``: an uploaded
  whole board as board JSON, ``{"mbf": base64}`` or the text format with its mines marked) starts a game;
  ``POST /api/games/{id}/moves`` (JSON: ``row``, ``col``, ``kind`` open or flag) plays a move,
  ``POST /api/games/{id}/agent`` (JSON: ``agent``) plays an agent's move (``played``, with ``why``), ``POST /api/games/{id}/undo``
  takes one back. Each answers the game: ``position`` (text), ``status``, ``moves`` and the measures.
* ``POST /api/replay`` (body: one line of ``cspmines bench --out``): the game played again from its
  record's suite and seed, every position move by move, each with the move made there.
* ``POST /api/replays?name=game.avf`` (body: a replay file's bytes; ``format=avf`` where the name has no
  extension): what ``cspmines replay --json --no-agent`` prints for it; with ``steps=true`` also ``steps``, the
  position before each click with the click made there, as ``/api/replay`` gives them.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import partial
from importlib.resources import files

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..actions import RULES, Action, ActionKind, Rules
from ..agents import make_agent
from ..agents.advice import NotCountedError, advise
from ..agents.external import is_outside
from ..bench import Suite, agent_seed, new_game
from ..engine.budget import Limit
from ..engine.engine import solve
from ..engine.insight import PARTS
from ..errors import CspminesError, TooLargeError
from ..games import Board, Status, draw_no_guess, play
from ..games.board import FIRST_CLICKS, PRESETS, FirstClick, parse_size
from ..position import Position
from ..present.answers import analysis_json, moves_json
from ..replays import ReplayFormatError, analyse_replay, read_replay
from ..replays.report import replay_json
from .fields import (
    BenchRecord,
    body_object,
    boolean,
    choice,
    only,
    only_parameters,
    query_flag,
    query_number,
    query_parts,
    query_whole,
    text,
    whole,
)
from .guard import BadRequest, Busy, GameStore, Gate, error_handlers, read_body, web_message
from .limits import SERVER_LIMIT
from .moves import advice_json, least_cells, why, with_why
from .played import PlayedGame
from .readings import insight_answer, outcome_cells, outcomes_answer

__all__ = ["build_app"]

MOST_CELLS_FOR_AGENTS = 10_000  # agents play whole boards; past this a request could hold the server


def _fits(cells: int) -> None:
    """Refuse a game on more cells than agents play here (checked before a board is made)."""
    if cells > MOST_CELLS_FOR_AGENTS:
        raise BadRequest(f"games are played on at most {MOST_CELLS_FOR_AGENTS:,} cells, this board has {cells:,}")


def _own_agents(specs) -> None:
    """Refuse agents that would run code a request names (a command line, a Python file): the page plays the
    package's agents and installed plugins only."""
    for spec in specs:
        if is_outside(spec):
            raise BadRequest(f"agent {spec!r}: the web page plays no cmd: or FILE.py: players; use cspmines bench or move")


#: What each endpoint reads: its query's parameters, its body's fields (a field or parameter not here is refused).
SOLVE_PARAMETERS = ("mines", "density", "time_limit", "outcomes", "insight", "agent", "rules", "seed")
MOVE_PARAMETERS = ("agent", "rules", "seed", "explain", "mines", "time_limit")
REPLAYS_PARAMETERS = ("name", "format", "steps", "time_limit")
GAME_FIELDS = ("size", "rules", "first_click", "seed", "no_guess", "method", "board")
MOVE_FIELDS = ("row", "col", "kind")
AGENT_FIELDS = ("agent", "seed")


def _position(body: bytes) -> Position:
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text: send a position in the text format") from None
    return Position.from_string(text, source="<request>")


def _uploaded_board(upload, first_click: str) -> Board:
    """A whole board sent to start a game on: board JSON (an object or its text), ``{"mbf": base64}``, or
    the position format with every mine marked; the game's first click follows ``first_click`` where it names
    a cell (``safe``: the corner, when it is not a mine)."""
    import base64

    if isinstance(upload, dict) and "mbf" in upload:
        try:
            board = Board.from_mbf(base64.b64decode(upload["mbf"]), source="<upload>")
        except ValueError as error:
            raise BadRequest(f"not an MBF board: {error}") from None
    elif isinstance(upload, dict):
        board = Board.from_json(json.dumps(upload), source="<upload>")
    elif isinstance(upload, str) and upload.lstrip().startswith("{"):
        board = Board.from_json(upload, source="<upload>")
    elif isinstance(upload, str):
        board = Board.from_position_text(upload, source="<upload>")
    else:
        raise BadRequest("board must be board JSON, {\"mbf\": base64} or a board in the text format")
    if board.first_click is None and first_click == FirstClick.SAFE and not board.is_mine(0):  # a board's own click stays
        board = Board(board.mines, first_click=0)
    return board


#: Boards certified for one no-guess game before the request gives up (an expert board takes about 10).
NO_GUESS_ATTEMPTS = 2000


def _new_board(size: tuple, seed, first_click: str, no_guess: bool, method) -> Board:
    """A seeded board for a new game: any board of the first-click rule, or one it solves without a guess
    (drawn uniformly among them, or adjusted: ``method``)."""
    if not no_guess:
        return Board.random(size, seed=seed, first_click=first_click)
    return draw_no_guess(size, seed=seed, first_click=first_click, method=method, attempts=NO_GUESS_ATTEMPTS).board


async def _page(request: Request) -> Response:
    return HTMLResponse((files("cspmines.web") / "static" / "index.html").read_text(encoding="utf-8"))


def _size(data: dict) -> tuple[int, int, int]:
    """The ``size`` field (a preset or ``WxHxM``, beginner when left out) as (width, height, mines)."""
    size = data.get("size", "beginner")
    if not isinstance(size, str):
        raise BadRequest(f"size must be a preset ({', '.join(PRESETS)}) or WxHxM, got {size!r}")
    return parse_size(size)


def _record_game(body: bytes) -> tuple[str, Suite, int]:
    """A line of ``cspmines bench --out`` read for the game it names: (its agent, its suite, the game's index)."""
    record = BenchRecord.read(body)
    _own_agents([record.agent])
    _fits(record.width * record.height)  # before its board is drawn
    try:
        return record.agent, record.suite(), record.game
    except ValueError as error:
        raise BadRequest(f"{BenchRecord.NOT_ONE}: {error}") from None


class _Api:
    """The JSON endpoints, each ``(request, body) -> answer``, over one server's games and its ``limit``:
    the time a request may count (lowered by the request's own ``time_limit``) and the memory one solve
    may hold."""

    def __init__(self, *, limit: Limit, max_games: int) -> None:
        self.games: GameStore[PlayedGame] = GameStore(max_games)
        self.limit = limit

    def budget(self, request: Request) -> Limit:
        """What this request may spend: the server's limit, its time lowered by the request's own."""
        asked = query_number(request, "time_limit")
        try:
            Limit(time=asked)  # the one check of a time limit, and its message
        except ValueError as error:
            raise BadRequest(f"time_limit: {error}") from None
        allowed = self.limit.time
        seconds = asked if allowed is None else min(asked or allowed, allowed)
        return replace(self.limit, time=seconds)

    def api_solve(self, request: Request, body: bytes) -> dict:
        only_parameters(request, SOLVE_PARAMETERS)
        position = _position(body)
        mines = query_whole(request, "mines")
        density = query_number(request, "density")
        agent, rules, seed = request.query_params.get("agent"), self.rules(request), query_whole(request, "seed")
        parts = query_parts(request, "insight", PARTS)  # read before the solve: a bad one is refused at once
        _own_agents([agent] if agent else [])
        budget = self.budget(request).start()
        analysis = solve(position, mines=mines, density=density, limit=budget.rest())
        answer = analysis_json(analysis, exact=True)
        asked = request.query_params.get("outcomes")
        if asked:
            cells = outcome_cells(position, asked)
            answer["outcomes"], answer["outcomes_missing"] = outcomes_answer(analysis, cells, budget.rest(memory=None))
        if parts:
            answer["insight"], answer["insight_missing"] = insight_answer(analysis, parts, budget.rest())
        if agent and analysis.position.size > MOST_CELLS_FOR_AGENTS:
            answer["advice"], answer["advice_missing"] = None, f"agents play boards of at most {MOST_CELLS_FOR_AGENTS:,} cells"
        elif agent:  # the agent's move the page outlines, judged on this count
            answer["advice"], answer["advice_missing"] = advice_json(analysis, agent, rules=rules, seed=seed)
        return answer

    def rules(self, request: Request) -> Rules:
        return Rules.check(request.query_params.get("rules", "classic"))

    def api_move(self, request: Request, body: bytes) -> dict:
        only_parameters(request, MOVE_PARAMETERS)
        position = _position(body)
        if position.size > MOST_CELLS_FOR_AGENTS:
            raise BadRequest(f"agents play boards of at most {MOST_CELLS_FOR_AGENTS:,} cells, this one has {position.size:,}")
        mines = query_whole(request, "mines")
        if mines is not None:
            position = position.with_mines(mines)
        if position.mines is None:
            raise BadRequest("the position's mine total is unknown: pass mines=N")
        rules, seed, explain = self.rules(request), query_whole(request, "seed"), query_flag(request, "explain")
        specs = request.query_params.getlist("agent") or ["exact"]
        _own_agents(specs)
        advice = advise(position, specs, rules=rules, seed=seed, limit=self.budget(request), explain=explain)
        answer = moves_json(advice, explain=explain)
        return with_why(answer, advice) if explain else answer  # without explain, what cspmines move --json prints

    def game_state(self, game_id: str) -> dict:
        return self.games.get(game_id).state(game_id)

    def api_new_game(self, request: Request, body: bytes) -> dict:
        data = body_object(body)
        only(data, GAME_FIELDS, "a new game")
        rules = choice(data, "rules", RULES, default="classic")
        first_click = choice(data, "first_click", FIRST_CLICKS, default="safe")
        if "board" in data:  # a whole board uploaded: board JSON, or MBF as base64
            board = _uploaded_board(data["board"], first_click)
        else:
            width, height, mines = _size(data)
            _fits(width * height)  # before the board is drawn: a huge one would hold the server
            seed, no_guess = whole(data, "seed", default=None), boolean(data, "no_guess", default=False)
            board = _new_board((width, height, mines), seed, first_click, no_guess, data.get("method", "uniform"))
        _fits(board.size)
        game_id = self.games.add(PlayedGame(board, rules))
        return self.game_state(game_id)

    def find(self, request: Request) -> PlayedGame:
        return self.games.get(request.path_params["game_id"])

    def apply(self, played: PlayedGame, action: Action) -> None:
        with self.games.lock:
            played.play(action)

    def api_play(self, request: Request, body: bytes) -> dict:
        played, data = self.find(request), body_object(body)
        only(data, MOVE_FIELDS, "a move")
        position = played.game.position
        where = f"on this {position.width}x{position.height} board"
        row = whole(data, "row", below=position.height, where=where)
        col = whole(data, "col", below=position.width, where=where)
        kind = choice(data, "kind", ActionKind.words(), default=ActionKind.OPEN.value)
        self.apply(played, Action(ActionKind(kind), position.cell(row, col)))
        return self.game_state(request.path_params["game_id"])

    def api_agent(self, request: Request, body: bytes) -> dict:
        played, data = self.find(request), body_object(body)
        only(data, AGENT_FIELDS, "an agent's move")
        game = played.game
        spec = text(data, "agent", "an agent's name", default="exact")
        _own_agents([spec])
        seed = whole(data, "seed", default=None)
        try:  # the agent plays only what counts within the request's limits, judged as /api/move judges it
            advice = advise(game.position, [spec], rules=game.rules, seed=seed, limit=self.budget(request), explain=True)
        except NotCountedError as error:
            raise BadRequest(f"the game's position: {error}") from None
        (suggestion,) = advice.suggestions
        self.apply(played, suggestion.action)
        answer = self.game_state(request.path_params["game_id"])
        row, col = advice.position.row_col(suggestion.action.cell)
        answer["played"] = {"agent": spec, "action": suggestion.action.kind, "cell": [row, col], "reason": suggestion.reason,
                            "mine_fraction": str(suggestion.mine_probability),
                            "why": why(suggestion, advice.position, least_cells(advice))}
        return answer

    def api_undo(self, request: Request, body: bytes) -> dict:
        played = self.find(request)
        only(body_object(body), (), "an undo")
        with self.games.lock:
            played.undo()
        return self.game_state(request.path_params["game_id"])

    def api_replay(self, request: Request, body: bytes) -> dict:
        agent, suite, i = _record_game(body)
        game = new_game(suite, i)
        steps: list[dict] = []

        def step(position: Position, action: Action) -> None:
            steps.append({"position": str(position), "action": action.kind, "cell": list(position.row_col(action.cell)),
                          "certain": action.certain})

        played = play(make_agent(agent), game, seed=agent_seed(suite, i), observe=step,
                      limit=self.budget(request))  # the bench's own game loop
        return {"agent": agent, "game": i, "status": played.status, "steps": steps, "final": str(game.position),
                "complete": played.status != Status.PLAYING}

    def api_replays(self, request: Request, body: bytes) -> dict:
        only_parameters(request, REPLAYS_PARAMETERS)
        name = request.query_params.get("name") or "<upload>"
        kind = request.query_params.get("format")
        if kind is None and "." not in name:
            raise BadRequest("say the replay's format: ?name=game.avf, or ?format=avf (avf, rmv, evf or mvf)")
        try:
            replay = read_replay(name, data=body, format=kind)
        except ReplayFormatError as error:
            raise BadRequest(str(error)) from None
        budget = self.budget(request)  # the whole request's: the clicks judged within it, the rest left (complete: false)
        answer = replay_json(analyse_replay(replay, agent=False, limit=budget, total=budget))
        if query_flag(request, "steps"):
            answer["steps"] = [{"position": str(click.seen), "action": click.action.value, "cell": [click.row, click.col],
                                "flags": [list(divmod(cell, replay.width)) for cell in click.flags],
                                "chance": judged["chance"], "class": judged["class"]}
                               for click, judged in zip(replay.clicks[: len(answer["clicks"])], answer["clicks"], strict=True)]
        return answer


def _endpoint(handler, *, gate: Gate, max_body: int):
    """A route's function: the body read under its cap, the handler run in a worker thread once the gate
    lets it in, its answer or its error as JSON."""

    async def run(request: Request) -> Response:
        try:
            body = await read_body(request, max_body)
            async with gate:  # the counting runs in a worker thread, so the server goes on answering meanwhile
                return JSONResponse(await run_in_threadpool(handler, request, body))
        except Busy as error:
            return JSONResponse({"error": str(error)}, status_code=503, headers={"Retry-After": "2"})
        except BadRequest as error:
            return JSONResponse({"error": web_message(error)}, status_code=error.status)
        except TooLargeError as error:  # well formed, but more than one request's share of memory
            return JSONResponse({"error": web_message(error)}, status_code=422)
        except MemoryError:  # what no estimate foresaw: this request's structures are gone with its frames
            return JSONResponse({"error": "out of memory while answering this request: try a smaller position"},
                                status_code=503, headers={"Retry-After": "2"})
        except KeyError as error:  # a field the checks above did not ask for by name
            return JSONResponse({"error": f"a field is missing: {error.args[0]!r}"}, status_code=400)
        except (CspminesError, ValueError, TypeError) as error:  # bad input: the message says what
            return JSONResponse({"error": web_message(error)}, status_code=400)

    return run


def build_app(*, limit: Limit = SERVER_LIMIT, max_body: int = 1_000_000, max_games: int = 1000, workers: int = 4,
              busy_wait: float = 10.0) -> Starlette:
    """The application (see the module's description): ``limit`` is what one request may spend (its time
    and the memory its solve may hold; ``workers`` of them count at once), the others are :mod:`.guard`'s."""
    api = _Api(limit=limit, max_games=max_games)
    endpoint = partial(_endpoint, gate=Gate(workers, busy_wait), max_body=max_body)
    routes = [
        Route("/", _page),
        Route("/api/solve", endpoint(api.api_solve), methods=["POST"]),
        Route("/api/move", endpoint(api.api_move), methods=["POST"]),
        Route("/api/games", endpoint(api.api_new_game), methods=["POST"]),
        Route("/api/games/{game_id}/moves", endpoint(api.api_play), methods=["POST"]),
        Route("/api/games/{game_id}/agent", endpoint(api.api_agent), methods=["POST"]),
        Route("/api/games/{game_id}/undo", endpoint(api.api_undo), methods=["POST"]),
        Route("/api/replay", endpoint(api.api_replay), methods=["POST"]),
        Route("/api/replays", endpoint(api.api_replays), methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(files("cspmines.web") / "static")), name="static"),
    ]
    return Starlette(routes=routes, exception_handlers=error_handlers)
