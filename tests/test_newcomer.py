"""What a new user meets first: options checked before work, one-line errors that name the problem,
readable output, and the API's plain mistakes answered plainly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cspmines import InconsistentPositionError, Limit, Position, PositionFormatError, solve
from cspmines.cli import main

DATA = Path(__file__).parent / "data"
TINY = str(Path(__file__).resolve().parent.parent / "cspmines" / "data" / "examples" / "tiny.txt")


def run(*arguments: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cspmines", *arguments], input=stdin, capture_output=True)


@pytest.mark.parametrize(
    "arguments, words",
    [
        (["solve", TINY, "--mines", "1", "--density", "0.2"], "not allowed with argument --mines"),
        (["solve", TINY, "--mines", "-1"], "--mines: must be at least 0"),
        (["solve", TINY, "--time-limit", "-5"], "--time-limit: must be above 0 seconds, got -5"),
        (["sample", TINY, "--time-limit", "0"], "--time-limit: must be above 0 seconds"),
        (["solve", TINY, "--density", "1.5"], "--density: must lie between 0 and 1"),
        (["bench", "--games", "0"], "--games: must be at least 1"),
        (["move", TINY, "--agent", "exact:lookahed=3"], "no option 'lookahed' (did you mean 'lookahead'?); its options are"),
        (["move", TINY, "--agent", "exact:lookahead=abc"], "exact option lookahead=abc is invalid: it takes a whole number"),
        (["bench", "--agent", "exact:lookahead=-1", "--games", "2", "--quiet", "--out", "games.jsonl"],
         "agent 'exact:lookahead=-1': exact option lookahead=-1 is invalid: it takes a whole number >= 0"),
        (["bench", "--agent", "greedy:depth=2", "--games", "2", "--quiet", "--out", "games.jsonl"],
         "agent 'greedy:depth=2': agent 'greedy' does not take those options"),
        (["bench", "--size", "5x5x25", "--games", "2", "--quiet", "--out", "games.jsonl"],
         "a 5x5 board with 25 mines has no safe cell for the first click 'safe'"),
        (["bench", "--size", "5x5x3", "--density-sweep", "0.1,1.5", "--games", "2", "--quiet", "--csv", "sweep.csv"],
         "a density of a sweep must lie between 0 and 1, got 1.5"),
        (["bench", "--size-sweep", "4,0", "--games", "2", "--quiet", "--csv", "sweep.csv"],
         "a side length of a size sweep must be at least 1, got 0"),
        (["bench", "--games", "2", "--quiet", "--csv", "missing/results.csv"], "--csv missing/results.csv: there is no folder 'missing'"),
        (["bench", "--games", "2", "--quiet", "--seed", "-1", "--out", "games.jsonl"], "--seed: must be at least 0, got -1"),
        (["move", TINY, "--seed", "-5"], "--seed: must be at least 0, got -5"),
        (["sample", TINY, "--seed", "-5"], "--seed: must be at least 0, got -5"),
        (["serve", "--port", "99999"], "--port: must lie between 1 and 65535, got 99999"),
        (["solve", TINY, "--svg", "missing/board.svg"], "there is no folder 'missing' to write it in"),
        (["solve", TINY, "--svg", "out.png"], "--svg writes .svg files"),
        (["solve", TINY, "--png", "out.jpg"], "--png writes .png files"),
    ],
)
def test_bad_options_are_named_in_one_line(arguments, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(arguments) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert words in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())  # nothing written before the check


def test_figures_check_for_matplotlib_before_playing(monkeypatch, capsys, tmp_path):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    assert main(["bench", "--games", "2", "--preset", "beginner", "--plot", str(tmp_path / "p.png"), "--quiet"]) == 2
    err = capsys.readouterr()
    assert "--plot needs matplotlib: pip install 'cspmines[plot]'" in err.err and err.out == ""
    assert main(["solve", TINY, "--png", str(tmp_path / "p.png")]) == 2
    assert "--png needs matplotlib" in capsys.readouterr().err


@pytest.mark.parametrize("data", [b"\x7fELF\x02\x01\x01\x00\x00\x00", b"3x1x1\n.\xff.\n"])
def test_a_binary_file_is_named(tmp_path, data):
    path = tmp_path / "board.bin"
    path.write_bytes(data)
    result = run("solve", str(path))
    err = result.stderr.decode()
    assert result.returncode == 2 and len(err.strip().splitlines()) == 1
    assert f"{path}:" in err and "not UTF-8 text" in err
    piped = run("solve", "-", stdin=data)
    assert piped.returncode == 2 and "<stdin>:" in piped.stderr.decode() and len(piped.stderr) < 200
    with pytest.raises(PositionFormatError, match="not UTF-8"):
        Position.from_file(path)


def test_a_byte_order_mark_is_allowed(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf3x1x1\n.1.\n")
    assert Position.from_file(path) == Position.from_string("3x1x1\n.1.")


def test_the_api_answers_plain_mistakes_plainly():
    analysis = solve(Position.from_string("3x1x1\n.1."))
    assert analysis.probability((0, 2)) == analysis.probability(2)
    with pytest.raises(IndexError, match="cell 99 is outside the 3x1 board"):
        analysis.probability(99)
    with pytest.raises(IndexError, match=r"\(0, 5\) is outside the 3x1 board"):
        analysis.probability((0, 5))
    with pytest.raises(TypeError, match="flat index or a \\(row, col\\) pair"):
        analysis.probability("0")
    position = Position.from_string("3x1\n.1.")
    with pytest.raises(ValueError, match="mines must be a whole number >= 0, got '1'"):
        solve(position, mines="1")
    with pytest.raises(ValueError, match="not both"):
        solve(position, mines=1, density=0.2)
    with pytest.raises(ValueError, match="the time limit must be a number of seconds above 0, got -5"):
        solve(position, mines=1, limit=Limit(time=-5))


def test_counts_in_messages_read_as_english():
    with pytest.raises(InconsistentPositionError, match="touches 1 known mine;") as caught:
        solve(Position.from_string("3x1\nF0."), mines=1)
    assert "mines;" not in str(caught.value)
    with pytest.raises(InconsistentPositionError, match="room for 0 mines, but 1 remains"):
        solve(Position.from_string("3x1x1\n.0."))


def test_a_huge_count_prints_in_json_and_exact(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("200x200x8000\n" + "\n".join(["." * 200] * 200) + "\n")
    result = run("solve", str(path), "--json", "--exact")
    assert result.returncode == 0, result.stderr
    count = json.loads(result.stdout)["model_count"]
    assert len(count) > 4300 and count.isdigit()


def test_a_huge_count_is_written_by_the_library_without_lifting_pythons_digit_limit():
    from math import comb

    from cspmines.present.answers import analysis_json
    from cspmines.present.render import summary_text

    analysis = solve(Position.from_string("200x200x5000\n" + "\n".join(["." * 200] * 200)))
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)  # Python's default (the command line lifts it for its own process)
    try:
        written = analysis_json(analysis, exact=True)["model_count"]
        text = summary_text(analysis, exact=True)
        sys.set_int_max_str_digits(0)  # now, to check the text against the number
        assert written == str(comb(40000, 5000)) and len(written) > 4300
        assert f"models: {written}" in text
    finally:
        sys.set_int_max_str_digits(limit)


def test_bench_resume_shows_only_the_agents_asked_for(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    assert main(["bench", "--agent", "exact", "--agent", "random", "--preset", "beginner", "--games", "3", "--out", str(out),
                 "--quiet", "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["bench", "--agent", "exact", "--preset", "beginner", "--games", "3", "--out", str(out), "--resume",
                 "--quiet", "--json", "--workers", "1"]) == 0
    assert [row["agent"] for row in json.loads(capsys.readouterr().out)["results"]] == ["exact"]


def test_bench_shows_the_rules_own_measure(capsys):
    assert main(["bench", "--preset", "beginner", "--games", "2", "--quiet", "--workers", "1"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split()
    assert header[:4] == ["agent", "games", "win", "rate"] and "score" not in header and "opened" not in header
    assert main(["bench", "--size", "6x6x4", "--rules", "minesearch", "--games", "2", "--quiet", "--workers", "1"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split()
    assert "opened" in header and "win" not in header


def test_help_lists_agents_defaults_and_examples(capsys):
    assert main(["move", "--help"]) == 0
    text = capsys.readouterr().out
    assert "exact, greedy, knowledge-base" in text and "examples:" in text
    assert main(["solve", "--help"]) == 0
    text = capsys.readouterr().out
    assert "in percent" in text and "S: certainly safe" in text and "(default: auto)" in text
    for command in ("solve", "sample", "move", "bench", "chains", "serve"):
        assert main([command, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())  # options' help wraps over lines
        assert "(default: None)" not in text and "(default: False)" not in text, command
        assert ") (default:" not in text, command  # a default said once, not twice


def test_pictures_have_coordinates_a_colour_scale_and_say_what_marks_mean():
    from cspmines.present.picture import render_svg

    analysis = solve(Position.from_string("4x2x1\n1...\n1..."))
    svg = render_svg(analysis, components=True)
    assert ">3</text>" in svg and ">1</text>" in svg  # column 3 and row 1 numbered
    assert "0%</text>" in svg and "100%</text>" in svg  # the colour scale's ends
    assert "S proved safe, M proved mine" in svg and "outlines: chains of influence" in svg
    assert "<path" not in svg  # no cross that reads as an exploded mine
    assert svg.count(">S</text>") == len(analysis.safe_cells)
    plain = render_svg(Position.from_string("4x2x1\n1...\n1..."))
    assert "proved" not in plain  # a position alone has no chances to explain


def test_chains_table_heads_its_first_column_by_what_it_is(capsys):
    assert main(["chains", "--size", "6x6x4", "--games", "2", "--quiet", "--workers", "1"]) == 0
    assert capsys.readouterr().out.split()[0] == "density"
    assert main(["chains", "--size", "6x6x4", "--games", "1", "--quiet", "--workers", "1", "--size-sweep", "5,6"]) == 0
    assert capsys.readouterr().out.split()[0] == "cells"


def test_a_big_picture_says_why_the_wait(tmp_path, capsys):
    path = tmp_path / "big.txt"
    path.write_text("60x50x300\n" + "\n".join(["." * 60] * 50) + "\n")
    assert main(["solve", str(path), "--png", str(tmp_path / "big.png"), "--json"]) == 0
    assert "drawing 3,000 cells" in capsys.readouterr().err and (tmp_path / "big.png").stat().st_size > 0


def test_a_count_cut_short_says_so(capsys):
    assert main(["solve", str(DATA / "lattice15-2.txt"), "--exact", "--node-limit", "1", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "models: not counted (the time or node budget ran out before counting finished)" in out and "None" not in out


def test_captions_fit_rulers_on_every_grid_and_estimates_are_marked(tmp_path):
    import re

    from cspmines.present.picture import render_svg
    from cspmines.present.render import board_text, summary_text

    analysis = solve(Position.from_file(Path(__file__).parent.parent / "cspmines" / "data" / "examples" / "beginner.txt"))
    svg = render_svg(analysis, components=True)
    width = float(re.search(r'width="([\d.]+)"', svg).group(1))
    for size, text in re.findall(r'font-size="(\d+)" fill="#333333"[^>]*>([^<]*)<', svg):
        assert len(text) * 0.6 * float(size) <= width, text  # every caption line within the picture
    assert "chains of influence" in svg
    fractions = summary_text(analysis, exact=True).split("models: ")[1].splitlines()[1:]
    assert fractions[0].split() == [str(c) for c in range(9)] and fractions[1].split()[0] == "0"  # rulers
    lattice = Position.from_file(Path(__file__).parent / "data" / "lattice13-2.txt")
    cut = solve(lattice, limit=Limit(nodes=10))
    assert not cut.exact
    grid = board_text(cut)
    assert grid.count("~") == sum(1 for c in cut.inexact_cells if c not in cut.safe_cells and c not in cut.mine_cells)
    picture = render_svg(cut)
    assert "~ an estimate" in picture and "(an estimate)" in picture


def test_chains_help_explains_every_column_it_prints(capsys):
    """Each word of the table's head (0-cuts, longest, mean-width, ...) has a line of its own in --help."""
    assert main(["chains", "--size", "6x6x4", "--games", "1", "--quiet", "--workers", "1"]) == 0
    heads = capsys.readouterr().out.splitlines()[0].split()
    assert {"0-cuts", "longest", "mean-width"} <= set(heads)
    assert main(["chains", "--help"]) == 0
    text = capsys.readouterr().out
    columns = text.split("columns:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    explained = {line.split()[0]: " ".join(line.split()[1:]) for line in columns if line.startswith("  ") and not line.startswith("    ")}
    for head in heads:
        assert len(explained.get(head, "")) > 10, head
    assert "cells" in explained  # the head of a size sweep's first column too
