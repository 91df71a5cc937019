"""The web API through Starlette's test client: exact answers, errors, budgets, games, replays."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("starlette")  # the web extra is in the test extra: this runs in CI
from starlette.testclient import TestClient  # noqa: E402

from cspmines import Limit, Position, solve  # noqa: E402
from cspmines.bench import Suite, play_game  # noqa: E402
from cspmines.cli import main  # noqa: E402
from cspmines.web import (
    SERVER_MEMORY,
    create_app,  # noqa: E402
)

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(limit=Limit(time=5.0, memory=SERVER_MEMORY)))


@pytest.mark.parametrize("name", ["beginner-5-000", "expert-5-027", "dense-5-023", "lattice7-2"])
def test_solve_answers_the_reference_fractions(client, name):
    reference = json.loads((DATA / f"{name}.json").read_text())
    answer = client.post("/api/solve", content=(DATA / f"{name}.txt").read_text())
    assert answer.status_code == 200
    result = answer.json()
    assert result["model_count"] == reference["solutions"] and result["exact"]
    expected = [[None if f is None else str(Fraction(*f)) for f in row] for row in reference["probability_fractions"]]
    assert result["fractions"] == expected


def test_bad_input_answers_400_with_the_clis_message(client):
    answer = client.post("/api/solve", content="3x1x1\n.9.\n")
    assert answer.status_code == 400 and answer.json()["error"] == "line 2, column 2: clue 9 is above 8: '.9.'"
    assert client.post("/api/solve", content="3x1\n.1.").json()["error"].startswith("the position's mine total is unknown")
    assert client.post("/api/solve?density=abc", content="3x1\n.1.").status_code == 400
    assert client.post("/api/solve", content=b"\xff\xfe\x00").status_code == 400
    assert client.post("/api/move?rules=golf", content="3x1x1\n.1.").json()["error"].startswith("rules must be one of")
    assert client.post("/api/games/99/undo").json()["error"] == "no game '99' on this server"
    assert client.post("/api/replay", content="{}").json()["error"].startswith("not a game record")


def test_solve_answers_the_outcomes_of_the_cells_asked_or_says_why_not(client):
    from cspmines.engine.clues import clue_spreads

    board = "4x2x2\n1...\n1...\n"
    analysis = solve(Position.from_string(board))
    result = client.post("/api/solve?outcomes=0,1;1,3", content=board).json()
    assert result["outcomes_missing"] is None and [o["cell"] for o in result["outcomes"]] == [[0, 1], [1, 3]]
    every = client.post("/api/solve?outcomes=all", content=board).json()["outcomes"]
    spreads = clue_spreads(analysis, analysis.position.covered_cells)
    assert [o["fractions"] for o in every] == [[str(p) for p in s.probabilities()] for s in spreads.values()]
    for asked, error in [("0,0", "outcomes 0,0: the cell is not covered"), ("2,1", "outcomes 2,1: outside the 4x2 board (rows 0 to 1, columns 0 to 3)"),
                         ("1", "outcomes takes cells as ROW,COL separated by ';', or all; got '1'")]:
        answer = client.post(f"/api/solve?outcomes={asked}", content=board)
        assert answer.status_code == 400 and answer.json()["error"] == error
    dense = client.post("/api/solve?outcomes=all&density=0.2", content="4x2\n1...\n1...\n").json()
    assert dense["outcomes"] is None and "mine total" in dense["outcomes_missing"]
    wide = client.post("/api/solve?outcomes=all&time_limit=0.5", content=(DATA / "lattice13-2.txt").read_text()).json()
    assert wide["outcomes"] is None and wide["outcomes_missing"]  # a count cut short, or the time spent on the clues


def test_solve_answers_the_insight_when_asked_or_says_why_not(client):
    from cspmines import insight_of
    from cspmines.present.answers import insight_json

    text = (Path(__file__).resolve().parent.parent / "cspmines" / "data" / "examples" / "beginner-endgame.txt").read_text()
    assert "insight" not in client.post("/api/solve", content=text).json()  # only when asked
    answer = client.post("/api/solve?insight=true", content=text).json()
    analysis = solve(Position.from_string(text))
    assert answer["insight_missing"] is None and answer["insight"] == insight_json(analysis.position, insight_of(analysis))
    assert answer["insight"]["endgame"]["fraction"] == "1/2" and [f["kind"] for f in answer["insight"]["fifty_fifties"]] == ["unavoidable", "pseudo"]
    dense = client.post("/api/solve?insight=true&density=0.2", content="4x2\n1...\n1...\n").json()
    assert dense["insight"] is None and "mine total" in dense["insight_missing"]
    wide = client.post("/api/solve?insight=true&time_limit=0.5", content=(DATA / "lattice13-2.txt").read_text()).json()
    assert wide["insight"] is None or any(wide["insight"][part] is None for part in ("dead", "fifty_fifties", "endgame"))


def test_a_wide_position_answers_within_its_budget(client):
    answer = client.post("/api/solve?time_limit=0.05", content=(DATA / "lattice15-2.txt").read_text())
    assert answer.status_code == 200 and answer.json()["exact"] is False  # what could be proved, marked so


def test_move_answers_as_the_command_line_does(client, capsys):
    text = (DATA / "expert-5-027.txt").read_text()
    answer = client.post("/api/move?agent=exact&agent=greedy&seed=1", content=text).json()
    path = DATA / "expert-5-027.txt"
    assert main(["move", str(path), "--agent", "exact", "--agent", "greedy", "--seed", "1", "--json"]) == 0
    assert answer == json.loads(capsys.readouterr().out)


def test_twenty_requests_at_once_answer_correctly(client):
    texts = [(DATA / f"{name}.txt").read_text() for name in ("beginner-5-000", "expert-5-027", "intermediate-5-001", "dense-5-023")]
    expected = [str(solve(Position.from_string(text)).model_count) for text in texts]
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda k: client.post("/api/solve", content=texts[k % 4]).json()["model_count"], range(20)))
    assert answers == [expected[k % 4] for k in range(20)]


def test_a_game_is_played_by_clicks_and_by_agents_and_undone(client):
    game = client.post("/api/games", json={"size": "beginner", "seed": 5, "rules": "classic"}).json()
    assert game["status"] == "playing" and game["moves"] == 0
    path = f"/api/games/{game['id']}"
    first = client.post(f"{path}/agent", json={"agent": "exact"}).json()
    assert first["moves"] == 1 and first["played"]["reason"] == "proved"
    row, col = first["played"]["cell"]
    assert Position.from_string(first["position"]).grid[row, col] >= 0  # opened
    undone = client.post(f"{path}/undo").json()
    assert undone["moves"] == 0 and undone["position"] == game["position"]
    while game["status"] == "playing":
        game = client.post(f"{path}/agent", json={"agent": "exact"}).json()
    assert game["status"] in ("won", "lost")
    assert client.post(f"{path}/moves", json={"row": 0, "col": 0}).status_code == 400  # the game is over


def test_replay_plays_a_bench_record_again_move_by_move(client):
    suite = Suite.create(agents=["exact"], size="beginner", games=3, seed=4)
    record = play_game(suite, "exact", 2)
    answer = client.post("/api/replay", content=json.dumps(record)).json()
    assert answer["status"] == record["status"] and len(answer["steps"]) == record["moves"]
    assert Position.from_string(answer["steps"][0]["position"]).width == 9


def test_the_page_is_served_with_its_scripts(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert client.get("/static/app.js").status_code == 200 and client.get("/static/style.css").status_code == 200


def test_serve_checks_for_the_web_extra(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a))
    assert main(["serve"]) == 2
    assert "serve needs the web extra: pip install 'cspmines[web]'" in capsys.readouterr().err


def test_a_whole_board_uploaded_as_json_or_mbf_starts_a_game(client):
    import base64

    from cspmines.games import Board

    board = Board.random("beginner", seed=9)
    for upload in (board.to_json(), {"mbf": base64.b64encode(board.to_mbf()).decode()}):
        game = client.post("/api/games", json={"board": upload, "rules": "classic"}).json()
        assert game["status"] == "playing" and Position.from_string(game["position"]).grid[0, 0] >= 0  # the corner opened
    assert client.post("/api/games", json={"board": {"mbf": "AAAA"}}).status_code == 400


def test_a_position_too_big_for_agents_is_refused_not_hung(client):
    text = "120x100x100\n" + "\n".join(["." * 120] * 100)
    answer = client.post("/api/move", content=text)
    assert answer.status_code == 400 and "at most 10,000 cells" in answer.json()["error"]


def test_a_game_too_big_is_refused_before_its_board_is_drawn(client):
    # a 10^10-cell board would take the server minutes and gigabytes to draw: the size is read first
    answer = client.post("/api/games", json={"size": "100000x100000x1"})
    assert answer.status_code == 400 and "at most 10,000 cells, this board has 10,000,000,000" in answer.json()["error"]
    record = {"agent": "exact", "game": 0, "width": 100000, "height": 100000, "mines": 1, "rules": "classic",
              "withheld": 0.0, "first_click": "safe", "seed": 0}
    answer = client.post("/api/replay", content=json.dumps(record))
    assert answer.status_code == 400 and "at most 10,000 cells" in answer.json()["error"]


@pytest.mark.parametrize("seed", ["abc", -1, 1.5, True])
def test_a_game_seed_that_is_not_a_whole_number_is_refused(client, seed):
    answer = client.post("/api/games", json={"size": "beginner", "seed": seed})
    assert answer.status_code == 400 and "seed must be a whole number >= 0" in answer.json()["error"]


def test_a_board_with_no_safe_first_click_is_refused(client):
    answer = client.post("/api/games", json={"size": "3x3x9"})
    assert answer.status_code == 400 and "no safe cell for the first click 'safe'" in answer.json()["error"]


def test_a_no_guess_board_of_an_unknown_method_is_refused_in_one_json_line(client):
    for method in ("bogus", 3, None):
        answer = client.post("/api/games", json={"size": "beginner", "no_guess": True, "method": method, "seed": 1})
        assert answer.status_code == 400
        assert answer.json()["error"] == f"method must be one of uniform, adjust, got {method!r}"
