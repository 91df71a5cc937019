"""The command line: output, JSON schema, exit codes and error messages."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from cspmines import Position, solve
from cspmines.cli import main

DATA = Path(__file__).parent / "data"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cspmines.cli", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_solve_prints_board_and_summary(capsys):
    assert main(["solve", str(DATA / "beginner-5-000.txt"), "--color", "never"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == [str(c) for c in range(9)]  # the column ruler
    assert lines[1].split()[:5] == ["0", "4", "4", "4", "M"]  # row 0: 1/23 rounds to 4%, then a certain mine
    assert all(line.split()[0] == str(r) for r, line in enumerate(lines[1:10]))  # each row numbered
    assert "safe:" in out and "chains: 1" in out and "\x1b[" not in out


def test_color_always_uses_ansi(capsys):
    main(["solve", str(DATA / "beginner-5-000.txt"), "--color", "always"])
    assert "\x1b[" in capsys.readouterr().out


def test_json_schema(capsys):
    assert main(["solve", str(DATA / "lattice7-2.txt"), "--json", "--exact"]) == 0
    result = json.loads(capsys.readouterr().out)
    reference = json.loads((DATA / "lattice7-2.json").read_text())
    assert result["schema"] == 1 and result["exact"] is True
    assert result["model_count"] == reference["solutions"]
    assert (result["width"], result["height"], result["mines"]) == (30, 16, 99)
    for r, row in enumerate(reference["probability_fractions"]):
        for c, value in enumerate(row):
            if value is None:
                assert result["fractions"][r][c] is None and result["probabilities"][r][c] is None
            else:
                n, d = value
                assert result["fractions"][r][c] == (f"{n}" if d == 1 else f"{n}/{d}")
                assert result["probabilities"][r][c] == pytest.approx(n / d)
    component = result["components"][0]
    assert set(component) >= {"cells", "clues", "boxes", "mine_range", "layouts", "exact", "backend", "seconds"}


def test_exact_text_adds_model_count(capsys):
    main(["solve", str(DATA / "beginner-5-000.txt"), "--exact", "--color", "never"])
    out = capsys.readouterr().out
    assert "models: 23" in out and "1/23" in out


def test_outcomes_are_what_each_clue_revealed_counts(capsys):
    # the 4x2 board: (0,1) is a mine half the time; safe, it sees the other half of the pair and the
    # rest's one mine a quarter of the time each way; --exact gives fractions, --json floats and them
    board = "4x2x2\n1...\n1...\n"
    result = run("solve", "-", "--outcomes", "0,1", "--outcomes", "1,3", "--exact", stdin=board)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-2:] == ["opening (0,1): a mine 1/2; safe, it shows 1: 1/4, 2: 1/4", "opening (1,3): a mine 1/4; safe, it shows 1: 3/4"]
    result = run("solve", "-", "--outcomes", "0,1", "--json", "--exact", stdin=board)
    (outcome,) = json.loads(result.stdout)["outcomes"]
    assert outcome["cell"] == [0, 1] and outcome["mine"] == 0.5 and outcome["clues"][:3] == [0.0, 0.25, 0.25]
    assert outcome["fractions"][:4] == ["1/2", "0", "1/4", "1/4"]
    # every outcome of a reference position's cell, against revealing its clues one by one
    from cspmines.engine.reveal import solve_revealed
    from cspmines.errors import InconsistentPositionError

    path = DATA / "expert-5-012.txt"
    analysis = solve(Position.from_file(path))
    cell = analysis.chains[0].cells[0]
    row, col = analysis.position.row_col(cell)
    assert main(["solve", str(path), "--json", "--exact", "--outcomes", f"{row},{col}"]) == 0
    (outcome,) = json.loads(capsys.readouterr().out)["outcomes"]
    for clue in range(9):
        try:
            count = solve_revealed(analysis, cell, clue).model_count
        except InconsistentPositionError:
            count = 0
        assert Fraction(outcome["fractions"][1 + clue]) == Fraction(count, analysis.model_count)


@pytest.mark.parametrize(
    "args, words",
    [
        (["--outcomes", "0,0"], "--outcomes 0,0: the cell is not covered"),
        (["--outcomes", "2,0"], "--outcomes 2,0: outside the 4x2 board (rows 0 to 1, columns 0 to 3)"),
        (["--outcomes", "0-1"], "expected a cell as ROW,COL (whole numbers from 0), got '0-1'"),
        (["--outcomes", "0,1", "--density", "0.3"], "--outcomes needs the mine total (a layout count): pass --mines N, not --density"),
    ],
)
def test_outcomes_of_a_cell_that_has_none_say_why_in_one_line(args, words):
    result = run("solve", "-", *args, stdin="4x2x2\n1...\n1...\n")
    assert result.returncode == 2 and result.stdout == ""
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_insight_marks_the_board_and_lists_what_it_found(capsys):
    from cspmines import insight_of
    from cspmines.present.answers import insight_json

    path = Path(__file__).resolve().parent.parent / "cspmines" / "data" / "examples" / "beginner-endgame.txt"
    assert main(["solve", str(path), "--insight", "--color", "never"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[7].split()[:3] == ["6", "50h", "50h"] and lines[8].split()[:3] == ["7", "[2]", "50pd"]  # (6,0) (6,1) unavoidable, (7,1) pseudo and dead
    assert "50/50s: (6,0) | (6,1) unavoidable; (7,1) | (8,1) pseudo, told by (6,0) (6,1)" in lines
    assert "endgame: 4 layouts; best play wins 50.00%, opening (6,0) (6,1) first" in lines
    assert main(["solve", str(path), "--insight", "--json"]) == 0
    analysis = solve(Position.from_file(path))
    assert json.loads(capsys.readouterr().out)["insight"] == insight_json(analysis.position, insight_of(analysis))
    assert main(["solve", str(path), "--json"]) == 0 and "insight" not in json.loads(capsys.readouterr().out)
    result = run("solve", "-", "--insight", "--density", "0.3", stdin="4x2\n1...\n1...\n")
    assert result.returncode == 2 and result.stderr.strip() == "cspmines: error: --insight needs the mine total (a layout count): pass --mines N, not --density"


def test_insight_marks_follow_their_cells_chance_never_a_clue_and_a_legend_reads_them(capsys):
    import re

    from cspmines import insight_of

    path = Path(__file__).resolve().parent.parent / "cspmines" / "data" / "examples" / "beginner-endgame.txt"
    analysis = solve(Position.from_file(path))
    seen = insight_of(analysis)
    assert main(["solve", str(path), "--insight", "--color", "never"]) == 0
    lines = capsys.readouterr().out.splitlines()
    board = lines[1:10]
    assert not any(re.search(r"\][hpd]|[hpd]\[", line) for line in board)  # no mark touches a clue's bracket
    cells = {(r, c): token for r, line in enumerate(board) for c, token in enumerate(line.split()[1:])}
    for cell in analysis.position.covered_cells:
        row, col = analysis.position.row_col(cell)
        kinds = [fifty.kind.value for fifty in seen.fifty_fifties if cell in fifty.cells]
        marks = ("h" if "unavoidable" in kinds else "") + ("p" if "pseudo" in kinds else "") + ("d" if cell in seen.dead else "")
        assert re.fullmatch(r"(\d+|S|M|<1|>99)([hpd]*)", cells[row, col]).group(2) == marks, (row, col)
    assert {cells[7, 1], cells[8, 1]} == {"50pd"}  # dead and pseudo both: both marks
    legend = "\n".join(lines[10:13])
    assert legend.startswith("marks: ") and lines[13].startswith("safe: ") and all(f" {mark} " in legend for mark in "hpd")
    assert "unavoidable 50/50" in legend and "pseudo-50/50" in legend and "dead" in legend


def test_the_winning_chance_board_shows_a_proved_mine_as_a_mine(capsys):
    path = Path(__file__).resolve().parent.parent / "cspmines" / "data" / "examples" / "beginner-endgame.txt"
    analysis = solve(Position.from_file(path))
    for exact in ([], ["--exact"]):
        assert main(["solve", str(path), "--insight", "--color", "never", *exact]) == 0
        lines = capsys.readouterr().out.splitlines()
        start = next(n for n, line in enumerate(lines) if line.startswith("winning chance with best play")) + 2
        chances = [line.split()[1:] for line in lines[start:start + 9]]
        for cell in analysis.position.covered_cells:
            row, col = analysis.position.row_col(cell)
            assert (chances[row][col] == "M") == (cell in analysis.mine_cells), (row, col, chances[row][col])
        assert chances[6][0] == ("1/2" if exact else "50")


def test_standard_input_and_density():
    result = run("solve", "-", "--density", "0.25", "--json", stdin="4x1\n.1..\n")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["probabilities"][0] == [0.5, None, 0.5, 0.25]


@pytest.mark.parametrize(
    "stdin, words",
    [
        ("3x1x1\n.9.\n", "<stdin>:2:2: clue 9 is above 8"),
        ("3x1x1\n..\n", "<stdin>:2:3: row has 2 cells"),
        ("3x1x2\n.0.\n", "inconsistent"),
        ("8x1x3\n.2.0.1..\n", "inconsistent position: no mine layout satisfies these clues together; clue(s) at (0,1) (0,3)"),
        ("3x1\n.1.\n", "mine total is unknown"),
    ],
)
def test_bad_input_exits_2_with_one_line(stdin, words):
    result = run("solve", "-", stdin=stdin)
    assert result.returncode == 2
    assert result.stdout == ""
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_missing_file_exits_2():
    result = run("solve", "no-such-file.txt")
    assert result.returncode == 2 and "no-such-file.txt" in result.stderr and "Traceback" not in result.stderr


def test_bad_option_exits_2():
    assert run("solve", "-", "--backend", "nope", stdin="").returncode == 2


def test_closed_standard_output_exits_quietly():
    # the reader is gone before the command writes a line, as with `cspmines solve ... | head -0`
    process = subprocess.Popen(
        [sys.executable, "-m", "cspmines", "solve", str(DATA / "beginner-5-000.txt")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdout.close()
    error = process.stderr.read()
    process.stderr.close()
    assert process.wait(timeout=60) == 1
    assert error == b""


def _boards(text: str) -> list:
    from cspmines.games.board import Board

    return [Board.from_position_text(block) for block in text.strip().split("\n\n")]


def test_sample_prints_whole_boards_that_show_the_position(capsys):
    from cspmines import Position

    path = DATA / "expert-5-027.txt"
    position = Position.from_file(path)
    assert main(["sample", str(path), "--count", "5", "--seed", "3"]) == 0
    boards = _boards(capsys.readouterr().out)
    assert len(boards) == 5 and len(set(boards)) > 1
    for board in boards:
        assert board.n_mines == position.mines
        for cell in position.clue_cells:  # every drawn board gives each opened cell the clue it shows
            assert board.clue(cell) == position.grid.flat[cell] and not board.is_mine(cell)
    assert main(["sample", str(path), "--count", "5", "--seed", "3"]) == 0
    assert _boards(capsys.readouterr().out) == boards  # the same seed, the same boards


def test_sample_json_lines_read_back_as_boards(capsys):
    from cspmines.games.board import Board

    assert main(["sample", str(DATA / "beginner-5-000.txt"), "--count", "3", "--seed", "1", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert all(Board.from_json(line).n_mines == 10 for line in lines)


def test_sample_reports_bad_input_and_a_cut_short_draw():
    inconsistent = run("sample", "-", stdin="3x1x2\n.0.\n")
    assert inconsistent.returncode == 2 and "inconsistent position" in inconsistent.stderr
    missing = run("sample", "-", stdin="3x1\n.1.\n")
    assert missing.returncode == 2 and "pass --mines N or --density P" in missing.stderr
    assert run("solve", "-", stdin="3x1\n.1.\n").stderr.endswith("pass --mines N or --density P\n")
    assert run("sample", "-", "--density", "0.2", stdin="3x1\n.1.\n").returncode == 0
    cut = run("sample", str(DATA / "lattice13-2.txt"), "--count", "1000000", "--time-limit", "1.5", "--json")  # long enough to draw some even on a loaded machine
    assert cut.returncode == 0 and "cut short: time limit of 1.5 s reached after" in cut.stderr
    assert 0 < len(cut.stdout.splitlines()) < 1_000_000


def test_version_is_the_installed_distributions(capsys):
    import importlib.metadata
    from importlib.resources import files

    import cspmines
    import cspmines.native

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"cspmines {cspmines.__version__} ({cspmines.native.BUILD})"  # which kernels run
    assert importlib.metadata.version("cspmines") == cspmines.__version__  # one source: pyproject reads __init__
    assert files("cspmines").joinpath("py.typed").is_file()  # type checkers read the package's annotations


def test_move_sets_each_agents_move_beside_the_exact_probabilities(capsys):
    example = DATA / "beginner-5-000.txt"
    assert main(["move", str(example), "--agent", "exact", "--agent", "greedy", "--seed", "1", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    analysis = solve(Position.from_file(example))
    position = analysis.position
    assert [move["agent"] for move in printed["moves"]] == ["exact", "greedy"]
    for move in printed["moves"]:
        cell = position.cell(*move["cell"])
        assert Fraction(move["mine_fraction"]) == analysis.probability(cell)
        assert move["mine_probability"] == pytest.approx(float(analysis.probability(cell)))
    (least,) = analysis.least_probabilities(1)
    assert Fraction(printed["least_mine_fraction"]) == least
    assert printed["cells_at_least"] == len(analysis.cells_where(lambda p: p == least))
    # the text form says the same, one line an agent and a summary
    assert main(["move", str(example), "--agent", "exact", "--agent", "greedy", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and lines[0].startswith("exact") and lines[1].startswith("greedy")
    for line, move in zip(lines[:-1], printed["moves"], strict=True):
        row, col = move["cell"]
        assert f"{move['action']} ({row},{col})" in line and f"({move['mine_fraction']})" in line
    assert lines[2].startswith(f"least mine chance: {float(least):.4f}")


def test_move_defaults_to_the_exact_agent_and_names_its_rule():
    result = run("move", "-", stdin="5x3x3\n1....\n2....\n.....\n")
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith("exact") and first.endswith("endgame") and "(1/9)" in first


@pytest.mark.parametrize(
    "stdin, extra, words",
    [
        ("3x1\n.1.\n", (), "mine total is unknown: pass --mines N"),
        ("3x1x1\n*1.\n", (), "under classic rules the game is lost"),
        ("3x1x1\n.1.\n", ("--agent", "nope"), "unknown agent 'nope'"),
        ("3x1x2\n.0.\n", (), "inconsistent"),
    ],
)
def test_move_reports_bad_input_in_one_line(stdin, extra, words):
    result = run("move", "-", *extra, stdin=stdin)
    assert result.returncode == 2 and result.stdout == ""
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_move_takes_a_total_and_rules():
    result = run("move", "-", "--mines", "1", "--rules", "minesearch", "--json", stdin="3x1\n.1.\n")
    assert result.returncode == 0, result.stderr
    (move,) = json.loads(result.stdout)["moves"]
    assert json.loads(result.stdout)["rules"] == "minesearch" and move["mine_fraction"] == "1/2"


def test_move_explain_prints_the_candidates_in_text_and_json(capsys):
    from importlib.resources import files

    example = str(files("cspmines") / "data" / "examples" / "expert-guess.txt")
    assert main(["move", example, "--explain", "--json"]) == 0
    (move,) = json.loads(capsys.readouterr().out)["moves"]
    candidates = move["candidates"]
    assert candidates[0]["cell"] == move["cell"] and len(candidates) >= 2
    assert [c["score"] for c in candidates] == sorted((c["score"] for c in candidates), reverse=True)
    assert main(["move", example, "--explain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["cell", "safe", "safe", "twice", "progress", "50/50", "dead", "score"]
    assert len(lines) == 3 + len(candidates) and lines[2].startswith("    ({},{})".format(*move["cell"]))


@pytest.mark.parametrize("page", ["README.md", "docs/cli.md", "docs/replays.md"])
def test_the_docs_command_examples_print_what_they_show(capsys, monkeypatch, page):
    """Each ``$ cspmines ...`` line in a code block of the README or the command docs prints the lines
    that follow it there."""
    import shlex

    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    examples, block = [], None
    for line in (root / page).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            block = None
        elif line.startswith("$ cspmines "):
            block = (shlex.split(line[2:])[1:], [])
            examples.append(block)
        elif block is not None:
            block[1].append(line)
    assert len(examples) >= (1 if page == "docs/replays.md" else 2)
    for arguments, shown in examples:
        assert main(arguments) == 0
        assert capsys.readouterr().out.splitlines() == shown, arguments


def wide_lattice(path: Path) -> str:
    """A 41x41 board of 2s on every other cell of every other row: one front of 1,281 cells that no
    budget of seconds counts exactly (hours), written to ``path``."""
    rows = ["".join("2" if r % 2 and c % 2 else "." for c in range(41)) for r in range(41)]
    path.write_text("41x41x300\n" + "\n".join(rows) + "\n")
    return str(path)


def test_the_command_line_counts_under_a_budget_and_says_when_it_ran_out(tmp_path, capsys):
    lattice = wide_lattice(tmp_path / "lattice.txt")
    assert main(["solve", lattice, "--time-limit", "1", "--color", "never"]) == 0
    assert "NOT EXACT: the budget cut counting short; 1281 cells are estimates" in capsys.readouterr().out
    assert main(["move", lattice, "--agent", "greedy", "--time-limit", "1"]) == 2
    err = capsys.readouterr().err
    assert "not counted within --time-limit 1 s" in err and len(err.strip().splitlines()) == 1
    assert main(["solve", str(DATA / "lattice7-2.txt"), "--time-limit", "none", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"] is True


@pytest.mark.parametrize("command", ["solve", "sample", "move"])
def test_the_default_budget_is_a_minute(command):
    from cspmines.cli.parser import build_parser

    args = build_parser().parse_args([command, "position.txt"])
    assert args.time_limit == 60.0


@pytest.mark.parametrize("arguments, expected", [
    (["solve", "b.txt", "--exat"], "cspmines: error: unrecognized arguments: --exat (did you mean --exact?)"),
    (["bench", "--preset", "Expert"], "(did you mean 'expert'?)"),
    (["bench", "--games", "0"], "cspmines bench: error: argument --games: must be at least 1, got 0"),
    (["solve", "b.txt", "--density", "2"], "argument --density: must lie between 0 and 1, got 2"),
    (["slove", "b.txt"], "(did you mean 'solve'?)"),
    (["bench", "--rules", "minesweep"], "(did you mean 'minesearch'?)"),
])
def test_every_option_error_is_one_line_with_a_suggestion(arguments, expected, capsys):
    assert main(arguments) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1 and "usage:" not in err


def test_cells_are_written_one_way_everywhere(capsys):
    from cspmines import InconsistentPositionError, Position, solve

    with pytest.raises(InconsistentPositionError) as raised:
        solve(Position.from_string("8x1x3\n.2.0.1..\n"))
    assert str(raised.value).endswith("clue(s) at (0,1) (0,3)")
    assert main(["solve", str(DATA / "beginner-5-000.txt"), "--color", "never"]) == 0
    out = capsys.readouterr().out
    import re

    assert re.findall(r"\(\d+,\d+\)", out) and not re.findall(r"\(\d+, \d+\)", out)  # (row,col), as in the error


# -- round trips: what one command writes, the commands that take it read -------------------------------------

def _certified(capsys, *arguments) -> tuple[int, list]:
    """``certify --json`` of ``arguments``: its exit status and its answers, always a list."""
    status = main(["certify", *arguments, "--json"])
    answers = json.loads(capsys.readouterr().out)
    return status, answers if isinstance(answers, list) else [answers]


def test_generate_lines_are_read_by_certify_board_by_board_named_by_their_line(tmp_path, capsys):
    from cspmines.games import Board, certify

    assert main(["generate", "--preset", "beginner", "--count", "5"]) == 0  # the help's own example: > boards.jsonl
    lines = capsys.readouterr().out.splitlines()
    path = tmp_path / "boards.jsonl"
    path.write_text("\n".join(lines) + "\n")
    status, answers = _certified(capsys, str(path))
    assert [answer["file"] for answer in answers] == [f"{path}:{n}" for n in range(1, 6)]
    expected = [certify(Board.from_json(line)).no_guess for line in lines]
    assert [answer["no_guess"] for answer in answers] == expected and status == (0 if all(expected) else 1)
    assert main(["certify", str(path)]) == status  # the text: a report a board, each named by its line
    reports = [line for line in capsys.readouterr().out.splitlines() if line.startswith(str(path))]
    assert [report.split(": ")[0] for report in reports] == [f"{path}:{n}" for n in range(1, 6)]


def test_generate_piped_into_certify_reads_standard_input():
    made = run("generate", "--no-guess", "--preset", "beginner", "--count", "2", "--seed", "3")
    assert made.returncode == 0, made.stderr
    checked = run("certify", "-", stdin=made.stdout)
    assert checked.returncode == 0, checked.stderr  # no-guess boards: none needs a guess
    assert [line.split(": ")[0] for line in checked.stdout.splitlines()] == ["<stdin>:1", "<stdin>:2"]


def test_generate_into_a_folder_is_read_by_certify_file_by_file(tmp_path, capsys):
    assert main(["generate", "--no-guess", "--preset", "beginner", "--count", "2", "--out", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    files = sorted(str(path) for path in (tmp_path / "b").glob("*.json"))
    status, answers = _certified(capsys, *files)
    assert status == 0 and [answer["file"] for answer in answers] == files  # a file of one board: its name alone


@pytest.mark.parametrize("form", ["text", "json"])
def test_sampled_boards_are_read_by_certify_each_named_where_it_starts(form, tmp_path, capsys):
    from cspmines.games import Board, certify

    assert main(["sample", str(DATA / "beginner-5-000.txt"), "--count", "3", "--seed", "1", *(["--json"] if form == "json" else [])]) == 0
    written = capsys.readouterr().out
    path = tmp_path / f"layouts.{'jsonl' if form == 'json' else 'txt'}"
    path.write_text(written)
    status, answers = _certified(capsys, str(path), "--first-click", "8,8")
    starts = [n for n, line in enumerate(written.splitlines(), start=1) if line.startswith(("{", "9x9"))]
    assert len(starts) == 3 and [answer["file"] for answer in answers] == [f"{path}:{n}" for n in starts]
    boards = [Board.from_json(line) for line in written.splitlines()] if form == "json" else _boards(written)
    assert [answer["no_guess"] for answer in answers] == [certify(board, 80).no_guess for board in boards]
    assert status in (0, 1) and all(answer["first_click"] == [8, 8] for answer in answers)


def test_a_pretty_printed_board_json_is_one_board(tmp_path, capsys):
    from cspmines.games import Board

    path = tmp_path / "board.json"
    path.write_text(json.dumps(json.loads(Board.random("beginner", seed=2).to_json()), indent=2))
    status, answers = _certified(capsys, str(path))
    assert status in (0, 1) and [answer["file"] for answer in answers] == [str(path)]


def test_bench_out_is_read_by_compare_and_by_bench_resume(tmp_path, capsys):
    out = tmp_path / "run.jsonl"
    bench = ["bench", "--agent", "greedy", "--agent", "random", "--preset", "beginner", "--games", "4", "--workers", "1",
             "--quiet", "--out", str(out)]
    assert main([*bench, "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert main(["compare", str(out), "--json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    assert compared["paired"] == played["paired"]
    assert [(r["agent"], r["games"], r["wins"]) for r in compared["results"]] == [(r["agent"], r["games"], r["wins"]) for r in played["results"]]
    assert main([*bench, "--resume", "--json"]) == 0  # nothing left to play: the same tables, read back
    resumed = json.loads(capsys.readouterr().out)
    assert resumed["paired"] == played["paired"] and len(out.read_text().splitlines()) == 8


def test_a_studys_results_are_read_by_compare(tmp_path, capsys):
    study = tmp_path / "s.toml"
    study.write_text('seed = 3\ngames = 4\n\n[[suite]]\nname = "b"\nsize = "beginner"\nagents = ["greedy", "random"]\n')
    assert main(["study", str(study), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "out" / "results.jsonl"), "--json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    assert [row["agent"] for row in compared["results"]] == ["greedy", "random"] and compared["paired"][0]["games"] == 4


@pytest.mark.parametrize("command", ["bench", "compare"])
def test_a_csv_reads_back_as_the_json_it_tabulates(command, tmp_path, capsys):
    import csv

    out, table = tmp_path / "run.jsonl", tmp_path / "table.csv"
    bench = ["bench", "--agent", "greedy", "--agent", "random", "--preset", "beginner", "--games", "4", "--workers", "1", "--quiet"]
    assert main([*bench, "--out", str(out)]) == 0
    capsys.readouterr()
    arguments = [*bench, "--out", str(out), "--resume"] if command == "bench" else ["compare", str(out)]
    assert main([*arguments, "--csv", str(table), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)["results" if command == "bench" else "paired"]
    with table.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["agent"] for row in rows] == [row["agent"] for row in printed]
    for row, expected in zip(rows, printed, strict=True):
        assert [float(v) for v in row["ci95"].split()] == pytest.approx(expected["ci95"], abs=1e-4)
        assert int(row["games"]) == expected["games"]


@pytest.mark.parametrize("arguments, words", [
    (["certify", "{junk}"], "{junk}:1: not a board file: it is not UTF-8 text (a binary file?)"),
    (["certify", "{junk}", "{junk}"], "{junk}:1: not a board file: it is not UTF-8 text (a binary file?)"),
    (["compare", "{junk}"], "{junk}:1: not a results file of cspmines bench --out: it is not UTF-8 text (a binary file?)"),
    (["bench", "--preset", "beginner", "--games", "1", "--out", "{junk}", "--resume", "--quiet"],
     "{junk}:1: not a results file of cspmines bench --out: it is not UTF-8 text (a binary file?)"),
    (["solve", "{junk}"], "{junk}:1: not a position file: it is not UTF-8 text (a binary file?)"),
    (["sample", "{junk}"], "{junk}:1: not a position file: it is not UTF-8 text (a binary file?)"),
    (["move", "{junk}"], "{junk}:1: not a position file: it is not UTF-8 text (a binary file?)"),
    (["study", "{junk}", "--out", "{junk}.out"], "{junk}:1: not a study file: it is not UTF-8 text (a binary file?)"),
])
def test_every_reader_names_the_file_and_line_of_bytes_that_are_not_text(arguments, words, tmp_path, capsys):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes([0x86, 0xB4, 0xFF, 0x10]) * 100)
    assert main([word.replace("{junk}", str(junk)) for word in arguments]) == 2
    err = capsys.readouterr().err
    assert words.replace("{junk}", str(junk)) in err and len(err.strip().splitlines()) == (2 if arguments.count("{junk}") == 2 else 1)
    assert "codec" not in err and "Traceback" not in err


def test_a_long_line_is_quoted_cut_short(tmp_path, capsys):
    path = tmp_path / "long.txt"
    path.write_text("3x1x1\n" + "." * 1500 + "\n")
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "row has 1500 cells, the header says 3" in err and err.endswith("...'") and len(err) - len(str(path)) < 150


def test_a_missing_extra_is_named_the_way_that_installs_it_here(tmp_path, monkeypatch):
    from cspmines.extras import install_hint

    assert install_hint("web", root=tmp_path) == "pip install 'cspmines[web]'"  # a wheel: no source tree beside it
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "another"\n')
    assert install_hint("web", root=tmp_path) == "pip install 'cspmines[web]'"
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "cspmines"\n')
    assert install_hint("web", root=tmp_path) == f"pip install 'cspmines[web]' (from this source tree: pip install -e '{tmp_path}[web]')"
    monkeypatch.chdir(tmp_path)
    assert install_hint("plot", root=tmp_path) == "pip install 'cspmines[plot]' (from this source tree: pip install -e '.[plot]')"


@pytest.mark.parametrize("arguments, module, words", [
    (["serve"], "uvicorn", "serve needs the web extra: pip install 'cspmines[web]' (from this source tree: pip install -e '"),
    (["solve", str(DATA / "beginner-5-000.txt"), "--png", "x.png"], "matplotlib",
     "--png needs matplotlib: pip install 'cspmines[plot]' (from this source tree: pip install -e '"),
])
def test_the_command_lines_extras_are_named_for_this_checkout(arguments, module, words, monkeypatch, tmp_path, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == module else real(name, *a))
    monkeypatch.chdir(tmp_path)
    assert main(arguments) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_a_line_of_sixty_characters_is_quoted_whole_and_a_longer_one_cut():
    from cspmines.errors import QUOTED, PositionFormatError

    assert QUOTED == 60
    whole = PositionFormatError("why", source="f", line=2, text="x" * 60)
    assert str(whole) == f"f:2: why: {'x' * 60!r}" and whole.text == "x" * 60
    cut = PositionFormatError("why", source="f", line=2, text="x" * 61)
    assert str(cut) == f"f:2: why: {'x' * 57 + '...'!r}" and cut.text == "x" * 61  # the attribute keeps the line whole
