"""Players in other processes through the line protocol: its messages, its faults, and nothing left running."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from copy import deepcopy
from pathlib import Path

import numpy as np
import pytest

from cspmines import Limit, Position
from cspmines.agents import make_agent
from cspmines.agents.external import CommandAgent, close_players, seed_number
from cspmines.agents.process import live_players
from cspmines.agents.protocol import position_message, read_move
from cspmines.bench import Suite, SuiteError, SuiteVariant, Workers, agent_seed, board_for, run_suite
from cspmines.engine.certain import certain_cells
from cspmines.games import Board, Fault, Game, IllegalMoveError, PlayerFault, play
from cspmines.position import COVERED
from cspmines.web import SERVER_MEMORY

from processes import alive

ROOT = Path(__file__).resolve().parent.parent
PYTHON_PLAYER = ROOT / "examples" / "players" / "python" / "single_point.py"
JS_PLAYER = ROOT / "examples" / "players" / "js" / "single_point.js"

# A fake player for the faults: it logs every message it gets (with its pid) and misbehaves as told.
FAKE = r'''
import json, os, subprocess, sys, time
mode, log = sys.argv[1], sys.argv[2]
def note(message):
    with open(log, "a") as handle:
        handle.write(json.dumps({"pid": os.getpid(), **message}) + "\n")
def say(message):
    sys.stdout.write(json.dumps(message) + "\n"); sys.stdout.flush()
index = None
note({"started": True})
for line in sys.stdin:
    message = json.loads(line)
    note({"got": message})
    if "cspmines" in message:
        say({"name": "fake " + mode})
    elif "game" in message:
        index = message["game"]["index"]
    elif "position" in message:
        rows = message["position"]
        covered = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]
        if mode == "crash" or (mode == "flaky" and index == 1):
            sys.stderr.write("boom: the fake fell over\n"); sys.exit(3)
        if mode == "sleep":
            time.sleep(1000)
        if mode == "spawn":
            child = subprocess.Popen(["sleep", "300"])
            note({"grandchild": child.pid})
            time.sleep(1000)
        if mode == "garbage":
            print("hello there", flush=True); continue
        if mode == "twice":
            say({"open": list(covered[0])})
        if mode == "illegal":
            opened = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch.isdigit()]
            say({"open": list(opened[0])}); continue
        say({"open": list(covered[0])})
    elif "quit" in message:
        break
'''


@pytest.fixture
def fake(tmp_path):
    """``fake(mode)``: the cmd: spec of a fake player in that mode, and the file it logs to."""
    script = tmp_path / "fake_player.py"
    script.write_text(FAKE)

    def spec(mode: str) -> tuple[str, Path]:
        log = tmp_path / f"{mode}.jsonl"
        return f"cmd:{shlex.quote(sys.executable)} {script} {mode} {log}", log

    yield spec
    close_players()


def logged(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def gone(processes, within: float = 5.0) -> bool:
    """Whether every process of ``processes`` has ended (a SIGKILL's delivery takes a moment)."""
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(alive(pid) for pid in processes)


def pids(log: Path) -> set:
    return {entry["pid"] for entry in logged(log)} | {entry["grandchild"] for entry in logged(log) if "grandchild" in entry}


# -- the messages ------------------------------------------------------------------------------------------

def random_positions(count: int, seed: int):
    """Positions of real games part-played at random (flags, opened mines and withheld clues among them)."""
    rng = np.random.default_rng(seed)
    for n in range(count):
        rules = ("classic", "minesearch", "score")[n % 3]
        game = Game(Board.random("7x6x9", seed=rng, first_click="safe"), rules=rules, withheld=0.2, seed=rng)
        for _ in range(int(rng.integers(0, 12))):
            covered = [c for c in range(game.board.size) if game.position.code(c) in (COVERED, -2)]
            if game.status != "playing" or not covered:
                break
            cell = int(rng.choice(covered))
            with contextlib.suppress(IllegalMoveError):
                game.apply(make_action(rng, cell))
        yield game


def make_action(rng, cell):
    from cspmines.agents import Action

    return Action.flag(cell) if rng.random() < 0.3 else Action.open(cell)


def test_a_position_message_is_the_position_formats_rows_and_the_mines_left():
    for game in random_positions(60, seed=1):
        position = game.position
        message = json.loads(position_message(position))
        assert message["position"] == str(position).splitlines()[1:]
        assert Position.from_string(f"{position.width}x{position.height}x{position.mines}\n" + "\n".join(message["position"])) == position
        flagged_or_found = sum(1 for c in range(position.size) if position.code(c) in (-2, -3))
        assert message["mines_left"] == position.mines - flagged_or_found


def test_a_move_is_legal_exactly_when_the_game_takes_it():
    """Every open and flag of every cell, read from a player's line, against Game.apply on the same game."""
    checked = 0
    for game in random_positions(40, seed=2):
        if game.status != "playing":
            continue
        position = game.position
        for cell in range(position.size):
            row, col = position.row_col(cell)
            for kind in ("open", "flag"):
                copy = deepcopy(game)
                try:
                    copy.apply(make_agent_action(kind, cell))
                    took = True
                except IllegalMoveError:
                    took = False
                try:
                    (action,) = read_move(json.dumps({kind: [row, col]}), position)
                    assert (action.kind, action.cell) == (kind, cell)
                    legal = True
                except PlayerFault as fault:
                    assert fault.fault == Fault.ILLEGAL_MOVE
                    legal = False
                assert legal == took, (str(position), kind, row, col)
                checked += 1
    assert checked > 1000


def make_agent_action(kind, cell):
    from cspmines.agents import Action

    return Action(kind, cell)


def test_a_chord_opens_the_covered_cells_around_a_satisfied_clue_and_nothing_else():
    position = Position.from_string("4x3x2\nF2..\n2F..\n....")
    assert [a.cell for a in read_move('{"chord": [0, 1]}', position)] == [2, 6]
    assert [a.cell for a in read_move('{"chord": [1, 0]}', position)] == [8, 9]
    for line, why in [('{"chord": [0, 2]}', "not an opened clue"), ('{"chord": [0, 0]}', "not an opened clue"),
                      ('{"chord": [5, 0]}', "outside the 4x3 board")]:
        with pytest.raises(PlayerFault, match=why):
            read_move(line, position)
    with pytest.raises(PlayerFault, match="the clue is 2 and 1 flags"):
        read_move('{"chord": [1, 0]}', Position.from_string("4x3x2\n.2..\n2F..\n...."))


@pytest.mark.parametrize("line", ['{"open": [0]}', '{"open": [0, 1], "flag": [0, 1]}', '{"open": ["0", "1"]}', "[0, 1]",
                                  '{"open": [true, 1]}', '{"open": [0, 1], "certain": "yes"}', '{"dig": [0, 1]}', ""])
def test_what_is_not_a_move_is_a_bad_message(line):
    with pytest.raises(PlayerFault) as raised:
        read_move(line, Position.from_string("3x2x1\n1..\n..."))
    assert raised.value.fault == Fault.BAD_MESSAGE


# -- a session ---------------------------------------------------------------------------------------------

def test_the_player_hears_hello_each_game_its_positions_and_result_then_quit(fake):
    spec, log = fake("good")
    suite = Suite.create(agents=[spec], size="5x5x3", games=3, seed=4, variant=SuiteVariant(move_timeout=5))
    result = run_suite(suite, progress=False)
    assert [r["agent"] for r in result.records] == ["fake good"] * 3 and all(r["spec"] == spec for r in result.records)
    got = [entry["got"] for entry in logged(log) if "got" in entry]
    assert got[0] == {"cspmines": 1, "move_timeout": 5.0} and got[-1] == {"quit": True}
    games = [message["game"] for message in got if "game" in message]
    assert [game["index"] for game in games] == [0, 1, 2]
    assert all((g["width"], g["height"], g["mines"], g["rules"]) == (5, 5, 3, "classic") for g in games)
    assert [game["seed"] for game in games] == [seed_number(agent_seed(suite, i)) for i in range(3)]
    results = [message["result"] for message in got if "result" in message]
    assert results == [r["status"] for r in result.records]
    for i, record in enumerate(result.records):  # the positions are game i's, move by move
        shown = [m["position"] for m in got[got.index({"game": games[i]}):] if "position" in m][: record["moves"]]
        first = board_for(suite, i)
        game = Game(first)
        assert shown[0] == str(game.position).splitlines()[1:]
    assert len(pids(log)) == 1 and gone(pids(log))  # one process for the run, ended


# -- faults ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode, fault, detail", [
    ("crash", "crashed", "exited (status 3): boom: the fake fell over"),
    ("sleep", "timed out", "no move within 0.5 s"),
    ("garbage", "bad message", "not JSON: 'hello there'"),
    ("illegal", "illegal move", "the cell is already open"),
    ("twice", "bad message", "a line sent without being asked"),
])
def test_a_faulty_player_loses_each_game_it_fails_and_leaves_nothing_running(fake, mode, fault, detail):
    spec, log = fake(mode)
    suite = Suite.create(agents=["random", spec], size="5x5x3", games=3, seed=2, variant=SuiteVariant(move_timeout=0.5))
    result = run_suite(suite, workers=1, progress=False)
    faulted = [r for r in result.records if r.get("spec") == spec]
    if mode == "twice":  # the second answer is seen before the next question, or (if it comes late) taken for its answer
        assert {r["fault"] for r in faulted} <= {fault, "illegal move"} and len(faulted) == 3
        faulted = [r for r in faulted if r["fault"] == fault]
    else:
        assert [r["fault"] for r in faulted] == [fault] * 3
    assert all(r["status"] == "lost" and r["won"] is False and detail in r["fault_detail"] for r in faulted)
    assert not result.errors and {r["agent"] for r in faulted} == {f"fake {mode}"}
    assert len([r for r in result.records if r["agent"] == "random" and "won" in r]) == 3  # the others play on
    assert len({e["pid"] for e in logged(log)}) >= 3  # a fresh process for each game after a fault
    assert not live_players() and gone(pids(log))


def test_a_fault_costs_only_its_own_game(fake):
    spec, log = fake("flaky")  # crashes in game 1 only
    suite = Suite.create(agents=[spec], size="5x5x3", games=4, seed=2)
    records = run_suite(suite, progress=False).records
    assert [r.get("fault") for r in records] == [None, "crashed", None, None]
    assert all("won" in r for r in records)
    assert len({e["pid"] for e in logged(log)}) == 2  # the one that crashed, and the fresh one after it


def test_a_hung_player_is_ended_with_what_it_started(fake):
    spec, log = fake("spawn")
    suite = Suite.create(agents=[spec], size="5x5x3", games=1, seed=2, variant=SuiteVariant(move_timeout=0.5))
    (record,) = run_suite(suite, progress=False).records
    assert record["fault"] == "timed out"
    started = pids(log)
    assert any("grandchild" in e for e in logged(log)) and gone(started)


def test_a_player_that_cannot_start_or_name_itself_is_refused_before_any_game(fake, tmp_path):
    with pytest.raises(SuiteError, match="cannot start 'no-such-player-program'"):
        Suite.create(agents=["cmd:no-such-player-program --fast"], size="5x5x3", games=1)
    mute = tmp_path / "mute.py"
    mute.write_text("import sys\nfor line in sys.stdin:\n    print('{\"hello\": 1}', flush=True)\n")
    with pytest.raises(SuiteError, match=r'at its start: the first answer must be \{"name": "NAME"\}'):
        Suite.create(agents=[f"cmd:{sys.executable} {mute}"], size="5x5x3", games=1)
    spec, _ = fake("good")
    with pytest.raises(SuiteError, match="are both named 'fake good'"):
        Suite.create(agents=[spec, spec + " --again"], size="5x5x3", games=1)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads processes from /proc (Linux)")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_bench_leaves_no_player_running(fake, tmp_path, stop):
    spec, log = fake("spawn")  # every game: a grandchild, then a hang the move limit ends
    out = tmp_path / "run.jsonl"
    command = [sys.executable, "-m", "cspmines", "bench", "--agent", spec, "--size", "5x5x3", "--games", "20",
               "--workers", "2", "--move-timeout", "30", "--quiet", "--out", str(out)]
    run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and sum("grandchild" in e for e in logged(log)) < 2:
        time.sleep(0.1)
    assert sum("grandchild" in e for e in logged(log)) >= 2  # both workers' players are in a game
    if stop == signal.SIGINT:
        os.killpg(run.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole foreground group
    else:
        run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=30)
    assert run.returncode == 130, err
    assert gone(pids(log), within=10), [pid for pid in pids(log) if alive(pid)]


# -- the example players -----------------------------------------------------------------------------------

def test_the_python_example_plays_the_same_games_in_process_and_through_the_protocol():
    cmd = f"cmd:{shlex.quote(sys.executable)} {PYTHON_PLAYER}"
    inside = f"{PYTHON_PLAYER}:SinglePoint"
    suite = Suite.create(agents=[cmd, inside], size="intermediate", games=12, seed=8)
    records = run_suite(suite, progress=False).records
    by = {name: {r["game"]: (r["status"], r["moves"], r["guesses"]) for r in records if r["agent"] == name}
          for name in ("single-point (python)", inside)}
    assert len(by[inside]) == 12 and by["single-point (python)"] == by[inside]
    assert not any("fault" in r or "error" in r for r in records)


def example_commands() -> list:
    commands = [f"cmd:{shlex.quote(sys.executable)} {PYTHON_PLAYER}"]
    return commands + ([f"cmd:node {JS_PLAYER}"] if shutil.which("node") else [])


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: the JavaScript example is not run")
def test_the_javascript_example_plays_beside_the_exact_agent_with_paired_figures():
    from cspmines.bench.compare import paired_table

    spec = f"cmd:node {JS_PLAYER}"
    suite = Suite.create(agents=["exact", spec], size="beginner", games=20, seed=3)
    first = run_suite(suite, progress=False)
    again = run_suite(suite, progress=False)
    ours = [r for r in first.records if r["agent"] == "single-point (javascript)"]
    assert len(ours) == 20 and not any("fault" in r or "error" in r for r in first.records)
    strip = lambda records: [{k: v for k, v in r.items() if not k.startswith("seconds")} for r in records]  # noqa: E731
    assert strip(first.records) == strip(again.records)  # the seed gives the same moves
    (row,) = paired_table(first.records, agents=["exact", "single-point (javascript)"])
    assert row["games"] == 20 and row["agent"] == "single-point (javascript)"


@pytest.mark.parametrize("command", example_commands())
def test_the_examples_moves_claimed_certain_are_proved_and_agree_across_languages(command):
    """Along random games: a move the player calls certain is one the engine proves; where single clues
    prove a cell safe, both examples open the first such cell in reading order."""
    player = make_agent(command)
    reference = make_agent(f"{PYTHON_PLAYER}:SinglePoint")
    rng = np.random.default_rng(11)
    claimed = 0
    for n in range(15):
        game = Game(Board.random("9x9x12", seed=rng), rules="classic")
        player.reset(rules="classic", seed=n)
        reference.reset(rules="classic", seed=n)
        while game.status == "playing":
            position = game.position
            action, expected = player.act(position), reference.act(position)
            if action.certain or expected.certain:
                proof = certain_cells(position)
                assert (action.kind, action.cell, action.certain) == (expected.kind, expected.cell, expected.certain)
                assert action.cell in proof.safe
                claimed += 1
            game.apply(action)
    assert claimed > 50
    close_players()


def test_a_command_agent_is_the_agent_protocol_for_play_and_move(capsys):
    from cspmines.cli import main

    spec = f"cmd:{shlex.quote(sys.executable)} {PYTHON_PLAYER}"
    record = play(make_agent(spec), Game(Board.random("beginner", seed=5)), seed=5)
    assert record.agent == "single-point (python)" and record.status in ("won", "lost") and record.fault is None
    board = ROOT / "cspmines" / "data" / "examples" / "beginner.txt"
    assert main(["move", str(board), "--agent", spec, "--agent", "exact", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("single-point (python)  open (") and "mine chance" in out
    close_players()
    assert not live_players()


def test_an_agent_takes_its_move_timeout():
    with pytest.raises(Exception, match="move_timeout must be seconds above 0"):
        CommandAgent("player", move_timeout=0)


def test_workers_each_start_their_own_player_and_never_speak_to_anothers(fake):
    spec, log = fake("good")
    suite = Suite.create(agents=[spec], size="5x5x3", games=16, seed=1)  # starts one player here, for its name
    records = run_suite(suite, progress=False, workers=Workers(2, chunk_size=2)).records
    assert len(records) == 16 and not any("fault" in r or "error" in r for r in records)
    talks: dict = {}
    for entry in logged(log):
        talks.setdefault(entry["pid"], []).append(entry.get("got"))
    checked, *workers = [[m for m in talk if m is not None] for talk in talks.values()]
    assert checked == [{"cspmines": 1, "move_timeout": 10.0}, {"quit": True}]  # the check's player: its name only
    assert workers and all(talk[0] == {"cspmines": 1, "move_timeout": 10.0} and talk[-1] == {"quit": True} for talk in workers)
    assert sorted(m["game"]["index"] for talk in workers for m in talk if "game" in m) == list(range(16))
    assert gone(pids(log))


def test_the_smallest_player_of_the_protocols_page_plays(tmp_path):
    text = (ROOT / "docs" / "protocol.md").read_text()
    code = text.split("The smallest player")[1].split("```python\n")[1].split("```")[0]
    (tmp_path / "smallest.py").write_text(code)
    spec = f"cmd:{shlex.quote(sys.executable)} {tmp_path / 'smallest.py'}"
    records = run_suite(Suite.create(agents=[spec], size="beginner", games=5, seed=0), progress=False).records
    assert [r["agent"] for r in records] == ["first covered"] * 5 and not any("fault" in r for r in records)


def test_a_python_file_and_a_plugin_are_agents_wherever_one_is_named(tmp_path, monkeypatch):
    from cspmines.agents import UnknownAgentError

    (tmp_path / "my_players.py").write_text(
        "from cspmines.agents.base import Action, SeededAgent\n"
        "class Corner(SeededAgent):\n"
        "    name = 'corner'\n"
        "    def __init__(self, last=False):\n"
        "        self.last = last\n"
        "        super().__init__()\n"
        "    def act(self, position):\n"
        "        cells = position.covered_cells\n"
        "        return Action.open(cells[-1] if self.last else cells[0])\n")
    dist = tmp_path / "my_players-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-players\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[cspmines.agents]\ncorner = my_players:Corner\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    file_spec = f"{tmp_path / 'my_players.py'}:Corner:last=true"
    suite = Suite.create(agents=["corner", "corner:last=true", file_spec], size="6x6x5", games=6, seed=3)
    records = run_suite(suite, progress=False).records
    by = {name: [(r["status"], r["moves"]) for r in records if r["agent"] == name] for name in suite.agents}
    assert by["corner:last=true"] == by[file_spec] != by["corner"] and len(by["corner"]) == 6
    for spec, why in [(f"{tmp_path / 'nope.py'}:Corner", "no Python file"), (f"{tmp_path / 'my_players.py'}:Edge", "has no class 'Edge'"),
                      (f"{tmp_path / 'my_players.py'}:Corner:wide=1", "does not take those options")]:
        with pytest.raises(UnknownAgentError, match=why):
            make_agent(spec)


def test_a_study_and_compare_name_a_command_player_as_it_names_itself(fake, tmp_path, capsys):
    from cspmines.cli import main
    from cspmines.studies import read_study, run_study

    spec, _ = fake("good")
    study = tmp_path / "study.toml"
    study.write_text(f'games = 4\nmove_timeout = 3.5\n[[suite]]\nname = "s"\nsize = "5x5x3"\n'
                     f'agents = ["random", {json.dumps(spec)}]\nagainst = {json.dumps(spec)}\n')
    parsed = read_study(study)
    assert parsed.suites[0].agents == ("random", "fake good") and parsed.suites[0].against == "fake good"
    assert parsed.suites[0].points[0][1].move_timeout == 3.5 and parsed.suites[0].points[0][1].agents[1] == spec
    result = run_study(parsed, tmp_path / "out", progress=False)
    assert sorted({r["agent"] for r in result.records}) == ["fake good", "random"]
    out = tmp_path / "out" / "games" / "s-0.jsonl"
    assert main(["compare", str(out), "--against", "fake good"]) == 0
    assert "fake good" in capsys.readouterr().out.split("paired on the same boards")[1]
    assert main(["bench", "--agent", "random", "--agent", spec, "--size", "5x5x3", "--games", "3", "--against", "fake good",
                 "--quiet", "--json", "--out", str(tmp_path / "b.jsonl")]) == 0
    paired = json.loads(capsys.readouterr().out)["paired"]
    assert [(row["agent"], row["against"], row["games"]) for row in paired] == [("random", "fake good", 3)]
    assert main(["bench", "--agent", "random", "--agent", spec, "--size", "5x5x3", "--games", "5", "--quiet",
                 "--out", str(tmp_path / "b.jsonl"), "--resume"]) == 0  # resumed: only games 3 and 4 are played
    kept = [json.loads(line) for line in (tmp_path / "b.jsonl").read_text().splitlines()]
    assert sorted((r["agent"], r["game"]) for r in kept) == sorted((a, g) for a in ("random", "fake good") for g in range(5))


def test_the_command_line_says_in_one_line_why_a_player_cannot_play(capsys):
    from cspmines.cli import main

    assert main(["bench", "--agent", "cmd:no-such-player-program", "--games", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "crashed: cannot start 'no-such-player-program'" in err


def test_the_web_page_runs_no_outside_player():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from cspmines.web import create_app

    client = TestClient(create_app(limit=Limit(time=5.0, memory=SERVER_MEMORY)))
    answer = client.post("/api/move", params={"agent": "cmd:touch /tmp/cspmines-web-ran"}, content="3x1x1\n.1.\n")
    assert answer.status_code == 400 and "plays no cmd:" in answer.json()["error"]
    assert not Path("/tmp/cspmines-web-ran").exists()
    record = {"agent": "x.py:Y", "game": 0, "width": 5, "height": 5, "mines": 3, "rules": "classic", "withheld": 0.0,
              "first_click": "safe", "seed": 0}
    assert client.post("/api/replay", content=json.dumps(record)).status_code == 400


@pytest.mark.slow
def test_on_ray_a_command_player_plays_the_same_games_and_ends_with_each_batch(fake):
    pytest.importorskip("ray")  # ray is in the test extra: this runs in CI
    import ray

    spec, log = fake("good")
    suite = Suite.create(agents=["random", spec], size="5x5x3", games=8, seed=6)
    strip = lambda records: [{k: v for k, v in r.items() if not k.startswith("seconds")} for r in records]  # noqa: E731
    pooled = run_suite(suite, workers=2, progress=False).records
    try:
        on_ray = run_suite(suite, progress=False, workers=Workers(2, executor="ray")).records
        assert strip(on_ray) == strip(pooled)
        assert gone(pids(log), within=15)  # Ray's workers live on; the players they started do not
    finally:
        ray.shutdown()
