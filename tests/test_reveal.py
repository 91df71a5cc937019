"""solve_revealed: the analysis after one more clue, re-solving only the touched chains, must be the
full solve's, exactly, on every position, cell and clue: or both must find the clue impossible."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cspmines import Limit, Position, solve
from cspmines.bench import Suite
from cspmines.bench.runner import new_game
from cspmines.engine.reveal import layouts_revealed, solve_revealed
from cspmines.errors import InconsistentPositionError, MissingTotalError
from cspmines.position import COVERED, FLAG

from randompositions import random_position


def kept(analysis):
    """What the engine that solved ``analysis`` kept for it, or None."""
    return analysis.engine.cache.kept.get(analysis)


def full(position: Position, cell: int, clue: int, density):
    grid = position.grid.copy()
    grid.flat[cell] = clue
    return solve(Position(grid, mines=position.mines), density=density, explain=False)


def same(position: Position, analysis, cell: int, clue: int) -> str:
    """'impossible' when both raise, 'agree' when both give the same exact answer (asserted); the
    count alone (layouts_revealed) is the full solve's too, 0 where it raises."""
    try:
        expected = full(position, cell, clue, analysis.density)
    except InconsistentPositionError:
        with pytest.raises(InconsistentPositionError):
            solve_revealed(analysis, cell, clue)
        assert layouts_revealed(analysis, cell, clue) == 0
        return "impossible"
    assert layouts_revealed(analysis, cell, clue) == expected.model_count, (str(position), cell, clue)
    got = solve_revealed(analysis, cell, clue)
    assert got.model_count == expected.model_count, (str(position), cell, clue)
    assert got.probabilities(exact=True).tolist() == expected.probabilities(exact=True).tolist(), (str(position), cell, clue)
    assert got.safe_cells == expected.safe_cells and got.mine_cells == expected.mine_cells
    assert got.mines_left == expected.mines_left
    assert parts_of(got) == parts_of(expected), (str(position), cell, clue)  # the parts too, not only the chances
    return "agree"


def parts_of(analysis) -> tuple:
    """What an analysis is made of, as comparable values: the settled cells, each chain's cells and
    counts, the cells off the front, the question and what is left to place."""
    parts = analysis.parts
    return (parts.settled.safe_cells, parts.settled.mine_cells, [(chain.cells, count.models, count.tallies)
            for chain, count in zip(parts.chains, parts.counts, strict=True)], parts.rest, parts.mines, parts.density,
            parts.given_mines_left, parts.undecided, parts.mines_left)


def solved_positions(seed: int, count: int):
    """``count`` consistent random small positions and their full solves (a density where no total)."""
    rng = np.random.default_rng(seed)
    while count:
        position = random_position(rng, max_covered=12)
        try:
            analysis = solve(position) if position.mines is not None else solve(position, density=0.25)
        except (InconsistentPositionError, MissingTotalError):
            continue
        count -= 1
        yield position, analysis


def test_revealing_a_clue_equals_a_full_solve_on_random_small_positions():
    seen = {"agree": 0, "impossible": 0}
    for position, analysis in solved_positions(5, 400):
        assert kept(analysis) is not None
        for cell in position.covered_cells:
            for clue in range(9):
                seen[same(position, analysis, cell, clue)] += 1
    assert seen["agree"] > 2000 and seen["impossible"] > 2000, seen


def test_revealing_a_clue_equals_a_full_solve_on_expert_positions_from_play():
    """Positions with many chains, flags the engine proved, and forced cells the clue can settle."""
    from cspmines.agents import make_agent
    from cspmines.bench.runner import agent_seed
    from cspmines.games import play

    suite = Suite.create(agents=["exact"], size="expert", games=3, seed=4)
    checked = 0
    for i in range(3):
        analyses = []
        agent = make_agent("exact")
        agent.on_analysis = analyses.append
        play(agent, new_game(suite, i), seed=agent_seed(suite, i))
        for analysis in analyses[::3]:
            position = analysis.position
            cells = [c for c in position.covered_cells if analysis.probability(c) not in (0, 1)][:12]
            for cell in cells:
                for clue in range(9):
                    same(position, analysis, cell, clue)
                    checked += 1
    assert checked > 500


def test_without_what_a_full_solve_keeps_it_solves_in_full():
    position = Position.from_string("4x2x2\n1...\n1...")
    unsettled = solve(position, settle=False)
    assert kept(unsettled) is None  # nothing settled: nothing kept to start from
    assert solve_revealed(unsettled, 3, 1).model_count == full(position, 3, 1, None).model_count
    assert layouts_revealed(unsettled, 3, 1) == full(position, 3, 1, None).model_count
    budgeted = solve(position, limit=Limit(time=10))  # counted in full within its budget: kept as any full solve
    assert kept(budgeted) is not None
    assert solve_revealed(budgeted, 3, 1).probabilities(exact=True).tolist() == full(position, 3, 1, None).probabilities(exact=True).tolist()
    cut = solve(Position.from_file(Path(__file__).parent / "data" / "lattice13-2.txt"), limit=Limit(nodes=50))
    assert not cut.exact and kept(cut) is None  # a count cut short keeps nothing


def test_an_analysis_is_revealed_by_the_engine_that_solved_it():
    """Revealed through another engine, an analysis is still revealed from what its own engine kept,
    and the analysis after the clue is that engine's (none of the other's memories is touched)."""
    from cspmines import Engine

    position = Position.from_string("5x3x3\n1....\n1....\n.....")
    solver, other = Engine(), Engine()
    analysis = solver.solve(position)
    assert analysis.engine is solver and kept(analysis) is not None
    for via in (other.after, lambda a, cell, clue: solve_revealed(a, cell, clue)):
        after = via(analysis, 3, 1)
        assert after.engine is solver and kept(after) is not None
        assert after.probabilities(exact=True).tolist() == full(position, 3, 1, None).probabilities(exact=True).tolist()
    assert other.spread(analysis, 3) == solver.spread(analysis, 3)
    assert len(other.cache.counts) == len(other.cache.splits) == len(other.cache.kept) == 0


def test_a_revealed_analysis_can_be_revealed_again():
    """What a reveal keeps is a full solve's: a second clue revealed from it gives the full solve of
    both clues (random small positions; the agent's test below covers expert play)."""
    seen = {"agree": 0, "impossible": 0}
    for position, analysis in solved_positions(11, 250):
        for first in position.covered_cells[:3]:
            for clue in range(9):
                try:
                    once = solve_revealed(analysis, first, clue)
                except InconsistentPositionError:
                    continue
                assert kept(once) is not None
                for second in [c for c in once.position.covered_cells if once.probability(c) < 1][:4]:
                    for again in range(9):
                        seen[same(once.position, once, second, again)] += 1
    assert seen["agree"] > 1000 and seen["impossible"] > 1000, seen


def test_the_agent_takes_its_look_aheads_analysis_as_the_next_solve():
    """After a look-ahead guess shows a clue, the exact agent reads the analysis its look-ahead made
    of that board instead of solving it again; every analysis it reads is the full solve's."""
    from cspmines import Engine
    from cspmines.agents.exact import ExactAgent
    from cspmines.bench.runner import agent_seed
    from cspmines.games import play

    solves = []

    class Counted(Engine):  # the agent's engine, its solves counted
        def solve(self, *args, **kwargs):
            solves.append(1)
            return super().solve(*args, **kwargs)

    suite = Suite.create(agents=["exact"], size="expert", games=4, seed=9)
    analyses = []
    for i in range(4):
        agent = ExactAgent(engine=Counted())
        shown = []  # the position each move was asked on
        act = agent.act
        agent.act = lambda position, shown=shown, act=act: shown.append(position) or act(position)
        agent.on_analysis = lambda analysis, shown=shown: analyses.append((shown[-1], analysis))
        play(agent, new_game(suite, i), seed=agent_seed(suite, i))
    assert len(analyses) > len(solves) > 0  # some were the look-ahead's
    for position, analysis in analyses:
        # the board the move was asked on, with the mines the agent proved flagged
        board, seen = position.grid.ravel(), analysis.position.grid.ravel()
        assert all(a == b or (a == COVERED and b == FLAG) for a, b in zip(board.tolist(), seen.tolist(), strict=True))
        expected = solve(analysis.position)
        assert analysis.model_count == expected.model_count
        assert analysis.probabilities(exact=True).tolist() == expected.probabilities(exact=True).tolist()
