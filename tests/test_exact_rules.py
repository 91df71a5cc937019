"""The exact agent's guessing rules: an ordered list, in the order its docs give, each switched by its option."""

from __future__ import annotations

import re

import pytest

from cspmines import Position, solve
from cspmines.agents.exact import ExactAgent, Reason
from cspmines.agents.exact import player as player_module


def _numbered(docstring: str) -> list[int]:
    """The numbers of the list of classic and score rules in the module docs (before minesearch's)."""
    rules = docstring.split("Mines it has proved")[0]
    return [int(number) for number in re.findall(r"^(\d)\. ", rules, flags=re.M)]


@pytest.mark.parametrize(("rules", "prefix"), [(ExactAgent.GUESS_RULES, ""), (ExactAgent.MINESEARCH_RULES, "Minesearch ")])
def test_the_rules_are_walked_in_the_order_the_docs_number_them(rules, prefix):
    numbers = [int(re.findall(rf"^{prefix}(\d)\. ", rule.__doc__)[0]) for rule in rules]
    assert numbers == list(range(1, len(rules) + 1))
    if not prefix:  # the module docs list the same rules, as many, in the same order
        assert _numbered(player_module.__doc__) == numbers


def _reason(text: str, rules: str = "classic", **options) -> tuple[int, Reason]:
    guesses = []
    agent = ExactAgent(on_guess=guesses.append, **options)
    agent.reset(rules=rules, seed=0)
    action = agent.act(Position.from_string(text))
    (guess,) = guesses
    assert action.cell == guess.cell and not action.certain
    return guess.cell, guess.reason


def test_each_rule_chooses_only_when_its_option_is_on():
    forced = "2x2x1\n11\n.."  # one mine at 2 or 3, and nothing can ever tell them apart
    assert _reason(forced) == (2, Reason.ENDGAME)  # two layouts: the exhaustive search comes first
    assert _reason(forced, endgame=0) == (2, Reason.FIFTY_FIFTY)
    assert _reason(forced, endgame=0, fifty_fifty=False) == (2, Reason.POCKET)
    assert _reason(forced, endgame=0, fifty_fifty=False, pockets=0) == (2, Reason.LOOK_AHEAD)
    assert _reason(forced, endgame=0, fifty_fifty=False, pockets=0, lookahead=0) == (2, Reason.LEAST_RISK)
    assert _reason(forced, rules="score") == (2, Reason.FEWEST_MINES)  # played for the fewest mines set off
    assert _reason(forced, rules="score", cost_search=0)[1] is Reason.FIFTY_FIFTY  # (score plays no endgame for wins)


def test_minesearch_rules():
    board = "3x1x1\n..."
    assert _reason(board, rules="minesearch") == (0, Reason.FEWEST_OPENINGS)
    assert _reason(board, rules="minesearch", cost_search=0)[1] is Reason.INFORMATION
    assert _reason(board, rules="minesearch", objective="win")[1] is Reason.LIKELIEST_MINE


#: An intermediate board after its first moves: six cells open (the four corners, two more beside one), 250 of 256 covered.
OPENING = """16x16x40
1.1............1
..3.............
................
................
................
................
................
................
................
................
................
................
................
................
................
1..............1"""


@pytest.mark.parametrize(("options", "cell"), [
    ({}, 3),  # the defaults: one progress weight throughout, the better next move
    ({"early_progress": 0.2}, 16),  # the opening's own weight: the cell whose clue may prove its neighbours
    ({"early_progress": 0.2, "early_share": 250 / 256}, 16),  # covered exactly the opening's share: still the opening
    ({"early_progress": 0.2, "early_share": 251 / 256}, 3),  # one cell short of it: later play
    ({"early_progress": 0.2, "early_share": 251 / 256, "progress": 0.2}, 16),  # later play at that weight
])
def test_the_look_ahead_weighs_progress_by_the_games_stage(options, cell):
    """With the research switch ``early_progress``, in the opening (``early_share`` of the board or more covered)
    a clue that proves cells weighs ``early_progress``, later ``progress``: the guess on this board turns on which
    applies."""
    agent = ExactAgent(**options)
    agent.reset(rules="classic", seed=0)
    assert agent.act(Position.from_string(OPENING)).cell == cell
    assert agent.weigh(solve(Position.from_string(OPENING)))[0].cell == cell  # the study's view ranks as play does
