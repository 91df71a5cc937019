"""Paired comparisons as commands: bench's paired table, compare on result files, checked against a
direct computation over the very records."""

from __future__ import annotations

import json
import math
import statistics

import pytest

from cspmines.bench.compare import measure_for, paired_table, read_result_files
from cspmines.cli import main

PAIRED_KEYS = {"agent", "against", "measure", "difference", "ci95", "games", "better", "worse"}


def run_bench(arguments, tmp_path, capsys, name="run.jsonl"):
    out = tmp_path / name
    assert main(["bench", *arguments, "--workers", "1", "--quiet", "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    return data, records, out


def direct(records, agent, against, field):
    """The paired difference computed here, from the records alone: mean of per-board differences and
    its normal 95% interval."""
    first = {r["game"]: r[field] for r in records if r["agent"] == against}
    second = {r["game"]: r[field] for r in records if r["agent"] == agent}
    games = sorted(first)
    differences = [float(second[g]) - float(first[g]) for g in games]
    mean = statistics.fmean(differences)
    error = statistics.stdev(differences) / math.sqrt(len(differences))
    return mean, mean - 1.96 * error, mean + 1.96 * error, differences


@pytest.mark.parametrize("rules, size, agents, field, higher", [
    ("classic", "beginner", ["greedy", "exact"], "won", True),
    ("minesearch", "6x6x4", ["random", "greedy"], "opened_fraction", False),
])
def test_bench_paired_figures_equal_a_direct_computation(rules, size, agents, field, higher, tmp_path, capsys):
    arguments = ["--rules", rules, "--size", size, "--games", "30", "--seed", "2"]
    for agent in agents:
        arguments += ["--agent", agent]
    data, records, _ = run_bench(arguments, tmp_path, capsys)
    (row,) = data["paired"]
    assert set(row) == PAIRED_KEYS
    assert (row["agent"], row["against"], row["measure"]) == (agents[1], agents[0], measure_for(rules).name)
    mean, low, high, differences = direct(records, agents[1], agents[0], field)
    assert row["games"] == 30 and row["difference"] == pytest.approx(mean)
    if field == "won":  # the paired proportion's interval: the variance of the per-board difference
        assert row["ci95"][0] <= mean <= row["ci95"][1]
        n = len(differences)
        spread = math.sqrt(max(sum(d * d for d in differences) - sum(differences) ** 2 / n, 0)) / n
        assert row["ci95"] == pytest.approx([max(-1, mean - 1.96 * spread), min(1, mean + 1.96 * spread)])
    else:
        assert row["ci95"] == pytest.approx([low, high])
    better = sum(1 for d in differences if (d > 0) == higher and d != 0)
    worse = sum(1 for d in differences if (d < 0) == higher and d != 0)
    assert (row["better"], row["worse"]) == (better, worse)


def test_against_names_the_agent_paired_with(tmp_path, capsys):
    data, records, _ = run_bench(["--preset", "beginner", "--games", "12", "--agent", "exact", "--agent", "greedy",
                                  "--agent", "random", "--against", "random"], tmp_path, capsys)
    assert [(r["agent"], r["against"]) for r in data["paired"]] == [("exact", "random"), ("greedy", "random")]
    assert main(["bench", "--agent", "exact", "--against", "greedy", "--games", "2"]) == 2
    assert "--against greedy" in capsys.readouterr().err


def test_the_text_table_shows_the_paired_rows(capsys):
    assert main(["bench", "--preset", "beginner", "--games", "6", "--agent", "exact", "--agent", "greedy", "--workers", "1",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "paired on the same boards, agent minus the other (win rate, in points):" in out
    line = next(line for line in out.splitlines() if line.split()[:2] == ["greedy", "exact"])
    assert line.split()[2] == "6"


def test_the_text_gives_win_rate_differences_in_points_and_other_measures_in_their_units(tmp_path, capsys):
    """As README writes them: a win-rate difference of -0.11 is -11.00 points; squares opened stay a fraction."""
    for rules, size, agents, in_points in (("classic", "beginner", ["exact", "set-theory"], True),
                                           ("minesearch", "6x6x4", ["random", "greedy"], False)):
        arguments = ["--rules", rules, "--size", size, "--games", "12", "--seed", "1", "--agent", agents[0],
                     "--agent", agents[1]]
        data, _, out = run_bench(arguments, tmp_path, capsys, f"{rules}.jsonl")
        (row,) = data["paired"]
        assert main(["compare", str(out)]) == 0
        text = capsys.readouterr().out
        head = next(line for line in text.splitlines() if line.startswith("paired on the same boards"))
        line = next(line for line in text.splitlines() if line.split()[:2] == [agents[1], agents[0]])
        difference, low, high = line.split()[3], line.split()[4], line.split()[6]
        scale, digits = (100, 2) if in_points else (1, 4)
        assert head.endswith("(win rate, in points):" if in_points else f"({row['measure']}):")
        assert difference == f"{scale * row['difference']:+.{digits}f}"
        assert (low, high) == tuple(f"{scale * v:+.{digits}f}" for v in row["ci95"])


def test_a_sweep_pairs_at_each_point(capsys):
    assert main(["bench", "--size", "5x5x3", "--rules", "minesearch", "--size-sweep", "4,5", "--games", "6",
                 "--agent", "greedy", "--agent", "random", "--workers", "1", "--quiet", "--json"]) == 0
    paired = json.loads(capsys.readouterr().out)["paired"]
    assert [row["x"] for row in paired] == [16, 25] and all(set(row) - {"x"} == PAIRED_KEYS for row in paired)


def test_compare_of_two_halves_equals_the_whole(tmp_path, capsys):
    data, records, out = run_bench(["--preset", "beginner", "--games", "20", "--agent", "exact", "--agent", "greedy"],
                                   tmp_path, capsys)
    lines = out.read_text().splitlines()
    (tmp_path / "first.jsonl").write_text("\n".join(lines[: len(lines) // 2 + 3]) + "\n")
    (tmp_path / "second.jsonl").write_text("\n".join(lines[len(lines) // 2 + 3:]) + "\n")
    assert main(["compare", str(tmp_path / "first.jsonl"), str(tmp_path / "second.jsonl"), "--json"]) == 0
    halves = json.loads(capsys.readouterr().out)
    assert main(["compare", str(out), "--json"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert halves["paired"] == whole["paired"] == data["paired"]


def test_the_same_agent_from_two_runs_is_named_after_its_file(tmp_path, capsys):
    _, _, first = run_bench(["--preset", "beginner", "--games", "8", "--agent", "exact"], tmp_path, capsys, "before.jsonl")
    _, _, second = run_bench(["--preset", "beginner", "--games", "8", "--agent", "exact:lookahead=0"], tmp_path, capsys,
                             "after.jsonl")
    assert main(["compare", str(first), str(second), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["paired"]
    assert (row["agent"], row["against"]) == ("exact:lookahead=0", "exact")
    _, _, again = run_bench(["--preset", "beginner", "--games", "8", "--agent", "exact"], tmp_path, capsys, "again.jsonl")
    names = {r["agent"] for r in read_result_files([first, again])}
    assert names == {"exact (before)", "exact (again)"}


@pytest.mark.parametrize("change, expected", [
    (["--seed", "3"], "seed 0 against 3"),
    (["--size", "8x8x10"], "width 9 against 8, height 9 against 8"),
    (["--rules", "score"], "rules classic against score"),
    (["--first-click", "opening"], "first_click safe against opening"),
])
def test_compare_refuses_files_of_different_suites(change, expected, tmp_path, capsys):
    _, _, first = run_bench(["--preset", "beginner", "--games", "3", "--agent", "greedy"], tmp_path, capsys, "a.jsonl")
    arguments = ["--games", "3", "--agent", "random", *change]
    if "--size" not in change:
        arguments += ["--preset", "beginner"]
    _, _, second = run_bench(arguments, tmp_path, capsys, "b.jsonl")
    assert main(["compare", str(first), str(second)]) == 2
    err = capsys.readouterr().err
    assert expected in err and "b.jsonl:1 is from another suite than" in err and err.count("\n") == 1


@pytest.mark.parametrize("content, expected", [
    ("", "no game records in it"),
    ("{not json\n", "x.jsonl:1: not a JSON line"),
    ('{"agent": "exact"}\n', "x.jsonl:1: not a game record"),
])
def test_compare_names_a_bad_file(content, expected, tmp_path, capsys):
    (tmp_path / "x.jsonl").write_text(content)
    assert main(["compare", str(tmp_path / "x.jsonl")]) == 2
    assert expected in capsys.readouterr().err


def test_paired_table_skips_failed_games():
    base = {"width": 3, "height": 3, "mines": 1, "rules": "score", "withheld": 0.0, "first_click": "safe", "seed": 0}
    records = [{**base, "agent": "a", "game": 0, "score": 1.0}, {**base, "agent": "b", "game": 0, "score": 0.0},
               {**base, "agent": "a", "game": 1, "score": 1.0}, {**base, "agent": "b", "game": 1, "error": "boom"}]
    (row,) = paired_table(records)
    assert row["games"] == 1 and row["difference"] == -1.0 and row["worse"] == 1


def test_compare_refuses_one_file_given_twice(tmp_path, capsys, monkeypatch):
    """The same games twice would count double in the results table while the paired table (one record a
    board) counts them once: the second naming of a file is refused, however it is spelled."""
    _, _, out = run_bench(["--preset", "beginner", "--games", "4", "--agent", "exact", "--agent", "greedy"],
                          tmp_path, capsys, "a.jsonl")
    monkeypatch.chdir(tmp_path)
    for second, named in ((str(out), str(out)), ("./a.jsonl", "a.jsonl")):
        assert main(["compare", str(out), second]) == 2
        err = capsys.readouterr().err
        assert f"error: {named}: the same file as {out}, given twice" in err and err.count("\n") == 1


def test_compare_refuses_a_game_recorded_twice_in_one_file(tmp_path, capsys):
    _, records, out = run_bench(["--preset", "beginner", "--games", "4", "--agent", "exact", "--agent", "greedy"],
                                tmp_path, capsys, "a.jsonl")
    doubled = tmp_path / "doubled.jsonl"
    doubled.write_text(out.read_text() * 2)
    assert main(["compare", str(doubled)]) == 2
    err = capsys.readouterr().err
    first = records[0]
    assert (f"doubled.jsonl:{len(records) + 1}: game {first['game']} of {first['agent']} again (first at line 1)"
            in err and err.count("\n") == 1)


def test_a_failed_game_played_again_on_resume_counts_once(tmp_path, capsys):
    """bench --resume plays a failed game again and appends it: the file then holds both, and the game counts
    once, in the results table as in the paired one."""
    _, records, out = run_bench(["--preset", "beginner", "--games", "4", "--agent", "exact", "--agent", "greedy"],
                                tmp_path, capsys, "a.jsonl")
    failed = {**records[0], "error": "boom"}
    out.write_text(json.dumps(failed) + "\n" + out.read_text())
    assert main(["compare", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [row["games"] for row in data["results"]] == [4, 4] and data["paired"][0]["games"] == 4


def test_result_files_of_one_name_in_two_folders_stay_two_agents(tmp_path, capsys):
    for folder in ("before", "after"):
        (tmp_path / folder).mkdir()
        run_bench(["--preset", "beginner", "--games", "4", "--agent", "exact"], tmp_path / folder, capsys, "exact.jsonl")
    first, second = tmp_path / "before" / "exact.jsonl", tmp_path / "after" / "exact.jsonl"
    assert main(["compare", str(first), str(second), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [row["agent"] for row in data["results"]] == [f"exact ({first})", f"exact ({second})"]
    (row,) = data["paired"]
    assert (row["agent"], row["against"], row["games"]) == (f"exact ({second})", f"exact ({first})", 4)
    assert row["difference"] == 0 and row["better"] == row["worse"] == 0  # the same agent on the same boards
    assert main(["compare", str(first), str(second)]) == 0
    out = capsys.readouterr().out
    assert "paired on the same boards" in out and "nothing to pair" not in out


def test_compare_pairs_against_the_benchs_first_agent_whatever_order_its_games_finished_in(tmp_path, capsys):
    # workers finish games in any order: the file's first line may be any agent's; the bench's order decides
    data, records, out = run_bench(["--preset", "beginner", "--games", "6", "--agent", "greedy", "--agent", "random",
                                    "--agent", "exact"], tmp_path, capsys)
    assert [r["agent_order"] for r in records[:3]] == [0, 1, 2]  # each game says its agent's place in the bench
    shuffled = tmp_path / "finished.jsonl"
    shuffled.write_text("\n".join(reversed(out.read_text().splitlines())) + "\n")  # exact's last game first
    assert main(["compare", str(shuffled), "--json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    assert compared["baseline"] == "greedy" and compared["paired"] == data["paired"]
    assert [row["agent"] for row in compared["results"]] == ["greedy", "random", "exact"]
    assert main(["compare", str(shuffled)]) == 0
    out_text = capsys.readouterr().out
    assert "baseline: greedy, the bench's first agent (--against NAME pairs with another)" in out_text
    assert main(["compare", str(shuffled), "--against", "exact"]) == 0
    assert "baseline: exact (--against)" in capsys.readouterr().out


def test_files_of_benches_of_old_with_no_agent_order_pair_against_the_first_agent_met(tmp_path, capsys):
    _, _, out = run_bench(["--preset", "beginner", "--games", "3", "--agent", "greedy", "--agent", "random"], tmp_path, capsys)
    old = [{k: v for k, v in json.loads(line).items() if k != "agent_order"} for line in out.read_text().splitlines()]
    (tmp_path / "old.jsonl").write_text("".join(json.dumps(r) + "\n" for r in reversed(old)))
    assert main(["compare", str(tmp_path / "old.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["baseline"] == "random"  # the first met: nothing else says


# -- intervals within what the quantity can be ----------------------------------------------------------------

def _judged_records(agent: str, figures: dict) -> list:
    """Records of one agent's judged games: ``figures`` maps a judged figure to its value in each game."""
    base = {"width": 9, "height": 9, "mines": 10, "rules": "classic", "withheld": 0.0, "first_click": "safe", "seed": 0}
    games = len(next(iter(figures.values())))
    defaults = {"guesses": 0, "needless": 0, "blunders": 0, "excess_risk": 0.0, "survival": 1.0}
    return [{**base, "agent": agent, "game": i, "won": True, "judged_exact": True,
             "judged": {**defaults, **{name: values[i] for name, values in figures.items()}}} for i in range(games)]


def test_a_judged_counts_interval_stays_at_or_above_zero_and_survivals_at_or_below_one():
    from cspmines.bench.judged import judged_summary

    needless = [0] * 9 + [1]  # a mean of 0.1: the normal interval would reach -0.096
    survival = [1.0] * 9 + [0.5]  # a mean of 0.95: it would reach 1.048
    (row,) = judged_summary(_judged_records("set-theory", {"needless": needless, "survival": survival}))
    half = lambda values: 1.96 * statistics.stdev(values) / math.sqrt(len(values))  # noqa: E731
    assert row["needless_ci95"] == pytest.approx([0.0, 0.1 + half(needless)]) and row["needless_ci95"][0] == 0.0
    assert row["survival_ci95"] == pytest.approx([0.95 - half(survival), 1.0]) and row["survival_ci95"][1] == 1.0
    assert row["guesses_ci95"] == [0.0, 0.0]  # none in any game: the point itself
    inside = [2, 3, 4, 3]  # far from 0: the normal interval as it is, both ends
    (row,) = judged_summary(_judged_records("exact", {"guesses": inside}))
    assert row["guesses_ci95"] == pytest.approx([3 - half(inside), 3 + half(inside)])


def test_the_judged_text_gives_each_interval_by_its_ends_never_below_zero():
    from cspmines.bench.judged import judged_tables, judged_text

    records = _judged_records("set-theory", {"needless": [0] * 9 + [1]}) + _judged_records("exact", {"needless": [0] * 10})
    text = judged_text(judged_tables(records))
    assert "0.1000 (0.0000..0.2960)" in text and "(-" not in text and "±" not in text


def test_a_paired_difference_of_shares_stays_within_one_either_way():
    base = {"width": 6, "height": 6, "mines": 4, "rules": "minesearch", "withheld": 0.0, "first_click": "safe", "seed": 0}
    opened = {"random": [1.0, 1.0, 0.95], "greedy": [0.02, 0.0, 0.0]}  # greedy opens far fewer: nearly -1 a board
    records = [{**base, "agent": agent, "game": i, "opened_fraction": value}
               for agent, values in opened.items() for i, value in enumerate(values)]
    (row,) = paired_table(records)
    differences = [g - r for r, g in zip(opened["random"], opened["greedy"], strict=True)]
    mean, low, high = statistics.fmean(differences), *direct_interval(differences)
    assert low < -1 and row["ci95"] == pytest.approx([-1.0, high]) and row["difference"] == pytest.approx(mean)


def direct_interval(differences: list) -> tuple:
    mean, error = statistics.fmean(differences), statistics.stdev(differences) / math.sqrt(len(differences))
    return mean - 1.96 * error, mean + 1.96 * error


def test_a_studys_mean_of_a_share_stays_within_its_range(tmp_path):
    from cspmines.studies import parse_study
    from cspmines.studies.report import suite_rows

    study = parse_study('[[suite]]\nname = "m"\nsize = "6x6x4"\nrules = "minesearch"\nagents = ["random"]\n')
    (suite,) = study.suites
    base = {"width": 6, "height": 6, "mines": 4, "rules": "minesearch", "withheld": 0.0, "first_click": "safe", "seed": 0}
    values = [1.0, 1.0, 1.0, 0.8]  # a mean of 0.95, the normal interval to 1.106
    records = [{**base, "suite": "m", "x": None, "agent": "random", "game": i, "opened_fraction": v, "guesses": 0, "won": False}
               for i, v in enumerate(values)]
    (row,), _ = suite_rows(suite, records)
    low, high = direct_interval(values)
    assert high > 1 and row["ci95"] == pytest.approx([low, 1.0])


def test_a_paired_difference_of_counts_is_not_cut_at_one():
    from cspmines.bench.judged import judged_paired

    records = (_judged_records("exact", {"guesses": [0, 1, 0, 2]})
               + _judged_records("set-theory", {"guesses": [3, 5, 2, 6]}))  # three or four more guesses a game
    row = next(row for row in judged_paired(records) if row["measure"] == "guesses")
    low, high = direct_interval([3, 4, 2, 4])
    assert row["difference"] == 3.25 and row["ci95"] == pytest.approx([low, high]) and high > 1
