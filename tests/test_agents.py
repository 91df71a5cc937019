"""Every agent under every rule variant and preset, determinism, soundness, and the seeds' examples.

Parametrized over ``agent_names()``: a registered agent is covered without a test of its own.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from cspmines import Position, certain_cells
from cspmines.agents import Action, agent_names, make_agent
from cspmines.agents.knowledgebase import KnowledgeBaseAgent
from cspmines.agents.partition import blocks
from cspmines.games import PRESETS, Board, Game, play

#: Every registered agent, and the exact agent's options as variants of it.
AGENTS = (
    *agent_names(),
    "exact:lookahead=0,fifty_fifty=false,endgame=0,pockets=0",
    "exact:endgame=40,progress=0.2",
    "exact:hotspots=true,next_power=2",
)
RULES = ("classic", "minesearch", "score")


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("agent", AGENTS)
def test_every_agent_finishes_every_variant(agent, rules, preset):
    board = Board.random(preset, seed=hash((agent, rules, preset)) % 1000)
    record = play(make_agent(agent), Game(board, rules=rules, withheld=0.1, seed=1), seed=2)
    assert record.status in ({"won", "lost"} if rules == "classic" else {"won", "finished"})
    if rules == "minesearch":
        assert record.status == "won" and record.mines_opened == board.n_mines
        assert board.n_mines / board.size <= record.opened_fraction <= 1
    if rules == "score":
        assert 0 <= record.score <= 1


@pytest.mark.parametrize("agent", AGENTS)
def test_agents_are_deterministic_given_a_seed(agent):
    board = Board.random("intermediate", seed=8)
    histories = [
        [m.action for m in play(make_agent(agent), Game(board, rules="score"), seed=3).history] for _ in range(2)
    ]
    assert histories[0] == histories[1]


@pytest.mark.parametrize("rules", ("classic", "score"))
@pytest.mark.parametrize("agent", AGENTS)
def test_moves_claimed_certain_are_proved(agent, rules):
    """A move an agent calls certain is one the engine proves; the exact agent never opens a proved mine."""
    for seed in range(3):
        record = play(make_agent(agent), Game(Board.random("beginner", seed=seed), rules=rules), seed=seed, audit=True)
        for move in record.history:
            if move.action.certain:
                assert not move.guess, (agent, seed, move)
            if agent == "exact":
                assert not move.proved_mine


def no_guess_needed(board: Board) -> bool:
    """Whether opening only engine-proved safe cells (SAT path) clears the board."""
    game = Game(board)
    while game.status == "playing":
        safe = certain_cells(game.position).safe
        if not safe:
            return False
        for cell in safe:
            if game.status == "playing" and game.position.grid.flat[cell] == -1:
                game.apply(Action.open(cell))
    return game.status == "won"


def test_exact_agent_never_loses_a_board_that_needs_no_guess():
    boards = [b for b in (Board.random("beginner", seed=s) for s in range(40)) if no_guess_needed(b)]
    assert len(boards) >= 5
    for board in boards:
        record = play(make_agent("exact"), Game(board), seed=0, audit=True)
        assert record.won and record.guesses == 0


def test_agent_options_are_parsed_and_checked():
    options = make_agent("exact:lookahead=6,margin=0.05,max_chain=none").options
    assert (options.lookahead, options.margin, options.max_chain) == (6, 0.05, None)
    with pytest.raises(ValueError, match="lookahead"):
        make_agent("exact:lookahead=-1")
    options = make_agent("exact:blend=0,influence=0,dominance=true").options
    assert (options.blend, options.influence, options.research.dominance) == (0, 0, True)
    for bad in ("blend=1.5", "influence=-0.1"):
        with pytest.raises(ValueError, match=bad.split("=")[0]):
            make_agent(f"exact:{bad}")
    options = make_agent("exact:linked=true,living=true,off_front=8,space=8").options
    assert (options.research.linked, options.living, options.off_front, options.research.space) == (True, True, 8, 8)
    options = make_agent("exact:hotspots=true,next_power=2").options
    assert (options.research.hotspots, options.next_power) == (True, 2)
    for bad in ("off_front=-1", "space=-2", "next_power=-1"):
        with pytest.raises(ValueError, match=bad):
            make_agent(f"exact:{bad}")
    with pytest.raises(Exception, match="does not take"):
        make_agent("random:speed=3")


def test_exact_agent_minesearch_and_score_use_proofs():
    board = Board.random("intermediate", seed=2)
    search = play(make_agent("exact"), Game(board, rules="minesearch"), seed=0)
    assert search.won and search.opened_fraction < 0.8
    score = play(make_agent("exact"), Game(board, rules="score"), seed=0)
    assert score.score > 0.5


# -- seed 001: the 4x4 walk-through (section 3, Figures 1-10) -----------------------------
SEED_001_MINES = ["**..", ".*..", "...*", "*..*"]  # (0,0) (0,1) (1,1) (2,3) (3,0) (3,3)


def test_seed_001_walk_through_deductions():
    board = Board(np.array([[c == "*" for c in row] for row in SEED_001_MINES]))
    game = Game(board, rules="score")
    kb = KnowledgeBaseAgent()
    kb.reset(rules="score", seed=0)
    cell = lambda r, c: r * 4 + c  # noqa: E731
    # the seed's clicks, each followed by what it says the program deduced
    script = [
        ((0, 3), [], []),  # a 0: its neighbours open (Figure 1)
        ((2, 3), [(2, 2)], []),  # a mine; (2,2) must be clear (Figure 2)
        ((2, 2), [(2, 1)], [(0, 1), (1, 1)]),  # (0,1), (1,1) mines, so (2,1) clear (Figure 3)
        ((2, 1), [], []),
        ((2, 0), [], []),
        ((3, 3), [(3, 1), (3, 2)], []),  # a mine; (3,1), (3,2) clear (Figure 6)
        ((3, 1), [], []),
        ((3, 2), [], [(3, 0)]),  # (3,0) has a mine (Figure 7)
        ((0, 0), [(1, 0)], []),  # a mine; (1,0) clear (Figure 8)
        ((1, 0), [], []),
    ]
    for (row, col), clear, mines in script:
        game.apply(Action.open(cell(row, col)))
        kb.deduce(game.position)
        assert {cell(*rc) for rc in clear} <= kb.clear
        assert {cell(*rc) for rc in mines} <= kb.mines
        proved = certain_cells(game.position)
        assert kb.clear - {c for c in range(16) if game.position.grid.flat[c] >= 0} <= set(proved.safe)
        assert {c for c in kb.mines if game.position.grid.flat[c] == -1} <= set(proved.mines)
    for mine in kb.mines:
        if game.position.grid.flat[mine] == -1:
            game.apply(Action.flag(mine))
    # "The program concludes ... with 3 out of 6 mines identified"
    assert game.status == "finished" and game.score == 0.5 and game.mines_opened == 3


def test_partition_blocks_cover_every_square():
    for width, height in [(9, 9), (10, 10), (11, 7), (30, 16), (4, 2)]:
        covered = set()
        for top, left in blocks(width, height):
            covered |= {(r, c) for r in range(top, min(top + 3, height)) for c in range(left, min(left + 3, width))}
        assert covered == {(r, c) for r in range(height) for c in range(width)}


def test_set_theory_finds_the_1_2_pattern():
    from cspmines.agents.settheory import SetTheoryAgent

    agent = SetTheoryAgent()
    agent.reset(rules="classic", seed=0)
    # a 1 and a 2 side by side on an edge: the cell beyond the 2 is a mine
    position = Position.from_string("4x2x2\n....\n012.")
    action = agent.set_reduction(position)
    assert action is not None and action.certain
    proved = certain_cells(position)
    assert (action.cell in proved.mines) if action.kind == "flag" else (action.cell in proved.safe)


def test_risk_score_orderly_probing_on_an_empty_board():
    agent = make_agent("risk-score")
    agent.reset(rules="minesearch", seed=0)
    action = agent.act(Position.from_string("9x9x1\n" + "\n".join(["." * 9] * 9)))
    assert action.cell == 1 * 9 + 1  # the first orderly probe: row 1, column 1, gain 9


def test_endgame_lists_every_layout_and_values_moves_exactly():
    from cspmines import InconsistentPositionError, solve
    from cspmines.agents.exact.endgame import best_play
    from cspmines.agents.exact.layoutsets import list_layouts

    from randompositions import random_position

    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(200):
        position = random_position(rng, max_covered=12)
        if position.mines is None:
            continue
        try:
            count = solve(position).model_count
        except InconsistentPositionError:  # random positions are sometimes impossible: nothing to list
            continue
        layouts = list_layouts(position, limit=5000)
        assert layouts is not None and len(layouts) == count == len(set(layouts))
        checked += 1
    assert checked > 50
    # two 50/50s side by side: opening the free cell between them first wins 3 games in 4
    two = Position.from_string("7x1x2\n.1...1.")
    assert best_play(two, states=100) == 3
    assert list_layouts(Position.from_string("5x5x5\n" + "\n".join(["....."] * 5)), limit=10) is None


@pytest.mark.parametrize(
    "options",
    [{}, {"avoid_dead": False}, {"influence": 0}, {"lookahead": 3, "progress": 0.5, "blend": 0}],
    ids=["defaults", "avoid_dead=false", "influence=0", "lookahead=3"],
)
def test_weigh_ranks_first_the_cell_the_look_ahead_opens(options):
    """On every look-ahead guess of seeded expert games, the first of ``weigh`` is the guess, and
    every view is whole (not cut short) and ranked as described."""
    from cspmines.agents.exact import ExactAgent
    from cspmines.agents.exact.lookahead import SCORE_TIE, look_ahead

    checked = 0
    for i in range(12):
        seen: dict = {}
        agent = ExactAgent(on_analysis=lambda analysis, seen=seen: seen.__setitem__("analysis", analysis), **options)

        def on_guess(guess, agent=agent, seen=seen):
            nonlocal checked
            if guess.reason != "look-ahead":
                return
            views = agent.weigh(seen["analysis"])
            assert views[0].cell == guess.cell
            assert not any(view.pruned for view in views)
            living = [view for view in views if not (view.dead and agent.options.avoid_dead)]
            scores = [view.score(agent.options.progress) for view in living]
            assert all(later <= earlier + SCORE_TIE for earlier, later in pairwise(scores))  # ties in candidate order
            last = views[-1]  # a whole look, as look_ahead gives it
            assert last == look_ahead(seen["analysis"], last.cell, agent.options, influence=last.influence)
            checked += 1

        agent.on_guess = on_guess
        play(agent, Game(Board.random("expert", seed=700 + i)), seed=i)
    assert checked >= 10


@pytest.mark.parametrize("avoid_dead", [True, False])
def test_weigh_puts_dead_cells_last_only_when_the_agent_avoids_them(avoid_dead):
    """On small random positions (no endgame search, so the look-ahead decides), the first of
    ``weigh`` is the agent's guess, dead cells among the candidates; with ``avoid_dead`` they come last."""
    from cspmines import InconsistentPositionError, solve
    from cspmines.agents.exact import ExactAgent

    from randompositions import positions_with_total

    def solved(position: Position):
        try:
            analysis = solve(position)
        except InconsistentPositionError:
            return None
        return analysis if not analysis.safe_cells and len(analysis.mine_cells) < len(position.covered_cells) else None

    options = dict(endgame=0, pockets=0, fifty_fifty=False, influence=0, avoid_dead=avoid_dead)
    guesses = dead_seen = 0
    for position, _analysis in positions_with_total(150, 23, max_covered=10, accept=solved):
        seen: list = []  # the agent's own analysis: its proved mines shown as flags
        agent = ExactAgent(on_analysis=seen.append, **options)
        agent.reset(rules="classic", seed=0)
        action = agent.act(position)
        views = agent.weigh(seen[-1])
        assert action.cell == views[0].cell, position
        dead = [view.dead for view in views]
        dead_seen += any(dead)
        if avoid_dead:
            assert dead == sorted(dead)
        guesses += 1
    assert guesses == 150 and dead_seen > 20


def test_single_clue_deductions_are_the_cells_single_rules_force():
    """The agent's quick pass (numpy over the whole board) proves exactly what the engine's rules,
    taken one at a time, force: a rule needing no mine makes its cells safe, one needing a mine per
    cell makes them mines; on an inconsistent position (a wrong flag) it proves nothing."""
    from cspmines.engine.constraints import rules_from_position
    from cspmines.engine.singleclue import single_clue_deductions
    from cspmines.errors import InconsistentPositionError
    from cspmines.position import FLAG, Position

    from randompositions import random_position

    rng = np.random.default_rng(11)
    proved = 0
    for _ in range(3000):
        position = random_position(rng, max_covered=20, corrupt=rng.random() < 0.3)
        covered = list(position.covered_cells)
        flags = set(rng.choice(covered, size=min(len(covered), int(rng.integers(0, 3))), replace=False).tolist()) if covered else set()
        grid = position.grid.copy()
        grid.flat[list(flags)] = FLAG
        expected: tuple = (set(), set())
        try:
            for rule in rules_from_position(Position(grid)):
                if rule.mines == 0:
                    expected[0].update(rule.cells)
                elif rule.mines == len(rule.cells):
                    expected[1].update(rule.cells)
        except InconsistentPositionError:
            expected = (set(), set())
        assert single_clue_deductions(position, flags) == expected, (str(position), flags)
        proved += bool(expected[0] or expected[1])
    assert proved > 1000


def test_the_watch_over_a_game_knows_what_the_full_pass_knows():
    """Called move after move, :class:`SingleClueWatch` returns only true facts (each is the full
    pass's), and what it has returned so far covers everything the full pass proves; after an undo
    (cells covered again) and after a wrong flag it still agrees."""
    from cspmines.agents.exact.deductions import SingleClueWatch
    from cspmines.engine.singleclue import single_clue_deductions
    from cspmines.position import COVERED, FLAG, Position

    rng = np.random.default_rng(5)
    calls = new_facts = 0
    for game_seed in range(30):
        board = Board.random("intermediate", seed=game_seed, first_click="safe")
        game = Game(board, rules="classic")
        watch, known_safe, known_mines, history = SingleClueWatch(), set(), set(), []
        while game.status == "playing":
            position = game.position
            history.append(position)
            if rng.random() < 0.05 and len(history) > 3:  # an undo: an earlier board seen again
                position = history[-3]
            if rng.random() < 0.03:  # a wrong flag: every covered cell would do, the first safe one is wrong
                wrong = next(c for c in position.covered_cells if not board.is_mine(c))
                grid = position.grid.copy()
                grid.flat[wrong] = FLAG
                position = Position(grid, mines=position.mines)
            flat = position.grid.ravel()
            known_safe = {c for c in known_safe if flat[c] == COVERED}
            known_mines = {c for c in known_mines if flat[c] == COVERED}
            full = single_clue_deductions(position, known_mines)
            safe, mines = watch(position, known_mines)
            calls += 1
            new_facts += len(safe) + len(mines)
            assert safe <= full[0] and mines <= full[1], game_seed
            known_safe |= safe
            known_mines |= mines
            assert full[0] <= known_safe and full[1] <= known_mines, game_seed
            open_now = [c for c in game.position.covered_cells if not board.is_mine(c)]  # the game's own board
            move = min(set(open_now) & known_safe, default=open_now[0])
            game.apply(Action.open(move))
    assert calls > 1000 and new_facts > 1000
