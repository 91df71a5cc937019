"""The exact agent's guessing aids against layouts listed by brute force.

Secondary safety, progress and dead cells are defined over the layouts that
fit a position: these tests list them independently (tests/bruteforce.py)
and recompute every figure from the definition.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import partial

import numpy as np
import pytest

from cspmines import Position, solve
from cspmines.agents.exact import ExactAgent
from cspmines.agents.exact.candidates import shortlist
from cspmines.agents.exact.fifty_fifty import forced_fifty_fifty
from cspmines.agents.exact.lookahead import PLAIN, look_ahead
from cspmines.errors import InconsistentPositionError

from bruteforce import mine_layouts
from randompositions import positions_with_total, random_position


def consistent_positions(count: int, seed: int):
    """Random consistent positions with a total, and their analyses."""

    def solved(position: Position):
        try:
            return solve(position)
        except InconsistentPositionError:
            return None

    return positions_with_total(count, seed, max_covered=10, accept=solved)


def layouts_by_clue(position: Position, layouts: list, cell: int) -> tuple[dict, list]:
    """The layouts where ``cell`` is safe, by the clue it shows there, and the other covered cells."""
    around = set(position.neighbours(cell))
    groups = defaultdict(list)
    for layout in layouts:
        if cell not in layout:
            groups[len(layout & around)].append(layout)
    return groups, [c for c in position.covered_cells if c != cell]


def expected_view(position: Position, layouts: list, cell: int, blend=Fraction(0), linked=False, living=False, power=1):
    """(safety, secondary safety, progress, dead) from the definitions: after a safe move the
    next move's safety (blended with the second best cell's, raised to ``power``), 1 if only mines are left; with
    ``living`` the next move among cells with a neighbour in doubt, unless those are exactly some clue's
    (if there is one); with ``linked`` progress only where more is proved than the cells
    safe in every layout where ``cell`` is."""
    groups, others = layouts_by_clue(position, layouts, cell)
    secondary = Fraction(0)
    proved = []  # (weight, cells proved safe) per clue
    for group in groups.values():
        weight = Fraction(len(group), len(layouts))
        safe_share = {c: Fraction(sum(c not in layout for layout in group), len(group)) for c in others}
        candidates = [c for c in others if safe_share[c] > 0]  # certain mines out
        if living:  # a cell whose doubtful neighbours are none, or exactly some clue's, is dead
            decided = {c for c in others if safe_share[c] in (0, 1)}

            def doubt(c, decided=decided):
                return frozenset(n for n in position.neighbours(c) if n in others and n not in decided)

            clue_sets = {doubt(c) for c in [*position.clue_cells, cell]}
            asking = [c for c in candidates if doubt(c) and doubt(c) not in clue_sets]
            candidates = asking or candidates
        ranked = sorted((safe_share[c] for c in candidates), reverse=True)
        best = ranked[0] if ranked else Fraction(1)
        second = ranked[1] if len(ranked) > 1 else best
        secondary += weight * ((1 - blend) * best + blend * second) ** power
        proved.append((weight, {c for c in others if safe_share[c] == 1}))
    implied = set.intersection(*(cells for _, cells in proved)) if proved and linked else set()
    progress = sum((weight for weight, cells in proved if len(cells) > len(implied)), Fraction(0))
    safety = Fraction(sum(cell not in layout for layout in layouts), len(layouts))
    return safety, secondary, progress, len(groups) == 1


@pytest.mark.parametrize(
    "seed, blend, linked, living, power",
    [(0, 0, False, False, 1), (1, 0, False, False, 1), (2, Fraction(1, 5), False, False, 1),
     (3, Fraction(1, 2), False, False, 1), (4, Fraction(1, 5), True, False, 1), (5, 0, False, True, 1),
     (6, Fraction(1, 5), True, True, 1), (7, Fraction(1, 5), False, False, 2), (8, 0, False, False, 3)],
)
def test_look_ahead_matches_its_definition_on_random_positions(seed, blend, linked, living, power):
    checked = 0
    for position, analysis in consistent_positions(30, seed):
        layouts = mine_layouts(position)
        assert len(layouts) == analysis.model_count
        for cell in position.covered_cells:
            if analysis.probability(cell) in (0, 1):
                continue
            view = look_ahead(analysis, cell, PLAIN.with_changes(blend=float(blend), linked=linked, living=living, next_power=power))
            safety, secondary, progress, dead = expected_view(position, layouts, cell, blend, linked, living, power)
            assert not view.pruned
            assert view.safety == pytest.approx(float(safety), abs=1e-12)
            assert view.secondary == pytest.approx(float(secondary), abs=1e-12), (str(position), cell)
            assert view.progress == pytest.approx(float(progress), abs=1e-12), (str(position), cell)
            assert view.dead == dead, (str(position), cell)
            checked += 1
    assert checked > 20


def test_look_ahead_stops_once_it_cannot_win():
    analysis = solve(Position.from_string("5x5x4\n.....\n.1...\n.....\n.....\n....."))
    full = look_ahead(analysis, 0)
    assert not full.pruned and 0 < full.secondary <= full.safety
    cut = look_ahead(analysis, 0, bound=full.safety + 0.01)
    assert cut.pruned and cut.secondary >= full.secondary  # an upper bound, never an underestimate
    assert not look_ahead(analysis, 0, bound=full.secondary / 2).pruned


def test_shortlist_keeps_the_safe_enough_cells_safest_first():
    analysis = solve(Position.from_string("6x4x5\n......\n.2....\n......\n...1.."))
    for margin in (0.0, 0.05, 0.3):
        cells = shortlist(analysis, size=50, margin=margin)
        safety = [1 - float(analysis.probability(c)) for c in cells]
        assert safety == sorted(safety, reverse=True)
        assert min(safety) >= (1 - margin) * safety[0] - 1e-12
        assert all(analysis.probability(c) != 1 for c in cells)
    assert len(shortlist(analysis, size=3, margin=0.3)) == 3


def test_shortlist_off_front_adds_the_cells_off_the_front_fewest_covered_neighbours_first():
    analysis = solve(Position.from_string("6x4x5\n......\n.2....\n......\n...1.."))
    position = analysis.position
    front = {cell for report in analysis.chains for cell in report.cells}
    plain = shortlist(analysis, size=2, margin=0.3)
    wide = shortlist(analysis, size=2, margin=0.3, off_front=5)
    assert wide[:2] == plain and len(wide) == 7
    extra = wide[2:]
    assert not front & set(extra)
    around = [sum(1 for n in position.neighbours(c) if position.grid.flat[n] == -1) for c in extra]
    assert around == sorted(around) and min(around) == 3  # the corners first
    off = [c for c in position.covered_cells if c not in front]
    assert len(shortlist(analysis, size=0, margin=0.3, off_front=100)) == len(off)  # fewer than 30: every one


@pytest.mark.parametrize("seed", range(3))
def test_forced_fifty_fifty_is_a_true_coin_flip(seed):
    found = 0
    for position, analysis in consistent_positions(150, seed + 10):
        pair = forced_fifty_fifty(analysis)
        if pair is None:
            continue
        found += 1
        a, b = pair
        layouts = mine_layouts(position)
        assert all((a in layout) != (b in layout) for layout in layouts)
        only_one = (set(position.neighbours(a)) ^ set(position.neighbours(b))) - {a, b}
        assert not only_one & set(position.covered_cells)
        assert not only_one & set(position.clue_cells)  # no clue can ever see one without the other
    assert found >= 1


def test_forced_fifty_fifty_examples():
    assert forced_fifty_fifty(solve(Position.from_string("2x2x1\n11\n.."))) == (2, 3)
    # (1, 2) would tell the two apart, so it is not forced yet
    assert forced_fifty_fifty(solve(Position.from_string("3x2x1\n11.\n..."))) is None
    # two cells, one mine, no clue at all: nothing can ever tell
    assert forced_fifty_fifty(solve(Position.from_string("2x1x1\n.."))) == (0, 1)
    # one mine or two between them: not a 50/50 of one mine
    assert forced_fifty_fifty(solve(Position.from_string("2x2\n..\n.."), density=0.5)) is None


def game_tree_value(position: Position, layouts: list) -> Fraction:
    """The chance of winning with best play, from the definition: with one layout left the
    game is won; otherwise the best over the cells that change something (a mine in some
    layouts, or a clue that differs) of the sum over clues of P(clue) * value after it."""
    covered = position.covered_cells
    around = {c: [n for n in position.neighbours(c) if n in set(covered)] for c in covered}
    memo: dict = {}

    def value(members: frozenset) -> Fraction:
        if len(members) <= 1:
            return Fraction(1)
        if members not in memo:
            best = Fraction(0)
            for cell in covered:
                split = defaultdict(set)
                for i in members:
                    if cell not in layouts[i]:
                        split[sum(n in layouts[i] for n in around[cell])].add(i)
                if sum(map(len, split.values())) == len(members) and len(split) == 1:
                    continue  # safe in every layout and tells nothing: changes nothing
                total = sum(Fraction(len(group), len(members)) * value(frozenset(group)) for group in split.values())
                best = max(best, total)
            memo[members] = best
        return memo[members]

    return value(frozenset(range(len(layouts))))


def endgame_positions(count, seed):
    """(position, layouts) late in a game on a small board: mines laid at random, safe cells
    opened at random until few are covered, at least three layouts left (clues counted here,
    not by the engine)."""
    rng = np.random.default_rng(seed)
    found = 0
    while found < count:
        width, height = int(rng.integers(3, 6)), int(rng.integers(3, 5))
        mines = int(rng.integers(2, 5))
        cells = width * height
        layout = set(rng.choice(cells, size=mines, replace=False).tolist())
        covered_left = int(rng.integers(mines + 2, min(cells, 13) + 1))
        safe = [c for c in range(cells) if c not in layout]
        opened = set(rng.choice(safe, size=cells - covered_left, replace=False).tolist())
        rows = []
        for r in range(height):
            row = ""
            for c in range(width):
                cell = r * width + c
                if cell in opened:
                    around = [(rr, cc) for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)]
                    row += str(sum(rr * width + cc in layout for rr, cc in around if 0 <= rr < height and 0 <= cc < width))
                else:
                    row += "."
            rows.append(row)
        position = Position.from_string(f"{width}x{height}x{mines}\n" + "\n".join(rows))
        layouts = mine_layouts(position)
        if len(layouts) >= 3:
            found += 1
            yield position, layouts


@pytest.mark.parametrize("seed", range(3))
def test_the_endgame_plays_a_move_that_wins_as_often_as_the_game_tree_allows(seed):
    from cspmines.agents.exact.endgame import best_play

    checked = 0
    for position, layouts in endgame_positions(25, seed):
        cell = best_play(position, states=1_000_000)
        expected = game_tree_value(position, layouts)
        # the move it names is worth that much: play it, then best play after every clue
        after = Fraction(0)
        for clue in {sum(n in layout for n in position.neighbours(cell)) for layout in layouts if cell not in layout}:
            group = [layout for layout in layouts if cell not in layout and sum(n in layout for n in position.neighbours(cell)) == clue]
            after += Fraction(len(group), len(layouts)) * game_tree_value(position, group)
        assert after == expected
        checked += 1
    assert checked == 25
    assert best_play(Position.from_string("2x1x1\n1."), states=10) is None  # one layout: nothing to search
    # a budget of states too small for the tree says so instead of answering, and one state more answers
    wide = Position.from_string("8x2x4\n.1...1..\n........")
    assert best_play(wide, states=1) is None


def test_the_bit_sliced_count_groups_layouts_by_their_count():
    from cspmines.agents.exact.layoutsets import split_by_count

    rng = np.random.default_rng(4)
    for _ in range(200):
        n_layouts, n_masks = int(rng.integers(1, 70)), int(rng.integers(0, 9))
        def random_mask(n_layouts: int) -> int:
            return sum(1 << i for i in range(n_layouts) if rng.random() < 0.5)

        masks = [random_mask(n_layouts) for _ in range(n_masks)]
        within = random_mask(n_layouts)
        expected: dict = {}
        for i in range(n_layouts):
            if within >> i & 1:
                count = sum(mask >> i & 1 for mask in masks)
                expected[count] = expected.get(count, 0) | 1 << i
        assert sorted(split_by_count(masks, within)) == sorted(expected.values())


@pytest.mark.parametrize("seed", range(3))
def test_pocket_move_plays_a_closed_pocket_as_its_own_game_tree(seed):
    from cspmines.agents.exact.endgame import pocket_move

    found = 0
    for position, analysis in consistent_positions(200, seed + 20):
        played = pocket_move(analysis, most=200, states=1_000_000)
        if played is None:
            continue
        found += 1
        cell, value = played
        covered = set(position.covered_cells)
        # a chain's cells and the cells its clues force (settled out of the chain)
        pockets = [
            set(report.cells) | {n for clue in report.clues for n in position.neighbours(clue) if n in covered}
            for report in analysis.chains
        ]
        pocket = next(pocket for pocket in pockets if cell in pocket)
        assert all(n in pocket for c in pocket for n in position.neighbours(c) if n in covered)
        layouts = mine_layouts(position)
        assert len({len(layout & pocket) for layout in layouts}) == 1  # the total cannot tell
        # the pocket's own game: its distinct layouts, equally likely (each stands for as many whole-board
        # layouts), played to clear it; the move's value is that game's value
        own = sorted({frozenset(layout & pocket) for layout in layouts}, key=sorted)
        assert value.layouts == len(own)
        assert value.probability == game_tree_value(position, own)
        after = Fraction(0)
        for clue in {sum(n in layout for n in position.neighbours(cell)) for layout in own if cell not in layout}:
            group = [layout for layout in own if cell not in layout and sum(n in layout for n in position.neighbours(cell)) == clue]
            after += Fraction(len(group), len(own)) * game_tree_value(position, group)
        assert after == value.probability
    assert found >= 3


@pytest.mark.parametrize("progress_weight", [0.0, 0.2, 5.0])
def test_best_guess_cuts_nothing_that_could_win(progress_weight):
    from cspmines.agents.exact.lookahead import best_guess

    compared = 0
    for position, analysis in consistent_positions(100, 7):
        cells = [c for c in position.covered_cells if analysis.probability(c) not in (0, 1)]
        if len(cells) < 2:
            continue
        chosen = best_guess(analysis, cells, PLAIN.with_changes(progress=progress_weight, avoid_dead=False))
        full = [look_ahead(analysis, c, PLAIN.with_changes(progress=progress_weight)) for c in cells]
        best_score = max(view.score(progress_weight) for view in full)
        assert chosen.score(progress_weight) == pytest.approx(best_score, abs=1e-12)
        living = [v for v in full if not v.dead]
        avoiding = best_guess(analysis, cells, PLAIN.with_changes(progress=progress_weight, avoid_dead=True))
        if living:
            assert not avoiding.dead
            assert avoiding.score(progress_weight) == pytest.approx(max(v.score(progress_weight) for v in living))
        compared += 1
    assert compared > 20


def test_fifty_fifty_influence_is_bounded_and_its_pseudo_cells_are_coin_flips():
    from cspmines.agents.exact.fifty_fifty import fifty_fifty_influence

    influenced = pseudos = 0
    for position, analysis in consistent_positions(400, 77):
        influence = fifty_fifty_influence(analysis)
        for cell, chance in influence.chance.items():
            p = float(analysis.probability(cell))
            assert 0 < chance <= min(p, 1 - p) + 1e-12
            influenced += 1
        if influence.pseudo is None:
            continue
        pseudos += 1
        cell, layouts = influence.pseudo, mine_layouts(position)
        as_set = set(layouts)
        row, col = position.row_col(cell)
        sides = [n for n in position.neighbours(cell) if position.row_col(n)[0] == row or position.row_col(n)[1] == col]
        # some side neighbour is its partner: wherever the cell is a mine, the partner is safe,
        # and moving the mine to the partner gives a layout too (no clue can tell them apart)
        assert any(
            all(b not in layout and (layout - {cell}) | {b} in as_set for layout in layouts if cell in layout)
            for b in sides
        ), str(position)
    assert influenced >= 20 and pseudos >= 3


def test_dominance_only_swaps_to_a_cell_safe_wherever_the_choice_is():
    from cspmines.agents.exact.lookahead import best_guess

    swapped = 0
    for position, analysis in consistent_positions(1000, 5):
        cells = shortlist(analysis, size=6, margin=0.3)
        if not cells:
            continue
        plain = best_guess(analysis, cells, PLAIN.with_changes(progress=0.2))
        chosen = best_guess(analysis, cells, PLAIN.with_changes(progress=0.2, dominance=True))
        if chosen.cell == plain.cell:
            continue
        swapped += 1
        layouts = mine_layouts(position)
        mined_choice = {layout for layout in layouts if plain.cell in layout}
        mined_swap = {layout for layout in layouts if chosen.cell in layout}
        assert mined_swap < mined_choice  # strictly fewer losing layouts, none new
    assert swapped >= 2


@pytest.mark.parametrize("seed", range(3))
def test_closed_off_places_match_their_definition(seed):
    """The numpy filter behind fifty_fifty_influence, against a loop over every cell."""
    from cspmines.agents.exact.fifty_fifty import _closed_off_places
    from cspmines.position import COVERED, FLAG, MINE

    rng = np.random.default_rng(seed)
    found = 0
    for _ in range(300):
        height, width = (int(v) for v in rng.integers(1, 7, size=2))
        grid = rng.choice([COVERED, COVERED, COVERED, FLAG, MINE, 0, 1, 2], size=(height, width))
        known = {c for c in range(grid.size) if rng.random() < 0.1}
        across, down, square = _closed_off_places(grid, known)
        state = partial(_cell_state, grid, known)
        for r in range(height):
            for c in range(width):
                here = state(r, c) == "hidden"
                side = [state(r + k, c - 1) for k in (-1, 0, 1)] + [state(r + k, c + 2) for k in (-1, 0, 1)]
                ends = [state(r - 1, c + k) for k in (-1, 0, 1)] + [state(r + 2, c + k) for k in (-1, 0, 1)]
                corners = [state(r + dr, c + dc) for dr, dc in ((-1, -1), (-1, 2), (2, -1), (2, 2))]
                block = [state(r + dr, c + dc) for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1))]
                expect_across = here and state(r, c + 1) == "hidden" and "open" not in side and side.count("hidden") <= 1
                expect_down = here and state(r + 1, c) == "hidden" and "open" not in ends and ends.count("hidden") <= 1
                expect_square = block.count("hidden") == 4 and all(s in ("edge", "closed") for s in corners)
                assert (across[r, c], down[r, c], square[r, c]) == (expect_across, expect_down, expect_square), (grid, r, c)
                found += expect_across + expect_down + expect_square
    assert found > 100


def _cell_state(grid, known: set, r: int, c: int) -> str:
    """What the 50/50 filter sees at (r, c): "edge", "hidden", "closed" (a known mine) or "open"."""
    from cspmines.position import COVERED, FLAG, MINE

    height, width = grid.shape
    if not (0 <= r < height and 0 <= c < width):
        return "edge"
    code, cell = grid[r, c], r * width + c
    if code == COVERED:
        return "closed" if cell in known else "hidden"
    return "closed" if code in (FLAG, MINE) else "open"


# positions where Hill's complex domination decides (found among random positions: about one in
# 50,000 shortlists, too rare to meet in a test's own sample; the plain choice there is a tie among
# equal scores, which the candidates' order breaks, not the last bits of a sum)
COMPLEX_DOMINATION = ["6x2x6\n..2...\n..F2..", "6x2x5\n1.1...\n.11...", "6x2x5\n.11...\n..1..."]


@pytest.mark.parametrize("text", COMPLEX_DOMINATION)
def test_complex_dominance_opens_the_next_move_of_every_clue_first(text):
    """Through ``best_guess``: the swap is not one the choice proves safe (simple domination),
    and the cell it opens instead is safer now and the single safest after every clue the choice can show."""
    from cspmines.agents.exact.lookahead import best_guess

    position = Position.from_string(text)
    analysis = solve(position)
    cells = shortlist(analysis, size=8, margin=0.5)
    plain = best_guess(analysis, cells, PLAIN.with_changes(progress=0.2))
    chosen = best_guess(analysis, cells, PLAIN.with_changes(progress=0.2, dominance=True))
    assert chosen.cell != plain.cell and chosen.cell in cells
    layouts = mine_layouts(position)
    risk = {c: Fraction(sum(c in layout for layout in layouts), len(layouts)) for c in position.covered_cells}
    assert risk[chosen.cell] < risk[plain.cell]
    assert any(chosen.cell in layout for layout in layouts if plain.cell not in layout)  # not implied by the choice
    groups, others = layouts_by_clue(position, layouts, plain.cell)
    for clue, group in groups.items():
        after = {c: Fraction(sum(c in layout for layout in group), len(group)) for c in others}
        assert all(after[chosen.cell] < after[c] for c in others if c != chosen.cell), (clue, after)


@pytest.mark.parametrize("seed", range(2))
def test_in_small_space_measures_the_space_networkx_finds(seed):
    import networkx as nx

    from cspmines.agents.exact.candidates import in_small_space
    from cspmines.position import COVERED, WITHHELD

    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(40):
        position = random_position(rng, max_covered=14)
        flat = position.grid.ravel()
        unknown = [c for c in range(flat.size) if flat[c] == COVERED]
        graph = nx.Graph()
        graph.add_nodes_from(unknown)
        for c in unknown:
            for n in position.neighbours(c):
                if flat[n] == COVERED:
                    graph.add_edge(c, n)
                elif flat[n] >= 0 or flat[n] == WITHHELD:  # an opened cell joins everything around it
                    graph.add_edges_from((c, m) for m in position.neighbours(n) if flat[m] == COVERED)
        for c in unknown:
            size = len(nx.node_connected_component(graph, c))
            for threshold in (0, 1, 2, 4, 8):
                assert in_small_space(position, c, threshold=threshold) == (size < threshold), (str(position), c)
            checked += 1
    assert checked > 50


def test_on_guess_reports_every_guess_and_the_fatal_one():
    from cspmines.agents.exact import ExactAgent
    from cspmines.games import Board, Game, play

    outcomes = set()
    for seed in range(10):
        board = Board.random("intermediate", seed=seed)
        guesses = []
        record = play(ExactAgent(on_guess=guesses.append), Game(board), seed=seed)
        assert all(0 < guess.safety < 1 or guess.reason == "endgame" for guess in guesses)
        assert all(guess.reason in {"endgame", "fifty-fifty", "pseudo fifty-fifty", "pocket", "look-ahead"} for guess in guesses)
        assert [guess.covered for guess in guesses] == sorted((guess.covered for guess in guesses), reverse=True)
        if not record.won:
            assert guesses and board.is_mine(guesses[-1].cell)  # a lost game ends on a guess
        outcomes.add(record.won)
    assert outcomes == {True, False}


def test_hotspots_are_pairs_that_one_more_mine_seals_into_a_coin_flip():
    from cspmines.agents.exact.fifty_fifty import fifty_fifty_influence
    from cspmines.agents.exact.hotspots import hotspot_ratio

    checked = 0
    for position, analysis in consistent_positions(1200, 78):
        hotspots = fifty_fifty_influence(analysis).hotspots
        if not hotspots:
            continue
        layouts = mine_layouts(position)
        as_set = set(layouts)
        before = 1.0
        for hotspot in hotspots:
            a, b = sorted(hotspot.cells - {hotspot.enabler})
            assert b - a in (1, position.width)  # side by side
            assert analysis.probability(a) == analysis.probability(b) == Fraction(1, 2)
            risk = analysis.probability(hotspot.enabler)
            assert Fraction(1, 10) < risk < 1
            assert hotspot.survival(analysis) == pytest.approx(1 - float(risk) / 2)
            # with the enabler a mine, no clue can ever tell a from b: moving the mine gives a layout too
            sealed = [layout for layout in layouts if hotspot.enabler in layout and (a in layout) != (b in layout)]
            assert sealed and all(layout ^ {a, b} in as_set for layout in sealed), str(position)
            before *= hotspot.survival(analysis)
        # a guess inside every hotspot settles them all: its ratio is 1 / before whatever it shows
        for cell in set.intersection(*(set(h.cells) for h in hotspots)):
            assert hotspot_ratio(hotspots, cell, analysis, before) == pytest.approx(1 / before)
            plain = look_ahead(analysis, cell, PLAIN.with_changes(blend=0.2))
            charged = look_ahead(analysis, cell, PLAIN.with_changes(blend=0.2), hotspots=hotspots)
            assert charged.secondary == pytest.approx(plain.secondary / before)
        checked += 1
    assert checked >= 10



def test_the_single_safest_cell_after_every_clue_matches_its_definition():
    """``next_cell``: the one cell safer than every other after each clue the cell can show, if always the same."""
    found = 0
    for position, analysis in consistent_positions(150, 31):
        layouts = mine_layouts(position)
        for cell in position.covered_cells:
            if analysis.probability(cell) in (0, 1):
                continue
            groups, others = layouts_by_clue(position, layouts, cell)
            singles = set()
            for group in groups.values():
                risk = {c: Fraction(sum(c in layout for layout in group), len(group)) for c in others}
                least = min(risk.values(), default=Fraction(1))
                tied = [c for c in others if risk[c] == least]
                singles.add(tied[0] if len(tied) == 1 and least < 1 else None)
            expected = next(iter(singles)) if len(singles) == 1 else None
            assert look_ahead(analysis, cell, follow_next=True).next_cell == expected, (str(position), cell)
            found += expected is not None
    assert found > 5  # the case arises, so the test can fail


def _first_guesses(text: str, first_corner: float, moves: int = 1) -> list:
    guesses: list = []
    agent = ExactAgent(first_corner=first_corner, endgame=0, pockets=0, on_guess=guesses.append)
    agent.reset(rules="classic", seed=0)
    for _ in range(moves):
        agent.act(Position.from_string(text))
    return guesses


def test_first_corner_sends_only_the_first_look_ahead_guess_to_the_bottom_left_corner():
    # a 1 in the top-left corner: the look-ahead opens the top-right corner (7); the bottom-left
    # (56) is off the front and as safe, so first_corner takes it, once a game
    text = "8x8x10\n1.......\n" + "........\n" * 6 + "........"
    assert [(g.cell, g.reason) for g in _first_guesses(text, 0.0)] == [(7, "look-ahead")]
    assert [(g.cell, g.reason) for g in _first_guesses(text, 0.01, moves=2)] == [(56, "first corner"), (7, "look-ahead")]


def test_first_corner_leaves_a_corner_on_the_front_alone():
    # a 3 beside the bottom-left corner: the corner is on the front, so no tolerance sends the guess there
    text = "8x8x10\n" + "........\n" * 6 + ".3......\n........"
    assert [(g.cell, g.reason) for g in _first_guesses(text, 0.9)] == [(0, "look-ahead")]


def test_corners_sends_look_ahead_guesses_off_the_front_to_a_corner_from_the_nth_guess():
    # expert, the safe corner shows 1: the look-ahead opens 2, two along the top edge and off the
    # front; the likeliest opening off the front is the top-right corner (29), as safe
    text = "30x16x99\n1" + "." * 29 + "\n" + ("." * 30 + "\n") * 15

    def two_guesses(corners: int) -> list:
        guesses: list = []
        agent = ExactAgent(corners=corners, on_guess=guesses.append)
        agent.reset(rules="classic", seed=0)
        for _ in range(2):
            agent.act(Position.from_string(text))
        return [(g.cell, g.reason) for g in guesses]

    assert two_guesses(0) == [(2, "look-ahead"), (2, "look-ahead")]
    assert two_guesses(1) == [(29, "corner"), (29, "corner")]
    assert two_guesses(2) == [(2, "look-ahead"), (29, "corner")]


def test_corners_leaves_a_guess_on_the_front_alone():
    # a 1 in the middle: the look-ahead opens 19, beside it on the front; the corners stay closed
    text = "8x8x12\n" + "........\n" * 3 + "...1....\n" + "........\n" * 4
    for corners in (0, 1):
        guesses: list = []
        agent = ExactAgent(corners=corners, endgame=0, pockets=0, on_guess=guesses.append)
        agent.reset(rules="classic", seed=0)
        agent.act(Position.from_string(text))
        assert [(g.cell, g.reason) for g in guesses] == [(19, "look-ahead")]
