"""benchmarks/value.py's own parts: which positions each row of its table holds, what it reads back when a run
resumes, when it says Hill's peer cannot run, how it compares the two values, and what it measures of ours."""

from __future__ import annotations

import doctest
import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load():
    spec = importlib.util.spec_from_file_location("value_benchmark", BENCHMARKS / "value.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass reads its own module while being made
    spec.loader.exec_module(module)
    return module


bench = _load()
Kept = bench.Kept


def test_its_examples_hold():
    assert doctest.testmod(bench, optionflags=doctest.NORMALIZE_WHITESPACE).failed == 0


@pytest.mark.parametrize("layouts, label", [(999, None), (1_000, "1k-2k"), (1_999, "1k-2k"), (2_000, "2k-5k"), (4_999, "2k-5k"),
                                            (5_000, "5k-10k"), (10_000, "10k-20k"), (20_000, "20k-50k"), (49_999, "20k-50k"),
                                            (50_000, "50k-100k"), (100_000, "50k-100k"), (100_001, None)])
def test_each_position_falls_in_one_row_at_most(layouts, label):
    rows = [name for name, least, below in bench.BINS if bench.within([Kept(0, 1, layouts, "")], least, below)]
    assert rows == ([] if label is None else [label])


@pytest.mark.parametrize("layouts, inside", [(14_999, False), (15_000, True), (25_000, True), (25_001, False)])
def test_the_20000_row_holds_15000_to_25000_both_included(layouts, inside):
    _, least, below = bench.AROUND_20K
    assert bool(bench.within([Kept(0, 1, layouts, "")], least, below)) is inside


def test_kept_positions_take_both_ends_and_number_guesses_from_one():
    record = {"game": 7, "at_guesses": [{"layouts": n, "position": str(n)} for n in (999, 1_000, None, 100_000, 100_001)]}
    kept = bench.kept_positions([record], 1_000, 100_000)
    assert [(k.key, k.layouts) for k in kept] == [("7:2", 1_000), ("7:4", 100_000)]


def test_a_resumed_run_measures_only_what_its_file_lacks(tmp_path):
    path = tmp_path / "ours.jsonl"
    path.write_text(json.dumps({"key": "0:1", "wins": 5}) + "\n" + '{"key": "0:2", "wi' + "\n")  # the second line cut short
    kept = [Kept(0, 1, 10, "a"), Kept(0, 2, 10, "b"), Kept(1, 1, 10, "c")]
    given = []

    def run(todo):
        given.extend(k.key for k in todo)
        return [{"wins": len(k.text)} for k in todo]

    found = bench.resumed(kept, path, run)
    assert given == ["0:2", "1:1"]
    assert found == {"0:1": {"key": "0:1", "wins": 5}, "0:2": {"key": "0:2", "wins": 1}, "1:1": {"key": "1:1", "wins": 1}}
    assert bench.resumed(kept, path, lambda todo: pytest.fail("nothing to run")) == found  # everything read back


def test_a_run_without_a_folder_keeps_nothing():
    assert bench.resumed([Kept(0, 1, 10, "a")], None, lambda todo: [{"wins": 1} for _ in todo]) == {"0:1": {"key": "0:1", "wins": 1}}


def test_hill_is_not_run_without_his_classes_our_driver_or_java(tmp_path, monkeypatch):
    assert "no classes of Hill's solver" in bench.hill_missing(None)
    assert "no classes of Hill's solver" in bench.hill_missing(str(tmp_path))
    (tmp_path / "BoardFileRun.class").write_bytes(b"")
    assert "compile it first: javac" in bench.hill_missing(str(tmp_path))
    (tmp_path / "HillValue.class").write_bytes(b"")
    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    assert bench.hill_missing(str(tmp_path)) == "no java on this machine"
    monkeypatch.setattr(bench.shutil, "which", lambda name: "/usr/bin/" + name)
    assert bench.hill_missing(str(tmp_path)) is None


def test_only_his_analysis_of_the_whole_board_is_an_answer():
    whole = {"complete": True, "scope": "Game", "wins": 3, "analysed": 4}
    assert bench.answered(whole)
    assert not bench.answered({**whole, "scope": "Isolated Edge"})  # an enclosed part's chance, not the position's
    assert not bench.answered({**whole, "complete": False})
    assert not bench.answered(None)


def test_values_are_compared_as_fractions_and_only_where_both_are_exact():
    kept = [Kept(0, 1, 4, "p"), Kept(0, 2, 4, "q"), Kept(0, 3, 4, "r")]
    mine = {"0:1": {"exact": True, "wins": 2, "layouts": 4}, "0:2": {"exact": True, "wins": 3, "layouts": 4},
            "0:3": {"exact": False, "wins": 1, "layouts": 4}}
    his = {"large": {"0:1": {"complete": True, "scope": "Game", "wins": 1, "analysed": 2},
                     "0:2": {"complete": True, "scope": "Game", "wins": 2, "analysed": 4},
                     "0:3": {"complete": True, "scope": "Game", "wins": 3, "analysed": 4}}}
    assert bench.agreement(kept, mine, his) == (2, 1)
    his["small"] = {"0:2": {"complete": True, "scope": "Game", "wins": 3, "analysed": 4}}  # one setting agrees, one not
    assert bench.agreement(kept, mine, his) == (2, 1)
    assert [(k.key, str(ours), str(theirs)) for k, ours, theirs, _ in bench.disagreements(kept, mine, his)] == [("0:2", "3/4", "1/2")]


@pytest.mark.parametrize("arguments, said", [(["--least", "5", "--most", "4"], "--least (5) is above --most (4)"),
                                             (["--budget", "0"], "--budget must be a number of seconds above 0"),
                                             (["--games", "0"], "--games must be at least 1"),
                                             (["--positions", "0"], "--positions must be at least 1")])
def test_a_bad_option_is_one_line_and_exit_2(arguments, said, capsys):
    with pytest.raises(SystemExit) as stopped:
        bench.parse(arguments)
    assert stopped.value.code == 2 and said in capsys.readouterr().err


def test_least_equal_to_most_is_allowed():
    assert bench.parse(["--least", "4", "--most", "4"]).least == 4


def test_ours_is_measured_in_a_process_of_its_own_with_its_peak():
    found = bench._measure_apart("4x4x4\n....\n....\n....\n....", 30.0)
    assert (found["wins"], found["layouts"], found["exact"]) == (961, 1820, True)
    assert found["peak_mib"] is not None and found["peak_mib"] >= 0 and found["cpu_s"] >= 0
    assert [0, 1] in found["best"]  # a cell beside a corner (row, column)


def test_the_peak_is_not_made_up_where_linux_files_are_not_there(monkeypatch, tmp_path):
    monkeypatch.setattr(bench, "CLEAR_REFS", tmp_path / "none" / "clear_refs")
    assert bench.measure("3x2x1\n1..\n1..", 5.0)["peak_mib"] is None


def test_a_row_without_positions_or_without_hill_says_so():
    assert bench.row("1k-2k", [], {}, {}).split() == ["1k-2k", "0"]
    mine = {"0:1": {"cpu_s": 0.5, "wall_s": 0.6, "exact": True, "peak_mib": 3.0, "wins": 1, "layouts": 2}}
    cells = bench.row("all", [Kept(0, 1, 2, "")], mine, {}).split()
    assert cells[:7] == ["all", "1", "0.500", "0.500", "0.600", "100.0%", "3"] and set(cells[7:]) == {"-"}
