"""Studies: a TOML file checked whole before any game, played resumably, its report the same however
it was played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cspmines.cli import main
from cspmines.studies import StudyError, parse_study, read_study
from cspmines.studies.run import without_timings

ROOT = Path(__file__).resolve().parent.parent

SMALL = """\
title = "A small study"
games = 6
seed = 3

[[suite]]
name = "beginner"
size = "beginner"
agents = ["greedy", "exact"]

[[suite]]
name = "minesearch by density"
rules = "minesearch"
size = "6x6"
first_click = "random-safe"
agents = ["risk-score", "exact"]
density_sweep = [0.1, 0.2]

[[suite]]
name = "withheld clues"
rules = "score"
size = "4x4x6"
first_click = "unsafe"
agents = ["set-theory", "exact"]
withheld_sweep = [0.0, 0.3]
"""


def play(tmp_path: Path, capsys, folder: str = "out", *extra) -> Path:
    study = tmp_path / "study.toml"
    study.write_text(SMALL)
    out = tmp_path / folder
    assert main(["study", str(study), "--out", str(out), "--quiet", "--workers", "1", *extra]) == 0
    capsys.readouterr()
    return out


def results(folder: Path) -> list:
    return [without_timings(json.loads(line)) for line in (folder / "results.jsonl").read_text().splitlines()]


def test_a_study_writes_results_report_and_figures(tmp_path, capsys):
    out = play(tmp_path, capsys)
    records = results(out)
    assert len(records) == 2 * 6 + 2 * 2 * 6 + 2 * 2 * 6
    assert {r["suite"] for r in records} == {"beginner", "minesearch by density", "withheld clues"}
    assert {r["x"] for r in records if r["suite"] == "withheld clues"} == {0.0, 0.3}
    report = (out / "report.md").read_text()
    assert report.startswith("# A small study") and "## minesearch by density" in report
    assert "Paired on the same boards, agent minus `greedy`:" in report and "mines set off" in report
    for name in ("beginner", "minesearch-by-density", "withheld-clues"):
        assert (out / f"{name}.png").stat().st_size > 1000 and (out / f"{name}.svg").read_text().startswith("<?xml")


def test_a_study_stopped_half_way_and_resumed_gives_the_same_report(tmp_path, capsys):
    straight = play(tmp_path, capsys, "straight")
    resumed = play(tmp_path, capsys, "resumed")
    for part in sorted((resumed / "games").glob("*.jsonl")):  # as if stopped: half of every point's games kept
        lines = part.read_text().splitlines()
        part.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    (resumed / "report.md").unlink()
    (resumed / "results.jsonl").write_text("")
    assert main(["study", str(tmp_path / "study.toml"), "--out", str(resumed), "--quiet", "--workers", "1"]) == 0
    assert "played now" in capsys.readouterr().out
    assert results(resumed) == results(straight)
    report = lambda folder: (folder / "report.md").read_text().replace(str(folder), "DIR")  # noqa: E731
    assert report(resumed) == report(straight)


@pytest.mark.slow
def test_ray_and_processes_give_the_same_results(tmp_path, capsys):
    ray = pytest.importorskip("ray")  # ray is in the test extra: this runs in CI
    processes = play(tmp_path, capsys, "processes", "--workers", "2")
    try:
        on_ray = play(tmp_path, capsys, "ray", "--executor", "ray", "--workers", "2")
    finally:
        ray.shutdown()
    assert results(on_ray) == results(processes)


@pytest.mark.parametrize("change, expected", [
    (("agents = [\"greedy\", \"exact\"]", "agent = [\"greedy\", \"exact\"]"), "study.toml:8: suite \"beginner\": unknown key 'agent' (did you mean 'agents'?)"),
    (("games = 6", "games = \"six\""), "study.toml:2: the study: games must be a whole number, got 'six'"),
    (("name = \"beginner\"\n", ""), "study.toml:5: suite \"1\": the key 'name' is missing"),
    (("agents = [\"greedy\", \"exact\"]", "agents = [\"greedy\", \"exact:lookahead=-2\"]"), "study.toml:8: suite \"beginner\": agent 'exact:lookahead=-2'"),
    (("density_sweep = [0.1, 0.2]", "density_sweep = [0.1, 1.5]"), "study.toml:16: suite \"minesearch by density\": a density of a sweep must lie"),
    (("rules = \"minesearch\"", "rules = \"minesweep\""), "study.toml:12: suite \"minesearch by density\": rules must be one of"),
    (("seed = 3", "seed = 3\nexecutor = \"threads\""), "study.toml:4: executor must be process or ray"),
    (("withheld_sweep = [0.0, 0.3]", "withheld_sweep = [0.0, 0.3]\nsize_sweep = [4]"), "one sweep a suite"),
    (("title = \"A small study\"", "title = \"A small study"), "study.toml: not valid TOML"),
])
def test_a_bad_study_is_one_line_naming_file_line_and_key_before_any_game(change, expected, tmp_path, capsys):
    study = tmp_path / "study.toml"
    study.write_text(SMALL.replace(*change, 1))
    assert main(["study", str(study), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1, err
    assert not (tmp_path / "out").exists()  # refused before any game


def test_parse_study_defaults_and_against():
    study = parse_study('[[suite]]\nname = "a"\nsize = "5x5x3"\nagents = ["exact", "random"]\nagainst = "random"\n')
    (suite,) = study.suites
    assert (study.games, study.seed, study.executor, suite.against, suite.sweep) == (100, 0, "process", "random", None)
    with pytest.raises(StudyError, match="against must be one of its agents"):
        parse_study('[[suite]]\nname = "a"\nagents = ["exact"]\nagainst = "greedy"\n')
    with pytest.raises(StudyError, match="no suites"):
        parse_study('title = "empty"\n')


def suite_text(size: str | None = '"5x5x3"', **keys) -> str:
    """A one-suite study with these keys at the top (``top_``) or in the suite (its size, if any, on line 3)."""
    top = "".join(f"{key[4:]} = {value}\n" for key, value in keys.items() if key.startswith("top_"))
    inner = "".join(f"{key} = {value}\n" for key, value in keys.items() if not key.startswith("top_"))
    board = f"size = {size}\n" if size else "\n"
    return top + '[[suite]]\nname = "a"\n' + board + 'agents = ["exact"]\n' + inner


@pytest.mark.parametrize("keys, expected", [
    ({"top_workers": "true"}, "s.toml:1: the study: workers must be a whole number, got True"),
    ({"top_games": "true"}, "s.toml:1: the study: games must be a whole number, got True"),
    ({"top_seed": "false"}, "s.toml:1: the study: seed must be a whole number, got False"),
    ({"top_workers": "1.5"}, "s.toml:1: the study: workers must be a whole number, got 1.5"),
    ({"games": "true"}, 's.toml:5: suite "a": games must be a whole number, got True'),
    ({"withheld": "true"}, 's.toml:5: suite "a": withheld must be a number, got True'),
    ({"mines_sweep": "[1, true]", "size": '"5x5"'}, 's.toml:5: suite "a": mines_sweep must be a list of whole numbers'),
    ({"mines_sweep": "[1, 2.5]", "size": '"5x5"'}, 's.toml:5: suite "a": mines_sweep must be a list of whole numbers'),
    ({"size_sweep": "[4, 6.5]", "size": None}, 's.toml:5: suite "a": size_sweep must be a list of whole numbers'),
])
def test_a_boolean_or_a_fraction_is_refused_where_a_whole_number_is_due(keys, expected):
    with pytest.raises(StudyError) as caught:
        parse_study(suite_text(**keys), source="s.toml")
    assert str(caught.value) == expected


@pytest.mark.parametrize("keys, expected", [
    ({"density_sweep": "[0.1, 0.2]", "size": '"8x8x10"'},
     's.toml:5: suite "a": size "8x8x10" names 10 mines, and density_sweep gives each point its own: name the board alone, '
     'size = "8x8"'),
    ({"mines_sweep": "[2, 3]", "size": '"4x4x2"'},
     's.toml:5: suite "a": size "4x4x2" names 2 mines, and mines_sweep gives each point its own: name the board alone, '
     'size = "4x4"'),
    ({"size_sweep": "[4, 5]", "size": '"10x10x10"'},
     's.toml:5: suite "a": size_sweep gives each point its board (a square of each side at density): remove size'),
    ({"density": "0.2", "size": '"8x8x10"'},
     's.toml:4: suite "a": density is the mine density of a size_sweep\'s boards, and this suite has none: remove it, '
     'or give the mines in size'),
])
def test_a_value_a_sweep_would_drop_is_refused_naming_what_to_write(keys, expected):
    text = '[[suite]]\nname = "a"\nagents = ["exact"]\n' + "".join(f"{key} = {value}\n" for key, value in keys.items())
    with pytest.raises(StudyError) as caught:
        parse_study(text, source="s.toml")
    assert str(caught.value) == expected


def test_a_sweep_of_mines_takes_the_board_alone():
    text = '[[suite]]\nname = "a"\nagents = ["exact"]\nsize = "8x8"\ndensity_sweep = [0.1, 0.5]\n'
    assert [(p.width, p.height, p.mines) for _, p in parse_study(text).suites[0].points] == [(8, 8, 6), (8, 8, 32)]
    text = '[[suite]]\nname = "a"\nagents = ["exact"]\nsize = "beginner"\nmines_sweep = [3, 4]\n'
    assert [(p.width, p.height, p.mines) for _, p in parse_study(text).suites[0].points] == [(9, 9, 3), (9, 9, 4)]
    with pytest.raises(StudyError, match="neither a preset"):  # with no sweep a board needs its mines
        parse_study('[[suite]]\nname = "a"\nagents = ["exact"]\nsize = "8x8"\n')


def test_a_whole_number_is_taken_where_a_number_is_due():
    study = parse_study(suite_text(top_workers="2", withheld="0", size_sweep="[4, 5]", size=None), source="s.toml")
    (suite,) = study.suites
    assert study.workers == 2 and [x for x, _ in suite.points] == [16, 25]
    assert all(point.withheld == 0 for _, point in suite.points)
    (point,) = (p for _, p in parse_study(suite_text(mines_sweep="[2]", size='"5x5"')).suites[0].points)
    assert point.mines == 2


def made_records(study, outcomes: dict) -> list:
    """Records of a study's single-point suites as the runner writes them: ``outcomes[agent]`` a game's
    ``won`` (classic) or ``opened_fraction`` (minesearch), game by game."""
    records = []
    for suite in study.suites:
        ((x, point),) = suite.points
        field = "won" if point.rules == "classic" else "opened_fraction"
        for agent, values in outcomes.items():
            records += [{"suite": suite.name, "x": x, "agent": agent, "game": i, **point.config, field: value,
                         "won": bool(value) if field == "won" else False, "opened_fraction": 0.0 if field == "won" else value,
                         "guesses": 1, "moves": 1, "score": 0.0, "mines_opened": 0, "seconds": 0.001}
                        for i, value in enumerate(values)]
    return records


SWEEPS = """\
games = 8
seed = 2

[[suite]]
name = "beginner"
size = "beginner"
agents = ["greedy", "exact"]

[[suite]]
name = "by density"
rules = "minesearch"
size = "6x6"
agents = ["random", "greedy"]
density_sweep = [0.1, 0.2]

[[suite]]
name = "by size"
size_sweep = [4, 5]
density = 0.2
agents = ["greedy", "exact"]
"""


def test_study_prints_each_suites_measures_and_names_a_sweeps_column_by_its_sweep(tmp_path, capsys):
    from cspmines.bench import wilson_interval

    (tmp_path / "study.toml").write_text(SWEEPS)
    assert main(["study", str(tmp_path / "study.toml"), "--out", str(tmp_path / "out"), "--quiet", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    records = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    blocks = {block.splitlines()[0]: block.splitlines() for block in out.split("\n\n") if block.strip()}
    beginner = blocks["beginner"]
    assert beginner[1] == "classic rules, 9x9 with 10 mines, first click safe; measure: win rate (higher is better)"
    assert beginner[2].split() == ["agent", "games", "win", "rate", "95%", "interval", "guesses", "errors"]
    for agent in ("greedy", "exact"):
        games = [r for r in records if r["suite"] == "beginner" and r["agent"] == agent]
        wins = sum(r["won"] for r in games)
        low, high = wilson_interval(wins, len(games))
        line = next(line.split() for line in beginner if line.split()[:1] == [agent])
        assert line[1:6] == ["8", f"{wins / 8:.2%}", f"{low:.2%}", "..", f"{high:.2%}"], line
    assert any(line.startswith("paired on the same boards") for line in beginner)
    density = blocks["by density"]
    assert density[2].split()[:2] == ["density", "agent"] and "squares opened" in density[2]
    assert [line.split()[0] for line in density[3:7]] == ["0.1", "0.1", "0.2", "0.2"]
    paired = density[density.index(next(line for line in density if line.startswith("paired"))) + 1:]
    assert paired[0].split()[:2] == ["density", "agent"] and [line.split()[0] for line in paired[1:]] == ["0.1", "0.2"]
    size = blocks["by size"]
    assert size[1].startswith("classic rules, square boards of sides 4 and 5 at density 0.2")
    assert size[2].split()[:2] == ["size", "agent"] and [line.split()[0] for line in size[3:7]] == ["4x4", "4x4", "5x5", "5x5"]


def test_the_report_gives_win_rate_differences_in_points(tmp_path):
    from cspmines.studies import write_report

    study = parse_study('[[suite]]\nname = "a"\nsize = "beginner"\nagents = ["greedy", "exact"]\n')
    records = made_records(study, {"greedy": [True, False, False, False], "exact": [True, True, False, True]})
    write_report(study, records, tmp_path)
    report = (tmp_path / "report.md").read_text()
    assert "| agent | games | difference (points) | 95% interval | better | worse |" in report
    assert "| exact | 4 | +50.00 | " in report  # won 3 of 4 against 1 of 4: 50 points
    minesearch = parse_study('[[suite]]\nname = "m"\nrules = "minesearch"\nsize = "6x6x4"\nagents = ["greedy", "exact"]\n')
    write_report(minesearch, made_records(minesearch, {"greedy": [0.5, 0.25], "exact": [0.25, 0.25]}), tmp_path)
    report = (tmp_path / "report.md").read_text()
    assert "| agent | games | difference | 95% interval | better | worse |" in report
    assert "| exact | 2 | -0.1250 | " in report  # squares opened keep their own unit


@pytest.mark.parametrize("name", ["classic.toml", "seeds.toml"])
def test_the_repositorys_studies_are_valid(name):
    study = read_study(ROOT / "studies" / name)
    assert study.suites and all(suite.points for suite in study.suites)
