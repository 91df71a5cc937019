"""The agent's move as the page gets it: ``/api/solve?agent=`` answers the move it outlines, the least chance
beside it and one line on why the move beats the least when it does, from the reasons the agent's advice carries."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("starlette")  # the web extra is in the test extra: this runs in CI
from starlette.testclient import TestClient  # noqa: E402

from cspmines import Limit, Position, solve  # noqa: E402
from cspmines.actions import Action  # noqa: E402
from cspmines.agents.advice import Suggestion, suggest  # noqa: E402
from cspmines.agents.exact import Reason  # noqa: E402
from cspmines.agents.exact.lookahead import Lookahead  # noqa: E402
from cspmines.web import (
    SERVER_MEMORY,
    create_app,  # noqa: E402
)
from cspmines.web.moves import RULES_SAY, why  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "cspmines" / "data" / "examples"
DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(limit=Limit(time=5.0, memory=SERVER_MEMORY)))


def percent(chance) -> str:
    return f"{100 * float(chance):.1f}%"


def test_the_expert_guess_answers_the_agents_move_and_why_it_beats_the_least_chance(client):
    """The bundled expert guess: the least chance is 14/99 at two cells, and the exact agent opens (6,29) at 5/33
    because the look-ahead finds it safe with a safe move after it more often, and its clue proves a cell more
    often; the line gives the look-ahead's own numbers for the move and for the least-chance cell it weighed."""
    text = (EXAMPLES / "expert-guess.txt").read_text()
    answer = client.post("/api/solve?agent=exact", content=text).json()
    advice, analysis = answer["advice"], solve(Position.from_string(text))
    move = suggest(analysis.position, "exact", analysis=analysis, explain=True)
    row, col = analysis.position.row_col(move.action.cell)
    least = analysis.cells_where(lambda p: p == move.least)
    assert answer["advice_missing"] is None and advice["agent"] == "exact" and advice["reason"] == "look-ahead"
    assert advice["cell"] == [row, col] and advice["mine_fraction"] == str(move.mine_probability)
    assert advice["least_mine_fraction"] == str(move.least) and move.mine_probability > move.least
    assert advice["least_cells"] == [list(analysis.position.row_col(cell)) for cell in least]
    assert move.action.cell not in least  # the move is not a cell of the least chance
    views = {view.cell: view for view, _ in move.candidates}
    chosen = views[move.action.cell]
    other = max((views[cell] for cell in least if cell in views), key=lambda view: view.score(0.001))
    at = "({},{})".format(*analysis.position.row_col(other.cell))
    assert advice["why"] == (
        f"the least chance is {percent(move.least)}, at " + " ".join(f"({r},{c})" for r, c in advice["least_cells"]) +
        f"; the look-ahead finds it safe with a safe move after it {percent(chosen.secondary)} of the time, against "
        f"{percent(other.secondary)} for {at}, its clue proving another cell {percent(chosen.progress)} of the time "
        f"against {percent(other.progress)}")
    assert (percent(move.mine_probability), percent(move.least)) == ("15.2%", "14.1%")  # the guess the page had mis-outlined
    assert f"{percent(chosen.progress)} of the time against {percent(other.progress)}" == "39.6% of the time against 6.3%"


def test_a_move_of_the_least_chance_says_no_why(client):
    text = (EXAMPLES / "beginner.txt").read_text()
    advice = client.post("/api/solve?agent=exact", content=text).json()["advice"]
    assert advice["mine_fraction"] == advice["least_mine_fraction"] and advice["why"] is None
    assert advice["cell"] in advice["least_cells"]


def test_a_solve_answers_no_move_where_none_can_be_judged_and_says_why(client):
    dense = client.post("/api/solve?agent=exact&density=0.2", content="4x2\n1...\n1...\n").json()
    assert dense["advice"] is None and "mine total" in dense["advice_missing"]
    wide = client.post("/api/solve?agent=exact&time_limit=0.05", content=(DATA / "lattice15-2.txt").read_text()).json()
    assert wide["exact"] is False and wide["advice"] is None and "cut short" in wide["advice_missing"]
    won = client.post("/api/solve?agent=exact", content="3x1x1\n01.\n").json()
    assert won["advice"] is None and won["advice_missing"] == "every covered cell is a mine: the game is won"
    assert "advice" not in client.post("/api/solve", content="3x1x1\n.1.").json()  # only when asked


@pytest.mark.parametrize("query, error", [
    ("agent=nobody", "unknown agent 'nobody'"),
    ("agent=cmd:ls", "agent 'cmd:ls': the web page plays no cmd: or FILE.py: players"),
    ("agent=exact&rules=golf", "rules must be one of classic, minesearch, score, got 'golf'"),
    ("agent=exact&seed=x", "seed must be a whole number >= 0, got 'x'"),
])
def test_a_solve_asking_a_move_of_a_bad_agent_or_rules_is_refused(client, query, error):
    answer = client.post(f"/api/solve?{query}", content="3x1x1\n.1.")
    assert answer.status_code == 400 and answer.json()["error"].startswith(error)


def test_the_moves_and_the_games_agent_say_why_with_explain(client):
    text = (EXAMPLES / "expert-guess.txt").read_text()
    moves = client.post("/api/move?agent=exact&agent=greedy&explain=true&seed=1", content=text).json()["moves"]
    assert moves[0]["why"].startswith("the least chance is 14.1%") and "look-ahead" in moves[0]["why"]
    assert "why" not in client.post("/api/move?agent=exact", content=text).json()["moves"][0]  # as cspmines move --json
    game = client.post("/api/games", json={"size": "beginner", "seed": 5}).json()
    played = client.post(f"/api/games/{game['id']}/agent", json={"agent": "exact"}).json()["played"]
    assert played["reason"] == "proved" and played["why"] is None


def suggestion(reason, chance: Fraction, least: Fraction, *, kind: str = "open", candidates=()) -> Suggestion:
    return Suggestion("exact", "classic", Action(kind, 5), reason, chance, least, candidates)


POSITION = Position.from_string("4x2x2\n1...\n1...")


def view(cell: int, safety: float, secondary: float, progress: float, *, dead: bool = False, influence: float = 1.0):
    return Lookahead(cell, safety, secondary, progress, dead, influence=influence)


def test_each_rule_of_the_exact_agent_says_why_in_its_own_words():
    assert set(RULES_SAY) == set(Reason)  # a rule added to the agent is not left unexplained
    for reason, says in RULES_SAY.items():
        line = why(suggestion(reason, Fraction(1, 2), Fraction(1, 3)), POSITION, (2, 3, 6, 7))
        assert line == f"the least chance is 33.3%, at (0,2) (0,3) (1,2) and 1 more; {says}"
    assert why(suggestion(None, Fraction(1, 2), Fraction(1, 3)), POSITION, (2,)).endswith("; exact does not say why")


def test_why_is_said_only_of_an_open_riskier_than_the_least():
    assert why(suggestion(Reason.ENDGAME, Fraction(1, 3), Fraction(1, 3)), POSITION, (5,)) is None  # at the least
    assert why(suggestion(Reason.ENDGAME, Fraction(1, 3) + Fraction(1, 10**9), Fraction(1, 3)), POSITION, (2,))
    assert why(suggestion("proved", Fraction(1), Fraction(0), kind="flag"), POSITION, (2,)) is None  # a flag


def test_the_look_ahead_line_compares_the_move_with_the_least_chance_cell_it_weighed():
    chosen, other = view(5, 0.5, 0.45, 0.5, influence=1.2), view(3, 0.75, 0.4, 0.0)
    line = why(suggestion(Reason.LOOK_AHEAD, Fraction(1, 2), Fraction(1, 4), candidates=((chosen, 0.5), (other, 0.4))),
               POSITION, (3,))
    assert line == ("the least chance is 25.0%, at (0,3); the look-ahead finds it safe with a safe move after it 45.0% of "
                    "the time, against 40.0% for (0,3), its clue proving another cell 50.0% of the time against 0.0%, "
                    "its 50/50 influence 1.20 against 1.00")
    level = why(suggestion(Reason.LOOK_AHEAD, Fraction(1, 2), Fraction(1, 4),
                           candidates=((view(5, 0.5, 0.45, 0.0), 0.45), (view(3, 0.75, 0.4, 0.0), 0.4))), POSITION, (3,))
    assert level.endswith("against 40.0% for (0,3)")  # no progress or influence said where they are level
    dead = why(suggestion(Reason.LOOK_AHEAD, Fraction(1, 2), Fraction(1, 4),
                          candidates=((chosen, 0.5), (view(3, 0.75, 0.5, 0.0, dead=True), 0.5))), POSITION, (3,))
    assert dead.endswith("; (0,3) can tell nothing (safe, it shows the same clue in every layout), and the look-ahead "
                         "opens a cell that can")
    unweighed = why(suggestion(Reason.LOOK_AHEAD, Fraction(1, 2), Fraction(1, 4)), POSITION, (3,))
    assert unweighed.endswith(RULES_SAY[Reason.LOOK_AHEAD])  # no candidates carried: the rule's own words
