"""Each seed's baseline, pinned by its defining rule on a position where that rule decides the move
(the rule quoted from the seed's own text)."""

from __future__ import annotations

import pytest

from cspmines import Position
from cspmines.agents import make_agent


def move(agent: str, text: str, *, rules: str = "minesearch", seed: int = 0) -> int:
    player = make_agent(agent)
    player.reset(rules=rules, seed=seed)
    return player.act(Position.from_string(text)).cell


@pytest.mark.parametrize("seed", range(5))
def test_risk_score_explores_where_the_knowledge_gain_is_highest(seed):
    """Seed 004, AI-0: with every risk score 0 and no orderly square of gain 9, "random probing" among
    "the squares with the highest knowledge gain" (the U squares in its 3x3). The zero makes its
    neighbours S; (2,2) then sees seven U squares, more than any other."""
    assert move("risk-score", "4x4x2\n0...\n....\n....\n....", seed=seed) == 10


def test_risk_score_investigates_the_highest_risk_first():
    """Seed 004, AI-0: "selecting the square with the highest risk score as the next square to open"
    (the sum of the offset values around it): the middle square touches both clues (2 + 1)."""
    assert move("risk-score", "5x1x2\n.2.1.") == 2


def test_risk_score_probes_in_order_two_squares_apart():
    """Seed 004, AI-0: orderly probing "at regular intervals (2 squares apart), left to right, top to
    bottom", while it offers the full gain of 9: the first such square is (1,1)... once the first click's
    3x3 is known, the next one along the row."""
    assert move("risk-score", "9x9x10\n" + "\n".join(["........."] * 8 + ["........0"])) == 10
    assert move("risk-score", "9x9x10\n" + "\n".join(["........."] * 9)) == 10


@pytest.mark.parametrize("seed", range(5))
def test_single_point_never_explores_the_neighbours_of_a_zero(seed):
    """Seed 004, AI-1: after a 0 (AFN) "all the surrounding squares are added to the safe list ...
    we do not need to explore these squares"."""
    assert move("single-point", "4x1x1\n0...", seed=seed) in (2, 3)


def test_single_point_opens_the_bombs_amn_finds():
    """Seed 004, AI-1: "If the number of unopened squares is equal to the value of the current square ...
    all neighbors are bombs", opened at once (minesearch counts a bomb only once opened)."""
    player = make_agent("single-point")
    player.reset(rules="minesearch", seed=0)
    action = player.act(Position.from_string("3x1x1\n1.0"))
    assert (action.cell, action.certain) == (1, True)


def test_greedy_mines_the_highest_value_nearest_the_centre():
    """Seed 000, Algorithm 1: a clue n adds n to the squares around it, and of the highest, "the closest
    to the center": of the three squares the corner 1 raises, (1,1)."""
    assert move("greedy", "5x5x3\n1....\n.....\n.....\n.....\n.....") == 6


def test_greedy_keeps_off_the_neighbours_of_a_zero():
    """Seed 000, Algorithm 1: a 0 sets the squares around it to -100: nothing else is chosen before them."""
    assert move("greedy", "5x1x1\n0....") not in (1,)


def test_partition_mines_the_middle_of_the_first_block():
    """Seed 000, Algorithm 2: "We partition the grid into smaller 3 x 3 grids ... We then mine the middle
    square": on a fresh 6x6, the middle of the top-left block."""
    assert move("partition", "6x6x4\n" + "\n".join(["......"] * 6)) == 7


def test_knowledge_base_clicks_a_deduced_clear_cell_first():
    """Seed 001: "if the cell is clear, it is placed at the top of the priority queue": the 0's covered
    neighbour is opened before any random cell."""
    for seed in range(5):
        assert move("knowledge-base", "4x2x1\n0...\n....", rules="score", seed=seed) in (1, 4, 5)
