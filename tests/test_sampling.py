"""sample_layouts against the brute-force oracle: only allowed layouts, each as often as the position says."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binom

from cspmines import BudgetExceededError, InconsistentPositionError, Limit, MissingTotalError, Position, solve
from cspmines.engine.backends.dynamic import DynamicProgrammingBackend
from cspmines.engine.chains import split_chains
from cspmines.engine.constraints import ConstraintSystem
from cspmines.engine.engine import sample_layouts
from cspmines.position import COVERED

from bruteforce import brute_force, mine_layouts
from randompositions import random_position

POSITIONS = Path(__file__).parent / "data"  # the reference positions, bundled

DRAWS = 300


def consistent_positions(count: int, *, seed: int, with_total: bool):
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        position = random_position(rng, max_covered=9)
        if (position.mines is not None) != with_total:
            continue
        density = None if with_total else Fraction(int(rng.integers(1, 10)), 10)
        if brute_force(position, density=density).model_count:
            found.append((position, density))
    return found


def within(observed: int, expected: float, draws: int) -> bool:
    """Not in either binomial tail beyond a chance of 1e-7 (about five standard deviations where
    the count is large; exact where it is small, which the normal bound is not: a layout expected
    0.7 times in 300 draws is seen 5 times about once in 1,700 checks). A fixed seed: no flicker."""
    p = expected / draws
    if p <= 0 or p >= 1:
        return observed == expected
    return binom.cdf(observed, draws, p) > 1e-7 and binom.sf(observed - 1, draws, p) > 1e-7


def test_draws_are_the_allowed_layouts_each_equally_often():
    for n, (position, _) in enumerate(consistent_positions(25, seed=11, with_total=True)):
        allowed = mine_layouts(position)
        known = frozenset(position.known_mine_cells)
        draws = sample_layouts(position, DRAWS, seed=n)
        seen = Counter(layout - known for layout in draws)
        assert all(layout >= known for layout in draws)
        assert set(seen) <= set(allowed), f"a layout the position does not allow: {position!r}"
        for layout in allowed:
            assert within(seen[layout], DRAWS / len(allowed), DRAWS), f"{sorted(layout)} in {position!r}: {seen[layout]}"


def few_clues(rng: np.random.Generator) -> Position:
    """A 5x4 board with two to four safe cells opened: a short front and many cells off it."""
    while True:
        mine = rng.random(20) < 0.25
        grid = np.full(20, COVERED, dtype=np.int8)
        for cell in rng.choice(np.flatnonzero(~mine), size=int(rng.integers(2, 5)), replace=False):
            grid[cell] = sum(mine[n] for n in Position(grid.reshape(4, 5)).neighbours(int(cell)))
        position = Position(grid.reshape(4, 5), mines=int(mine.sum()))
        if np.count_nonzero(grid == COVERED) <= 18:
            return position


def test_the_front_is_drawn_by_its_share_of_layouts_not_its_own_count():
    """A front layout with fewer mines leaves more ways to place the rest off the front: it must come up more."""
    rng = np.random.default_rng(13)
    tried = 0
    while tried < 8:
        position = few_clues(rng)
        front = {m for c in position.clue_cells for m in position.neighbours(c) if position.grid.flat[m] == COVERED}
        shares = Counter(layout & front for layout in mine_layouts(position))
        if len({len(part) for part in shares}) == 1:
            continue  # every front layout leaves the same mines off it: any draw of the front looks fair
        tried += 1
        total = sum(shares.values())
        draws = sample_layouts(position, DRAWS, seed=100 + tried)
        seen = Counter(layout & front for layout in draws)
        assert set(seen) <= set(shares)
        for part, share in shares.items():
            assert within(seen[part], DRAWS * share / total, DRAWS), (position, sorted(part), seen[part], share, total)


def test_draws_follow_the_density_when_the_total_is_unknown():
    for n, (position, density) in enumerate(consistent_positions(15, seed=12, with_total=False)):
        oracle = brute_force(position, density=density)
        draws = sample_layouts(position, DRAWS, seed=n, density=density)
        for cell in position.covered_cells:
            hits = sum(cell in layout for layout in draws)
            assert within(hits, float(oracle.probabilities[cell]) * DRAWS, DRAWS), (position, cell, hits)


@pytest.mark.parametrize("text", ["5x1\n.1.1.", "6x2\n.1.1..\n......", "4x3\n.2..\n..1.\n...."])
@pytest.mark.parametrize("density", [Fraction(1, 10), Fraction(7, 10)])
def test_a_density_weighs_a_chain_by_its_mine_number(text, density):
    """Chains whose layouts hold different numbers of mines: a layout of k mines weighs p**k (1-p)**(n-k)."""
    position = Position.from_string(text)
    oracle = brute_force(position, density=density)
    draws = sample_layouts(position, 1000, seed=2, density=density)
    for cell in position.covered_cells:
        hits = sum(cell in layout for layout in draws)
        assert within(hits, float(oracle.probabilities[cell]) * 1000, 1000), (text, cell, hits)


def test_the_same_seed_draws_the_same_layouts():
    position = Position.from_string("5x3x4\n1....\n.....\n.....")
    assert sample_layouts(position, 20, seed=3) == sample_layouts(position, 20, seed=3)
    assert sample_layouts(position, 20, seed=3) != sample_layouts(position, 20, seed=4)
    assert sample_layouts(position, 0, seed=3) == []


def test_bad_input_is_reported():
    with pytest.raises(InconsistentPositionError):
        sample_layouts(Position.from_string("3x1x2\n.0."), 1)
    with pytest.raises(MissingTotalError):
        sample_layouts(Position.from_string("3x1\n.1."), 1)
    with pytest.raises(ValueError, match="count must be >= 0"):
        sample_layouts(Position.from_string("3x1x1\n.1."), -2)


def test_a_time_limit_stops_the_draw_and_keeps_what_was_drawn():
    position = Position.from_string("5x3x4\n1....\n.....\n.....")
    with pytest.raises(BudgetExceededError, match=r"time limit of 0.05 s reached after \d+ of 1000000 layouts") as caught:
        sample_layouts(position, 1_000_000, seed=5, limit=Limit(time=0.05))
    drawn = caught.value.layouts
    assert 0 < len(drawn) < 1_000_000
    assert drawn == sample_layouts(position, len(drawn), seed=5)  # the same draws as without a limit
    with pytest.raises(ValueError, match="the time limit must be a number of seconds above 0, got -1"):
        sample_layouts(position, 1, limit=Limit(time=-1))


def component_layouts(component) -> dict:
    """Every mine set of the component's cells that meets its rules, by mine number (brute force)."""
    box_of = {cell: b for b, box in enumerate(component.boxes) for cell in box.cells}
    found: dict = {}
    for bits in itertools.product((0, 1), repeat=component.n_cells):
        mines = frozenset(cell for cell, bit in zip(component.cells, bits, strict=True) if bit)
        per_box = Counter(box_of[cell] for cell in mines)
        if all(sum(per_box[b] for b in rule.boxes) == rule.mines for rule in component.rules):
            found.setdefault(len(mines), []).append(mines)
    return found


def test_a_chain_is_drawn_uniformly_for_each_mine_number():
    """The kept programme, walked backwards, gives each layout of a chain with k mines the same chance."""
    rng = np.random.default_rng(21)
    checked = 0
    while checked < 30:
        position = random_position(rng, max_covered=12)
        for component in split_chains(ConstraintSystem.from_position(position)):
            if component.n_cells > 12:
                continue
            layouts = component_layouts(component)
            sampler = DynamicProgrammingBackend().sampler(component)
            assert sampler.models == DynamicProgrammingBackend().count(component).models
            assert {k: len(v) for k, v in layouts.items()} == {k: w for k, w in enumerate(sampler.models) if w}
            for k, allowed in layouts.items():
                source = random.Random(checked * 10 + k)
                draws = Counter(frozenset(sampler.draw(k, source)) for _ in range(DRAWS))
                assert set(draws) <= set(allowed), (component, k)
                for layout in allowed:
                    assert within(draws[layout], DRAWS / len(allowed), DRAWS), (component, k, sorted(layout), draws[layout])
            with pytest.raises(ValueError, match="no layout of this chain holds"):
                sampler.draw(len(sampler.models), random.Random(0))
            checked += 1


@pytest.mark.parametrize("name", ["expert-5-027", "lattice9-2", "scatter15-2", "dense-5-023"])
def test_cells_are_mines_as_often_as_the_exact_probabilities_say(name):
    """On reference positions too wide for the oracle: each cell's share of 2,000 draws against solve()."""
    position = Position.from_file(POSITIONS / f"{name}.txt")
    exact = solve(position)
    draws = sample_layouts(position, 2000, seed=9)
    for cell in position.covered_cells:
        hits = sum(cell in layout for layout in draws)
        assert within(hits, float(exact.probability(cell)) * len(draws), len(draws)), (name, cell, hits)
    for layout in draws[:50]:  # each drawn board shows the clues the position shows
        for clue in position.clue_cells:
            assert sum(n in layout for n in position.neighbours(clue)) == position.grid.flat[clue], (name, clue)


def test_a_time_limit_also_bounds_the_count_before_the_first_draw():
    position = Position.from_file(POSITIONS / "lattice15-2.txt")  # its count takes about 0.4 s
    with pytest.raises(BudgetExceededError, match="reached after 0 of 10 layouts") as caught:
        sample_layouts(position, 10, seed=1, limit=Limit(time=0.01))
    assert caught.value.layouts == []


def test_layouts_still_possible_are_exactly_those_the_new_position_allows():
    from cspmines.engine.sampling import layouts_still_possible

    from bruteforce import mine_layouts
    from randompositions import positions_with_total

    checked = 0
    for position, layouts in positions_with_total(60, 31, max_covered=10, accept=lambda p: _draws(p)):
        truth = layouts[0]
        safe = [c for c in position.covered_cells if c not in truth]
        if not safe:
            continue
        cell = safe[0]
        grid = position.grid.copy()
        grid.flat[cell] = sum(1 for n in position.neighbours(cell) if n in truth)  # it shows its clue
        after = Position(grid, mines=position.mines)
        allowed = {frozenset(layout) | frozenset(after.known_mine_cells) for layout in mine_layouts(after)}
        kept = layouts_still_possible(after, layouts)
        assert kept and all(layout in allowed for layout in kept)
        assert all(layout in kept for layout in layouts if layout in allowed)
        checked += 1
    assert checked > 30


def _draws(position):
    try:
        return sample_layouts(position, 40, seed=1)
    except (ValueError, InconsistentPositionError):
        return None


@pytest.mark.parametrize("leading_bits", [2, 3, 5, 63])
def test_picks_past_63_bits_are_exact_where_the_leading_bits_do_not_decide(leading_bits):
    """Few leading bits make most blocks straddle an edge or pass the total: both ways exercised."""
    from scipy.stats import chisquare

    from cspmines.engine.backends.sampler import _big_picks

    generator = np.random.default_rng(leading_bits)
    for weights in ([(1 << 70) + 1, 3, (1 << 70) - 7, 5], [5, 0, 9, 1, 13], [1, 1], [(1 << 90) // 3, 7 << 60, 1 << 89]):
        total = sum(weights)
        picks = _big_picks(generator, weights, total, 60_000, leading_bits=leading_bits)
        observed = np.bincount(picks, minlength=len(weights))
        expected = np.array([w / total for w in weights]) * len(picks)
        assert not observed[expected < 1e-9].any()
        seen = expected >= 1e-9
        assert chisquare(observed[seen], expected[seen]).pvalue > 1e-6, (weights, observed.tolist())


def test_every_entry_point_takes_a_density_value_as_solve_does():
    """A Density is read as the number it holds, wherever a density is asked for; the same draws follow
    from the same seed whether it comes as a Density, a string within one, a float or a Fraction."""
    from cspmines import Density, Engine
    from cspmines.engine.sampling import sample_mines

    position = Position.from_string("5x2\n.1.1.\n.....")
    expected = sample_layouts(position, 40, seed=5, density=Fraction(1, 5))
    for density in (Density("0.2"), Density(0.2), Density(Fraction(1, 5)), 0.2):
        assert sample_layouts(position, 40, seed=5, density=density) == expected
        assert Engine().sample(position, 40, seed=5, density=density) == expected
        assert [frozenset(np.flatnonzero(row).tolist()) for row in sample_mines(position, 40, engine=Engine(), seed=5, density=density)] == expected
        assert Engine().solve(position, density=density).probabilities(exact=True).tolist() == \
            solve(position, density=Fraction(1, 5)).probabilities(exact=True).tolist()
    with pytest.raises(ValueError, match="not both"):
        Engine().sample(Position.from_string("3x1x1\n.1."), 1, mines=1, density=Density("0.2"))
    with pytest.raises(ValueError, match="density must be a number between 0 and 1, got '0.2'"):
        sample_layouts(position, 1, density="0.2")   # a bare string, as solve refuses it
