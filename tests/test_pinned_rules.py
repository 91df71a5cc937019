"""Rules pinned from their own texts: seed 004's offsetMinedValues and its investigative tie-break, and
settle_forced against a plain propagation oracle (each was once changed without any test failing)."""

from __future__ import annotations

import numpy as np
import pytest

from cspmines import Position
from cspmines.agents.riskscore import RiskScoreAgent
from cspmines.engine.constraints import ConstraintSystem, settle_forced
from cspmines.position import COVERED, FLAG, MINE

from randompositions import random_position


def test_offset_mined_values_subtracts_the_bombs_found_around_a_clue():
    # Seed 004: "if a mined square tells us that there are 3 mines nearby, and we already found one,
    # then offsetMinedValues() will offset that mined value from 3 to 2 so that the knowledge map
    # maintains risk scores that are solely based on mines that have not been found just yet."
    position = Position.from_string("3x3x3\n*..\n.3.\n...")  # the 3 in the middle, one bomb found beside it
    risk, safe, _ = RiskScoreAgent().knowledge(position)
    assert set(risk.values()) == {2} and not safe  # every U square around the 3 scores 3 - 1
    found_all = Position.from_string("3x3x3\n*.*\n.2.\n...")  # both of the 2's bombs found: offset 0
    risk, safe, _ = RiskScoreAgent().knowledge(found_all)
    assert safe == {1, 3, 5, 6, 7, 8} and not risk  # "an offset of 0 makes the U squares around it S"


@pytest.mark.parametrize("seed", range(8))
def test_the_investigative_tie_break_takes_the_highest_knowledge_gain(seed):
    # Seed 004: "selecting the square with the highest risk score ... In case of a tie, the AI will then
    # select the square with the highest risk score and with the highest knowledge gain".
    position = Position.from_string("4x3x2\n1...\n....\n....")
    agent = RiskScoreAgent()
    agent.reset(rules="minesearch", seed=seed)
    risk, _, gain = agent.knowledge(position)
    assert {c for c in risk if risk[c] == 1} == {1, 4, 5}  # the 1's three U squares tie on risk
    assert (gain[1], gain[4], gain[5]) == (5, 5, 8)
    assert agent.act(position).cell == 5  # (1,1), the highest gain, whatever the seed


def propagated(position: Position) -> tuple[set, set]:
    """Single-clue forcing to a fixed point, read off the grid: a clue whose known mines fill it makes its
    other covered neighbours safe; one whose covered neighbours are all needed makes them mines."""
    flat = position.grid.ravel()
    safe: set = set()
    mines = {c for c in range(position.size) if flat[c] in (FLAG, MINE)}
    changed = True
    while changed:
        changed = False
        for clue in position.clue_cells:
            around = position.neighbours(clue)
            unknown = [n for n in around if flat[n] == COVERED and n not in safe and n not in mines]
            need = int(flat[clue]) - sum(1 for n in around if n in mines)
            if unknown and need == 0:
                safe.update(unknown)
                changed = True
            elif unknown and need == len(unknown):
                mines.update(unknown)
                changed = True
    return safe, mines - {c for c in range(position.size) if flat[c] in (FLAG, MINE)}


def test_settle_forced_equals_plain_propagation_on_random_positions():
    rng = np.random.default_rng(404)
    compared = settled_some = 0
    while compared < 400:
        position = random_position(rng, max_covered=16)
        safe, mines = propagated(position)
        if safe & mines:
            continue  # a contradiction: settle_forced leaves those to the counter
        settled = settle_forced(ConstraintSystem.from_position(position))
        if position.mines is not None and settled.safe_cells == settled.mine_cells == frozenset() and (safe or mines):
            # the total may refuse the settled system (more forced mines than the total): then nothing is settled
            left = position.mines - len(position.known_mine_cells) - len(mines)
            if not 0 <= left <= len(position.covered_cells) - len(safe) - len(mines):
                continue
        assert (set(settled.safe_cells), set(settled.mine_cells)) == (safe, mines), str(position)
        compared += 1
        settled_some += bool(safe or mines)
    assert settled_some > 100  # most random positions have something to settle
