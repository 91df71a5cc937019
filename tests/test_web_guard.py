"""The server under hostile input and load: every answer JSON, bodies capped before they are read,
a bounded game store, 503 rather than an endless queue, and no input that gives a 500."""

from __future__ import annotations

import socket
import threading
import time

import pytest

pytest.importorskip("starlette")  # the web extra is in the test extra: this runs in CI
from starlette.testclient import TestClient  # noqa: E402

from cspmines import Limit
from cspmines.cli import main  # noqa: E402
from cspmines.web import (
    SERVER_MEMORY,
    create_app,  # noqa: E402
)

ENDPOINTS = ["/api/solve", "/api/move", "/api/games", "/api/games/1/moves", "/api/games/1/agent", "/api/games/1/undo",
             "/api/replay", "/api/replays?name=x.avf"]
BAD_BODIES = [b"", b"\x00\xff\xfe" * 50, b"{", b"[]", b'{"seed": "abc"}', b'{"agent": 5}', b'{"row": "a", "col": []}',
              b'{"size": "100000x100000x5"}', b'{"board": 7}', b'{"board": {"mbf": "###"}}', b"30x16x99\n" + b"." * 40,
              b'{"agent": "exact", "game": "x"}', b"3x1x1\n.9.\n", "\u2603".encode()]


@pytest.fixture()
def client():
    return TestClient(create_app(limit=Limit(time=2.0, memory=SERVER_MEMORY), max_body=4000, max_games=3), raise_server_exceptions=False)


def test_no_input_gives_a_500_and_every_answer_is_json(client):
    assert client.post("/api/games", json={"size": "beginner", "seed": 1}).status_code == 200  # game 1 exists
    for path in ENDPOINTS:
        for body in BAD_BODIES:
            answer = client.post(path, content=body)
            assert answer.status_code < 500, (path, body, answer.text)
            assert isinstance(answer.json(), dict), (path, body)
            if answer.status_code != 200:
                assert answer.json()["error"]


def test_the_agent_seed_that_was_a_500_is_a_400(client):
    game = client.post("/api/games", json={"size": "beginner", "seed": 2}).json()
    answer = client.post(f"/api/games/{game['id']}/agent", json={"seed": "abc"})
    assert answer.status_code == 400 and answer.json()["error"] == "seed must be a whole number >= 0, got 'abc'"


def test_unknown_paths_and_methods_answer_json(client):
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and missing.json() == {"error": "no such page or endpoint: /api/nothing"}
    wrong = client.get("/api/solve")
    assert wrong.status_code == 405 and wrong.json() == {"error": "GET is not allowed on /api/solve"}


def test_a_body_over_the_cap_is_refused_with_413_before_it_is_read(client):
    declared = client.post("/api/solve", content=b"." * 5000)
    assert declared.status_code == 413 and "at most 4,000" in declared.json()["error"]

    def chunks():  # no Content-Length: the cap stops the reading
        for _ in range(10):
            yield b"." * 1000

    streamed = client.post("/api/solve", content=chunks())
    assert streamed.status_code == 413 and "runs past 4,000 bytes" in streamed.json()["error"]


def padded(size: int) -> bytes:
    """A position of exactly ``size`` bytes: a small board, then blank lines."""
    body = b"3x1x1\n.1.\n"
    return body + b"\n" * (size - len(body))


@pytest.mark.parametrize("streamed", [False, True], ids=["content-length", "chunked"])
def test_the_cap_takes_a_body_of_exactly_its_size_and_refuses_one_byte_more(client, streamed):
    """The cap is the most bytes read: 4,000 are answered, 4,001 are not, whether the size is declared
    (Content-Length) or only found while reading (chunked, no length)."""
    def send(body: bytes):
        if not streamed:
            return client.post("/api/solve", content=body)

        def chunks():
            for start in range(0, len(body), 999):
                yield body[start:start + 999]

        return client.post("/api/solve", content=chunks())

    at_cap = send(padded(4000))
    assert at_cap.status_code == 200 and at_cap.json()["model_count"] == "2"
    assert ("content-length" in at_cap.request.headers) != streamed
    over = send(padded(4001))
    assert over.status_code == 413
    assert ("runs past 4,000 bytes" if streamed else "the body is 4,001 bytes; this server reads at most 4,000") in over.json()["error"]


def test_the_game_store_is_bounded_and_says_when_it_dropped_a_game(client):
    ids = [client.post("/api/games", json={"size": "beginner", "seed": s}).json()["id"] for s in range(4)]
    dropped = client.post(f"/api/games/{ids[0]}/undo")
    assert dropped.status_code == 410 and "was dropped" in dropped.json()["error"]
    assert client.post(f"/api/games/{ids[3]}/undo").status_code == 200
    assert client.post("/api/games/12345/undo").json()["error"] == "no game '12345' on this server"


def test_agent_moves_and_replays_run_under_the_budget(client):
    game = client.post("/api/games", json={"size": "beginner", "seed": 3}).json()
    played = client.post(f"/api/games/{game['id']}/agent", json={"agent": "exact"})
    assert played.status_code == 200 and played.json()["played"]["agent"] == "exact"


def wide_lattice() -> str:
    rows = ["".join("2" if r % 2 and c % 2 else "." for c in range(41)) for r in range(41)]
    return "41x41x300\n" + "\n".join(rows) + "\n"


@pytest.mark.slow
def test_a_busy_server_answers_503_with_retry_after_instead_of_queueing():
    import httpx
    from localserver import serving

    with serving(create_app(limit=Limit(time=3.0, memory=SERVER_MEMORY), workers=1, busy_wait=0.3)) as url:
        slow = threading.Thread(target=lambda: httpx.post(f"{url}/api/solve", content=wide_lattice(), timeout=30))
        slow.start()
        time.sleep(0.5)  # the one worker is counting the lattice (3 s)
        started = time.monotonic()
        busy = httpx.post(f"{url}/api/solve", content="3x1x1\n.1.", timeout=30)
        assert busy.status_code == 503 and busy.headers["retry-after"] == "2" and "busy" in busy.json()["error"]
        assert time.monotonic() - started < 2.5
        slow.join()
        after = httpx.post(f"{url}/api/solve", content="3x1x1\n.1.", timeout=30)  # answered at once once free
        assert after.status_code == 200 and after.json()["model_count"] == "2"


def test_serve_checks_its_port_before_saying_it_serves(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"cannot serve on 127.0.0.1:{port}" in err and "serving on" not in err and err.count("\n") == 1


@pytest.mark.slow
def test_test_servers_each_hold_a_port_picked_at_run_time():
    """The servers the tests start (the browser's, the busy one's) each bind 127.0.0.1 on a port the system
    picks and hold it from the start: two at once get two ports, and both answer."""
    import httpx
    from localserver import serving

    with serving(create_app()) as first, serving(create_app()) as second:
        assert first != second and first.startswith("http://127.0.0.1:") and second.startswith("http://127.0.0.1:")
        for url in (first, second):
            assert httpx.post(f"{url}/api/solve", content="3x1x1\n.1.", timeout=30).json()["model_count"] == "2"
