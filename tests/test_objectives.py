"""The exact agent's objectives for the seeds' games: its exhaustive search against a plain game-tree
enumeration, and its play under each rule against the baselines' own measure."""

from __future__ import annotations

from itertools import pairwise

import pytest

from cspmines import Position
from cspmines.agents.exact.layoutsets import list_layouts
from cspmines.agents.exact.objectives import MINES, OPENINGS, information_per_cost, search_cost

from randompositions import positions_with_total


def clue(position: Position, layout: frozenset, cell: int) -> int:
    return sum(1 for n in position.neighbours(cell) if n in layout) + int(
        sum(1 for n in position.neighbours(cell) if position.grid.flat[n] in (-2, -3))
    )


def move_values(position: Position, layouts: list, prices) -> dict:
    """Each informative move's least expected cost, by plain recursion over every move and outcome."""
    values = {}
    n = len(layouts)
    for cell in position.covered_cells:
        mined = [layout for layout in layouts if cell in layout]
        groups: dict[int, list] = {}
        for layout in layouts:
            if cell not in layout:
                groups.setdefault(clue(position, layout, cell), []).append(layout)
        if len(mined) == n or (not mined and len(groups) < 2):
            continue  # tells nothing
        value = len(mined) / n * (prices.mine + tree_cost(position, mined, prices)) if mined else 0.0
        values[cell] = value + sum(len(g) / n * (prices.safe + tree_cost(position, g, prices)) for g in groups.values())
    return values


def tree_cost(position: Position, layouts: list, prices) -> float:
    """Least expected cost from ``layouts`` (no pruning, no memo)."""
    if len(layouts) <= 1:
        return 0.0
    return min(move_values(position, layouts, prices).values(), default=0.0)


def small_positions():
    def keep(position):
        layouts = list_layouts(position, limit=9)
        return layouts if layouts and len(layouts) >= 2 else None

    return positions_with_total(40, 51, max_covered=7, accept=keep)


@pytest.mark.parametrize("prices", [OPENINGS, MINES], ids=["openings", "mines"])
def test_the_cost_search_equals_a_plain_game_tree_enumeration(prices):
    checked = 0
    for position, layouts in small_positions():
        found = search_cost(position, layouts, prices)
        expected = tree_cost(position, layouts, prices)
        assert found is not None, str(position)
        assert found[1] == pytest.approx(expected, abs=1e-12), str(position)
        checked += 1
    assert checked == 40


def test_information_is_the_outcome_entropy_over_the_expected_cost():
    from cspmines import solve

    analysis = solve(Position.from_string("3x1x1\n..."))  # each square a mine 1 time in 3
    ratios = information_per_cost(analysis, [0, 1, 2])
    # a corner: mine 1/3, else its clue (its one neighbour a mine half the time, taken as independent: 1/3)
    assert ratios[0] == pytest.approx(ratios[2])
    assert set(information_per_cost(solve(Position.from_string("2x1x1\n1.")), [1])) == set()  # a sure mine: left out


@pytest.mark.parametrize("rules, prices", [("minesearch", OPENINGS), ("score", MINES)])
def test_the_agent_guesses_a_move_of_least_expected_cost(rules, prices):
    """Where nothing is proved and few layouts are left, the exact agent's move under each seed's rule is
    one of least expected cost for that rule's measure (safe squares opened; mines set off)."""
    from cspmines.agents.exact import ExactAgent

    guessed = 0
    for position, layouts in small_positions():
        agent = ExactAgent()
        agent.reset(rules=rules, seed=0)
        action = agent.act(position)
        if action.certain or action.kind != "open":
            continue
        values = move_values(position, layouts, prices)
        assert values[action.cell] == pytest.approx(min(values.values()), abs=1e-12), (str(position), values)
        guessed += 1
    assert guessed >= 10


@pytest.mark.parametrize("power", [1.0, 0.7])
def test_information_from_every_layout_is_the_exact_outcome_entropy(power):
    """Read from every layout the position allows, each square's information is the exact entropy of
    what it shows (a mine, or each clue), counted layout by layout, over its chance of being safe to
    the power; a mutation of the clue spreads (a neighbour missed, the square's own mine counted) fails."""
    import math

    from cspmines import solve

    checked = 0
    for position, _ in small_positions():
        layouts = list_layouts(position, limit=500)
        analysis = solve(position)
        cells = [c for c in position.covered_cells if analysis.probability(c) < 1]
        ratios = information_per_cost(analysis, cells, layouts=layouts, cost_power=power)
        assert set(ratios) == set(cells)
        for cell in cells:
            outcomes: dict = {}
            for layout in layouts:
                key = "mine" if cell in layout else clue(position, layout, cell)
                outcomes[key] = outcomes.get(key, 0) + 1
            bits = -sum(k / len(layouts) * math.log2(k / len(layouts)) for k in outcomes.values())
            safe = 1 - outcomes.get("mine", 0) / len(layouts)
            assert ratios[cell] == pytest.approx(bits / safe**power, abs=1e-9), (str(position), cell)
            checked += 1
    assert checked >= 100


def test_information_from_exact_spreads_is_the_information_from_every_layout():
    """The engine's exact clue spreads, with no layout drawn, give each square the information that
    reading every layout the position allows gives."""
    from cspmines import solve
    from cspmines.engine.clues import clue_spreads

    checked = 0
    for position, _ in small_positions():
        analysis = solve(position)
        cells = [c for c in position.covered_cells if analysis.probability(c) < 1]
        from_layouts = information_per_cost(analysis, cells, layouts=list_layouts(position, limit=500))
        exact = information_per_cost(analysis, cells, spreads=clue_spreads(analysis, cells))
        for cell in cells:
            assert exact[cell] == pytest.approx(from_layouts[cell], abs=1e-9), (str(position), cell)
            checked += 1
    assert checked >= 100


@pytest.mark.parametrize("spreads, draws_off_front, draws_by_it", [("drawn", True, True), ("off_front", False, True), ("exact", False, False)])
def test_layouts_are_drawn_only_for_the_spreads_not_read_exactly(monkeypatch, spreads, draws_off_front, draws_by_it):
    """``spreads``: off the front (the default) a blank board's guess draws nothing, every square
    being off the front, and a game's guesses by the front draw; ``exact`` never draws; ``drawn`` always does."""
    import cspmines.agents.exact.player as player
    from cspmines.agents import make_agent
    from cspmines.games import Board, Game, play

    draws = []
    real = player.sample_mines

    def counted(position, count, **kwargs):
        draws.append(position)
        return real(position, count, **kwargs)

    monkeypatch.setattr(player, "sample_mines", counted)
    agent = make_agent(f"exact:spreads={spreads}")
    agent.reset(rules="minesearch", seed=0)
    assert agent.act(Position.from_string("8x8x8\n" + "........\n" * 8)).kind == "open"
    assert bool(draws) == draws_off_front
    draws.clear()
    board = Board.random("12x12x12", seed=3, first_click="safe")
    record = play(make_agent(f"exact:spreads={spreads}"), Game(board, rules="minesearch"), seed=0)
    assert record.status == "won" and record.guesses >= 5
    assert bool(draws) == draws_by_it


@pytest.mark.parametrize("spreads", ["off_front", "exact"])
def test_estimated_chances_fall_back_on_drawn_spreads(spreads):
    """With chains cut (``max_chain``) the analysis has no layout count to share: the information
    rule reads every square from its layouts instead of failing."""
    from cspmines.agents import make_agent
    from cspmines.games import Board, Game, play

    record = play(make_agent(f"exact:max_chain=2,spreads={spreads}"), Game(Board.random("16x16x40", seed=2, first_click="safe"), rules="minesearch"), seed=0)
    assert record.status == "won" and record.guesses > 10


def test_played_for_fewest_mines_equal_risks_go_to_the_square_that_tells_most():
    """Under score a guess among equally risky squares opens the one with the most neighbours
    (every square is opened in the end; its clue spares guesses later); classic play keeps the corner."""
    from cspmines.agents.exact import ExactAgent

    blank = Position.from_string("4x4x14\n....\n....\n....\n....")  # 120 layouts: past the cost search
    moves = {}
    for rules in ("score", "classic"):
        agent = ExactAgent()
        agent.reset(rules=rules, seed=0)
        moves[rules] = agent.act(blank).cell
    assert len(blank.neighbours(moves["score"])) == 8
    assert len(blank.neighbours(moves["classic"])) == 3


def test_a_search_that_ran_out_of_budget_is_not_retried_until_far_fewer_layouts(monkeypatch):
    import cspmines.agents.exact.player as player
    from cspmines.agents import make_agent
    from cspmines.bench import Suite
    from cspmines.bench.runner import play_game

    tried = []

    def failing(position, prices, *, limit, budget):
        tried.append(len(list_layouts(position, limit=limit)))
        return None  # as when the budget runs out

    monkeypatch.setattr(player, "cheapest_move", failing)
    suite = Suite.create(agents=["exact"], size="8x8x8", rules="minesearch", first_click="random-safe", games=4, seed=0)
    for i in range(4):
        tried.clear()
        assert "error" not in play_game(suite, "exact", i, player=make_agent("exact:cost_search=60"))
        assert tried, "the search was never tried"
        assert all(later <= 0.7 * earlier for earlier, later in pairwise(tried)), tried


@pytest.mark.parametrize("size", ["3x3x2", "4x3x3"])
def test_no_player_opens_fewer_squares_than_the_searched_optimum(size):
    """Over every layout a small board's first position allows, each player's expected safe squares
    are at least the exhaustive search's least expected cost, and the exact agent reaches it where
    it searches from the first guess (3x3: at most 28 layouts)."""
    from cspmines.agents import make_agent
    from cspmines.bench import Suite
    from cspmines.bench.runner import agent_seed, new_game
    from cspmines.games import Board, Game, play

    suite = Suite.create(agents=["exact"], size=size, rules="minesearch", first_click="random-safe", games=4, seed=1)
    for i in range(4):
        start = new_game(suite, i)
        layouts = list_layouts(start.position, limit=1000)
        optimum = search_cost(start.position, layouts, OPENINGS)[1]
        for spec in ("exact", "risk-score", "greedy"):
            safe_opened = 0
            for layout in layouts:
                board = Board.from_layout(suite.width, suite.height, layout)
                game = Game(Board(board.mines, first_click=start.board.first_click), rules="minesearch")
                record = play(make_agent(spec), game, seed=agent_seed(suite, i))
                safe_opened += round(record.opened_fraction * board.size) - board.n_mines - 1
            expected = safe_opened / len(layouts)
            assert expected >= optimum - 1e-9, (spec, i)
            if spec == "exact" and size == "3x3x2":
                assert expected == pytest.approx(optimum, abs=1e-9)
