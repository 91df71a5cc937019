"""suggest(): an agent's move on a position, judged against the brute-force oracle."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from cspmines import InconsistentPositionError, Limit, MissingTotalError, Position
from cspmines.agents import Action, ExactAgent, agent_names, make_agent
from cspmines.agents.advice import GameOverError, suggest
from cspmines.position import COVERED, FLAG, MINE

from bruteforce import brute_force
from randompositions import positions_with_total, random_position

GUESS_REASONS = {"endgame", "fifty-fifty", "pseudo fifty-fifty", "pocket", "look-ahead", "least risk", "likeliest mine",
                 "fewest mines", "fewest openings", "information"}


def _playable_positions(count: int, seed: int):
    """Random consistent positions with a total and a covered cell that is not a mine in every layout, with their oracles."""

    def playable(position: Position):
        oracle = brute_force(position)
        return oracle if oracle.model_count and any(p < 1 for p in oracle.probabilities.values()) else None

    return positions_with_total(count, seed, max_covered=12, accept=playable)


@pytest.mark.parametrize("rules", ["classic", "score", "minesearch"])
def test_every_agent_is_judged_by_the_exact_probabilities(rules):
    """The chosen cell's chance and the least chance are the oracle's; a certain claim of the
    exact agent always holds; its guesses name a rule."""
    checked = 0
    for index, (position, oracle) in enumerate(_playable_positions(40, seed=800 + len(rules))):
        opened_mines = int((position.grid == MINE).sum())
        over = (rules == "classic" and opened_mines) or (rules == "minesearch" and opened_mines == position.mines)
        if over:
            with pytest.raises(GameOverError, match="opened mine|every mine is found"):
                suggest(position, "exact", rules=rules)
            continue
        for name in agent_names():
            suggestion = suggest(position, name, rules=rules, seed=index)
            cell = suggestion.action.cell
            assert position.grid.flat[cell] in (COVERED, FLAG), (name, position)
            flagged = position.grid.flat[cell] == FLAG
            assert suggestion.mine_probability == (1 if flagged else oracle.probabilities[cell])
            assert suggestion.least == min(oracle.probabilities.values())
            assert isinstance(suggestion.mine_probability, Fraction)
            if name == "exact":
                assert suggestion.claim_holds, position
                assert suggestion.reason == "proved" if suggestion.action.certain else suggestion.reason in GUESS_REASONS
            else:
                assert suggestion.reason in ("proved", None)
            checked += 1
    assert checked > 150


def test_suggest_is_the_agents_own_first_move():
    """The same move as the agent makes when it starts a game on the position with that seed."""
    rng = np.random.default_rng(5)
    for _ in range(30):
        position = random_position(rng, max_covered=12)
        if position.mines is None or (position.grid == MINE).any() or not brute_force(position).model_count:
            continue
        oracle = brute_force(position)
        if all(p == 1 for p in oracle.probabilities.values()):
            continue
        for name in ("exact", "greedy", "partition", "knowledge-base"):
            agent = make_agent(name)
            agent.reset(rules="classic", seed=3)
            assert suggest(position, name, seed=3).action == agent.act(position)


def test_the_exact_agents_guess_reason_is_its_own():
    """The reason is what the agent reports through on_guess for that move."""
    position = Position.from_string("5x3x3\n1....\n2....\n.....")
    reported = []
    agent = ExactAgent(on_guess=reported.append)
    agent.reset(rules="classic", seed=0)
    action = agent.act(position)
    suggestion = suggest(position, "exact", seed=0)
    assert suggestion.action == action and suggestion.reason == reported[-1].reason == "endgame"
    assert suggest(position, "exact:endgame=0", seed=0).reason == "look-ahead"


def test_a_wrong_claim_is_shown():
    """claim_holds is False when an agent calls a move certain and the engine disagrees."""
    from cspmines.agents.advice import Suggestion
    from cspmines.agents.base import Action

    def judged(action, reason, chance, rules="classic"):
        return Suggestion("x", rules, action, reason, Fraction(chance), Fraction(0)).claim_holds

    assert not judged(Action.open(0, certain=True), "proved", Fraction(1, 3))
    assert not judged(Action.open(0, certain=True), "proved", 1)  # a mine opened as safe
    assert judged(Action.open(0, certain=True), "proved", 1, rules="minesearch")  # a mine found on purpose
    assert not judged(Action.open(0, certain=True), "proved", Fraction(1, 2), rules="minesearch")
    assert not judged(Action.flag(0, certain=True), "proved", Fraction(2, 3))
    assert judged(Action.flag(0, certain=True), "proved", 1)
    assert judged(Action.open(0), None, Fraction(1, 3))  # a guess claims nothing


@pytest.mark.parametrize(
    "text, rules, error, words",
    [
        ("3x1x1\n*1.", "classic", GameOverError, "opened mine"),
        ("2x1x1\n1F", "score", GameOverError, "no covered cell"),
        ("3x1x1\n1..", "bogus", ValueError, "rules must be one of"),
        ("3x1x1\n*1.", "minesearch", GameOverError, "every mine is found"),
        ("3x1x1\n.1.", "classic", None, None),
        ("3x1x2\n.1.", "classic", InconsistentPositionError, "inconsistent"),
        ("3x1\n.1.", "classic", MissingTotalError, "total"),
    ],
)
def test_positions_with_no_move_are_refused(text, rules, error, words):
    position = Position.from_string(text)
    if error is None:
        assert suggest(position, "exact", rules=rules).mine_probability == Fraction(1, 2)
        return
    with pytest.raises(error, match=words):
        suggest(position, "exact", rules=rules)


def test_a_won_classic_position_is_refused_but_score_still_flags():
    position = Position.from_string("3x1x2\n.2.")
    with pytest.raises(GameOverError, match="won"):
        suggest(position, "exact")
    suggestion = suggest(position, "exact", rules="score")
    assert suggestion.action.kind == "flag" and suggestion.mine_probability == 1 and suggestion.claim_holds


def test_a_given_analysis_must_be_an_exact_solve_of_the_position():
    from cspmines import solve

    position = Position.from_string("5x3x3\n1....\n2....\n.....")
    assert suggest(position, "greedy", analysis=solve(position)) == suggest(position, "greedy")
    with pytest.raises(ValueError, match="same position"):
        suggest(position, "greedy", analysis=solve(position.with_mines(4)))
    with pytest.raises(ValueError, match="same position"):
        suggest(position, "greedy", analysis=solve(position, limit=Limit(max_chain=1)))


def test_under_minesearch_the_exact_agent_lifts_a_flag_when_every_mine_left_is_under_one():
    """A flagged cell cannot be opened: shown such a position, the agent lifts a flag, keeping the cell
    as a known mine, and opens it next."""
    position = Position.from_string("4x2x3\n1..2\nF2FF")
    suggestion = suggest(position, "exact", rules="minesearch")
    assert suggestion.action == Action.flag(4, certain=True) and suggestion.mine_probability == 1
    agent = make_agent("exact")
    agent.reset(rules="minesearch", seed=0)
    assert agent.act(position) == Action.flag(4, certain=True)
    lifted = Position.from_string("4x2x3\n1..2\n.2FF")  # alone, this position cannot tell 4 from 1
    assert agent.act(lifted) == Action.open(4, certain=True)


def test_explain_lists_the_exact_agents_candidates_best_first():
    """On the bundled mid-game position the look-ahead takes a cell riskier than the least, and
    the candidates say why: the first is the move, scores fall, the safest cell is among them."""
    from importlib.resources import files

    position = Position.from_file(files("cspmines") / "data" / "examples" / "expert-guess.txt")
    suggestion = suggest(position, "exact", explain=True)
    assert suggestion.reason == "look-ahead" and suggestion.mine_probability > suggestion.least
    views = [view for view, _ in suggestion.candidates]
    scores = [score for _, score in suggestion.candidates]
    assert views[0].cell == suggestion.action.cell and scores == sorted(scores, reverse=True)
    assert any(1 - view.safety == pytest.approx(float(suggestion.least)) for view in views)
    assert suggest(position, "exact").candidates == ()  # only when asked
    assert suggest(position, "knowledge-base", explain=True).candidates == ()  # only the exact agent weighs
