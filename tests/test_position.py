"""Reading, writing and validating positions (the format of docs/format.md)."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from cspmines import Position, PositionFormatError
from cspmines.position import COVERED, FLAG, MINE, WITHHELD

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("path", sorted(DATA.glob("*.txt"))[::4], ids=lambda p: p.stem)
def test_reference_files_round_trip(path):
    position = Position.from_file(path)
    again = Position.from_string(str(position))
    assert again == position and hash(again) == hash(position)
    assert eval(repr(position), {"Position": Position}) == position
    assert pickle.loads(pickle.dumps(position)) == position


def test_every_character_is_read_and_covered_cells_written_as_dots():
    position = Position.from_string("# comment\n\n5x2x3\nHh.F*\n?0128\n")
    assert position.grid.tolist() == [[COVERED] * 3 + [FLAG, MINE], [WITHHELD, 0, 1, 2, 8]]
    assert str(position) == "5x2x3\n...F*\n?0128"
    assert position.known_mine_cells == (3, 4)
    assert position.clue_cells == (6, 7, 8, 9)


def test_unknown_total_round_trips():
    position = Position.from_string("3x1\n.1.")
    assert position.mines is None and str(position) == "3x1\n.1."
    assert position.with_mines(1).mines == 1


def test_positions_are_immutable_and_hashable():
    position = Position.from_string("3x1x1\n.1.")
    with pytest.raises(ValueError):
        position.grid[0, 0] = 1
    assert len({position, Position.from_string("3x1x1\n.1."), position.with_mines(2)}) == 2
    assert position != Position.from_string("3x1x1\n1..")


def test_cell_helpers():
    position = Position.from_string("3x2\n...\n...")
    assert position.cell(1, 2) == 5 and position.row_col(5) == (1, 2)
    assert position.neighbours(0) == (1, 3, 4)
    assert len(position.neighbours(4)) == 5
    with pytest.raises(IndexError):
        position.cell(2, 0)
    with pytest.raises(IndexError):
        position.row_col(6)


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("", 1, 0, "no header"),
        ("# only a comment\n", 1, 0, "no header"),
        ("3x\n...", 1, 3, "not a whole number"),
        ("3by2\n...", 1, 1, "header"),
        ("0x2\n", 1, 1, "at least 1x1"),
        ("3x2x1\n...\n..", 3, 3, "row has 2 cells"),  # ragged row
        ("3x2x1\n...\n....", 3, 4, "row has 4 cells"),
        ("3x1x1\n.a.", 2, 2, "unknown character 'a'"),
        ("3x1x1\n.9.", 2, 2, "clue 9 is above 8"),
        ("3x2x1\n...", 1, 3, "2 rows but 1 follow"),  # header does not match the grid
        ("3x1x1\n...\n...", 3, 0, "1 rows but 2 follow"),
        ("3x1x1\nFF.", 1, 5, "2 known mines"),  # more known mines than the total
        ("2x1x3\n..", 1, 5, "does not fit"),
    ],
)
def test_malformed_input_names_line_and_column(text, line, column, words):
    with pytest.raises(PositionFormatError, match=words) as caught:
        Position.from_string(text, source="board.txt")
    error = caught.value
    assert (error.source, error.line, error.column) == ("board.txt", line, column)
    assert str(error).startswith(f"board.txt:{line}")
    assert isinstance(error, ValueError)


def test_from_file_names_the_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("2x1x1\n1?x\n")
    with pytest.raises(PositionFormatError, match=r"bad.txt:2:3: unknown character 'x'"):
        Position.from_file(path)


@pytest.mark.parametrize("text", [None, b"3x1\n.1.", 3])
def test_text_that_is_not_a_string_is_named(text):
    with pytest.raises(TypeError, match=f"needs the position's text as a str, got {type(text).__name__}"):
        Position.from_string(text)


def test_constructor_validates_arrays():
    with pytest.raises(PositionFormatError, match="cell code 9"):
        Position(np.array([[9]]))
    with pytest.raises(PositionFormatError, match="2-D"):
        Position(np.array([1, 2]))
    with pytest.raises(PositionFormatError, match="between"):
        Position(np.array([[FLAG, FLAG]]), mines=1)
    with pytest.raises(PositionFormatError, match="must be an int"):
        Position(np.array([[COVERED]]), mines=0.5)


def test_random_text_never_crashes_the_reader_or_the_solver():
    """Whatever the text, the reader returns a Position or raises PositionFormatError, and
    solve() returns an analysis or raises a CspminesError that says what is wrong."""
    from cspmines import CspminesError, solve

    rng = np.random.default_rng(1234)
    alphabet = list(".Hh F*?0123456789x#\n") + ["\n", "\n", "3x3", "2x2x1", "x"]
    outcomes = {"read": 0, "solved": 0, "refused": 0}
    for _ in range(3000):
        text = "".join(rng.choice(alphabet, size=int(rng.integers(0, 30))))
        if rng.random() < 0.5:  # a plausible header makes deeper paths reachable
            width, height = int(rng.integers(1, 5)), int(rng.integers(1, 4))
            rows = ["".join(rng.choice(list(".F*?012345678"), size=width)) for _ in range(height)]
            text = f"{width}x{height}x{int(rng.integers(0, width * height + 2))}\n" + "\n".join(rows)
        try:
            position = Position.from_string(text)
        except PositionFormatError as error:
            assert str(error) and error.line >= 0
            outcomes["refused"] += 1
            continue
        outcomes["read"] += 1
        try:
            solve(position, density=0.3 if position.mines is None else None)
            outcomes["solved"] += 1
        except CspminesError as error:
            assert "inconsistent" in str(error) or "total" in str(error)
    assert min(outcomes.values()) > 20, outcomes  # every path was reached, and none crashed
