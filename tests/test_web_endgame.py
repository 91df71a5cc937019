"""The endgame in ``/api/solve?insight=``: every covered cell's chance of winning with best play, exact where the
server's budget allows it (the engine's ``value_of(..., cells="all")``), proven bounds past it, and a reason where
the layouts are too many to search."""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from cspmines import Limit, Position, value_of  # noqa: E402
from cspmines.web import SERVER_MEMORY, create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "cspmines" / "data" / "examples"
DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(limit=Limit(time=5.0, memory=SERVER_MEMORY)))


def insight_answered(client, text: str, query: str = "insight=true") -> dict:
    answer = client.post(f"/api/solve?{query}", content=text)
    assert answer.status_code == 200, answer.text
    return answer.json()["insight"]


def by_cell(endgame: dict) -> dict:
    return {tuple(entry["cell"]): entry for entry in endgame["cells"]}


def test_the_endgame_of_a_small_position_is_the_engines_value_of_every_cell(client):
    """The bundled beginner position (3,456 layouts): the position's chance, its best cells and every covered
    cell's chance are value_of's, exactly, as fractions and as floats."""
    text = (EXAMPLES / "beginner.txt").read_text()
    position = Position.from_string(text)
    expected = value_of(position, cells="all")
    endgame = insight_answered(client, text)["endgame"]
    assert endgame["exact"] and endgame["stopped_by"] is None and endgame["layouts"] == expected.layouts == 3456
    assert endgame["fraction"] == str(expected.probability) == "557/576" == endgame["low"] == endgame["high"]
    assert endgame["best"] == [list(position.row_col(cell)) for cell in expected.best_cells]
    cells = by_cell(endgame)
    assert set(cells) == {position.row_col(cell) for cell in position.covered_cells}
    for (row, col), entry in cells.items():
        value = expected.value((row, col))
        assert entry["exact"] and entry["fraction"] == str(value.probability) == entry["low"] == entry["high"], (row, col)
        assert entry["chance"] == float(value.probability)
    assert len({entry["fraction"] for entry in cells.values()}) > 3  # the cells differ: no one value copied to all


def test_past_its_budget_the_endgame_gives_bounds_that_hold_the_exact_values():
    """A server whose budget stops the search after 500 states: the same position answers bounds, not exact,
    with chance and fraction null, and each bound holds value_of's exact value; some cells are left as bounds."""
    limited = TestClient(create_app(limit=Limit(time=30.0, nodes=500, memory=SERVER_MEMORY)))
    text = (EXAMPLES / "beginner.txt").read_text()
    exact = value_of(Position.from_string(text), cells="all")
    endgame = insight_answered(limited, text)["endgame"]
    assert not endgame["exact"] and endgame["stopped_by"] == "nodes"
    assert endgame["chance"] is None and endgame["fraction"] is None
    assert Fraction(endgame["low"]) <= exact.probability <= Fraction(endgame["high"])
    unfinished = 0
    for (row, col), entry in by_cell(endgame).items():
        truth = exact.value((row, col)).probability
        assert Fraction(entry["low"]) <= truth <= Fraction(entry["high"]), (row, col)
        if not entry["exact"]:
            assert entry["chance"] is None and entry["fraction"] is None and entry["low"] != entry["high"]
            unfinished += 1
        else:
            assert Fraction(entry["fraction"]) == truth
    assert unfinished > 0


def test_a_position_past_the_budget_has_no_endgame_and_says_why(client):
    """The bundled expert guess has 2,302,344 layouts, more than the server lists within its endgame's share:
    no endgame, the reason in the insight's missing, the other parts and the chances answered all the same."""
    text = (EXAMPLES / "expert-guess.txt").read_text()
    started = time.monotonic()
    seen = insight_answered(client, text)
    assert time.monotonic() - started < 4  # refused before any search: no need of the request's 5 s
    assert seen["endgame"] is None
    assert seen["missing"]["endgame"].startswith("not searched: 2,302,344 layouts, more than the")
    assert seen["dead"] is not None and seen["fifty_fifties"] is not None


def test_the_search_takes_only_its_share_of_the_requests_time(monkeypatch):
    """A position of 30,156 layouts whose search runs for seconds: a request of 1 s gives the value search its
    share of what is left (ENDGAME_SHARE, not the whole), and the endgame answers bounds stopped by the time."""
    from cspmines.engine import insight
    from cspmines.web.limits import ENDGAME_SHARE

    given: list = []

    def value_of_seen(position, *, limit=None, **options):
        given.append(limit)
        return value_of(position, limit=limit, **options)

    monkeypatch.setattr(insight, "value_of", value_of_seen)
    quick = TestClient(create_app(limit=Limit(time=1.0, memory=SERVER_MEMORY)))
    started = time.monotonic()
    endgame = insight_answered(quick, (DATA / "dense-5-038.txt").read_text())["endgame"]
    assert time.monotonic() - started < 2.0  # a bounded wait: the request's second, and the answer's writing
    (limit,) = given
    assert 0.5 * ENDGAME_SHARE < limit.time <= ENDGAME_SHARE * 1.0 and limit.memory == SERVER_MEMORY
    assert endgame is not None and not endgame["exact"] and endgame["stopped_by"] == "time" and endgame["layouts"] == 30156
    assert Fraction(endgame["low"]) < Fraction(endgame["high"])


def test_the_insight_asked_by_parts(client):
    """insight=endgame works out the endgame alone (the other parts null, "not asked"); a part not among them is
    refused before any counting."""
    text = (EXAMPLES / "beginner-endgame.txt").read_text()
    seen = insight_answered(client, text, "insight=endgame")
    assert seen["endgame"]["fraction"] == "1/2" and seen["dead"] is None and seen["fifty_fifties"] is None
    assert seen["missing"] == {"dead": "not asked", "fifty_fifties": "not asked"}
    both = insight_answered(client, text, "insight=fifty_fifties,dead")
    assert both["endgame"] is None and both["missing"] == {"endgame": "not asked"} and both["dead"] == [[7, 1], [8, 1]]
    refused = client.post("/api/solve?insight=dead,values", content=text)
    assert refused.status_code == 400 and refused.json()["error"] == (
        "insight must be true, false or some of dead, fifty_fifties and endgame separated by commas, got 'dead,values'")
