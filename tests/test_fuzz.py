"""Fuzzing with hypothesis: the readers given random and mutated bytes read a valid position or board,
or raise the project's own error naming where; the engine on random small positions equals brute force,
and on inconsistent ones the clues it names really cannot all hold."""

from __future__ import annotations

import json
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cspmines import CspminesError, InconsistentPositionError, Position, solve
from cspmines.games import Board
from cspmines.position import COVERED

from bruteforce import brute_force

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VALID_TEXT = "5x3x2\n1.1..\n.....\n..F?0\n"
VALID_JSON = json.dumps({"width": 4, "height": 3, "mines": [[0, 1], [2, 3]]})
VALID_MBF = bytes([4, 3, 0, 2, 1, 0, 3, 2])


def mutated(valid: bytes):
    """Random bytes, and the valid input with bytes flipped, cut, inserted or repeated."""
    edits = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10_000), st.integers(0, 255)), max_size=6)

    def apply(changes):
        data = bytearray(valid)
        for kind, where, value in changes:
            where = where % (len(data) + 1)
            if kind == 0 and where < len(data):
                data[where] = value
            elif kind == 1:
                del data[where:]
            elif kind == 2:
                data.insert(where, value)
            else:
                data += data[:where]
        return bytes(data)

    return st.one_of(st.binary(max_size=200), edits.map(apply))


def read_or_named_error(read, data: bytes, source: str):
    try:
        return read(data)
    except CspminesError as error:  # the project's own error, naming where
        assert str(error).startswith(source) or source in str(error), str(error)
        assert "\n" not in str(error).strip()
        return None


@FUZZ
@given(mutated(VALID_TEXT.encode()))
def test_the_position_reader_reads_or_names_the_fault(data):
    text = data.decode("utf-8", errors="replace")
    position = read_or_named_error(lambda _: Position.from_string(text, source="fuzz.txt"), data, "fuzz.txt")
    if position is not None:
        assert Position.from_string(str(position)) == position  # what it read writes back the same


@FUZZ
@given(mutated(VALID_JSON.encode()))
def test_the_board_json_reader_reads_or_names_the_fault(data):
    text = data.decode("utf-8", errors="replace")
    board = read_or_named_error(lambda _: Board.from_json(text, source="fuzz.json"), data, "fuzz.json")
    if board is not None:
        assert board.size == board.width * board.height and len(board.mines) <= board.size


@FUZZ
@given(mutated(VALID_MBF))
def test_the_mbf_reader_reads_or_names_the_fault(data):
    board = read_or_named_error(lambda _: Board.from_mbf(data, source="fuzz.mbf"), data, "fuzz.mbf")
    if board is not None:
        assert board.size == board.width * board.height


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_the_replay_readers_read_or_name_the_fault(data):
    pytest.importorskip("ms_toollib", reason="the replays extra is in the test extra")
    from cspmines.replays import ReplayFormatError, read_replay
    from cspmines.replays.writer import evf_bytes

    valid = evf_bytes([[0, 0, 1], [0, 0, 0]], [("open", 0, 0), ("open", 1, 2)])
    kind = data.draw(st.sampled_from(["avf", "rmv", "evf", "mvf"]))
    blob = data.draw(mutated(valid))
    try:
        replay = read_replay(f"fuzz.{kind}", data=blob)
    except ReplayFormatError as error:
        assert str(error).startswith(f"fuzz.{kind}: ") and "\n" not in str(error)
    else:
        assert replay.clicks and replay.width * replay.height >= 1


cells = st.sampled_from([COVERED, COVERED, COVERED, 0, 1, 2, 3])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_the_engine_equals_brute_force_or_names_clues_that_cannot_all_hold(width, height, data):
    grid = [[data.draw(cells) for _ in range(width)] for _ in range(height)]
    covered = sum(row.count(COVERED) for row in grid)
    mines = data.draw(st.integers(0, covered))
    position = Position(grid, mines=mines)
    oracle = brute_force(position)
    try:
        analysis = solve(position)
    except InconsistentPositionError as error:
        assert oracle.model_count == 0
        if error.clues:  # the named clues admit no layout of the covered cells around them, whatever the total
            named = [position.cell(r, c) for r, c in error.clues]
            around = sorted({n for clue in named for n in position.neighbours(clue) if position.code(n) == COVERED})
            fitting = [subset for k in range(len(around) + 1) for subset in combinations(around, k)
                       if all(sum(1 for n in position.neighbours(clue) if n in subset) == position.code(clue) for clue in named)]
            assert not fitting, (str(position), error.clues)
        return
    assert analysis.model_count == oracle.model_count
    for cell, probability in oracle.probabilities.items():
        assert analysis.probability(cell) == probability
