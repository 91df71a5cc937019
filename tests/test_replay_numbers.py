"""A replay's own numbers (ms-toollib's, read not recomputed), needless guesses near and far, thinking times,
the fatal click, and the JSON and CSV carrying what the text shows. Games are the bundled EVF and games of our
agents written through ms-toollib's recorder (tests/replaymaker.py): no fetched file is needed."""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import re
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from replaymaker import agent_game
from test_replays import layouts_of, random_game

from cspmines import Position
from cspmines.cli import main
from cspmines.position import COVERED
from cspmines.replays import ClickAction, ClickClass, FirstClickRule, Outcome, Replay, ReplayClick, analyse_replay, read_replay
from cspmines.replays.analysis import Needless
from cspmines.replays.extract import STATS
from cspmines.replays.statistics import NAMES
from cspmines.replays.writer import evf_bytes

ms_toollib = pytest.importorskip("ms_toollib", reason="the replays extra (ms-toollib) is part of the test extra")

EXAMPLE = Path(__file__).resolve().parent.parent / "cspmines" / "data" / "examples" / "beginner-game.evf"


def ms_numbers(data: bytes) -> dict:
    """ms-toollib's own numbers for an EVF file at the end of its game, asked here directly."""
    video = ms_toollib.EvfVideo(file_name="", raw_data=list(data))
    video.parse()
    video.analyse()
    video.current_time = 1e9
    values = {name: getattr(video, name) for name in NAMES}
    return {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in values.items()}


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> list[Path]:
    """The bundled game and games of our agents, won and lost, on three sizes, written as EVF."""
    folder = tmp_path_factory.mktemp("numbers")
    paths = [EXAMPLE]
    for agent, size, seed in [("exact", (9, 9, 10), 2), ("greedy", (9, 9, 10), 7), ("random", (9, 9, 10), 3),
                              ("exact", (16, 16, 40), 1), ("set-theory", (30, 16, 99), 4), ("knowledge-base", (12, 7, 12), 5)]:
        path = folder / f"{agent}-{size[0]}x{size[1]}-{seed}.evf"
        path.write_bytes(evf_bytes(*agent_game(agent, size, seed=seed)))
        paths.append(path)
    return paths


def test_the_reader_and_the_report_name_the_same_numbers():
    assert STATS == NAMES


def test_every_number_is_ms_toollibs_own_in_text_json_and_csv(games, tmp_path, capsys):
    outcomes = set()
    for path in games:
        expected = ms_numbers(path.read_bytes())
        assert main(["replay", str(path), "--json", "--no-agent"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["statistics"] == expected  # every number, every digit (floats go through JSON whole)
        outcomes.add(data["outcome"])
        assert main(["replay", str(path), "--no-agent"]) == 0
        text = capsys.readouterr().out
        for line in read_replay(path).statistics.lines():
            assert f"\n  {line}\n" in text
        table = tmp_path / "one.csv"
        assert main(["replay", str(path), "--no-agent", "--csv", str(table)]) == 0
        capsys.readouterr()
        (row,) = csv.DictReader(table.open(encoding="utf-8"))
        for name in NAMES:
            if name not in ("bbbv", "level"):
                assert row[name] == ("" if expected[name] is None else str(expected[name])), name
        assert row["bbbv"] == str(expected["bbbv"]) and row["mode"] == "0"
    assert outcomes == {"won", "lost"}


def test_stnb_is_ms_toollibs_own_on_the_boards_it_defines_it_for_and_not_shown_elsewhere(games, capsys):
    levels = set()
    for path in games:
        expected = ms_numbers(path.read_bytes())
        assert main(["replay", str(path), "--no-agent"]) == 0
        text = capsys.readouterr().out
        levels.add(expected["level"])
        if expected["level"] in (3, 4, 5):  # beginner, intermediate, expert
            shown = "-" if expected["stnb"] is None else f"{expected['stnb']:.2f}"
            assert f", STNB {shown}\n" in text, path.name
        else:
            assert "STNB" not in text, path.name
    expert = ms_numbers(games[5].read_bytes())  # set-theory's expert game, won
    assert expert["level"] == 5 and expert["stnb"] > 0 and read_replay(games[5]).statistics.values["stnb"] == expert["stnb"]
    assert {5, 6} <= levels


class _Video:
    """What extract.stats reads of an ms-toollib video: each number by its name."""

    def __init__(self, **values):
        self.__dict__.update(dict.fromkeys(STATS, 1), **values)


def test_a_number_that_is_not_a_number_is_reported_missing_in_json_and_csv(tmp_path):
    from cspmines.replays.extract import stats
    from cspmines.replays.report import csv_row, replay_json
    from cspmines.replays.statistics import Statistics

    odd = {"ioe": math.nan, "bbbv_s": math.inf, "rqp": -math.inf, "corr": 0.5, "cl": 0}
    read = stats(_Video(**odd))  # the child's reading, before JSON
    assert (read["ioe"], read["bbbv_s"], read["rqp"], read["corr"], read["cl"]) == (None, None, None, 0.5, 0)
    statistics = Statistics.from_json({**read, **odd, "level": 5, "stnb": math.nan})  # and again where the JSON is read
    assert [statistics.values[name] for name in ("ioe", "bbbv_s", "rqp", "stnb", "corr", "cl")] == [None, None, None, None, 0.5, 0]
    assert "IOE -, RQP -" in statistics.lines()[0] and statistics.lines()[0].endswith("STNB -")
    replay = dataclasses.replace(Replay.from_moves([[0, 0], [0, 1]], [("open", 0, 0)]), statistics=statistics)
    result = analyse_replay(replay, agent=False)
    data = json.loads(json.dumps(replay_json(result), allow_nan=False))  # JSON has no NaN: null
    assert data["statistics"]["ioe"] is None and data["statistics"]["stnb"] is None and data["statistics"]["corr"] == 0.5
    row = csv_row(result)
    assert (row["ioe"], row["stnb"], row["bbbv_s"], row["corr"]) == ("", "", "", 0.5)


def three_bv(mines: np.ndarray, opened: np.ndarray | None = None) -> int:
    """The 3BV of a layout, counted here (openings, and numbers beside no zero); with ``opened``, those solved:
    an opening once its zeros are open, a number once it is."""
    height, width = mines.shape
    padded = np.pad(mines.astype(int), 1)
    clues = sum(padded[1 + dr:1 + dr + height, 1 + dc:1 + dc + width] for dr in (-1, 0, 1) for dc in (-1, 0, 1)) - mines
    zero = (clues == 0) & ~mines
    seen, count = np.zeros_like(zero), 0
    near_zero = np.zeros_like(zero)
    for r, c in zip(*np.nonzero(zero), strict=True):
        near_zero[max(0, r - 1):r + 2, max(0, c - 1):c + 2] = True
        if seen[r, c]:
            continue
        stack, region = [(r, c)], []
        seen[r, c] = True
        while stack:
            a, b = stack.pop()
            region.append((a, b))
            for i in range(max(0, a - 1), min(height, a + 2)):
                for j in range(max(0, b - 1), min(width, b + 2)):
                    if zero[i, j] and not seen[i, j]:
                        seen[i, j] = True
                        stack.append((i, j))
        count += opened is None or all(opened[a, b] for a, b in region)
    singles = ~mines & ~near_zero
    return count + int((singles if opened is None else singles & opened).sum())


def test_the_3bv_and_the_clicks_agree_with_the_board_and_the_moves(games):
    for path in games[1:]:
        replay = read_replay(path)
        stats = replay.statistics.values
        mines = np.zeros(replay.width * replay.height, dtype=bool)
        mines[list(replay.layout)] = True
        mines = mines.reshape(replay.height, replay.width)
        assert stats["bbbv"] == three_bv(mines)
        opened = np.zeros_like(mines)
        final = replay.clicks[-1].seen.grid >= 0  # what was open before the last click, then what it opened
        opened |= final
        if replay.outcome.value == "won":
            assert stats["bbbv_solved"] == stats["bbbv"]
        else:  # lost: the 3BV solved before the fatal click
            assert stats["bbbv_solved"] == three_bv(mines, opened)
    # a hand-made game with a flag, a chord and a click on an open cell: left, right and double as made
    layout = [[0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]]
    moves = [("open", 0, 3), ("flag", 2, 0), ("flag", 2, 1), ("open", 0, 3), ("chord", 2, 2), ("open", 3, 0)]
    stats = read_replay("made.evf", data=evf_bytes(layout, moves)).statistics.values
    assert (stats["left"], stats["right"], stats["double"], stats["flag"]) == (3, 2, 1, 2)
    assert stats["cl"] == 6 and stats["ce"] < stats["cl"]  # the click on an open cell changed nothing


def _independent_chain(position, cells) -> set:
    """Covered cells joined to ``cells`` through clues, by union-find over pairs that share a clue."""
    parent: dict = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    grid = position.grid.ravel()
    for clue in position.clue_cells:
        around = [n for n in position.neighbours(clue) if grid[n] < 0]
        for a, b in pairwise(around):
            parent[find(a)] = find(b)
    roots = {find(c) for c in cells}
    return {c for c in range(position.size) if grid[c] < 0 and find(c) in roots}


@pytest.mark.parametrize("seed", range(40))
def test_needless_guesses_are_told_nearby_or_elsewhere_as_brute_force_finds_them(seed):
    rng = np.random.default_rng(seed + 100)
    layout, moves = random_game(rng)
    replay = Replay.from_moves(layout, moves)
    for judged in analyse_replay(replay, agent=False).clicks[1:]:
        position = judged.click.seen
        fits = layouts_of(position)
        safe = {c for c in position.covered_cells if not any(c in mines for mines in fits)}
        if judged.kind != ClickClass.NEEDLESS:
            assert judged.where is None
            continue
        assert safe  # a proved-safe cell somewhere (a chord's may be among the cells it opens)
        near = any(max(abs(r - judged.click.row), abs(c - judged.click.col)) <= 2 for r, c in map(position.row_col, safe))
        near = near or bool(_independent_chain(position, judged.click.opens) & safe)
        assert judged.where == (Needless.NEARBY if near else Needless.ELSEWHERE)


def test_a_safe_cell_on_the_same_chain_far_away_is_nearby_and_one_off_it_is_elsewhere():
    # (0,4) is proved safe (the 1 at (0,3) and the 2s leave it no mine); (0,7), three cells away, is joined to it
    # through the 2s at (0,6) and (1,4); (0,8), four away, touches no clue
    seen = Position.from_string("10x3x10\n..31..2...\n5...2.....\n......2.21")
    first = ReplayClick(0.0, ClickAction.OPEN, 0, 2, seen, (2,))
    for col, where in ((7, Needless.NEARBY), (8, Needless.ELSEWHERE), (5, Needless.NEARBY)):
        guess = ReplayClick(1.0, ClickAction.OPEN, 0, col, seen, (col,))
        replay = Replay("made", "moves", 10, 3, 10, frozenset(), (first, guess), Outcome.UNFINISHED, FirstClickRule.SAFE)
        judged = analyse_replay(replay, agent=False).clicks[1]
        assert judged.kind == ClickClass.NEEDLESS and judged.where == where, col


def test_a_chain_runs_through_the_players_flags_as_through_covered_cells_and_a_flag_joins_nothing():
    # the board above with column 5 flagged: (0,7) reaches the proved-safe (0,4) only through the flags beside
    # the 2 at (1,4) (a flag is the player's belief, a covered cell to the judge)
    seen = Position.from_string("10x3x10\n..31.F2...\n5...2F....\n.....F2.21")
    safe, flags = seen.cell(0, 4), {seen.cell(row, 5) for row in range(3)}
    assert {safe} | flags <= _independent_chain(seen, (seen.cell(0, 7),))
    grid = seen.grid.ravel()
    reached, stack = {seen.cell(0, 7)}, [seen.cell(0, 7)]  # the same walk stepping on covered cells only, not flags
    while stack:
        cell = stack.pop()
        for clue in (n for n in seen.neighbours(cell) if grid[n] >= 0):
            fresh = {n for n in seen.neighbours(clue) if grid[n] == COVERED} - reached
            reached |= fresh
            stack += fresh
    assert safe not in reached  # the flags are the only way through
    first = ReplayClick(0.0, ClickAction.OPEN, 0, 2, seen, (2,))
    guess = ReplayClick(1.0, ClickAction.OPEN, 0, 7, seen, (seen.cell(0, 7),))
    replay = Replay("made", "moves", 10, 3, 10, frozenset(), (first, guess), Outcome.UNFINISHED, FirstClickRule.SAFE)
    judged = analyse_replay(replay, agent=False).clicks[1]
    assert judged.kind == ClickClass.NEEDLESS and judged.where == Needless.NEARBY
    # and a flag joins nothing, as a clue would: (0,8) touches no clue, a flag beside it or not
    seen = Position.from_string("10x3x10\n..31..2...\n5...2...F.\n......2.21")
    assert _independent_chain(seen, (seen.cell(0, 8),)) == {seen.cell(0, 8)}
    guess = ReplayClick(1.0, ClickAction.OPEN, 0, 8, seen, (seen.cell(0, 8),))
    replay = Replay("made", "moves", 10, 3, 10, frozenset(), (first, guess), Outcome.UNFINISHED, FirstClickRule.SAFE)
    judged = analyse_replay(replay, agent=False).clicks[1]
    assert judged.kind == ClickClass.NEEDLESS and judged.where == Needless.ELSEWHERE


def test_the_thinking_time_is_the_pause_before_each_click():
    layout = [[0, 0, 0, 0], [1, 0, 0, 1]]
    moves = [("open", 0, 0), ("flag", 1, 0), ("open", 1, 1), ("open", 0, 3)]
    replay = Replay.from_moves(layout, moves, times=[0.5, 2.0, 3.25, 7.0])
    result = analyse_replay(replay, agent=False)
    assert [judged.thinking for judged in result.clicks] == [0.5, 2.75, 3.75]  # a flag is no click that opened cells
    data = json.loads(json.dumps(__import__("cspmines.replays.report", fromlist=["x"]).replay_json(result)))
    assert [c["thinking"] for c in data["clicks"]] == [0.5, 2.75, 3.75]


def test_a_lost_game_names_its_fatal_click_and_the_3bv_solved_before_it(games, capsys):
    lost = [path for path in games if read_replay(path).outcome.value == "lost"]
    assert lost
    for path in lost:
        assert main(["replay", str(path), "--json", "--no-agent"]) == 0
        data = json.loads(capsys.readouterr().out)
        last = data["clicks"][-1]
        assert data["fatal"] == {"time": last["time"], "action": last["action"], "row": last["row"], "col": last["col"],
                                 "chance": last["chance"], "bbbv_solved": data["statistics"]["bbbv_solved"]}
        assert main(["replay", str(path), "--no-agent"]) == 0
        text = capsys.readouterr().out
        solved, total = data["statistics"]["bbbv_solved"], data["statistics"]["bbbv"]
        assert re.search(rf"lost at [0-9.]+ s on {last['action']} \({last['row']},{last['col']}\), mine chance .*"
                         rf"with {solved} of {total} 3BV solved before it", text)
    won = json.loads((main(["replay", str(games[0]), "--json", "--no-agent"]), capsys.readouterr().out)[1])
    assert won["fatal"] is None


def test_the_json_carries_everything_the_text_shows(games, capsys):
    for path in games[:4]:
        assert main(["replay", str(path)]) == 0
        text = capsys.readouterr().out
        assert main(["replay", str(path), "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        head = text.splitlines()
        assert head[0] == f"{data['file']}: EVF, by {data['software']}" + (f", player {data['player']}" if data["player"] else "")
        assert f"{data['width']}x{data['height']}, {data['mines']} mines, {data['outcome']}" in head[1]
        if data["time"]:
            assert f" in {data['time']:.2f} s" in head[1]
        counts = data["counts"]
        assert (f"{counts['judged']} clicks opened cells: {counts['proved']} proved, {counts['forced']} forced guess"
                in text)
        assert counts["needless"] == counts["nearby"] + counts["elsewhere"]
        guesses = [click for click in data["clicks"] if click["class"] != "proved"]
        lines = [line for line in head if re.match(r"\s+\d+\s+[0-9.]+\s+[0-9.]+\s+(open|chord) \(", line)]
        assert len(lines) == len(guesses)
        for line, click in zip(lines, guesses, strict=True):
            words = line.split()
            assert float(words[1]) == pytest.approx(click["time"], abs=0.005)
            assert float(words[2]) == pytest.approx(click["thinking"], abs=0.005)
            assert f"{click['action']} ({click['row']},{click['col']})" in line and click["chance"] in line
            assert (click["class"] + (f" ({click['needless']})" if click["needless"] else "")) in line
            agent = click["agent"]
            assert agent is not None and f"{agent['action']} ({agent['row']},{agent['col']}) at {agent['chance']}" in line
        assert f"survival {data['survival']}" in text or f"survival {data['survival_decimal'][:5]}" in text
        if data["agent_survival"] is not None:
            assert f"survival {data['agent_survival']}" in text.split("the exact agent at the same moments")[1]


def test_the_csv_has_a_decimal_survival_and_the_mode(games, tmp_path, capsys):
    table = tmp_path / "history.csv"
    assert main(["replay", *map(str, games), "--csv", str(table), "--no-agent", "--quiet"]) == 0
    capsys.readouterr()
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert len(rows) == len(games)
    for row in rows:
        exact = Fraction(row["survival"])
        assert float(row["survival_decimal"]) == pytest.approx(float(exact), rel=1e-5)
        assert row["mode"] == "0" and int(row["needless"]) == int(row["nearby"]) + int(row["elsewhere"])
