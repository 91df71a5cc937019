"""Every move judged exactly (bench --judge): each figure recomputed from the game's moves by enumerating
layouts, a budget cut recorded as such, a program's game judged as the same game read as a replay."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from cspmines import Limit, Position
from cspmines.actions import Action
from cspmines.bench import Suite, SuiteVariant, agent_seed, new_game, play_game, run_suite
from cspmines.bench.judged import judged_paired, judged_summary, judged_tables
from cspmines.cli import main
from cspmines.engine.constraints import settle_position
from cspmines.games import play
from cspmines.games.judge import JUDGED_FIELDS, PROVED, ClickClass, GameJudgement, judge_moves, judge_open
from cspmines.position import COVERED, FLAG
from cspmines.replays import Replay, analyse_replay
from cspmines.studies import parse_study, run_study, write_report

from bruteforce import mine_layouts
from randompositions import random_position

FIGURES = set(JUDGED_FIELDS)


def safety(figures: dict) -> dict:
    """A record's judged figures without the three read off values (loss, unvalued, expected win)."""
    return {key: value for key, value in figures.items() if key not in ("loss", "unvalued", "expected_win")}


def unflagged(position: Position) -> Position:
    grid = position.grid.copy()
    grid[grid == FLAG] = COVERED
    return Position(grid, mines=position.mines)


def chances(position: Position) -> dict:
    """Every covered cell's mine chance, counted over every layout the position allows."""
    layouts = mine_layouts(position)
    covered = [int(c) for c in np.flatnonzero(position.grid.ravel() == COVERED)]
    return {cell: Fraction(sum(cell in layout for layout in layouts), len(layouts)) for cell in covered}


def recomputed(moves) -> dict:
    """The five safety figures straight from the definitions, by enumerating layouts at each open (flags read as
    covered); the loss's two (valued by the engine's search: tests/test_loss.py checks them against expectimax)
    are left out."""
    guesses = needless = blunders = 0
    excess, survival = Fraction(0), Fraction(1)
    for position, action in moves:
        if action.kind != "open":
            continue
        every = chances(unflagged(position))
        chance = every[action.cell]
        if chance == 0:
            continue
        guesses += 1
        needless += any(p == 0 for p in every.values())
        blunders += chance == 1
        excess += chance - min(every.values())
        survival *= 1 - chance
    return {"guesses": guesses, "needless": needless, "blunders": blunders, "excess_risk": float(excess),
            "survival": float(survival)}


def observed(suite: Suite, agent: str, i: int) -> list:
    """The (position, action) pairs of game ``i`` as the bench plays it."""
    from cspmines.agents import make_agent

    moves: list = []
    play(make_agent(agent), new_game(suite, i), seed=agent_seed(suite, i), observe=lambda p, a: moves.append((p, a)))
    return moves


@pytest.mark.parametrize("size, first_click, rules, withheld", [
    ("4x4x4", "safe", "classic", 0.0),
    ("6x3x5", "unsafe", "classic", 0.0),     # the agent's own first click: a forced guess at mines/cells
    ("5x3x4", "safe", "classic", 0.25),      # withheld clues
    ("4x4x5", "safe", "score", 0.0),         # play goes on past a mine; the agents flag
])
@pytest.mark.parametrize("agent", ["exact", "set-theory", "random", "knowledge-base"])
def test_every_figure_equals_a_count_over_every_layout(size, first_click, rules, withheld, agent):
    suite = Suite.create(agents=[agent], size=size, first_click=first_click, rules=rules, games=12, seed=7, variant=SuiteVariant(withheld=withheld))
    guessed = 0
    for i in range(suite.games):
        record = play_game(suite, agent, i, judge=True)
        assert set(record["judged"]) == FIGURES and record["judged_exact"] is True
        assert safety(record["judged"]) == recomputed(observed(suite, agent, i))
        valued = rules == "classic" and not withheld  # the value is the chance of winning a classic game, every clue shown
        assert (record["judged"]["loss"] is not None, record["judged"]["unvalued"] is not None) == (valued, valued)
        assert (record["judged"]["expected_win"] is not None) == valued
        guessed += record["judged"]["guesses"]
    assert guessed > 0  # the boards ask for guesses: the figures are not all zero by default


def test_a_chord_is_judged_as_any_of_its_cells_being_a_mine():
    rng = np.random.default_rng(11)
    checked = 0
    while checked < 60:
        position = random_position(rng, max_covered=12)
        if position.mines is None:
            continue
        seen = unflagged(position)
        covered = [int(c) for c in np.flatnonzero(seen.grid.ravel() == COVERED)]
        layouts = mine_layouts(seen)
        if len(covered) < 2 or len(covered) > 16 or not layouts:
            continue
        opens = tuple(int(c) for c in rng.choice(covered, size=min(len(covered), int(rng.integers(2, 4))), replace=False))
        judged = judge_open(position, opens)
        every = chances(seen)
        assert judged.chance == Fraction(sum(any(c in layout for c in opens) for layout in layouts), len(layouts))
        assert judged.least == (0 if judged.kind == ClickClass.PROVED else min(every.values()))
        assert judged.blunder == any(every[c] == 1 for c in opens)
        assert judged.kind == (ClickClass.PROVED if judged.chance == 0 else
                               ClickClass.NEEDLESS if 0 in every.values() else ClickClass.FORCED)
        checked += 1


def test_a_bench_game_and_the_same_game_as_a_replay_are_judged_alike():
    """Every figure alike, the expected win too."""
    suite = Suite.create(agents=["random"], size="6x5x6", games=15, seed=2)
    compared = luck_out = 0
    for agent in ("random", "set-theory"):
        for i in range(suite.games):
            moves = observed(suite, agent, i)
            board = new_game(suite, i).board
            clicks = [("open", *divmod(board.first_click, board.width))]
            clicks += [(action.kind, *divmod(action.cell, board.width)) for _, action in moves]
            replay = Replay.from_moves(board.mines.astype(int).tolist(), clicks)
            assert replay.outcome.value in ("won", "lost")  # played to its end
            judged = judge_moves(moves, won=replay.outcome.value == "won")
            assert analyse_replay(replay, agent=False).judgement == judged
            compared += judged.guesses > 0
            luck_out += judged.expected_win not in (0, 1)
    assert compared > 5 and luck_out > 3


def test_a_count_cut_by_the_budget_is_recorded_and_left_out_of_means_and_pairs():
    suite = Suite.create(agents=["random", "exact"], size="6x6x8", games=6, seed=3)
    cut = [play_game(suite, "random", i, judge=Limit(nodes=1)) for i in range(6)]
    assert all(record["judged_exact"] is False and set(record["judged"]) == FIGURES for record in cut)
    whole = [play_game(suite, agent, i, judge=True) for i in range(6) for agent in ("random", "exact")]
    assert all(record["judged_exact"] is True for record in whole)
    mixed = [r for r in whole if r["agent"] == "exact"] + cut[:3] + [r for r in whole if r["agent"] == "random" and r["game"] >= 3]
    rows = {row["agent"]: row for row in judged_summary(mixed)}
    assert (rows["random"]["games"], rows["random"]["not_exact"]) == (3, 3)
    exact_random = [r for r in mixed if r["agent"] == "random" and r["judged_exact"]]
    assert rows["random"]["survival"] == pytest.approx(np.mean([r["judged"]["survival"] for r in exact_random]))
    assert {row["games"] for row in judged_paired(mixed, against="exact")} == {3}  # only boards judged exactly on both sides


def test_run_suite_judges_on_request_and_the_exact_agent_never_guesses_needlessly_nor_blunders():
    suite = Suite.create(agents=["exact", "random"], size="intermediate", games=12, seed=4)
    result = run_suite(suite, judge=True, progress=False)
    exact = [r["judged"] for r in result.records if r["agent"] == "exact"]
    assert len(exact) == 12 and not any(j["needless"] or j["blunders"] for j in exact)
    assert sum(r["judged"]["needless"] for r in result.records if r["agent"] == "random") > 0
    plain = run_suite(suite, progress=False)
    assert not any("judged" in r for r in plain.records) and judged_tables(plain.records) is None
    strip = lambda r: {k: v for k, v in r.items() if k not in ("seconds", "seconds_per_move", "judged", "judged_exact")}  # noqa: E731
    assert [strip(r) for r in plain.records] == [strip(r) for r in result.records]  # judging does not change the games


def test_bench_judge_json_and_compare_of_its_files(tmp_path, capsys):
    out = tmp_path / "run.jsonl"
    assert main(["bench", "--agent", "exact", "--agent", "random", "--size", "6x6x6", "--games", "8", "--workers", "1",
                 "--quiet", "--judge", "--json", "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    rows = {row["agent"]: row for row in printed["judged"]["results"]}
    assert set(rows) == {"exact", "random"} and rows["exact"]["games"] == 8
    records = [json.loads(line) for line in out.read_text().splitlines()]
    whole = {(r["agent"], r["game"]) for r in records if r["judged"]["unvalued"] == 0}  # games whose every guess was valued
    both = sum(("exact", i) in whole and ("random", i) in whole for i in range(8))
    assert {row["measure"] for row in printed["judged"]["paired"]} == {"guesses", "needless guesses", "blunders", "excess risk",
                                                                       "survival", "expected win"} | ({"loss"} if both else set())
    assert [row["games"] for row in printed["judged"]["paired"] if row["measure"] == "loss"] == ([both] if both else [])
    assert [row["games"] for row in printed["judged"]["paired"] if row["measure"] == "expected win"] == [8]  # every game has one
    assert rows["exact"]["valued_games"] == sum(r["judged"]["unvalued"] == 0 for r in records if r["agent"] == "exact")
    assert rows["random"]["guesses"] == pytest.approx(np.mean([r["judged"]["guesses"] for r in records if r["agent"] == "random"]))
    assert main(["compare", str(out)]) == 0
    text = capsys.readouterr().out
    assert "judged by the engine before every open" in text and "needless guesses" in text and "valued games" in text
    assert "    expected win          random           exact      8" in text
    assert main(["bench", "--agent", "exact", "--size", "6x6x6", "--games", "2", "--workers", "1", "--quiet"]) == 0
    assert "judged" not in capsys.readouterr().out


def test_a_study_with_judge_reports_the_judged_figures(tmp_path, capsys):
    study = parse_study('games = 4\njudge = true\n[[suite]]\nname = "b"\nsize = "6x6x6"\nagents = ["exact", "random"]\n'
                        '[[suite]]\nname = "c"\nsize = "6x6x6"\njudge = false\nagents = ["exact"]\n')
    assert [suite.judge for suite in study.suites] == [True, False]
    result = run_study(study, tmp_path, workers=1, progress=False)
    assert all(("judged" in r) == (r["suite"] == "b") for r in result.records)
    report = write_report(study, list(result.records), tmp_path)[0].read_text()
    assert report.count("Judged by the engine before every open") == 1 and "| needless guesses | random |" in report
    assert "| loss | expected win |" in report and "| expected win | random | 4 |" in report  # every game has one
    with pytest.raises(ValueError, match=r"<study>:2: the study: judge must be true or false, got 'yes'"):
        parse_study('games = 4\njudge = "yes"\n[[suite]]\nname = "b"\nagents = ["exact"]\n')


def recounted(moves) -> dict:
    """The five figures from a full count of every position an open is made on (no shortcut for cells single
    clues prove): for boards too large to enumerate."""
    from cspmines import solve

    guesses = needless = blunders = 0
    excess, survival = Fraction(0), Fraction(1)
    for position, action in moves:
        if action.kind != "open":
            continue
        analysis = solve(unflagged(position))
        chance = analysis.probability(action.cell)
        if chance == 0:
            continue
        guesses += 1
        needless += bool(analysis.safe_cells)
        blunders += chance == 1
        excess += chance - analysis.least_probabilities(1)[0]
        survival *= 1 - chance
    return {"guesses": guesses, "needless": needless, "blunders": blunders, "excess_risk": float(excess),
            "survival": float(survival)}


@pytest.mark.parametrize("agent", ["set-theory", "random", "exact"])
def test_on_large_boards_the_figures_equal_a_full_count_at_every_open(agent):
    """The judge settles most opens on a window of the board; a full count at every open gives the same."""
    suite = Suite.create(agents=[agent], size="intermediate", games=4, seed=8)
    for i in range(suite.games):
        assert safety(play_game(suite, agent, i, judge=True)["judged"]) == recounted(observed(suite, agent, i))


DATA = Path(__file__).parent / "data"


def test_a_game_with_one_open_judged_on_estimates_is_not_exact():
    # expert-5-008: single clues prove ten mines and no safe cell, and one node of counting cuts the rest short
    wide = Position.from_file(DATA / "expert-5-008.txt")
    cut = Limit(nodes=1)
    proved_mine = min(settle_position(wide).mine_cells)
    guess = next(cell for cell in wide.covered_cells if cell not in settle_position(wide).mine_cells)
    small, proved = Position.from_string("4x1x1\n...."), Position.from_string("3x2x1\n1..\n...")  # no clue to count; (0,2) proved
    one = judge_open(wide, (guess,), limit=cut)
    assert one.kind == ClickClass.FORCED and not one.exact and isinstance(one.chance, float)
    chord = judge_open(wide, (proved_mine, guess), limit=cut)  # a proved mine among its cells: certain, but the least is estimated
    assert chord.chance == 1 and chord.blunder and not chord.exact
    exact_guess = judge_open(small, (1,), limit=cut)
    assert exact_guess.exact and exact_guess.chance == Fraction(1, 4)
    for order in ([exact_guess, one], [one, exact_guess], [PROVED, exact_guess, chord]):
        assert GameJudgement.of(order).exact is False
    assert GameJudgement.of([PROVED, exact_guess]).exact is True
    moves = [(proved, Action.open(2)), (small, Action.open(1)), (wide, Action.open(guess))]
    assert judge_moves(moves[:2], limit=cut).exact and not judge_moves(moves, limit=cut).exact


def test_a_record_that_does_not_say_how_it_was_judged_counts_as_exact_in_means_and_pairs_alike():
    base = {"width": 9, "height": 9, "mines": 10, "rules": "classic", "withheld": 0.0, "first_click": "safe", "seed": 0, "won": True}
    figures = lambda guesses: {"guesses": guesses, "needless": 0, "blunders": 0, "excess_risk": 0.0, "survival": 1.0}  # noqa: E731
    records = [{**base, "agent": "a", "game": 0, "judged": figures(1)},  # no judged_exact: a record written before it was kept
               {**base, "agent": "b", "game": 0, "judged": figures(3), "judged_exact": True},
               {**base, "agent": "a", "game": 1, "judged": figures(5), "judged_exact": False},
               {**base, "agent": "b", "game": 1, "judged": figures(0), "judged_exact": True}]
    rows = {row["agent"]: row for row in judged_summary(records)}
    assert (rows["a"]["games"], rows["a"]["not_exact"], rows["a"]["guesses"]) == (1, 1, 1.0)
    assert (rows["b"]["games"], rows["b"]["not_exact"], rows["b"]["guesses"]) == (2, 0, 1.5)
    (guesses, *_) = judged_paired(records, against="a")
    assert (guesses["games"], guesses["difference"]) == (1, 2.0)  # board 0 only: board 1's a was judged on estimates


def test_a_figures_interval_is_its_mean_and_196_standard_errors_and_a_point_for_one_game():
    base = {"width": 9, "height": 9, "mines": 10, "rules": "classic", "withheld": 0.0, "first_click": "safe", "seed": 0, "won": True}
    figures = lambda guesses: {"guesses": guesses, "needless": 0, "blunders": 0, "excess_risk": 0.0, "survival": 1.0}  # noqa: E731
    records = [{**base, "agent": "a", "game": i, "judged": figures(g), "judged_exact": True} for i, g in enumerate((1, 2, 6))]
    records.append({**base, "agent": "b", "game": 0, "judged": figures(4), "judged_exact": True})
    rows = {row["agent"]: row for row in judged_summary(records)}
    # 1, 2, 6: mean 3, sample variance ((-2)**2 + (-1)**2 + 3**2) / 2 = 7
    half = 1.96 * (7 / 3) ** 0.5
    assert rows["a"]["guesses"] == 3 and rows["a"]["guesses_ci95"] == pytest.approx([3 - half, 3 + half])
    assert rows["b"]["guesses"] == 4 and rows["b"]["guesses_ci95"] == [4, 4]  # one game: no spread to read


@pytest.mark.parametrize("first_click, no_guess, expected", [
    ("safe", False, True), ("random-safe", False, True), ("unsafe", False, True),
    ("highest", False, False),  # the first click tells more than its clue: the layouts are not alike
    ("safe", True, False),      # no-guess boards: nor are they
])
def test_an_expected_win_only_where_every_layout_a_position_allows_is_as_likely(first_click, no_guess, expected):
    suite = Suite.create(agents=["exact"], size="5x5x4", first_click=first_click, games=2, seed=3, variant=SuiteVariant(no_guess=no_guess))
    for i in range(suite.games):
        record = play_game(suite, "exact", i, judge=True)
        assert (record["judged"]["expected_win"] is not None) == expected
        assert record["judged"]["loss"] is not None  # valued either way


def test_every_judged_figure_is_a_measure_of_the_tables():
    """Each figure a judged game records is summarized and shown by exactly one measure (a figure added to the
    record and not to the tables, or the other way round, fails here)."""
    from cspmines.bench.judged import JUDGED_MEASURES, UNVALUED

    figures = [measure.field.partition(".")[2] for measure in (*JUDGED_MEASURES, UNVALUED)]
    assert sorted(figures) == sorted(JUDGED_FIELDS)
