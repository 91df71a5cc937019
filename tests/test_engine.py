"""The exact engine against a brute-force oracle, the reference positions, and known answers."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import cspmines
from cspmines import InconsistentPositionError, Limit, MissingTotalError, Position, solve

DATA = Path(__file__).parent / "data"
REFERENCES = sorted(DATA.glob("*.txt"))


def test_references_cover_every_family():
    families = {p.stem.rsplit("-", 1)[0].rstrip("0123456789-") for p in REFERENCES}
    assert {"beginner", "intermediate", "expert", "lattice", "scatter", "checker", "chain"} <= families
    assert len(REFERENCES) >= 50


def test_lone_one_between_two_covered_cells():
    analysis = solve(Position.from_string("3x1x1\n.1."))
    assert analysis.model_count == 2
    assert analysis.probability(0) == analysis.probability(2) == Fraction(1, 2)
    assert analysis.safe_cells == () and analysis.mine_cells == ()


def test_certain_cells_and_rest_probability():
    # the top 1 sees (0,1) and (1,1); the bottom 1 sees the same two; 2 mines, 6 covered
    analysis = solve(Position.from_string("4x2x2\n1...\n1..."))
    exact = analysis.probabilities(exact=True)
    # front {(0,1),(1,1)} holds exactly 1 mine (2 ways); the other 4 cells hold 1 (4 ways)
    assert analysis.model_count == 8
    assert exact[0, 1] == Fraction(1, 2) and exact[0, 3] == Fraction(1, 4)
    assert sum(exact[exact != None]) == 2  # noqa: E711 - probabilities add up to the mines left


def test_probabilities_sum_to_mines_left_on_references():
    for path in REFERENCES[::5]:
        position = Position.from_file(path)
        exact = solve(position).probabilities(exact=True)
        assert sum(v for v in exact.flat if v is not None) == position.mines - len(position.known_mine_cells)


def test_flags_count_toward_the_total():
    assert solve(Position.from_string("3x1x1\nF1.")).probability(2) == 0  # the 1 is taken by the flag
    with pytest.raises(InconsistentPositionError):
        solve(Position.from_string("3x1x1\nF1.\n"), mines=2)  # cell 2 is safe: no room for a second mine


def test_unknown_total_needs_mines_or_density():
    position = Position.from_string("3x1\n.1.")
    with pytest.raises(MissingTotalError):
        solve(position)
    assert solve(position, mines=1).model_count == 2
    assert solve(position, density=0.5).probability(0) == Fraction(1, 2)
    with pytest.raises(ValueError, match="density"):
        solve(position, density=1.5)


def test_density_weights_unconstrained_cells_by_density():
    analysis = solve(Position.from_string("4x1\n.1.."), density=Fraction(1, 5))
    assert analysis.probability(3) == Fraction(1, 5)
    assert analysis.probability(0) == Fraction(1, 2)


def test_a_float_density_is_read_by_its_decimal_text_exactly():
    """0.2 means one in five, not the binary float nearest it: every chance is the exact one of 1/5."""
    from cspmines import Density

    from bruteforce import brute_force

    assert Density(0.2).value == Fraction(1, 5) and Density(0.15).value == Fraction(3, 20)
    assert Fraction(0.2) != Fraction(1, 5)  # what reading the float itself would give
    position = Position.from_string("5x2\n.1.1.\n.....")
    oracle = brute_force(position, density=Fraction(1, 5))
    analysis = solve(position, density=0.2)
    for cell in position.covered_cells:
        assert analysis.probability(cell) == oracle.probabilities[cell]
    assert solve(Position.from_string("4x1\n.1.."), density=0.2).probability(3) == Fraction(1, 5)


def test_a_limit_of_no_time_or_no_work_is_refused_with_its_own_message():
    from cspmines import Limit

    for time in (0, -1, 0.0):
        with pytest.raises(ValueError) as caught:
            Limit(time=time)
        assert str(caught.value) == f"the time limit must be a number of seconds above 0, got {time!r}"
    for bad in (True, "5"):
        with pytest.raises(ValueError, match="the time limit must be a number of seconds above 0"):
            Limit(time=bad)
    with pytest.raises(ValueError) as caught:
        Limit(nodes=0)
    assert str(caught.value) == "the node limit must be a whole number >= 1, got 0"
    with pytest.raises(ValueError) as caught:
        Limit(max_chain=2.5)
    assert str(caught.value) == "the chain limit (max_chain) must be a whole number >= 1, got 2.5"
    assert Limit(time=0.001, nodes=1, max_chain=1).limited and not Limit(max_chain=3).limited


# Every entry point of the engine, called on a small position with the given keywords: each reads its
# limit (and its density, where it takes one) through one check, so each refuses alike.
SMALL = "3x1x1\n.1."


def _entry_points():
    from cspmines import Engine, certain_cells, sample_layouts
    from cspmines.engine.clues import clue_spread, clue_spreads
    from cspmines.engine.sampling import sample_mines

    position = Position.from_string(SMALL)
    analysis = solve(position)
    return {
        "solve": lambda **given: solve(position, **given),
        "sample_layouts": lambda **given: sample_layouts(position, 3, seed=1, **given),
        "sample_mines": lambda **given: sample_mines(position, 3, engine=Engine(), seed=1, **given),
        "certain_cells": lambda **given: certain_cells(position, **given),
        "clue_spreads": lambda **given: clue_spreads(analysis, [0, 2], **given),
        "clue_spread": lambda **given: clue_spread(analysis, 0, **given),
        "Engine": lambda **given: Engine(**given).solve(position),
        "Engine.solve": lambda **given: Engine().solve(position, **given),
        "Engine.sample": lambda **given: Engine().sample(position, 3, seed=1, **given),
        "Engine.certain": lambda **given: Engine().certain(position, **given),
        "Engine.spread": lambda **given: Engine().spread(analysis, 0, **given),
        "Engine.insight": lambda **given: Engine().insight(analysis, **given),
    }


ENTRY_POINTS = ["solve", "sample_layouts", "sample_mines", "certain_cells", "clue_spreads", "clue_spread", "Engine",
                "Engine.solve", "Engine.sample", "Engine.certain", "Engine.spread", "Engine.insight"]
WITH_DENSITY = ["solve", "sample_layouts", "sample_mines", "Engine.solve", "Engine.sample"]
WITH_TIME_LIMIT = ["solve", "sample_layouts", "sample_mines", "certain_cells", "clue_spreads"]  # the deprecated keyword


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_every_entry_point_takes_a_limit_and_refuses_anything_else_alike(entry):
    call = _entry_points()[entry]
    call(limit=Limit(time=30, memory="64M"))  # taken, and enough for the small position
    for bad, kind in ((2.5, "float"), ("5s", "str"), ({"time": 1}, "dict")):
        with pytest.raises(TypeError) as caught:
            call(limit=bad)
        assert str(caught.value) == f"limit must be a cspmines.Limit, got {kind}"


@pytest.mark.parametrize("entry", WITH_TIME_LIMIT)
@pytest.mark.parametrize("seconds", [0, -1, 0.0])
def test_no_time_is_refused_by_every_entry_point_with_the_one_message(entry, seconds):
    """Zero seconds is no budget at all, everywhere: ``Limit`` refuses it, and every entry point takes its
    time only as a ``Limit`` (the old ``time_limit=`` is gone)."""
    call = _entry_points()[entry]
    with pytest.raises(ValueError) as caught:
        call(limit=Limit(time=seconds))
    assert str(caught.value) == f"the time limit must be a number of seconds above 0, got {seconds!r}"
    with pytest.raises(TypeError, match="unexpected keyword argument 'time_limit'"):
        call(time_limit=1)


@pytest.mark.parametrize("entry", WITH_DENSITY)
@pytest.mark.parametrize("density", ["0.2", 1.5, -0.1, True, None.__class__, Fraction(3, 2)])
def test_every_entry_point_refuses_a_bad_density_with_the_one_message(entry, density):
    call = _entry_points()[entry]
    with pytest.raises(ValueError) as caught:
        call(density=density)
    assert str(caught.value) == f"density must be a number between 0 and 1, got {density!r}"


@pytest.mark.parametrize("entry", WITH_DENSITY)
def test_every_entry_point_reads_a_density_as_a_number_or_a_density_alike(entry):
    from cspmines import Density

    call = _entry_points()[entry]
    answers = [call(density=density) for density in (0.25, Fraction(1, 4), Density("1/4"), Density(0.25))]
    as_lists = [answer.tolist() if isinstance(answer, np.ndarray) else answer for answer in answers]
    if entry.endswith("solve"):
        as_lists = [answer.probabilities(exact=True).tolist() for answer in answers]
    assert all(answer == as_lists[0] for answer in as_lists)


def test_recent_keeps_the_most_recently_used_and_drops_the_least():
    from cspmines.engine.cache import Recent

    recent = Recent(3)
    for key in "abc":
        recent.put(key, key.upper())
    assert recent.get("a") == "A"  # a is now the most recent: b the least
    assert recent.get("z") is None  # a miss changes no order
    recent.put("d", "D")
    assert recent.get("b") is None and len(recent) == 3
    recent.put("c", "C2")  # putting again refreshes too: a is now the least
    recent.put("e", "E")
    assert [recent.get(key) for key in "acde"] == [None, "C2", "D", "E"]
    recent.clear()
    assert len(recent) == 0 and recent.get("c") is None


@pytest.mark.parametrize(
    "text, clue",
    [
        ("3x1x1\n.0F", None),  # a 0 touching a flag
        ("3x3x1\n...\n.8.\n...", (1, 1)),  # 8 fits, but the total says 1
        ("2x2x2\n1.\n.3", None),
        ("4x1x1\n1..1", None),
    ],
)
def test_inconsistent_positions_raise_and_name_clues(text, clue):
    with pytest.raises(InconsistentPositionError, match="inconsistent") as caught:
        solve(Position.from_string(text))
    if clue is not None and caught.value.clues:
        assert clue in caught.value.clues


@pytest.mark.parametrize("density", [0, 1])
def test_a_density_that_leaves_no_layout_is_named(density):
    # a 1 between two covered cells needs one mine: a density of 0 allows none, of 1 only two
    with pytest.raises(InconsistentPositionError, match=f"no mine layout fits the clues when each covered cell is a mine with chance {density}"):
        solve(Position.from_string("3x1\n.1."), density=density)


def test_inconsistency_names_a_minimal_conflicting_set():
    # the 2 wants (0,0) and (0,2); the 0 forbids (0,2); the 1 at (0,5) joins the chain but is innocent
    position = Position.from_string("8x1x3\n.2.0.1..")
    with pytest.raises(InconsistentPositionError) as caught:
        solve(position)
    assert caught.value.clues == ((0, 1), (0, 3))


def test_components_report_chain_statistics():
    analysis = solve(Position.from_file(DATA / "scatter15-2.txt"), settle=False)
    assert len(analysis.chains) == 11
    for component in analysis.chains:
        assert component.layouts > 0 and component.n_cells >= component.n_boxes >= 1
        assert component.mine_range[0] <= component.mine_range[1]
    assert sum(c.n_cells for c in analysis.chains) <= len(analysis.position.covered_cells)


def test_analysis_is_consistent_between_exact_and_float():
    analysis = solve(Position.from_file(DATA / "expert-5-012.txt"))
    exact, floats = analysis.probabilities(exact=True), analysis.probabilities()
    for e, f in zip(exact.flat, floats.flat, strict=True):
        assert (e is None and np.isnan(f)) or float(e) == f
    assert "Analysis" in repr(analysis)


def test_chances_are_whole_layout_counts_and_read_as_the_fractions_they_are():
    # with a total the engine keeps each chance as the layouts in which the cell is a mine (one
    # denominator, the model count); a box's share of its tally must divide exactly, and the float
    # read without the Fraction must be float() of it, bit for bit
    from bruteforce import brute_force, mine_layouts
    from randompositions import solved_with_total

    checked = 0
    for position, analysis in solved_with_total(300, 42, max_covered=12):
        layouts = mine_layouts(position)
        assert analysis.model_count == len(layouts) == brute_force(position).model_count
        for cell in position.covered_cells:
            p = analysis.probability(cell)
            assert p * analysis.model_count == sum(cell in layout for layout in layouts)
            assert analysis.probability(cell, exact=False) == float(p)
        checked += 1
    assert checked > 150
    for path in REFERENCES[::4]:
        analysis = solve(Position.from_file(path))
        for cells, p in analysis.groups():
            assert analysis.probability(cells[0], exact=False) == float(p)
            assert (p * analysis.model_count).denominator == 1


@pytest.mark.parametrize("density", [None, Fraction(1, 5)])
def test_cells_where_reads_every_covered_cell_once(density):
    half = Fraction(1, 2)
    for path in REFERENCES[::4]:
        position = Position.from_file(path)
        analysis = solve(position, density=density if position.mines is None else None)
        assert analysis.cells_where(lambda p: True) == position.covered_cells  # every covered cell, in flat order
        for test in (lambda p: p == 0, lambda p: p != 1, lambda p: p == half, lambda p: p < half):
            assert analysis.cells_where(test) == tuple(c for c in position.covered_cells if test(analysis.probability(c)))


def test_solve_rejects_non_positions():
    with pytest.raises(TypeError):
        solve("3x1x1\n.1.")
    with pytest.raises(cspmines.UnknownBackendError, match="choose one of"):
        solve(Position.from_string("3x1x1\n.1."), backend="nope")


def test_settling_forced_cells_changes_no_answer():
    from randompositions import random_position

    rng = np.random.default_rng(2611)
    settled_some = 0
    for _ in range(400):
        position = random_position(rng, max_covered=14, corrupt=rng.random() < 0.3)
        options = {} if position.mines is not None else {"density": Fraction(1, 4)}
        try:
            raw = solve(position, settle=False, **options)
        except InconsistentPositionError as error:
            with pytest.raises(InconsistentPositionError) as caught:
                solve(position, **options)
            assert str(caught.value) == str(error)  # the same clues named
            continue
        settled = solve(position, **options)
        assert settled.model_count == raw.model_count
        assert settled.mines_left == raw.mines_left
        assert np.array_equal(settled.probabilities(exact=True), raw.probabilities(exact=True))
        chained = {cell for report in settled.components for cell in report.cells}
        settled_some += sum(c.n_cells for c in raw.components) > len(chained)
    assert settled_some >= 40


def test_settling_shrinks_the_chains_of_real_play():
    position = Position.from_file(DATA / "expert-5-013.txt")  # a player who never flags: 96 known mines
    raw, settled = solve(position, settle=False), solve(position)
    assert sum(c.n_cells for c in raw.components) == 102
    assert sum(c.n_cells for c in settled.components) == 102 - 96
    assert len(settled.mine_cells) == len(raw.mine_cells) == 96
    assert settled.model_count == raw.model_count


def test_recent_chains_are_not_counted_again_and_never_skip_a_budget():
    position = Position.from_file(DATA / "lattice11-2.txt")
    first = solve(position)
    again = solve(position)
    assert again.model_count == first.model_count
    # the same counts, not counted again: each report carries the first count's own figures
    assert all(a.stats is b.stats for a, b in zip(again.components, first.components, strict=True))
    assert all(a.stats is not b.stats for a, b in zip(solve(position, backend="dp").components, first.components, strict=True))
    limited = solve(position, limit=Limit(nodes=5))  # a budget is spent as asked, whatever was counted before
    assert not limited.exact and limited.model_count is None


def test_boxes_join_into_the_classes_networkx_finds():
    import networkx as nx

    from cspmines.engine.chains import _joined

    rng = np.random.default_rng(5)
    for _ in range(500):
        n = int(rng.integers(1, 40))
        groups = [rng.choice(n, size=int(rng.integers(1, min(n, 5) + 1)), replace=False).tolist() for _ in range(int(rng.integers(0, 30)))]
        reference = nx.utils.UnionFind(range(n))
        for group in groups:
            reference.union(*group)
        found = _joined(n, groups)
        assert sorted(map(sorted, reference.to_sets())) == sorted(found)
        assert all(members == sorted(members) for members in found)
