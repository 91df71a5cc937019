"""Every field of every request read by its type and range: a whole number is a JSON integer (not 1.5, nor "1",
nor true), a cell is on the board, a word is one of its vocabulary, a field no endpoint reads is refused by name;
each refusal a 400 with one line of JSON, never a 500. Then a bounded fuzz of malformed and off-board requests."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("starlette")  # the web extra is in the test extra: this runs in CI
from starlette.testclient import TestClient  # noqa: E402

from cspmines import (
    Limit,
    Position,  # noqa: E402
)
from cspmines.bench import Suite, play_game  # noqa: E402
from cspmines.web import (
    SERVER_MEMORY,
    create_app,  # noqa: E402
)

BOARD = "on this 9x9 board"


@pytest.fixture()
def client():
    return TestClient(create_app(limit=Limit(time=2.0, memory=SERVER_MEMORY)), raise_server_exceptions=False)


def new_game(client, seed: int = 1) -> str:
    return client.post("/api/games", json={"size": "beginner", "seed": seed}).json()["id"]


def refused(answer, error: str) -> None:
    assert answer.status_code == 400, answer.text
    assert answer.json() == {"error": error}
    assert "\n" not in error


@pytest.mark.parametrize("body, error", [
    ('{"row": 0, "col": 30, "kind": "open"}', f"col must be a whole number from 0 to 8 {BOARD}, got 30"),
    ('{"row": -1, "col": 0}', f"row must be a whole number from 0 to 8 {BOARD}, got -1"),
    ('{"row": 9, "col": 0}', f"row must be a whole number from 0 to 8 {BOARD}, got 9"),
    ('{"row": 0, "col": 9}', f"col must be a whole number from 0 to 8 {BOARD}, got 9"),
    ('{"row": 0, "col": -1}', f"col must be a whole number from 0 to 8 {BOARD}, got -1"),
    ('{"row": 1.5, "col": 1}', f"row must be a whole number from 0 to 8 {BOARD}, got 1.5"),
    ('{"row": 1.0, "col": 1}', f"row must be a whole number from 0 to 8 {BOARD}, got 1.0"),
    ('{"row": "1", "col": 1}', f"row must be a whole number from 0 to 8 {BOARD}, got '1'"),
    ('{"row": true, "col": 1}', f"row must be a whole number from 0 to 8 {BOARD}, got True"),
    ('{"row": 1, "col": null}', f"col must be a whole number from 0 to 8 {BOARD}, got None"),
    ('{"row": 1000000000000000000000000000000, "col": 0}',
     f"row must be a whole number from 0 to 8 {BOARD}, got 1000000000000000000000000000000"),
    ('{"row": 1e400, "col": 0}', f"row must be a whole number from 0 to 8 {BOARD}, got inf"),
    ('{"row": Infinity, "col": 0}', f"row must be a whole number from 0 to 8 {BOARD}, got inf"),
    ('{"row": NaN, "col": 0}', f"row must be a whole number from 0 to 8 {BOARD}, got nan"),
    ('{"col": 0}', f"row is missing: a whole number from 0 to 8 {BOARD}"),
    ('{"row": 0, "col": 0, "kind": "dig"}', "kind must be one of open, flag, got 'dig'"),
    ('{"row": 0, "col": 0, "kind": true}', "kind must be one of open, flag, got True"),
    ('{"row": 0, "col": 0, "kind": ["open"]}', "kind must be one of open, flag, got ['open']"),
    ('{"row": 0, "col": 0, "knd": "flag"}', "a move has no field 'knd': it takes row, col and kind"),
    ('[0, 0]', "the body must be a JSON object"),
])
def test_a_move_that_is_off_the_board_or_not_whole_numbers_is_refused_in_one_line(client, body, error):
    game = new_game(client)
    refused(client.post(f"/api/games/{game}/moves", content=body), error)
    assert client.post(f"/api/games/{game}/undo").json()["moves"] == 0  # nothing was played


def test_a_move_on_the_boards_last_row_and_column_or_its_first_is_played(client):
    for row, col in [(8, 8), (8, 0), (0, 8)]:  # covered cells at the edges (the first click opened the corner)
        game = new_game(client, seed=3)
        answer = client.post(f"/api/games/{game}/moves", json={"row": row, "col": col, "kind": "flag"})
        assert answer.status_code == 200 and Position.from_string(answer.json()["position"]).grid[row, col] == -2  # flagged


@pytest.mark.parametrize("body, error", [
    ({"agent": 5}, "agent must be an agent's name, got 5"),
    ({"agent": "exact", "seed": 1.5}, "seed must be a whole number >= 0, got 1.5"),
    ({"agent": "exact", "seed": True}, "seed must be a whole number >= 0, got True"),
    ({"agent": "exact", "seed": -1}, "seed must be a whole number >= 0, got -1"),
    ({"agnt": "random"}, "an agent's move has no field 'agnt': it takes agent and seed"),
])
def test_an_agents_move_of_a_malformed_body_is_refused(client, body, error):
    refused(client.post(f"/api/games/{new_game(client)}/agent", json=body), error)


def test_an_undo_takes_an_empty_body_and_nothing_else(client):
    game = new_game(client)
    assert client.post(f"/api/games/{game}/undo").status_code == 200
    assert client.post(f"/api/games/{game}/undo", json={}).status_code == 200
    refused(client.post(f"/api/games/{game}/undo", json={"moves": 2}), "an undo has no field 'moves': it takes none")
    refused(client.post(f"/api/games/{game}/undo", content="[]"), "the body must be a JSON object")


@pytest.mark.parametrize("body, error", [
    ({"size": [9, 9, 10]}, "size must be a preset (beginner, intermediate, expert) or WxHxM, got [9, 9, 10]"),
    ({"size": [9.5, 9, 10]}, "size must be a preset (beginner, intermediate, expert) or WxHxM, got [9.5, 9, 10]"),
    ({"sze": "expert"}, "a new game has no field 'sze': it takes size, rules, first_click, seed, no_guess, method and board"),
    ({"rules": True}, "rules must be one of classic, minesearch, score, got True"),
    ({"first_click": 0}, "first_click must be one of safe, opening, unsafe, random-safe, highest, got 0"),
])
def test_a_new_game_of_a_malformed_body_is_refused(client, body, error):
    refused(client.post("/api/games", json=body), error)


def record() -> dict:
    return play_game(Suite.create(agents=["exact"], size="beginner", games=2, seed=4), "exact", 1)


@pytest.mark.parametrize("field, value, error", [
    ("game", 1.5, "game must be a whole number >= 0, got 1.5"),
    ("game", True, "game must be a whole number >= 0, got True"),
    ("game", "1", "game must be a whole number >= 0, got '1'"),
    ("game", -1, "game must be a whole number >= 0, got -1"),
    ("game", float("inf"), "game must be a whole number >= 0, got inf"),
    ("width", "9", "width must be a whole number >= 1, got '9'"),
    ("width", 0, "width must be a whole number >= 1, got 0"),
    ("mines", 10.0, "mines must be a whole number >= 0, got 10.0"),
    ("withheld", "0", "withheld must be a number from 0 up to (not including) 1, got '0'"),
    ("withheld", 1, "withheld must be a number from 0 up to (not including) 1, got 1"),
    ("withheld", True, "withheld must be a number from 0 up to (not including) 1, got True"),
    ("no_guess", "yes", "no_guess must be true or false, got 'yes'"),
    ("no_guess", 1, "no_guess must be true or false, got 1"),
    ("agent", False, "agent must be an agent's name, got False"),
    ("rules", None, "rules must be one of classic, minesearch, score, got None"),
])
def test_a_bench_record_of_a_malformed_field_is_refused(client, field, value, error):
    line = record() | {field: value}
    answer = client.post("/api/replay", content=json.dumps(line))
    refused(answer, f"not a game record of cspmines bench --out: {error}")


def test_a_bench_record_missing_a_field_says_which(client):
    line = record()
    del line["seed"]
    refused(client.post("/api/replay", content=json.dumps(line)),
            "not a game record of cspmines bench --out: seed is missing: a whole number >= 0")
    assert client.post("/api/replay", content=json.dumps(record())).status_code == 200  # the record whole: played


@pytest.mark.parametrize("query, error", [
    ("/api/move?seed=-1", "seed must be a whole number >= 0, got '-1'"),
    ("/api/move?seed=1.5", "seed must be a whole number >= 0, got '1.5'"),
    ("/api/move?seed=%201", "seed must be a whole number >= 0, got ' 1'"),
    ("/api/move?mines=1_0", "mines must be a whole number >= 0, got '1_0'"),
    ("/api/move?explain=maybe", "explain must be true or false, got 'maybe'"),
    ("/api/move?density=0.5", "/api/move has no parameter 'density': it takes agent, rules, seed, explain, mines and time_limit"),
    ("/api/solve?mines=%D9%A3", "mines must be a whole number >= 0, got '\u0663'"),
    ("/api/solve?insight=maybe",
     "insight must be true, false or some of dead, fifty_fifties and endgame separated by commas, got 'maybe'"),
    ("/api/solve?insihgt=true",
     "/api/solve has no parameter 'insihgt': it takes mines, density, time_limit, outcomes, insight, agent, rules and seed"),
    ("/api/replays?name=x.avf&step=true", "/api/replays has no parameter 'step': it takes name, format, steps and time_limit"),
])
def test_a_query_of_a_malformed_or_unknown_parameter_is_refused(client, query, error):
    refused(client.post(query, content="3x1x1\n.1."), error)


def test_a_body_nested_past_what_is_read_is_refused_not_a_500(client):
    deep = "[" * 100_000 + "]" * 100_000
    for path in ("/api/games", "/api/games/1/agent", "/api/replay"):
        new_game(client)
        answer = client.post(path, content=deep)
        assert answer.status_code == 400 and answer.json()["error"].startswith(("the body is not JSON", "not a game record")), answer.text
    board = {"board": {"width": json.loads("[" * 900 + "]" * 900)}}
    assert client.post("/api/games", json=board).status_code == 400


# -- the fuzz: random malformed and off-board requests, none answered 500 ------------------------------------

WORDS = ["open", "flag", "classic", "score", "minesearch", "safe", "opening", "beginner", "expert", "4x4x3", "0x0x0",
         "100000x100000x1", "3x3x9", "exact", "random", "greedy", "cmd:ls", "x.py:Agent", "uniform", "adjust", ""]
LITERALS = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "-0", "0.0", "1E2", "9007199254740993",
            "123456789012345678901234567890", '"\\ud800"', '"\\u0000"', "[]", "{}", "null", "true", "false"]
#: Each field's likely values: right, or wrong by one (a row past the board's last, a word misspelt).
LIKELY = {
    "row": list(range(-2, 12)), "col": list(range(-2, 12)), "kind": ["open", "flag", "dig", "Open", ""],
    "agent": ["exact", "random", "greedy", "cmd:ls", "x.py:Agent", "nobody"], "seed": [0, 1, 2**31, -1],
    "size": ["beginner", "4x4x3", "8x8x10", "3x3x9", "0x0x0", "4x4", "100000x100000x1"],
    "rules": ["classic", "score", "minesearch", "golf"], "first_click": ["safe", "opening", "unsafe", "highest", "corner"],
    "no_guess": [True, False], "method": ["uniform", "adjust", "bogus"],
    "board": [{"width": 4, "height": 4, "mines": [[0, 1]]}, {"mbf": "AAAA"}, "4x4x1\n*...\n....\n....\n....", "{"],
    "game": [0, 1, 2, -1], "width": [9, 0, 1, 101], "height": [9, 0, 200], "mines": [10, 0, 81, 82],
    "withheld": [0.0, 0.5, 0.99, 1, -0.1],
}
FIELDS = {
    "moves": ["row", "col", "kind"],
    "agent": ["agent", "seed"],
    "undo": [],
    "games": ["size", "rules", "first_click", "seed", "no_guess", "method", "board"],
    "replay": ["agent", "game", "width", "height", "mines", "rules", "withheld", "first_click", "seed", "no_guess"],
}


def any_value(rng: random.Random, depth: int = 0) -> str:
    """A JSON value as text: numbers on and off every board, words, the literals Python's reader takes
    (NaN, Infinity), strings, lists and objects (nested a little, or now and then far past any limit)."""
    pick = rng.randrange(8 if depth < 2 else 6)
    if pick == 0:
        return str(rng.choice([0, 1, -1, 8, 9, 15, 16, 29, 30, 31, 10**6, -(10**30), 2**63, 2**64 + 1]))
    if pick == 1:
        return repr(rng.choice([0.0, 0.5, 1.5, -0.5, 8.0, 1e300, -1e-300]))
    if pick == 2:
        return rng.choice(LITERALS) if rng.random() < 0.9 else "[" * 5000 + "]" * 5000
    if pick in (3, 4):
        return json.dumps(rng.choice(WORDS))
    if pick == 5:
        return json.dumps("".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(12))))
    if pick == 6:
        return "[" + ", ".join(any_value(rng, depth + 1) for _ in range(rng.randrange(4))) + "]"
    fields = rng.sample(["mbf", "width", "height", "mines", "row", "a"], rng.randrange(3))
    return "{" + ", ".join(f"{json.dumps(f)}: {any_value(rng, depth + 1)}" for f in fields) + "}"


def any_body(rng: random.Random, endpoint: str, record: dict) -> str:
    """A body for ``endpoint``: its fields, each likely (right or wrong by one) or any value, some left out,
    some misspelt, or a body that is no JSON object at all."""
    if rng.random() < 0.05:
        return rng.choice(["", "{", "[]", "null", "7", '"row"', "\x00\xff", "{" * 3000, "3x1x1\n.1."])
    fields = dict(record) if endpoint == "replay" else {}
    body = {name: json.dumps(value) for name, value in fields.items()}
    for name in FIELDS[endpoint]:
        draw = rng.random()
        if draw < 0.6:
            body[name] = json.dumps(rng.choice(LIKELY[name]))
        elif draw < 0.85:
            body[name] = any_value(rng)
        elif draw < 0.9:
            body.pop(name, None)
    if rng.random() < 0.05:
        body[rng.choice(["rw", "Row", "kind ", "size2", ""])] = any_value(rng)
    return "{" + ", ".join(f"{json.dumps(name)}: {value}" for name, value in body.items()) + "}"


def any_query(rng: random.Random) -> str:
    path = rng.choice(["/api/solve", "/api/move", "/api/replays"])
    names = ["mines", "density", "time_limit", "outcomes", "insight", "agent", "rules", "seed", "explain", "name",
             "format", "steps", "bogus"]
    values = ["", "-1", "0", "1", "1.5", "nan", "inf", "1e400", "true", "maybe", "all", "0,0", "9,9;0,0", "-1,0", "x.avf",
              "evf", "exact", "cmd:ls", "golf", "%00", "%F0%9F%92%A3", "endgame", "dead,endgame", "endgame,"]
    return path + "?" + "&".join(f"{rng.choice(names)}={rng.choice(values)}" for _ in range(rng.randrange(4)))


def test_a_thousand_malformed_and_off_board_requests_get_no_500():
    """1,000 requests drawn from a fixed seed (so a failure comes back the same): move, agent, undo, new-game and
    bench-record bodies with fields of every type and range (numbers off the board, NaN, 1e400, nested far past
    the reader's limit), and queries of every endpoint. Each is answered under a small time limit on a beginner
    game; none may answer 500, and every refusal is one line of JSON saying what was wrong."""
    client = TestClient(create_app(limit=Limit(time=0.5, memory=SERVER_MEMORY), max_games=50), raise_server_exceptions=False)
    rng = random.Random(20261127)
    line = record()
    statuses: dict = {}
    for request in range(1000):
        if request % 25 == 0:  # a fresh game now and then: the moves played end the one before
            game = new_game(client, seed=request % 7)
        kind = rng.choice(["moves"] * 4 + ["agent", "undo", "games", "replay", "query"])
        if kind == "query":
            path, body = any_query(rng), rng.choice(["3x1x1\n.1.", "4x2x2\n1...\n1...", "", "3x1\n.9."])
        else:
            path = {"games": "/api/games", "replay": "/api/replay"}.get(kind, f"/api/games/{game}/{kind}")
            body = any_body(rng, kind, line)
        answer = client.post(path, content=body.encode("utf-8", "surrogatepass"))
        assert answer.status_code < 500, (path, body[:300], answer.text)
        if answer.status_code != 200:
            error = answer.json()["error"]
            assert error and "\n" not in error and "Traceback" not in error, (path, body[:300], error)
        statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
    assert sum(statuses.values()) == 1000 and statuses.get(400, 0) > 500 and statuses.get(200, 0) > 50  # most refused


def test_the_least_of_each_range_is_taken(client):
    """The edges that are allowed: a seed of 0 in a query, every way of writing a query's true and false, a bench
    record of a board one cell wide holding no mine and withholding nothing."""
    from cspmines.web.fields import BenchRecord

    assert client.post("/api/move?seed=0", content="3x1x1\n.1.").status_code == 200
    endgame = "4x2x2\n1...\n1...\n"
    for word in ("1", "true", "yes", "TRUE"):
        assert client.post(f"/api/solve?insight={word}", content=endgame).json()["insight"] is not None
    for word in ("0", "false", "no", ""):
        answer = client.post(f"/api/solve?insight={word}", content=endgame)
        assert answer.status_code == 200 and "insight" not in answer.json()
    line = record() | {"width": 1, "height": 1, "mines": 0, "withheld": 0, "game": 0}
    read = BenchRecord.read(json.dumps(line).encode())
    assert (read.width, read.height, read.mines, read.withheld, read.game) == (1, 1, 0, 0.0, 0)
    assert read.suite().width == 1
