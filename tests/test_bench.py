"""Benchmark suites: same boards everywhere, nothing lost, honest intervals, Ray = process pool."""

from __future__ import annotations

import csv
import json
import os

import pytest

from cspmines.agents import register_agent
from cspmines.agents.registry import _AGENTS
from cspmines.bench import (
    TIMING_FIELDS,
    ResultsFile,
    Suite,
    SuiteError,
    SuiteVariant,
    Workers,
    board_for,
    paired_means,
    paired_wins,
    play_game,
    run_suite,
    summarize,
    sweep_suites,
    wilson_interval,
)
from cspmines.cli import main


def without_timing(records):
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in records]


SUITE = Suite.create(agents=["exact", "set-theory"], size="8x8x10", games=12, seed=5, variant=SuiteVariant(withheld=0.05))


def test_results_do_not_depend_on_workers_or_chunks():
    serial = run_suite(SUITE, progress=False)
    pooled = run_suite(SUITE, progress=False, workers=Workers(2, chunk_size=5))
    assert without_timing(serial.records) == without_timing(pooled.records)
    assert len(serial.records) == 24 and not serial.errors


def test_each_game_starts_with_the_engine_memories_empty():
    """Players timed one after another on a board: none may find the chains counted by the one before."""
    from cspmines.agents.exact import ExactAgent
    from cspmines.engine.engine import default_engine

    found = []  # recent counts, splits and kept analyses in the agent's engine when each game starts

    class Probe(ExactAgent):
        def reset(self, *, rules, seed):
            super().reset(rules=rules, seed=seed)
            if seed is not None:  # the game starts (made, the agent resets itself without a seed)
                memory = self.engine.cache
                found.append((len(memory.counts), len(memory.splits), len(memory.kept)))

    suite = Suite.create(agents=["exact", "exact:lookahead=3"], size="8x8x10", games=3, seed=5)
    run_suite(suite, progress=False, task=lambda suite, agent, i: play_game(suite, agent, i, player=Probe()))
    assert found == [(0, 0, 0)] * 6
    assert len(default_engine().cache.counts)  # the games did count chains, and kept them while they played


def test_every_agent_meets_the_same_boards():
    other = Suite.create(agents=["random"], size="8x8x10", games=12, seed=5, variant=SuiteVariant(withheld=0.05))
    assert all(board_for(SUITE, i) == board_for(other, i) for i in range(12))
    assert board_for(SUITE, 0) != board_for(SUITE, 1)


def test_boards_are_distinct_and_depend_on_seed_and_game_alone():
    """What every paired comparison rests on: game i's board is a function of (seed, i) and nothing
    else (not the agents, the rules, the number of games), and different games get different boards."""
    base = Suite.create(agents=["exact"], size="9x9x10", games=60, seed=7)
    boards = [str(board_for(base, i)) for i in range(60)]
    assert len(set(boards)) == 60  # distinct: a board tied to i mod k, or to the seed alone, fails here
    variants = [
        Suite.create(agents=["random", "greedy"], size="9x9x10", games=3, seed=7),
        Suite.create(agents=["exact"], size="9x9x10", games=500, seed=7, rules="minesearch", variant=SuiteVariant(withheld=0.3)),
    ]
    for variant in variants:
        assert all(str(board_for(variant, i)) == boards[i] for i in range(3))
    assert str(board_for(base, 59)) == str(board_for(variants[1], 59))
    other_seed = Suite.create(agents=["exact"], size="9x9x10", games=60, seed=8)
    assert sum(str(board_for(other_seed, i)) == boards[i] for i in range(60)) == 0
    # across seeds too: game i of seed s is not game j of seed s' for nearby (s, i) != (s', j)
    assert len({str(board_for(Suite.create(agents=["exact"], size="9x9x10", seed=s), i)) for s in range(5) for i in range(20)}) == 100


def test_paired_comparisons_count_each_board_once():
    first = [True, True, False, False, True]
    second = [True, False, True, True, True]
    paired = paired_wins(first, second)
    assert (paired.games, paired.gained, paired.lost) == (5, 2, 1) and paired.difference == pytest.approx(0.2)
    assert paired.low < paired.difference < paired.high
    same = paired_wins(first, first)
    assert (same.difference, same.low, same.high) == (0, 0, 0)  # no board differs: no spread
    means = paired_means([0.3, 0.5, 0.4], [0.2, 0.5, 0.1])
    assert means.difference == pytest.approx(-0.4 / 3) and (means.gained, means.lost) == (0, 2)
    with pytest.raises(ValueError, match="same boards"):
        paired_wins([True], [True, False])


def test_summary_fields_and_wilson_interval():
    summary = run_suite(SUITE, progress=False).summary
    fields = {"agent", "width", "height", "mines", "rules", "first_click", "games", "wins", "win_rate", "ci95",
              "mean_opened_fraction", "mean_score", "mean_guesses", "mean_seconds_per_game", "mean_seconds_per_move"}
    for row in summary:
        assert fields <= set(row)
        assert row["games"] == 12 and row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    low, high = wilson_interval(0, 10)
    assert low == 0 and 0.27 < high < 0.28  # Wilson, not Wald (which would give [0, 0])


def test_out_and_resume_play_only_what_is_missing(tmp_path):
    out = tmp_path / "games.jsonl"
    first = run_suite(Suite.create(agents=["exact"], size="8x8x10", games=5, seed=1), out=out, progress=False)
    assert first.played_now == 5 and len(out.read_text().splitlines()) == 5
    more = Suite.create(agents=["exact"], size="8x8x10", games=9, seed=1)
    again = run_suite(more, progress=False, out=ResultsFile(out, resume=True))
    assert again.played_now == 4 and len(again.records) == 9
    assert without_timing(again.records) == without_timing(run_suite(more, progress=False).records)
    with pytest.raises(SuiteError, match="--resume"):
        run_suite(more, out=out, progress=False)
    with pytest.raises(SuiteError, match="another suite"):
        run_suite(Suite.create(agents=["exact"], size="8x8x10", games=9, seed=2), progress=False, out=ResultsFile(out, resume=True))


def test_interrupt_leaves_a_valid_file(tmp_path):
    def interrupted(suite, agent, i):
        if i == 3:
            raise KeyboardInterrupt
        return play_game(suite, agent, i)

    out = tmp_path / "cut.jsonl"
    suite = Suite.create(agents=["random"], size="6x6x5", games=8)
    result = run_suite(suite, out=out, progress=False, task=interrupted, workers=Workers(1, chunk_size=1))
    assert result.interrupted
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["game"] < 3 for line in lines)


class Crasher:
    """Raises on game 1 and kills its process on game 2."""

    name = "crasher"

    def reset(self, *, rules, seed):
        self.first = True

    def act(self, position):
        index = int(position.size)  # unused; the crash depends on the seed stream below
        raise RuntimeError(f"boom {index}")


def test_a_failing_game_is_reported_and_the_suite_goes_on():
    register_agent("crasher", Crasher)
    try:
        result = run_suite(Suite.create(agents=["crasher", "exact"], size="6x6x5", games=3), progress=False)
    finally:
        _AGENTS.pop("crasher")
    assert len(result.errors) == 3 and all("boom" in e["error"] for e in result.errors)
    assert [row["games"] for row in result.summary] == [0, 3]


def _dying_play_game(suite, agent, i):
    if i == 2:
        os._exit(13)  # a worker that dies outright, not an exception
    return play_game(suite, agent, i)


def test_a_dead_worker_fails_only_its_games():
    suite = Suite.create(agents=["random"], size="6x6x5", games=6)
    result = run_suite(suite, progress=False, task=_dying_play_game, workers=Workers(2, chunk_size=1))
    died = [r for r in result.records if "error" in r]
    assert [r["game"] for r in died] == [2] and "died" in died[0]["error"]
    assert sorted(r["game"] for r in result.records if "error" not in r) == [0, 1, 3, 4, 5]


@pytest.mark.slow  # starts a local Ray instance: seconds before the first game
def test_ray_gives_the_same_results_as_the_process_pool():
    ray = pytest.importorskip("ray")  # ray is in the test extra: this runs in CI
    suite = Suite.create(agents=["exact", "random"], size="8x8x10", games=6, seed=3)
    try:
        on_ray = run_suite(suite, progress=False, workers=Workers(2, executor="ray"))
    finally:
        ray.shutdown()
    assert without_timing(on_ray.records) == without_timing(run_suite(suite, workers=2, progress=False).records)


def test_sweeps_keep_the_board_or_the_density():
    base = Suite.create(agents=["exact"], size="10x10x10", games=2)
    densities = sweep_suites(base, densities=[0.1, 0.2])
    assert [(x, s.width, s.mines) for x, s in densities] == [(0.1, 10, 10), (0.2, 10, 20)]
    sizes = sweep_suites(base, sizes=[5, 10], density=0.2)
    assert [(x, s.width, s.height, s.mines) for x, s in sizes] == [(25, 5, 5, 5), (100, 10, 10, 20)]


def test_cli_json_and_plot(tmp_path, capsys):
    plot = tmp_path / "s.png"
    code = main(["bench", "--agent", "exact", "--agent", "greedy", "--size", "6x6x4", "--games", "5",
                 "--rules", "minesearch", "--json", "--quiet", "--plot", str(plot)])
    assert code == 0 and plot.stat().st_size > 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert [r["agent"] for r in results] == ["exact", "greedy"] and results[0]["rules"] == "minesearch"


def test_cli_density_sweep_writes_csv_and_figure(tmp_path, capsys):
    table, figure = tmp_path / "sweep.csv", tmp_path / "sweep.png"
    code = main(["bench", "--agent", "partition", "--agent", "risk-score", "--size", "8x8x1", "--rules", "minesearch",
                 "--games", "3", "--density-sweep", "0.1,0.2", "--csv", str(table), "--plot", str(figure), "--quiet"])
    assert code == 0 and figure.stat().st_size > 0
    rows = list(csv.DictReader(table.open()))
    assert [(r["x"], r["agent"]) for r in rows] == [("0.1", "partition"), ("0.1", "risk-score"), ("0.2", "partition"), ("0.2", "risk-score")]
    assert "games/s" in capsys.readouterr().out


def test_cli_csv_holds_the_results_table_of_one_suite(tmp_path, capsys):
    table = tmp_path / "results.csv"
    assert main(["bench", "--agent", "exact", "--agent", "greedy", "--preset", "beginner", "--games", "3", "--csv", str(table), "--quiet"]) == 0
    rows = list(csv.DictReader(table.open()))
    printed = capsys.readouterr().out
    assert [(r["agent"], r["games"]) for r in rows] == [("exact", "3"), ("greedy", "3")]
    for row in rows:  # the same win rates as the printed table
        assert f"{float(row['win_rate']):.2%}" in printed


def test_a_suite_reads_one_agent_given_as_a_string_and_refuses_counts_that_are_not_whole():
    assert Suite.create(agents="greedy", size="beginner").agents == ("greedy",)
    for options, words in [({"games": 2.5}, "games must be a whole number"), ({"games": True}, "games must be a whole number"),
                           ({"seed": "abc"}, "seed must be a whole number"), ({"seed": -3}, "seed must be a whole number >= 0")]:
        with pytest.raises(SuiteError, match=words):
            Suite.create(agents=["greedy"], size="beginner", **options)


def test_cli_rejects_bad_suites(capsys):
    assert main(["bench", "--agent", "nobody", "--games", "2", "--quiet"]) == 2
    assert "unknown or missing agents" in capsys.readouterr().err
    assert main(["bench", "--agent", "exact", "--size", "3x3x20", "--quiet"]) == 2


def test_summarize_counts_errors_apart():
    records = [
        {"agent": "a", "game": 0, "width": 2, "height": 2, "mines": 1, "rules": "classic", "withheld": 0.0,
         "first_click": "safe", "won": True, "moves": 2, "guesses": 0, "opened_fraction": 0.75, "score": 0.0, "seconds": 0.1},
        {"agent": "a", "game": 1, "width": 2, "height": 2, "mines": 1, "rules": "classic", "withheld": 0.0,
         "first_click": "safe", "error": "x"},
    ]
    (row,) = summarize(records)
    assert (row["games"], row["errors"], row["win_rate"]) == (1, 1, 1.0)


def test_the_wilson_interval_is_scipys():
    from scipy.stats import binomtest

    for trials in (1, 2, 3, 10, 37, 1000, 20000):
        for successes in sorted({0, 1, trials // 3, trials // 2, trials - 1, trials}):
            for confidence in (0.9, 0.95, 0.99):
                expected = binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
                found = wilson_interval(successes, trials, confidence=confidence)
                assert found == pytest.approx((expected.low, expected.high), abs=1e-12), (successes, trials, confidence)


# A player in another process that greets, then falls over at every position ("all") or in odd games ("odd").
FALLING = r'''
import json, sys
index = 0
for line in sys.stdin:
    message = json.loads(line)
    if "cspmines" in message:
        print(json.dumps({"name": "faller"}), flush=True)
    elif "game" in message:
        index = message["game"]["index"]
    elif "position" in message:
        if sys.argv[1] == "all" or index % 2:
            sys.exit(3)
        covered = [(r, c) for r, row in enumerate(message["position"]) for c, ch in enumerate(row) if ch == "."]
        print(json.dumps({"open": list(covered[0])}), flush=True)
    elif "quit" in message:
        break
'''


def _faller(tmp_path, mode: str) -> str:
    import shlex
    import sys

    script = tmp_path / "faller.py"
    script.write_text(FALLING)
    return f"cmd:{shlex.quote(sys.executable)} {script} {mode}"


def test_a_player_whose_every_game_faults_is_counted_in_errors_and_the_bench_exits_1(tmp_path, capsys):
    bench = ["bench", "--agent", "random", "--agent", _faller(tmp_path, "all"), "--size", "5x5x3", "--games", "3",
             "--workers", "1", "--quiet"]
    assert main([*bench, "--json"]) == 1
    captured = capsys.readouterr()
    rows = {row["agent"]: row for row in json.loads(captured.out)["results"]}
    assert (rows["faller"]["games"], rows["faller"]["faults"], rows["faller"]["errors"]) == (3, 3, 3)  # lost by a fault, each
    assert (rows["random"]["faults"], rows["random"]["errors"]) == (0, 0)
    assert "cspmines: error: every game of faller went wrong (3 lost by a fault): its results say nothing of its play" in captured.err
    assert main(bench) == 1
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[-1] == "errors" and [line.split()[-1] for line in table[1:3]] == ["0", "3"]


def test_a_player_whose_games_fault_now_and_then_is_counted_in_errors_and_the_bench_goes_on(tmp_path, capsys):
    assert main(["bench", "--agent", _faller(tmp_path, "odd"), "--size", "5x5x3", "--games", "4", "--workers", "1", "--quiet",
                 "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["results"]
    assert (row["games"], row["faults"], row["errors"]) == (4, 2, 2)  # games 1 and 3 lost by a fault; 0 and 2 played


def test_a_player_whose_every_game_fails_makes_the_bench_exit_1(capsys):
    register_agent("crasher", Crasher)
    try:
        assert main(["bench", "--agent", "exact", "--agent", "crasher", "--size", "6x6x5", "--games", "2", "--workers", "1",
                     "--quiet"]) == 1
    finally:
        _AGENTS.pop("crasher")
    assert "every game of crasher went wrong (2 failed)" in capsys.readouterr().err
