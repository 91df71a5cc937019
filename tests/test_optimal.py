"""The optimal-play table: each first cell's value and each rule's optimum against a plain expectimax
(tests/bruteforce.py), the facts known without search, the limits at their edges, the resumable folder
and the command."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import pytest

from cspmines.cli import main
from cspmines.engine.budget import Limit
from cspmines.engine.value import _LISTING_SECONDS, listing_cap
from cspmines.errors import TooLargeError
from cspmines.games.board import BoardFormatError
from cspmines.studies.optimal import FirstClickRule, agent_rate, board_optimum
from cspmines.studies.optimal.optimum import BoardOptimum, FirstCell, check_budget
from cspmines.studies.optimal.rates import Games, game_ranks
from cspmines.studies.optimal.rules import CORNER, check_mines, distinct_cells, empty_board, layouts_under
from cspmines.studies.optimal.table import AGENTS, OPTIMUM, TableFileError, TablePlan, counts_beyond, counts_within, run_table

from bruteforce import best_play_wins

NONE, PROTECTED, CORNER_RULE = FirstClickRule.NONE, FirstClickRule.PROTECTED, FirstClickRule.CORNER

# boards small enough for the plain expectimax, several counts each (the densest counts of 3x3 take it seconds)
BRUTE = [(2, 2, k) for k in (1, 2, 3)] + [(4, 2, k) for k in (1, 2, 3, 5, 7)] + [(3, 3, k) for k in (1, 2, 3, 6, 8)] + [(2, 3, 2), (3, 2, 4), (4, 4, 13), (4, 4, 14)]


def expected_rules(width: int, height: int, mines: int) -> dict:
    """Each rule's (wins, layouts, best first cells) from the brute force's own first-cell values."""
    _, by_cell, layouts = best_play_wins(empty_board(width, height, mines))
    best = max(by_cell.values())
    cells = tuple(sorted(cell for cell, wins in by_cell.items() if wins == best))
    safe = comb(width * height - 1, mines)
    assert layouts == comb(width * height, mines)
    return {NONE: (best, layouts, cells), PROTECTED: (best, safe, cells), CORNER_RULE: (by_cell[CORNER], safe, (CORNER,))}


@pytest.mark.parametrize("width, height, mines", BRUTE)
def test_every_rule_matches_the_brute_force(width, height, mines):
    found = board_optimum(width, height, mines)
    assert found.exact and found.stopped_by is None
    for rule, (wins, layouts, cells) in expected_rules(width, height, mines).items():
        value = found.rule(rule)
        assert (value.low, value.high, value.layouts, value.best_cells) == (wins, wins, layouts, cells), rule
        assert value.probability == Fraction(wins, layouts)


@pytest.mark.parametrize("width, height, mines", [(3, 3, 2), (4, 2, 3), (2, 2, 1)])
def test_the_clues_method_finds_the_same_first_cells(width, height, mines):
    _, by_cell, _ = best_play_wins(empty_board(width, height, mines))
    board, clues = board_optimum(width, height, mines), board_optimum(width, height, mines, method="clues")
    assert board.first_cells == clues.first_cells and clues.method == "clues" and clues.exact
    for first in clues.first_cells:
        assert {by_cell[cell] for cell in first.cells} == {first.low}


@pytest.mark.parametrize("width, height", [(3, 3), (4, 4), (5, 2)])
def test_no_mine_is_won_under_every_rule(width, height):
    found = board_optimum(width, height, 0)
    assert [found.rule(rule).probability for rule in FirstClickRule] == [1, 1, 1]
    assert len(found.rule(NONE).best_cells) == width * height


@pytest.mark.parametrize("width, height", [(3, 3), (4, 4), (5, 2)])
def test_one_safe_cell_is_found_only_by_luck_unless_protected(width, height):
    n = width * height
    found = board_optimum(width, height, n - 1)
    assert [found.rule(rule).probability for rule in FirstClickRule] == [Fraction(1, n), 1, 1]


@pytest.mark.parametrize("mines", [1, 3, 6, 9])
def test_protection_scales_the_unprotected_value(mines):
    found = board_optimum(4, 4, mines)
    none, protected = found.rule(NONE), found.rule(PROTECTED)
    assert protected.probability == none.probability * Fraction(16, 16 - mines)
    assert protected.best_cells == none.best_cells and found.rule(CORNER_RULE).probability <= protected.probability


def test_the_4x4_values_known_from_the_table():
    found = board_optimum(4, 4, 4)
    assert [(found.rule(rule).low, found.rule(rule).layouts) for rule in FirstClickRule] == [(961, 1820), (961, 1365), (949, 1365)]


def test_symmetric_cells_are_grouped_once():
    assert distinct_cells(3, 3) == [(0, 2, 6, 8), (1, 3, 5, 7), (4,)]
    assert distinct_cells(4, 2) == [(0, 3, 4, 7), (1, 2, 5, 6)]  # no quarter turn of a rectangle
    assert sorted(cell for orbit in distinct_cells(5, 3) for cell in orbit) == list(range(15))


@pytest.mark.parametrize("mines, fine", [(-1, False), (0, True), (8, True), (9, False)])
def test_mine_counts_at_their_edges(mines, fine):
    if fine:
        check_mines(3, 3, mines)
    else:
        with pytest.raises(BoardFormatError, match="takes 0 to 8 mines"):
            check_mines(3, 3, mines)


@pytest.mark.parametrize("cap, fine", [(120, True), (121, True), (119, False)])
def test_the_budget_refuses_a_board_one_layout_past_what_it_lists(cap, fine):
    limit = Limit(time=(cap + 0.5) * _LISTING_SECONDS, memory=None)  # the time lists exactly ``cap`` layouts
    assert listing_cap(limit, 16) == (cap, "time")
    if fine:
        check_budget(4, 4, 2, limit)  # C(16, 2) = 120
    else:
        with pytest.raises(TooLargeError, match="120 layouts, more than the 119"):
            check_budget(4, 4, 2, limit)


def test_the_listing_cap_says_what_sets_it():
    by_memory, _ = listing_cap(Limit(memory="1G"), 16)
    tie = Limit(time=(by_memory + 0.5) * _LISTING_SECONDS, memory="1G")
    assert listing_cap(tie, 16) == (by_memory, "layouts")  # level: the memory's
    assert listing_cap(Limit(time=(by_memory - 0.5) * _LISTING_SECONDS, memory="1G"), 16) == (by_memory - 1, "time")


def test_counts_within_and_beyond_split_the_counts():
    limit = Limit(time=(comb(16, 3) + 0.5) * _LISTING_SECONDS, memory=None)
    assert counts_within(4, 4, limit) == (0, 1, 2, 3, 13, 14, 15)
    beyond = counts_beyond(4, 4, limit)
    assert [row[2] for row in beyond] == list(range(4, 13)) and "1,820 layouts, more than the 560" in beyond[0][3]


@pytest.mark.parametrize("exhaustive, every", [(120, True), (121, True), (119, False)])
def test_every_layout_is_played_up_to_the_exhaustive_count(exhaustive, every):
    ranks, whole = game_ranks(4, 4, 2, NONE, Games(exhaustive=exhaustive, sample=7))
    assert whole is every and (list(ranks) == list(range(120)) if every else len(ranks) == 7)
    assert game_ranks(4, 4, 2, PROTECTED, Games(exhaustive=105, sample=7))[1]  # C(15, 2) under the first-click rules


def test_a_first_cell_stays_best_while_its_bound_reaches_the_value():
    def optimum(*cells):
        return BoardOptimum(3, 3, 2, cells)

    tie = optimum(FirstCell((0, 2, 6, 8), 23, 23), FirstCell((1, 3, 5, 7), 24, 24), FirstCell((4,), 20, 24))
    assert tie.rule(NONE).best_cells == (1, 3, 4, 5, 7) and not tie.exact
    below = optimum(FirstCell((0, 2, 6, 8), 23, 23), FirstCell((1, 3, 5, 7), 24, 24), FirstCell((4,), 20, 23))
    assert below.rule(NONE).best_cells == (1, 3, 5, 7) and below.rule(NONE).probability == Fraction(24, 36)
    assert below.rule(CORNER_RULE).low == 23 and below.rule(PROTECTED).layouts == 28


def test_a_search_cut_short_proves_bounds_around_the_value():
    rough = board_optimum(4, 4, 6, limit=Limit(nodes=50))
    exact = board_optimum(4, 4, 6).rule(NONE).low
    assert not rough.exact and rough.stopped_by == "nodes"
    assert rough.rule(NONE).low <= exact <= rough.rule(NONE).high and rough.rule(NONE).probability is None


@pytest.mark.parametrize("mines", [2, 3])
def test_no_agent_beats_best_play(mines):
    found = board_optimum(3, 3, mines)
    for spec in ("exact", "single-point", "random"):
        for rule in FirstClickRule:
            rate = agent_rate(spec, 3, 3, mines, rule)
            assert rate.exhaustive and rate.games == layouts_under(3, 3, mines, rule)
            assert rate.wins <= found.rule(rule).low, (spec, rule)


def test_the_exact_agent_is_optimal_on_3x3():
    for mines in (1, 2, 3):
        found = board_optimum(3, 3, mines)
        assert [agent_rate("exact", 3, 3, mines, rule).wins for rule in FirstClickRule] == [found.rule(r).low for r in FirstClickRule]


# the folder: resumable


def lines(path) -> list:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_table_goes_on_from_where_it_stopped(tmp_path):
    plan = TablePlan(boards=((3, 3, (1, 2)),), agents=("exact", "random"))
    first = run_table(plan, tmp_path)
    assert first.computed_now == 2 + 2 * 3 * 2 and run_table(plan, tmp_path).computed_now == 0
    rates = (tmp_path / AGENTS).read_text().splitlines()
    (tmp_path / AGENTS).write_text("\n".join(rates[:-1]) + "\n" + rates[-1][:20])  # the last line cut short
    again = run_table(plan, tmp_path)
    assert again.computed_now == 1 and again.rates == first.rates[:-1] + again.rates[-1:]
    physical = (tmp_path / AGENTS).read_text().splitlines()
    assert len(physical) == 13 and physical[-2] == rates[-1][:20] and json.loads(physical[-1])  # the cut line ended, then the new one
    assert run_table(plan, tmp_path).computed_now == 0


def test_rates_are_kept_only_when_found_the_same_way(tmp_path):
    run_table(TablePlan(boards=((3, 3, (2,)),), agents=("exact", "random")), tmp_path)
    assert run_table(TablePlan(boards=((3, 3, (2,)),), agents=("exact", "random"), sample=5), tmp_path).computed_now == 0
    reseeded = run_table(TablePlan(boards=((3, 3, (2,)),), agents=("exact", "random"), seed=1), tmp_path)
    assert reseeded.computed_now == 3  # the random agent's three rules: the exact agent draws nothing
    fewer = run_table(TablePlan(boards=((3, 3, (2,)),), agents=("exact",), seed=1, exhaustive=35, sample=4), tmp_path)
    assert fewer.computed_now == 1 and [r.games for r in fewer.rates] == [4, 28, 28]  # C(9, 2) = 36 is past 35


def test_bounds_are_kept_under_the_same_budget_and_tried_again_under_another(tmp_path):
    small = TablePlan(boards=((4, 4, (6,)),), agents=(), limit=Limit(nodes=50))
    assert not run_table(small, tmp_path).optima[0].exact
    assert run_table(small, tmp_path).computed_now == 0
    whole = TablePlan(boards=((4, 4, (6,)),), agents=())
    assert run_table(whole, tmp_path).optima[0].exact and run_table(small, tmp_path).computed_now == 0  # exact is kept
    assert len(lines(tmp_path / OPTIMUM)) == 2


def test_a_line_the_table_did_not_write_is_refused(tmp_path):
    (tmp_path / OPTIMUM).write_text('{"width": 3}\n')
    with pytest.raises(TableFileError, match="line 1: not a line of the optimal-play table"):
        run_table(TablePlan(boards=((3, 3, (1,)),), agents=()), tmp_path)


# the command


def optimal(capsys, *words) -> tuple[int, str, str]:
    status = main(["optimal", *words])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_command_writes_the_table_report_and_figures(tmp_path, capsys):
    out = tmp_path / "table"
    status, said, _ = optimal(capsys, "--size", "3x3", "--mines", "1-2", "--agent", "exact", "--out", str(out), "--quiet")
    assert status == 0 and "2 boards, 6 agents' rates (8 found now)" in said
    report = (out / "report.md").read_text()
    assert "| 3x3 | 2 | 0.222 | corner | 23/28 | 82.14% | (0,0) by rule | 82.14 (+0.00) |" in report
    assert "--mines 1-2" in report and "Not reached" not in report
    assert all((out / name).stat().st_size > 0 for name in ("optimum.png", "optimum.svg", "gaps.png", "gaps.svg"))
    status, said, _ = optimal(capsys, "--size", "3x3", "--mines", "1-2", "--agent", "exact", "--out", str(out), "--quiet")
    assert status == 0 and "(0 found now)" in said


def test_the_counts_past_the_budget_are_left_out_and_reported(tmp_path, capsys):
    out = tmp_path / "table"
    status, _, told = optimal(capsys, "--size", "4x4", "--no-agents", "--time-limit", "0.0005", "--out", str(out))
    assert status == 0 and "4x4: mine counts 3-13 left out" in told
    report = (out / "report.md").read_text()
    assert "* 4x4 with 3 to 13 mines: not tried: each has more layouts than the 125 a time limit of 0.0005 s lets the value search list" in report
    assert [record["mines"] for record in lines(out / OPTIMUM)] == [0, 1, 2, 14, 15]


@pytest.mark.parametrize("words, message", [
    (["--size", "3x3x2"], "--size takes a board as WxH"),
    (["--size", "0x3"], "--size takes a board as WxH"),
    (["--size", "3x3", "--mines", "3-x"], "--mines takes counts"),
    (["--size", "3x3", "--mines", "9"], "takes 0 to 8 mines"),
    (["--size", "3x3", "--agent", "nobody"], "unknown agent 'nobody'"),
    (["--size", "4x4", "--mines", "8", "--time-limit", "0.001"], "12,870 layouts, more than the 250"),
    (["--size", "3x3", "--time-limit", "-1"], "--time-limit"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path, capsys, words, message):
    status, _, told = optimal(capsys, *words, "--out", str(tmp_path / "out"))
    assert status == 2 and message in told and len(told.strip().splitlines()) == 1 and "Traceback" not in told


def test_a_file_where_the_folder_goes_is_refused(tmp_path, capsys):
    (tmp_path / "taken").write_text("")
    status, _, told = optimal(capsys, "--size", "2x2", "--out", str(tmp_path / "taken"))
    assert status == 2 and "a file is there, not a folder" in told


def test_a_foreign_results_file_is_one_line_and_status_2(tmp_path, capsys):
    (tmp_path / OPTIMUM).write_text('["not", "a", "record"]\n')
    status, _, told = optimal(capsys, "--size", "2x2", "--no-agents", "--out", str(tmp_path))
    assert status == 2 and "not a line of the optimal-play table" in told and len(told.strip().splitlines()) == 1


def test_report_only_computes_nothing_and_says_what_is_missing(tmp_path, capsys):
    out = tmp_path / "table"
    optimal(capsys, "--size", "3x3", "--mines", "1", "--agent", "exact", "--sample", "5", "--out", str(out), "--quiet")
    before = (out / AGENTS).read_text()
    status, said, _ = optimal(capsys, "--size", "3x3", "--mines", "1-2", "--agent", "exact", "--report-only", "--out", str(out))
    assert status == 0 and "1 boards, 3 agents' rates (0 found now)" in said and (out / AGENTS).read_text() == before
    report = (out / "report.md").read_text()
    assert "* 3x3 with 2 mines: not computed (no result in the folder)" in report and "--report-only" in report
