"""Replays of real games: read through ms-toollib (in a child process), every click judged exactly.

The chances are checked three ways: against brute force over every layout on random small games
(chords and flags included), against the engine's own solve of each position, and against games
written by ms-toollib's recorder from our agents' play and read back.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from replaymaker import agent_game

from cspmines import Limit, Position, solve
from cspmines.cli import main
from cspmines.replays import (
    ClickAction,
    ClickClass,
    FirstClickRule,
    Outcome,
    Replay,
    ReplayClick,
    ReplayFormatError,
    analyse_replay,
    read_replay,
)
from cspmines.replays.reader import _from_extract
from cspmines.replays.report import CSV_COLUMNS, replay_json, replay_text
from cspmines.replays.writer import evf_bytes

ms_toollib = pytest.importorskip("ms_toollib", reason="the replays extra (ms-toollib) is part of the test extra")

JSON_KEYS = {"file", "format", "software", "player", "mode", "mode_note", "width", "height", "mines", "outcome", "time", "bbbv",
             "first_click", "counts", "clicks", "fatal", "survival", "survival_decimal", "luck_bits", "agent_survival",
             "agent_luck_bits", "exact", "complete", "loss", "unvalued", "expected_win", "statistics"}
CLICK_KEYS = {"time", "thinking", "action", "row", "col", "chance", "class", "needless", "loss", "unvalued", "agent"}


def layouts_of(position: Position) -> list[frozenset]:
    """Every mine layout the position allows with its total: all subsets of the covered cells, checked clue by clue."""
    covered = position.covered_cells
    fits = []
    for chosen in combinations(covered, position.mines):
        mines = frozenset(chosen)
        if all(sum(1 for o in position.neighbours(c) if o in mines) == position.code(c) for c in position.clue_cells):
            fits.append(mines)
    return fits


def random_game(rng: np.random.Generator):
    """A small board and a random player's moves on it: opens anywhere covered, flags, chords on clues."""
    width, height = int(rng.integers(3, 6)), int(rng.integers(2, 5))
    cells = width * height
    mines = int(rng.integers(1, max(2, cells // 3)))
    layout = np.zeros(cells, dtype=int)
    layout[rng.choice(np.arange(1, cells), size=mines, replace=False)] = 1  # the first click (0,0) is safe
    moves = [("open", 0, 0)]
    for _ in range(3 * cells):
        kind = ["open", "open", "flag", "chord"][int(rng.integers(4))]
        cell = int(rng.integers(cells))
        moves.append((kind, cell // width, cell % width))
    return layout.reshape(height, width).tolist(), moves


@pytest.mark.parametrize("seed", range(60))
def test_every_chance_equals_brute_force(seed):
    replay = Replay.from_moves(*random_game(np.random.default_rng(seed)))
    result = analyse_replay(replay, agent=False)
    assert len(result.clicks) == len(replay.clicks) >= 1
    for index, judged in enumerate(result.clicks):
        if index == 0:
            assert judged.chance == 0 and judged.kind == ClickClass.PROVED  # the safe first click
            continue
        layouts = layouts_of(judged.click.seen)
        hit = sum(1 for layout in layouts if layout.intersection(judged.click.opens))
        assert judged.chance == Fraction(hit, len(layouts))
        if hit == 0:
            assert judged.kind == ClickClass.PROVED
        else:
            safe_somewhere = any(all(cell not in layout for layout in layouts) for cell in judged.click.seen.covered_cells)
            assert judged.kind == (ClickClass.NEEDLESS if safe_somewhere else ClickClass.FORCED)
    assert result.survival == math.prod((1 - judged.chance for judged in result.clicks), start=Fraction(1))


def test_chords_are_judged_on_every_cell_they_open():
    layout = [[0, 0, 0, 0],
              [0, 1, 0, 0],
              [0, 0, 0, 1]]
    # (0,0) shows 1; flag the wrong cell (1,0) and chord: it opens (0,1) and (1,1), the mine
    replay = Replay.from_moves(layout, [("open", 0, 0), ("flag", 1, 0), ("chord", 0, 0)])
    chord = replay.clicks[1]
    assert chord.action == ClickAction.CHORD and set(chord.opens) == {1, 5} and replay.outcome == Outcome.LOST
    judged = analyse_replay(replay, agent=False).clicks[1]
    layouts = layouts_of(chord.seen)
    # the 1's mine is in one of its three cells; the chord risks two of them
    assert judged.chance == Fraction(sum(1 for lay in layouts if lay & {1, 5}), len(layouts)) == Fraction(2, 3)
    assert judged.kind == ClickClass.FORCED


def test_a_certain_mine_gives_infinite_luck_and_null_bits_in_json():
    replay = Replay.from_moves([[0, 1, 0]], [("open", 0, 0), ("open", 0, 1)])
    result = analyse_replay(replay, agent=False)
    assert result.clicks[1].chance == 1 and result.survival == 0 and result.luck_bits == math.inf
    assert replay_json(result)["luck_bits"] is None and replay_json(result)["survival"] == "0"


def test_each_open_equals_the_engines_solve_of_that_position():
    replay = Replay.from_moves(*agent_game("risk-score", (9, 9, 10), seed=3))
    result = analyse_replay(replay, agent=False)
    for judged in result.clicks[1:]:
        click = judged.click
        if click.action == ClickAction.OPEN:
            assert judged.chance == solve(click.seen).probability(click.opens[0])


def test_the_exact_agent_is_asked_at_every_guess_and_never_risks_more_than_the_least():
    replay = Replay.from_moves(*agent_game("greedy", (9, 9, 10), seed=5))
    result = analyse_replay(replay)
    assert result.guesses, "greedy guesses on a beginner board"
    for judged in result.guesses:
        analysis = solve(judged.click.seen)
        least = min(analysis.probability(cell) for cell in judged.click.seen.covered_cells)
        assert judged.agent_action is not None and judged.agent_action.kind == "open"
        assert judged.agent_chance == analysis.probability(judged.agent_action.cell)
        if judged.kind == ClickClass.NEEDLESS:
            assert judged.agent_chance == 0
        assert judged.agent_chance <= max(least, Fraction(1, 2))  # the look-ahead trades a little safety for progress
    assert result.agent_survival == math.prod((1 - j.agent_chance for j in result.guesses), start=Fraction(1))


@pytest.mark.parametrize("agent, seed", [("exact", 1), ("risk-score", 2), ("greedy", 4), ("random", 6)])
def test_games_written_by_ms_toollib_read_back_as_played(agent, seed):
    layout, moves = agent_game(agent, (8, 8, 10), seed=seed)
    ours = Replay.from_moves(layout, moves)
    read = read_replay("game.evf", data=evf_bytes(layout, moves, player="tester"))
    assert read.format == "evf" and read.software == "cspmines" and read.player == "tester"
    assert (read.width, read.height, read.mines, read.layout) == (8, 8, 10, ours.layout)
    assert read.outcome == ours.outcome and read.first_click == FirstClickRule.SAFE
    assert [(c.action, c.row, c.col, c.seen, c.opens) for c in read.clicks] == \
           [(c.action, c.row, c.col, c.seen, c.opens) for c in ours.clicks]
    assert [j.chance for j in analyse_replay(read, agent=False).clicks] == [j.chance for j in analyse_replay(ours, agent=False).clicks]


def test_a_chord_in_a_written_game_is_read_as_a_chord():
    layout = [[0, 0, 0, 0, 0],
              [0, 1, 0, 0, 0],
              [0, 0, 0, 0, 0],
              [0, 0, 0, 0, 1]]
    moves = [("open", 0, 0), ("flag", 1, 1), ("chord", 0, 0)] + \
            [("open", r, c) for r in range(4) for c in range(5) if not layout[r][c]]
    read = read_replay("chord.evf", data=evf_bytes(layout, moves))
    ours = Replay.from_moves(layout, moves)
    assert read.clicks[1].action == ClickAction.CHORD and read.clicks[1].flags == (6,)
    assert [(c.action, c.opens) for c in read.clicks] == [(c.action, c.opens) for c in ours.clicks]


@pytest.mark.parametrize("data, name, expected", [
    (b"", "empty.avf", "the file is empty"),
    (b"\x00\x01garbage" * 40, "junk.rmv", "not a readable RMV replay"),
    (b"hello", "notes.txt", "the extension must be .avf, .rmv, .evf or .mvf"),
])
def test_bad_files_are_named_in_one_line(data, name, expected):
    with pytest.raises(ReplayFormatError, match=expected) as raised:
        read_replay(name, data=data)
    assert str(raised.value).startswith(name) and "\n" not in str(raised.value)


def test_truncated_and_corrupt_replays_do_not_take_the_process_down(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # ms-toollib leaves crash.log in its working folder when it aborts: not in ours
    data = evf_bytes(*agent_game("exact", (8, 8, 10), seed=1))
    for cut in (5, len(data) // 3, len(data) - 7):
        with pytest.raises(ReplayFormatError, match="truncated.evf"):
            read_replay("truncated.evf", data=data[:cut])
    corrupt = bytearray(data)
    corrupt[10:40] = bytes(range(200, 230))
    try:
        read_replay("corrupt.evf", data=bytes(corrupt))
    except ReplayFormatError as error:
        assert str(error).startswith("corrupt.evf")
    assert list(tmp_path.iterdir()) == []


def test_a_game_still_going_is_not_written():
    with pytest.raises(ReplayFormatError, match="do not end the game"):
        evf_bytes([[0, 0, 1], [0, 0, 0]], [("flag", 0, 2)])


def test_a_game_that_never_started_is_refused():
    raw = {"width": 2, "height": 1, "mines": 1, "mode": 0, "level": 0, "software": "", "player": "", "completed": False,
           "time": 0.0, "bbbv": 1, "layout": [[1, 0]], "clicks": []}
    with pytest.raises(ReplayFormatError, match="never started"):
        _from_extract(raw, "idle.avf", "avf")


def test_first_click_rules():
    from cspmines.replays.reader import first_click_rule

    assert first_click_rule(0, 3, False) == FirstClickRule.SAFE  # Arbiter, Viennasweeper, Minesweeper X: never a mine
    assert first_click_rule(4, 0, False) == FirstClickRule.OPENING  # Metasweeper's Win7 mode
    assert first_click_rule(4, 2, False) == FirstClickRule.SAFE  # an opening rule would have shown 0
    assert first_click_rule(0, None, True) == FirstClickRule.ANY
    replay = Replay.from_moves([[0, 1], [0, 0]], [("open", 0, 1)], first_click=FirstClickRule.ANY)
    assert analyse_replay(replay).clicks[0].chance == Fraction(1, 4) and replay.outcome == Outcome.LOST


@pytest.fixture(scope="module")
def replay_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replays")
    (folder / "won.evf").write_bytes(evf_bytes(*agent_game("exact", (9, 9, 10), seed=2)))
    (folder / "second.evf").write_bytes(evf_bytes(*agent_game("greedy", (9, 9, 10), seed=7)))
    (folder / "broken.avf").write_bytes(b"not an avf at all")
    return folder


def test_json_has_exactly_the_documented_keys(replay_folder, capsys):
    assert main(["replay", str(replay_folder / "second.evf"), "--json", "--no-agent"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == JSON_KEYS and all(set(click) == CLICK_KEYS for click in data["clicks"])
    result = analyse_replay(read_replay(replay_folder / "second.evf"), agent=False)
    assert data == json.loads(json.dumps(replay_json(result)))
    survival = Fraction(data["survival"])
    assert survival == math.prod((1 - Fraction(c["chance"]) for c in data["clicks"]), start=Fraction(1))
    assert data["luck_bits"] == pytest.approx(-math.log2(survival)) if survival else data["luck_bits"] is None


def test_text_report_lists_the_guesses_and_the_totals(replay_folder, capsys):
    assert main(["replay", str(replay_folder / "second.evf")]) == 0
    out = capsys.readouterr().out
    result = analyse_replay(read_replay(replay_folder / "second.evf"))
    assert "first click: never a mine" in out and "survival" in out and "luck" in out
    assert out.count(" forced ") + out.count(" needless ") >= len(result.guesses)
    assert "the exact agent at the same moments" in out


def test_a_folder_reports_a_bad_file_in_its_row_and_judges_the_rest(replay_folder, tmp_path, capsys):
    csv_path = tmp_path / "history.csv"
    assert main(["replay", str(replay_folder), "--csv", str(csv_path), "--json", "--quiet"]) == 0
    captured = capsys.readouterr()
    games = json.loads(captured.out)
    assert [g["file"].rsplit("/", 1)[-1] for g in games] == ["broken.avf", "second.evf", "won.evf"]
    assert "error" in games[0] and set(games[1]) == JSON_KEYS
    assert "1 of 3 files could not be read" in captured.err
    import csv

    rows = list(csv.DictReader(csv_path.open(encoding="utf-8")))
    assert tuple(rows[0]) == CSV_COLUMNS and rows[0]["error"] and not rows[1]["error"]
    assert rows[2]["outcome"] == "won" and Fraction(rows[1]["survival"]) == Fraction(games[1]["survival"])


@pytest.mark.parametrize("arguments, expected", [
    (["{folder}/broken.avf"], "broken.avf: not a readable AVF replay"),
    (["{folder}/missing.evf"], "missing.evf: no such file or folder"),
    (["{tmp}"], "no replay files"),
])
def test_bad_input_is_one_line_and_exit_2(arguments, expected, replay_folder, tmp_path, capsys):
    names = [a.replace("{folder}", str(replay_folder)).replace("{tmp}", str(tmp_path)) for a in arguments]
    assert main(["replay", *names]) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1


def test_the_web_api_answers_the_commands_json(replay_folder, capsys):
    from starlette.testclient import TestClient

    from cspmines.web import create_app

    data = (replay_folder / "second.evf").read_bytes()
    with TestClient(create_app()) as client:
        answer = client.post("/api/replays?name=second.evf", content=data)
        assert answer.status_code == 200
        main(["replay", str(replay_folder / "second.evf"), "--json", "--no-agent"])  # the page asks no agent
        expected = json.loads(capsys.readouterr().out)
        assert {**answer.json(), "file": expected["file"]} == expected
        stepped = client.post("/api/replays?steps=true&format=evf", content=data).json()
        assert len(stepped["steps"]) == len(expected["clicks"])
        assert Position.from_string(stepped["steps"][1]["position"]).mines == expected["mines"]
        bad = client.post("/api/replays?name=x.avf", content=b"junk bytes")
        assert bad.status_code == 400 and "not a readable AVF replay" in bad.json()["error"]
        assert client.post("/api/replays", content=data).status_code == 400  # no name, no format


def test_the_replays_page_examples_run(monkeypatch):
    import doctest
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    failures, tried = doctest.testfile(str(root / "docs" / "replays.md"), module_relative=False)
    assert tried >= 3 and failures == 0


def test_a_count_cut_short_by_the_budget_gives_an_estimate_marked_not_exact():
    # a 41x41 board of 2s on every other cell: one front of 1,281 cells that no budget of seconds counts
    rows = [[2 if r % 2 and c % 2 else -1 for c in range(41)] for r in range(41)]
    lattice = Position(rows, mines=300)
    first = ReplayClick(0.0, ClickAction.OPEN, 1, 1, lattice, (42,))
    guess = ReplayClick(1.0, ClickAction.OPEN, 0, 0, lattice, (0,))
    replay = Replay("lattice.avf", "avf", 41, 41, 300, frozenset(), (first, guess), Outcome.UNFINISHED, FirstClickRule.SAFE)
    result = analyse_replay(replay, limit=Limit(time=0.5))
    judged = result.clicks[1]
    assert not judged.exact and not result.exact and isinstance(judged.chance, float) and 0 < judged.chance < 1
    assert judged.agent_action is None  # the agent's move is judged only on exact chances
    assert "NOT EXACT" in replay_text(result) and "." in replay_json(result)["clicks"][1]["chance"]
    line = next(line for line in replay_text(result).splitlines() if "open (0,0)" in line)
    assert line.split()[5] == f"~{judged.chance:.4g}" and line.split()[6:8] == ["NOT", "EXACT"]  # ~: an estimate (after #, time, thinking, click)


def test_a_missing_replays_extra_is_named_in_one_line(monkeypatch, replay_folder, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ms_toollib" else real(name, *a))
    assert main(["replay", str(replay_folder / "won.evf")]) == 2
    err = capsys.readouterr().err
    assert "needs the replays extra: pip install" in err and "'cspmines[replays]'" in err and err.count("\n") == 1
    from pathlib import Path

    checkout = Path(__file__).resolve().parent.parent  # the tests run from a source tree: its own form is said too
    assert f"pip install -e '{checkout}[replays]')" in err or "pip install -e '.[replays]')" in err


def cut_digits(value: Fraction, digits: int) -> tuple[str, int]:
    """The first ``digits`` significant digits of ``value`` (cut, not rounded) and the power of ten of the
    first, from integers alone."""
    exponent = len(str(value.numerator)) - len(str(value.denominator))
    if Fraction(10) ** exponent > value:
        exponent -= 1
    leading = math.floor(value / Fraction(10) ** (exponent - digits + 1))
    return str(leading), exponent


def test_a_long_exact_fraction_is_shown_by_its_leading_digits_cut_not_rounded():
    from cspmines.replays.report import leading_digits

    assert leading_digits(Fraction(1, 3)) == "0.3333..." and leading_digits(Fraction(2, 3)) == "0.6666..."
    assert leading_digits(Fraction(1, 8)) == "0.125"  # the whole decimal: nothing follows
    assert leading_digits(Fraction(2, 3 * 10**600)) == "6.666...e-601"  # far below a float's least
    assert leading_digits(Fraction(10**5000 - 1, 10**5000)) == "0.9999..."  # past Python's int-to-text limit
    rng = np.random.default_rng(4)
    for _ in range(300):
        value = Fraction(int(rng.integers(1, 10**12)), int(rng.integers(1, 10**12))) * Fraction(10) ** int(rng.integers(-40, 0))
        value = min(value, Fraction(1))
        text = leading_digits(value)
        if "..." not in text:  # the decimal ends within four digits: it is the value itself
            assert Fraction(text) == value, (value, text)
            continue
        digits, exponent = cut_digits(value, 4)
        assert Fraction(text.replace("...", "")) == int(digits) * Fraction(10) ** (exponent - 3) < value, (value, text)
        assert ("e" in text) == (exponent < -4), (value, text)


@pytest.fixture(scope="module")
def long_game():
    """A lost 60x36 game of 540 mines by the exact agent: its survival is a fraction of 470 digits."""
    replay = Replay.from_moves(*agent_game("exact", (60, 36, 540), seed=0), source="long.evf")
    return analyse_replay(replay, agent=False)


def test_the_report_shortens_long_exact_fractions_and_keeps_tilde_for_estimates(long_game):
    survival = long_game.survival
    assert isinstance(survival, Fraction) and len(str(survival)) > 400
    text = replay_text(long_game)
    assert "~" not in text  # every chance here is exact: ~ marks estimates only, as in solve
    assert max(len(line) for line in text.splitlines()) < 100
    shown = text.split("survival ", 1)[1].split(",")[0]
    digits, exponent = cut_digits(survival, 4)
    assert shown.endswith("...") and shown.removesuffix("...") == f"0.{'0' * (-exponent - 1)}{digits}"
    long_chances = [judged for judged in long_game.guesses if len(str(judged.chance)) > 12]
    assert long_chances, "some guesses of this game have long fractions"
    for judged in long_chances:
        line = next(line for line in text.splitlines() if f"({judged.click.row},{judged.click.col})" in line)
        assert line.split()[5].endswith("...")
    assert replay_json(long_game)["survival"] == str(survival)  # --json keeps every digit


def test_under_the_opening_rule_the_first_click_is_proved_and_costs_nothing():
    """A program that makes the first click an opening: the click is proved at chance 0, and the survival is
    the product over the later clicks alone, as under the never-a-mine rule (a draw would cost mines/cells)."""
    layout = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0]]
    moves = [("open", 0, 0), ("open", 3, 3), ("open", 3, 1), ("open", 2, 0)]
    opening = Replay.from_moves(layout, moves, first_click=FirstClickRule.OPENING)
    result = analyse_replay(opening, agent=False)
    first = result.clicks[0]
    assert (first.chance, first.kind) == (Fraction(0), ClickClass.PROVED)
    later = math.prod((1 - judged.chance for judged in result.clicks[1:]), start=Fraction(1))
    assert later < 1 and result.survival == later  # some later click was a guess: the product is not trivially 1
    safe = analyse_replay(Replay.from_moves(layout, moves, first_click=FirstClickRule.SAFE), agent=False)
    assert result.survival == safe.survival and result.luck_bits == safe.luck_bits
    assert "first click: always an opening" in replay_text(result)


# -- what the agent is said to advise, and why ----------------------------------------------------------------

def _distance(position, a: int, b: int) -> tuple:
    (ra, ca), (rb, cb) = position.row_col(a), position.row_col(b)
    return max(abs(ra - rb), abs(ca - cb)), abs(ra - rb) + abs(ca - cb)


def test_a_needless_guess_is_advised_the_proved_cell_nearest_the_click():
    needless = far = 0
    for seed in range(40):
        replay = Replay.from_moves(*random_game(np.random.default_rng(seed)))
        for judged in analyse_replay(replay).clicks:
            if judged.kind != ClickClass.NEEDLESS:
                continue
            position, clicked = judged.click.seen, judged.click.seen.cell(judged.click.row, judged.click.col)
            safe = solve(position).safe_cells
            nearest = min(_distance(position, clicked, cell) for cell in safe)
            assert judged.agent_action.cell in safe and judged.agent_chance == 0
            assert _distance(position, clicked, judged.agent_action.cell) == nearest
            assert judged.agent_reason == "proved" and judged.agent_why == "proved safe, the nearest such cell to the click"
            needless += 1
            far += _distance(position, clicked, min(safe)) > nearest  # where the first proved cell was farther
    assert needless > 20 and far > 3


def test_the_report_says_a_needless_guesss_advice_is_the_nearest_proved_cell():
    replay = Replay.from_moves([[0, 0, 0, 0], [1, 0, 0, 1]], [("open", 0, 0), ("open", 1, 1), ("open", 0, 3)])
    text = replay_text(analyse_replay(replay))
    line = next(line for line in text.splitlines() if "needless" in line and "open (0,3)" in line)
    assert line.endswith("open (0,2) at 0, proved, nearest")  # (0,2), beside the click, proved safe
    (click,) = [c for c in replay_json(analyse_replay(replay))["clicks"] if c["class"] == "needless"]
    assert click["agent"] == {"action": "open", "row": 0, "col": 2, "chance": "0", "reason": "proved",
                              "why": "proved safe, the nearest such cell to the click"}


def _riskier_game():
    """set-theory's beginner game of seed 59: at its third click, (5,2) at 2/17, the exact agent opens (8,0) at 1/8."""
    return agent_game("set-theory", (9, 9, 10), seed=59)


def test_an_agent_move_riskier_than_the_click_says_why():
    from cspmines.agents.exact.lookahead import look_ahead

    result = analyse_replay(Replay.from_moves(*_riskier_game()))
    judged = result.clicks[2]
    assert (judged.click.row, judged.click.col, judged.chance) == (5, 2, Fraction(2, 17))
    assert judged.agent_chance == Fraction(1, 8) > judged.chance and judged.agent_reason == "look-ahead"
    analysis = solve(judged.click.seen)
    mine, theirs = (look_ahead(analysis, cell) for cell in (judged.agent_action.cell, judged.click.opens[0]))
    assert judged.agent_why == (f"look-ahead: safe and a safe move after it {mine.secondary:.4f} against {theirs.secondary:.4f} "
                                f"for the click, another cell proved {mine.progress:.2f} against {theirs.progress:.2f}")
    assert mine.secondary > theirs.secondary  # what the agent bought with the risk
    for other in result.guesses:  # a reason only where the agent risks more, or the guess was needless
        assert (other.agent_why is not None) == (other.agent_chance > other.chance or other.kind == ClickClass.NEEDLESS)
    text = replay_text(result).splitlines()
    at = next(n for n, line in enumerate(text) if "open (5,2)" in line)
    assert text[at + 1].strip() == f"the agent risks more: {judged.agent_why}"
    assert replay_json(result)["clicks"][2]["agent"]["why"] == judged.agent_why


# -- one click's board: replay FILE --at N ------------------------------------------------------------------

def test_the_guess_lines_number_their_clicks_and_at_prints_that_clicks_board_and_chances(tmp_path, capsys):
    from cspmines.present.render import board_text

    path = tmp_path / "risky.evf"
    path.write_bytes(evf_bytes(*_riskier_game()))
    assert main(["replay", str(path)]) == 0
    report = capsys.readouterr().out.splitlines()
    guess = next(line for line in report if "open (5,2)" in line)
    number = int(guess.split()[0])
    result = analyse_replay(read_replay(path))
    assert result.clicks[number - 1].click.row == 5 and number == 3
    assert main(["replay", str(path), "--at", str(number)]) == 0
    shown = capsys.readouterr().out.splitlines()
    judged = result.clicks[number - 1]
    analysis = solve(judged.click.seen)
    assert shown[0] == f"{path}: click {number} of {len(result.clicks)}, at {judged.click.time:.2f} s: open (5,2)"
    board = board_text(analysis).splitlines()
    assert shown[1:1 + len(board)] == board
    assert "the click: mine chance 2/17 (0.1176), a forced guess" in shown
    assert any(line.startswith("the exact agent: open (8,0) at 1/8 (0.1250), look-ahead") for line in shown)
    assert main(["replay", str(path), "--at", str(number), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["click"]["row"] == 5 and data["click"]["chance"] == "2/17" and data["number"] == number
    assert data["analysis"]["probabilities"] == json.loads(json.dumps(analysis.probabilities().tolist()).replace("NaN", "null"))


def test_at_shows_the_last_click_and_no_further(capsys, monkeypatch):
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    assert main(["replay", "cspmines/data/examples/beginner-game.evf", "--at", "14", "--no-agent"]) == 0
    assert capsys.readouterr().out.startswith("cspmines/data/examples/beginner-game.evf: click 14 of 14, at ")


@pytest.mark.parametrize("arguments, expected", [
    (["{path}", "--at", "15"], "--at 15: the game has 14 clicks that opened cells (1 to 14)"),
    (["{path}", "{path}", "--at", "1"], "--at reads one replay file"),
    (["{folder}", "--at", "1"], "--at reads one replay file"),
    (["{path}", "--at", "0"], "argument --at: must be at least 1, got 0"),
    (["{path}", "--at", "1", "--csv", "{folder}/x.csv"], "--at prints one click: --csv writes a row a game"),
])
def test_at_refuses_what_it_cannot_show_in_one_line(arguments, expected, tmp_path, capsys):
    path = "cspmines/data/examples/beginner-game.evf"
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    (tmp_path / "game.evf").write_bytes((root / path).read_bytes())  # a folder of one game is still a folder
    names = [a.replace("{path}", str(root / path)).replace("{folder}", str(tmp_path)) for a in arguments]
    assert main(["replay", *names]) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1


def test_an_endgame_move_riskier_than_the_click_says_how_many_layouts_each_wins():
    from cspmines.engine.insight import endgame_chances
    from cspmines.replays.advice import agent_advice

    position = Position.from_string("5x3x4\n1...1\n2....\n..2.1")
    analysis = solve(position)
    click = position.cell(0, 3)
    assert analysis.probability(click) == min(analysis.probability(c) for c in position.covered_cells)  # the click risked least
    advised = agent_advice(position, (click,), analysis.probability(click), analysis)
    endgame = endgame_chances(analysis)
    assert advised.reason == "endgame" and advised.chance == analysis.probability(advised.action.cell) > analysis.probability(click)
    mine, theirs = endgame.value(advised.action.cell).low, endgame.value(click).low
    assert mine > theirs  # what the risk bought
    assert advised.why == f"endgame: of the {endgame.layouts} layouts left, best play after it wins {mine} against {theirs} after the click"
    safer = agent_advice(position, (click,), Fraction(1, 2), analysis)  # a click riskier than the agent's move: no why
    assert safer.action == advised.action and safer.why is None
    assert agent_advice(position, (click,), advised.chance, analysis).why is None  # as risky: nothing to explain


def test_a_finished_game_reports_its_expected_win_where_a_guess_was_valued():
    """A lost game on a 4x2 board: its two guesses valued, its expected win is its win (0) less their luck, in the
    JSON, the CSV row and the text; a game that did not end, and a game with no guess valued, have none to report."""
    from cspmines.games.judge import expected_win
    from cspmines.replays.report import csv_row

    mines = [[0, 0, 0, 0], [1, 0, 0, 1]]
    lost = analyse_replay(Replay.from_moves(mines, [("open", 0, 0), ("open", 1, 1), ("open", 1, 0)]), agent=False)
    guesses = [click.judgement for click in lost.guesses]
    assert lost.replay.outcome.value == "lost" and all(g.loss is not None and g.value is not None for g in guesses)
    assert lost.expected_win == expected_win(guesses, won=False)[0] == Fraction(1, 12)
    assert replay_json(lost)["expected_win"] == csv_row(lost)["expected_win"] == "1/12"
    assert "expected win 1/12" in replay_text(lost)
    unfinished = analyse_replay(Replay.from_moves(mines, [("open", 0, 0), ("open", 1, 1)]), agent=False)
    assert unfinished.expected_win is None and replay_json(unfinished)["expected_win"] is None
    unvalued = analyse_replay(Replay.from_moves(mines, [("open", 0, 0), ("open", 1, 1), ("open", 1, 0)]), agent=False, value=None)
    assert unvalued.expected_win is None and "expected win" not in replay_text(unvalued)


def _random_clicks_game(width: int, clicks: int, seed: int = 1) -> tuple[list, list]:
    """A long game on a large board, its layout and moves: ``clicks`` safe cells opened in a random order (hard
    positions to count), then a mine (a replay is of a game that ended)."""
    rng = np.random.default_rng(seed)
    mines = np.zeros(width * width, int)
    mines[rng.choice(width * width, width * width // 5, replace=False)] = 1
    safe = np.flatnonzero(mines == 0)
    rng.shuffle(safe)
    opened = [*safe[:clicks], int(np.flatnonzero(mines)[0])]
    return mines.reshape(width, width).tolist(), [("open", *divmod(int(c), width)) for c in opened]


def test_a_replay_judged_within_a_whole_time_stops_where_the_time_runs_out_and_says_so():
    """With ``total`` spent before the first click, no click is judged: the answer is marked not complete (JSON
    and text), with no fatal click and no expected win (the clicks not judged keep their luck unknown)."""
    mines = [[0, 0, 0, 0], [1, 0, 0, 1]]
    replay = Replay.from_moves(mines, [("open", 0, 0), ("open", 1, 1), ("open", 1, 0)])
    whole = analyse_replay(replay, agent=False, total=Limit(time=60))
    assert whole.complete and len(whole.clicks) == 3 and whole.fatal is not None and whole.expected_win is not None
    cut = analyse_replay(replay, agent=False, total=Limit(time=1e-9))
    assert (cut.complete, cut.clicks, cut.fatal, cut.expected_win) == (False, (), None, None)
    assert replay_json(cut)["complete"] is False and replay_json(whole)["complete"] is True
    assert "NOT COMPLETE: the time ran out after 0 of the 3 clicks" in replay_text(cut)
    assert "NOT COMPLETE" not in replay_text(whole)


def test_the_web_api_judges_a_long_replay_within_the_requests_time():
    """A 60x60 game of 400 clicks takes minutes to judge whole; the server judges the clicks its request's time
    allows and says the rest were left, its steps those of the clicks judged."""
    from starlette.testclient import TestClient

    from cspmines.web import create_app

    data = evf_bytes(*_random_clicks_game(60, 400))
    with TestClient(create_app()) as client:
        answer = client.post("/api/replays?format=evf&steps=true&time_limit=1", content=data)
    assert answer.status_code == 200
    body = answer.json()
    assert body["complete"] is False and 0 < len(body["clicks"]) < 300 and len(body["steps"]) == len(body["clicks"])


def test_a_chord_after_a_valued_guess_has_its_position_valued_so_the_luck_before_it_comes_out():
    """A chord that guesses is never valued; after a valued guess, its position is valued alone (as the bench's
    judge does), so the valued guess's luck is taken out and none kept. The expected win may fall below 0 (a lucky
    guess, then a chord on a wrong flag), and the report writes its sign. A program that does not draw its layouts
    uniformly (a no-guess mode) gets none."""
    from dataclasses import replace

    from cspmines.replays.report import _with_decimal

    mines = [[0, 1, 0, 0, 1], [0, 0, 0, 0, 1], [0, 1, 0, 0, 0]]
    replay = Replay.from_moves(mines, [("flag", 1, 2), ("open", 0, 2), ("open", 0, 3), ("chord", 0, 2)])
    result = analyse_replay(replay, agent=False)
    chord = result.guesses[-1]
    assert chord.click.action.value == "chord" and chord.loss is None and chord.value is not None
    assert result.judgement.luck_kept == 0 and result.expected_win == Fraction(-22, 105)
    assert "expected win -22/105 (-0.2095)" in replay_text(result)
    assert _with_decimal(Fraction(-1, 3 * 10**30)) == "-3.333...e-31"
    assert analyse_replay(replace(replay, mode=5), agent=False).expected_win is None
