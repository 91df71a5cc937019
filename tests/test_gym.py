"""The Gymnasium environment: the checker passes, a reset plays the bench's very board, the oracle's chances are
exact, the rewards are as documented, and a policy plays in the bench paired with the exact agent."""

from __future__ import annotations

import json
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cspmines.agents import register_agent
from cspmines.agents.registry import _AGENTS
from cspmines.bench import Suite, SuiteVariant, board_for, new_game, run_suite
from cspmines.bench.compare import paired_table
from cspmines.cli import main
from cspmines.games import IllegalMoveError
from cspmines.gym import ENV_ID, EnvOptionError, MinesweeperEnv, PolicyPlayer
from cspmines.position import COVERED, MINE

from bruteforce import brute_force


def least_chance(observation, info):
    """Open the covered cell of least mine chance (the first of them): a policy that needs the oracle."""
    cells = observation.size
    chances = np.where(info["action_mask"][:cells].astype(bool), info["mine_chance"].ravel(), np.inf)
    return int(np.argmin(chances))


def flag_proved_mines(observation, info):
    """Flag a proved mine if there is one, else open a least risky cell (actions from ``cells`` on are flags)."""
    cells, mask, chances = observation.size, info["action_mask"], info["mine_chance"].ravel()
    proved = [cell for cell in range(cells) if mask[cells + cell] and chances[cell] == 1]
    return cells + proved[0] if proved else least_chance(observation, info)


def first_covered(observation, info):
    return int(np.argmax(info["action_mask"]))


@pytest.fixture
def registered():
    """Players registered for the test only."""
    names = []

    def register(name, factory):
        names.append(name)
        register_agent(name, factory)

    yield register
    for name in names:
        _AGENTS.pop(name, None)


def episode(env, policy, **reset):
    """Play one episode; (the rewards, the last info, the steps)."""
    observation, info = env.reset(**reset)
    rewards = []
    while True:
        observation, reward, terminated, truncated, info = env.step(policy(observation, info))
        rewards.append(reward)
        if terminated or truncated:
            return rewards, info, env.unwrapped.steps


@pytest.mark.parametrize("options", [
    {}, {"oracle": True, "render_mode": "ansi"}, {"rules": "score", "flags": True, "reward": "measure"},
    {"rules": "minesearch", "reward": "progress", "size": "6x6x6"}, {"withheld": 0.3, "first_click": "unsafe"},
    {"observation": "channels"}, {"observation": "channels", "rules": "score", "flags": True, "withheld": 0.2},
])
def test_the_environment_passes_gymnasiums_checker(options):
    env = gymnasium.make(ENV_ID, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings too
        check_env(env.unwrapped, skip_render_check=True)  # every render mode: the tests of the pictures, below


@pytest.mark.parametrize("size, first_click, withheld", [("beginner", "safe", 0.0), ("8x8x12", "opening", 0.0),
                                                          ("7x6x8", "random-safe", 0.2)])
def test_a_reset_plays_the_very_game_of_cspmines_bench(size, first_click, withheld, registered, tmp_path, capsys):
    registered("least-chance", lambda: PolicyPlayer(least_chance, name="least-chance", oracle=True))
    out = tmp_path / "bench.jsonl"
    assert main(["bench", "--agent", "least-chance", "--size" if "x" in size else "--preset", size, "--first-click", first_click,
                 "--withheld", str(withheld), "--seed", "9", "--games", "6", "--workers", "1", "--quiet", "--out", str(out)]) == 0
    capsys.readouterr()
    records = {r["game"]: r for r in map(json.loads, out.read_text().splitlines())}
    suite = Suite.create(agents=["exact"], size=size, first_click=first_click, seed=9, variant=SuiteVariant(withheld=withheld))
    env = MinesweeperEnv(size, first_click=first_click, withheld=withheld, oracle=True)
    for game in (4, 0, 5):  # any order: a game is its seed and number
        observation, _ = env.reset(seed=9, options={"game": game})
        assert env.game.board == board_for(suite, game)
        assert np.array_equal(observation, new_game(suite, game).position.grid)
        _, info, steps = episode(env, least_chance, seed=9, options={"game": game})
        record = records[game]
        assert (info["status"], steps, env.game.opened_fraction, env.game.mines_opened) == \
               (record["status"], record["moves"], record["opened_fraction"], record["mines_opened"])


def test_resets_walk_the_games_of_a_seed():
    env = MinesweeperEnv("beginner")
    env.reset(seed=4)
    assert (env.suite_seed, env.game_index) == (4, 0)
    env.reset()
    env.reset()
    assert (env.suite_seed, env.game_index) == (4, 2)
    env.reset(options={"game": 7})
    assert env.game.board == board_for(Suite.create(agents=["exact"], size="beginner", seed=4), 7)
    with pytest.raises(EnvOptionError, match="reset options are"):
        env.reset(options={"gmae": 1})
    with pytest.raises(EnvOptionError, match="the game must be a whole number >= 0, got -1"):
        env.reset(options={"game": -1})
    with pytest.raises(IllegalMoveError, match="call reset"):
        MinesweeperEnv("beginner").step(0)
    with pytest.raises(EnvOptionError, match="reward must be one of win, progress, measure, got 'money'"):
        MinesweeperEnv("beginner", reward="money")


def test_the_oracle_gives_every_cells_exact_chance():
    env = MinesweeperEnv("4x4x3", oracle=True, first_click="unsafe")
    rng = np.random.default_rng(3)
    checked = 0
    for game in range(8):
        observation, info = env.reset(seed=1, options={"game": game})
        while True:
            position = env.game.position
            exact = brute_force(position).probabilities
            for cell, chance in enumerate(info["mine_chance"].ravel().tolist()):
                code = position.grid.flat[cell]
                assert chance == (float(exact[cell]) if code == COVERED else 1.0 if code == MINE else 0.0)
            checked += 1
            covered = np.flatnonzero(info["action_mask"])
            observation, _, terminated, truncated, info = env.step(int(rng.choice(covered)))
            if terminated or truncated:
                break
    assert checked > 20


def test_the_rewards_are_as_documented():
    for game in range(6):
        win, info, _ = episode(MinesweeperEnv("6x6x7", first_click="unsafe"), first_covered, seed=2, options={"game": game})
        assert sum(win) == {"won": 1, "lost": -1}[info["status"]] and all(r == 0 for r in win[:-1])
        env = MinesweeperEnv("6x6x7", reward="progress", first_click="unsafe")
        progress, info, _ = episode(env, first_covered, seed=2, options={"game": game})
        assert sum(progress) == pytest.approx(env.game.opened / env.game.safe_cells - (info["status"] == "lost"))
    env = MinesweeperEnv("6x6x7", rules="minesearch", reward="measure")
    measure, _, _ = episode(env, first_covered, seed=2)
    assert sum(measure) == pytest.approx(-(env.game.opened_fraction - new_game(env.suite, 0).opened_fraction))
    env = MinesweeperEnv("5x5x4", rules="score", reward="measure", flags=True, oracle=True)
    score, info, _ = episode(env, flag_proved_mines, seed=2)
    assert info["status"] in ("won", "finished") and sum(score) == pytest.approx(env.game.score) and env.game.score > 0


def test_an_action_the_mask_forbids_changes_nothing_and_the_episode_is_truncated():
    env = MinesweeperEnv("beginner", max_steps=3, invalid_reward=-0.5)
    observation, info = env.reset(seed=0, options={"game": 0})
    opened = int(np.flatnonzero(info["action_mask"] == 0)[0])
    for step in range(3):
        again, reward, terminated, truncated, info = env.step(opened)
        assert np.array_equal(again, observation) and reward == -0.5 and info["invalid"] and not terminated
        assert truncated == (step == 2)
    with pytest.raises(EnvOptionError, match="outside Discrete"):
        env.step(81)


def test_a_policy_plays_in_the_bench_paired_with_the_exact_agent_on_the_same_boards(registered):
    class FirstCovered(PolicyPlayer):  # as a user's file would write one: constructed with no arguments
        name = "first-covered"

        def policy(self, observation, info):
            return first_covered(observation, info)

    registered("first-covered", FirstCovered)
    registered("least-chance", lambda: PolicyPlayer(least_chance, name="least-chance", oracle=True))
    suite = Suite.create(agents=["exact", "least-chance", "first-covered"], size="8x8x10", games=8, seed=6)
    result = run_suite(suite, judge=True, progress=False)
    assert not result.errors and len(result.records) == 24
    rows = {row["agent"]: row for row in paired_table(result.records, against="exact")}
    assert set(rows) == {"least-chance", "first-covered"} and all(row["games"] == 8 for row in rows.values())
    least = [r["judged"] for r in result.records if r["agent"] == "least-chance"]
    assert all(j["excess_risk"] == 0 and j["needless"] == 0 for j in least)  # it always opens a least risky cell


def test_a_policy_must_choose_what_the_mask_allows(registered):
    registered("stubborn", lambda: PolicyPlayer(lambda observation, info: 0, name="stubborn"))
    result = run_suite(Suite.create(agents=["stubborn"], size="beginner", games=1, seed=0), progress=False)
    assert "policy of 'stubborn' chose action 0, which the action mask forbids" in result.errors[0]["error"]
    with pytest.raises(TypeError, match="PolicyPlayer needs a policy"):
        PolicyPlayer()


def test_a_policy_in_a_users_file_plays_the_bench_beside_exact_play(tmp_path, capsys):
    """docs/gym.md's subclass, loaded from a file as `--agent FILE.py:CLASS`, paired with the exact agent."""
    import json

    from cspmines.cli import main

    player = tmp_path / "least_chance.py"
    player.write_text(
        "import numpy as np\n"
        "from cspmines.gym import PolicyPlayer\n\n\n"
        "class LeastChance(PolicyPlayer):\n"
        '    name = "least-chance"\n\n'
        "    def __init__(self, **options):\n"
        "        super().__init__(oracle=True, **options)\n\n"
        "    def policy(self, observation, info):\n"
        '        chances = np.where(info["action_mask"].astype(bool), info["mine_chance"].ravel(), np.inf)\n'
        "        return int(np.argmin(chances))\n"
    )
    assert main(["bench", "--agent", "exact", "--agent", f"{player}:LeastChance", "--size", "beginner", "--games", "6",
                 "--workers", "1", "--quiet", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    spec = f"{player}:LeastChance"  # a file's player goes by its spec in the tables
    by_agent = {row["agent"]: row for row in answer["results"]}
    assert by_agent[spec]["games"] == 6 and by_agent[spec].get("errors", 0) == 0
    (pair,) = answer["paired"]
    assert pair["agent"] == spec and pair["against"] == "exact" and pair["games"] == 6


def test_the_flag_actions_close_at_the_mine_total_counting_opened_mines():
    env = MinesweeperEnv("5x5x4", rules="score", flags=True)
    _, info = env.reset(seed=3, options={"game": 0})
    cells, board = 25, env.game.board
    mine = next(cell for cell in range(cells) if board.is_mine(cell) and info["action_mask"][cell])
    _, _, _, _, info = env.step(mine)  # a mine set off: one of the four known
    assert env.game.mines_opened == 1
    for _ in range(2):  # flags on covered cells, right or wrong: two more known, three of four
        cell = int(np.flatnonzero(info["action_mask"][cells:])[0])
        _, _, _, _, info = env.step(cells + cell)
        assert env.game.position.grid.flat[cell] == -2
    mask = info["action_mask"]
    assert np.array_equal(mask[cells:], mask[:cells]) and mask[cells:].sum() > 0  # one flag left to place
    cell = int(np.flatnonzero(mask[cells:])[0])
    _, _, _, _, info = env.step(cells + cell)  # the fourth: flags and opened mines reach the total
    mask = info["action_mask"]
    assert not mask[cells:].any() and np.array_equal(mask[:cells], (env.game.position.grid.ravel() == -1).astype(np.int8))


@pytest.mark.parametrize("rules", ["minesearch", "classic"])
def test_an_opened_mine_shows_as_minus_3_with_the_chance_1(rules):
    env = MinesweeperEnv("6x6x6", rules=rules, oracle=True)
    _, info = env.reset(seed=2, options={"game": 1})
    mine = next(cell for cell in range(36) if env.game.board.is_mine(cell) and info["action_mask"][cell])
    observation, _, terminated, _, info = env.step(mine)
    assert terminated == (rules == "classic") and observation.flat[mine] == -3
    assert info["mine_chance"].flat[mine] == 1.0 and info["mine_chance_exact"]
    opened = (observation >= 0).ravel()
    assert not info["mine_chance"].ravel()[opened].any()  # an opened safe cell: 0


def playing_games(size, seed, count):
    """The first ``count`` games of the suite that are not over before the first move, by number."""
    suite = Suite.create(agents=["exact"], size=size, seed=seed)
    return [index for index in range(10 * count) if new_game(suite, index).status == "playing"][:count]


@pytest.mark.filterwarnings("ignore::cspmines.gym.EvaluationBoardsWarning")  # the bench's seed 0, walked on purpose
def test_a_reset_never_hands_back_a_finished_game_and_redraws_the_same_games_each_run():
    # on 5x5x1 the corner's cascade wins 17 of the first 50 games of seed 0 before any move
    walks = []
    for _ in range(2):
        env = MinesweeperEnv("5x5x1")
        statuses, played = [], []
        for reset in range(50):
            observation, info = env.reset(seed=0) if reset == 0 else env.reset()
            statuses.append(info["status"])
            played.append((env.game_index, observation.tobytes()))
            assert info["action_mask"].any() and env.game.board == board_for(env.suite, env.game_index)
        assert set(statuses) == {"playing"}
        walks.append(played)
    assert walks[0] == walks[1]  # the same seed, the same boards in the same order
    assert [index for index, _ in walks[0]] == playing_games("5x5x1", 0, 50)


def test_a_finished_bench_game_is_redrawn_as_the_next_game_of_its_seed():
    env = MinesweeperEnv("beginner")
    _, info = env.reset(seed=1, options={"game": 4740})  # the corner's cascade opens every safe cell of game 4740
    assert (info["status"], env.game_index, env.redrawn) == ("playing", 4741, 1)
    assert env.game.board == board_for(Suite.create(agents=["exact"], size="beginner", seed=1), 4741)
    env.reset()
    assert (env.game_index, env.redrawn) == (4742, 0)


def test_redraws_stop_at_their_bound_with_a_clear_error(monkeypatch):
    import cspmines.gym.env as module

    env = MinesweeperEnv("5x5x1")
    monkeypatch.setattr(module, "MOST_REDRAWS", 4)  # games 19 to 22 of seed 0 are won by the first click, 23 is not
    env.reset(seed=0, options={"game": 19})
    assert (env.game_index, env.redrawn) == (23, 4)
    monkeypatch.setattr(module, "MOST_REDRAWS", 3)
    with pytest.raises(EnvOptionError, match=r"^games 19 to 22 of seed 0 are all over before the first move"):
        env.reset(seed=0, options={"game": 19})
    monkeypatch.undo()
    with pytest.raises(EnvOptionError, match="a 3x3 board with 8 mines and the first click 'safe' leaves nothing to play"):
        MinesweeperEnv("3x3x8").reset(seed=0, options={"game": 0})


def test_a_finished_game_allows_no_action():
    env = MinesweeperEnv("6x6x6")
    _, info = env.reset(seed=2, options={"game": 1})
    mine = next(cell for cell in range(36) if env.game.board.is_mine(cell) and info["action_mask"][cell])
    _, _, terminated, _, info = env.step(mine)
    assert terminated and info["status"] == "lost" and not info["action_mask"].any()


def test_the_oracle_counts_a_second_at_most_and_says_when_it_was_cut():
    from cspmines import Position
    from cspmines.engine.budget import Limit

    assert MinesweeperEnv().limit == PolicyPlayer(first_covered).limit == Limit(time=1.0)
    # a 41x41 board of 2s on every other cell of every other row: one front of 1,281 cells, hours to count
    rows = ["".join("2" if r % 2 and c % 2 else "." for c in range(41)) for r in range(41)]
    lattice = Position.from_string("41x41x300\n" + "\n".join(rows))
    seen = []
    player = PolicyPlayer(lambda observation, info: seen.append(info) or first_covered(observation, info), oracle=True)
    player.act(lattice)
    assert seen[0]["mine_chance_exact"] is False and seen[0]["mine_chance"].shape == (41, 41)


@pytest.mark.parametrize("options, message", [
    ({"limit": 2.5}, "limit must be a cspmines.Limit, got float"),
    ({"limit": {"time": 1}}, "limit must be a cspmines.Limit, got dict"),
    ({"invalid_reward": "lots"}, "invalid_reward must be a number, got 'lots'"),
    ({"invalid_reward": float("nan")}, "invalid_reward must be a number, got nan"),
])
def test_a_bad_number_is_refused_in_one_line(options, message):
    with pytest.raises(EnvOptionError, match=f"^{message}$"):
        MinesweeperEnv("beginner", **options)
    if "limit" in options:
        with pytest.raises(EnvOptionError, match=f"^{message}$"):
            PolicyPlayer(first_covered, **options)


@pytest.mark.parametrize("options", [{}, {"rules": "score", "flags": True}])
def test_action_masks_is_the_info_mask_as_booleans_at_every_step(options):
    env = gymnasium.make(ENV_ID, size="6x6x6", **options)
    rng = np.random.default_rng(4)
    _, info = env.reset(seed=5)
    for _ in range(60):
        masks = env.unwrapped.action_masks()
        assert masks.dtype == bool and np.array_equal(masks, info["action_mask"].astype(bool))
        if info["status"] != "playing":
            assert not masks.any()
            _, info = env.reset()
            continue
        _, _, _, _, info = env.step(int(rng.choice(np.flatnonzero(masks))))
    with pytest.raises(IllegalMoveError, match="call reset"):
        MinesweeperEnv("beginner").action_masks()


def test_the_channels_observation_is_one_hot_planes_of_the_grid():
    from cspmines.gym.views import CHANNEL_CODES

    assert CHANNEL_CODES == (-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, -2, -3, -4)
    options = {"size": "8x7x12", "rules": "score", "flags": True, "withheld": 0.3}
    grid, planes = MinesweeperEnv(**options), MinesweeperEnv(observation="channels", **options)
    space = planes.observation_space
    assert (space.shape, space.dtype, int(space.low.min()), int(space.high.max())) == ((13, 7, 8), np.uint8, 0, 1)
    rng = np.random.default_rng(8)
    seen = set()
    for game in range(4):
        codes, _ = grid.reset(seed=3, options={"game": game})
        channels, info = planes.reset(seed=3, options={"game": game})
        while True:
            assert channels in space and np.array_equal(channels.sum(axis=0), np.ones((7, 8)))
            for plane, code in zip(channels, CHANNEL_CODES, strict=True):
                assert np.array_equal(plane, codes == code)
            seen |= set(np.unique(codes).tolist())
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            codes, _, done, cut, _ = grid.step(action)
            channels, _, _, _, info = planes.step(action)
            if done or cut:
                break
    assert {-1, -2, -3, -4, 0, 1, 2} <= seen  # every kind of plane was met
    with pytest.raises(EnvOptionError, match="^observation must be one of grid, channels, got 'pixels'$"):
        MinesweeperEnv(observation="pixels")


def test_a_policy_player_shows_its_policy_the_environments_channels():
    env = MinesweeperEnv("beginner", observation="channels")
    expected, _ = env.reset(seed=0, options={"game": 2})
    shown = []
    player = PolicyPlayer(lambda observation, info: shown.append(observation) or first_covered(observation, info),
                          observation="channels")
    player.act(env.game.position)
    assert shown[0].dtype == np.uint8 and np.array_equal(shown[0], expected)


@pytest.fixture
def display(monkeypatch):
    """A display of its own (Xvfb, on a number it picks) for a window, closed after the test."""
    import os
    import shutil
    import subprocess

    if shutil.which("Xvfb") is None:
        pytest.skip("a window needs a display: apt-get install xvfb to test render_mode 'human' here")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-nolisten", "tcp", "-screen", "0", "800x600x24"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as announced:
        number = announced.readline().strip()  # written once the server is ready
    monkeypatch.setenv("DISPLAY", f":{number}")
    yield f":{number}"
    server.terminate()
    server.wait(timeout=30)


def cell_colours(frame, cell=16):
    """Each cell's fill (its top-left pixel inside the seam) as an RGB tuple, in flat order."""
    return [tuple(frame[top + 1, left + 1].tolist()) for top in range(0, frame.shape[0], cell) for left in range(0, frame.shape[1], cell)]


@pytest.mark.parametrize("options", [{}, {"rules": "score", "flags": True, "withheld": 0.3, "size": "8x7x12"}])
def test_rgb_array_renders_the_board_as_a_picture(options, monkeypatch):
    import sys

    from gymnasium.utils.passive_env_checker import env_render_passive_checker

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # the picture needs numpy alone: no plot extra
    env = gymnasium.make(ENV_ID, render_mode="rgb_array", **options)
    observation, info = env.reset(seed=3)
    rng = np.random.default_rng(2)
    for _ in range(12):
        frame = env_render_passive_checker(env.unwrapped)  # gymnasium's checks of what render() returns
        height, width = observation.shape
        assert frame.shape == (16 * height, 16 * width, 3) and frame.dtype == np.uint8
        fills = cell_colours(frame)
        for code, fill in zip(observation.ravel().tolist(), fills, strict=True):
            assert fill == ((176, 176, 176) if code in (-1, -2) else (240, 240, 240))  # covered grey, opened light
        inked = [np.any(frame[r * 16:r * 16 + 15, c * 16:c * 16 + 15] != np.array(fills[r * width + c]), axis=-1).any()
                 for r in range(height) for c in range(width)]
        assert inked == [code not in (-1, 0) for code in observation.ravel().tolist()]  # a letter on every marked cell
        if info["status"] != "playing":
            break
        observation, _, _, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))


def test_the_ansi_render_is_the_position_and_a_bad_render_mode_is_refused():
    from gymnasium.utils.passive_env_checker import env_render_passive_checker

    env = gymnasium.make(ENV_ID, render_mode="ansi")
    env.reset(seed=0, options={"game": 1})
    assert env_render_passive_checker(env.unwrapped) == str(env.unwrapped.game.position) + "\n"
    with pytest.raises(EnvOptionError, match="^render_mode must be one of ansi, rgb_array, human or None, got 'video'$"):
        MinesweeperEnv(render_mode="video")


def test_human_without_a_display_is_refused_in_one_line(monkeypatch):
    import sys

    if sys.platform != "linux":
        pytest.skip("a display is found without $DISPLAY off Linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(EnvOptionError, match=r"^render_mode 'human' needs a display to open a window on, and Tk found none \("):
        gymnasium.make(ENV_ID, render_mode="human")


def test_human_shows_the_board_in_a_window(display):
    from gymnasium.utils.passive_env_checker import env_render_passive_checker

    from cspmines.gym.frames import board_frame

    env = gymnasium.make(ENV_ID, render_mode="human", size="5x4x3")
    _, info = env.reset(seed=1)
    window = env.unwrapped._window
    for _ in range(3):
        assert env_render_passive_checker(env.unwrapped) is None  # shown at the reset and every step, not returned
        expected = board_frame(env.unwrapped.game.position)
        shown = window._image
        assert (shown.width(), shown.height()) == (80, 64)
        assert all(tuple(shown.get(x, y)) == tuple(expected[y, x].tolist()) for y in range(0, 64, 3) for x in range(0, 80, 3))
        if info["status"] != "playing":
            break
        _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    window._root.destroy()  # its user closes it: play goes on unseen
    env.reset()
    assert window.closed
    env.close()


def test_every_preset_has_its_id_whose_spec_says_where_episodes_are_cut():
    from cspmines.gym import PRESET_IDS

    assert PRESET_IDS == {"beginner": "cspmines/Minesweeper-Beginner-v0", "intermediate": "cspmines/Minesweeper-Intermediate-v0",
                          "expert": "cspmines/Minesweeper-Expert-v0"}
    for preset, (width, height, mines) in {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}.items():
        registered = gymnasium.spec(PRESET_IDS[preset])
        assert registered.max_episode_steps == 4 * width * height and registered.kwargs == {"size": preset}
        env = gymnasium.make(PRESET_IDS[preset])
        assert env.spec.max_episode_steps == 4 * width * height and env.unwrapped.max_steps == 4 * width * height
        observation, _ = env.reset(seed=1)
        assert observation.shape == (height, width) and env.unwrapped.game.board.n_mines == mines
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(env.unwrapped, skip_render_check=True)


def test_the_generic_ids_spec_says_where_its_environment_cuts_episodes():
    assert gymnasium.spec(ENV_ID).max_episode_steps is None  # its size is an option: its cut follows it
    assert gymnasium.make(ENV_ID).spec.max_episode_steps == 324
    assert gymnasium.make(ENV_ID, size="expert").spec.max_episode_steps == 1920
    assert gymnasium.make(ENV_ID, max_steps=50).spec.max_episode_steps == 50
    assert gymnasium.make(ENV_ID, max_episode_steps=7).spec.max_episode_steps == 7  # gymnasium's own cut, before it
    assert MinesweeperEnv().spec is None  # not made from an id


def test_a_preset_episode_is_truncated_at_exactly_its_max_episode_steps():
    env = gymnasium.make("cspmines/Minesweeper-Beginner-v0")
    _, info = env.reset(seed=1)
    opened = int(np.flatnonzero(info["action_mask"] == 0)[0])
    for step in range(1, 325):
        _, _, terminated, truncated, _ = env.step(opened)  # refused: nothing changes, the steps count
        assert not terminated and truncated == (step == 324)


@pytest.mark.parametrize("env_id", ["cspmines/Minesweeper-v0", "cspmines/Minesweeper-Beginner-v0",
                                    "cspmines/Minesweeper-Intermediate-v0", "cspmines/Minesweeper-Expert-v0"])
def test_every_id_runs_as_a_vector_of_environments(env_id):
    envs = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="sync", render_mode="rgb_array",
                              observation="channels")
    observations, infos = envs.reset(seed=11)
    height, width = envs.single_observation_space.shape[1:]
    assert observations.shape == (3, 13, height, width) and observations.dtype == np.uint8
    assert np.array_equal(np.stack(envs.call("action_masks")), infos["action_mask"].astype(bool))
    assert [env.unwrapped.suite_seed for env in envs.envs] == [11, 12, 13] and set(infos["status"]) == {"playing"}
    frames = envs.render()
    assert len(frames) == 3 and frames[0].shape == (16 * height, 16 * width, 3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        actions = [int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0 for mask in infos["action_mask"]]
        observations, _, _, _, infos = envs.step(actions)
        assert observations in envs.observation_space
    envs.close()


@pytest.mark.parametrize("size", ["beginner", "5x5x1"])
@pytest.mark.parametrize("autoreset", ["next-step", "same-step"])
def test_masked_random_play_runs_thousands_of_steps_through_a_vector_of_environments(size, autoreset):
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    mode = AutoresetMode.NEXT_STEP if autoreset == "next-step" else AutoresetMode.SAME_STEP  # gymnasium's; SB3's
    envs = SyncVectorEnv([lambda: gymnasium.make(ENV_ID, size=size) for _ in range(4)], autoreset_mode=mode)
    rng = np.random.default_rng(5)
    _, infos = envs.reset(seed=1000)
    ended = np.zeros(4, dtype=bool)
    episodes = 0
    for _ in range(1250):  # 5,000 steps in all
        masks = infos["action_mask"]
        assert np.array_equal(~masks.any(axis=1), ended if mode == AutoresetMode.NEXT_STEP else np.zeros(4, dtype=bool))
        actions = [int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0 for mask in masks]  # 0: ignored, a reset
        _, _, terminated, truncated, infos = envs.step(actions)
        ended = (terminated | truncated) & (mode == AutoresetMode.NEXT_STEP)
        episodes += int(np.count_nonzero(terminated | truncated))
        if mode == AutoresetMode.SAME_STEP:
            assert set(infos["status"]) == {"playing"}  # a reset's game, never one the first click ended
    assert episodes > 400


def test_walking_the_bench_seeds_default_boards_warns_once():
    from cspmines.gym import EvaluationBoardsWarning

    envs = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync")
    with pytest.warns(EvaluationBoardsWarning, match=r"^reset\(seed=0\) walks the games of `cspmines bench --seed 0`") as caught:
        envs.reset(seed=0)  # as make_vec_env(seed=0) starts its first environment
    assert len(caught) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        envs.reset(seed=0)  # once an environment
        env = MinesweeperEnv()
        env.reset(seed=0, options={"game": 5})  # a bench game asked for by number: meant
        env.reset(seed=1)
        env.reset()


def test_a_policy_drawing_from_its_players_stream_plays_the_same_games_on_every_run(registered):
    class Dice(PolicyPlayer):  # a stochastic policy: a covered cell drawn from the player's own stream
        name = "dice"

        def policy(self, observation, info):
            return int(self.rng.choice(np.flatnonzero(info["action_mask"])))

    registered("dice", Dice)
    suite = Suite.create(agents=["dice"], size="6x6x5", games=12, seed=3)
    runs = [[(r["status"], r["moves"], r["opened_fraction"]) for r in run_suite(suite, progress=False).records] for _ in range(2)]
    assert runs[0] == runs[1] and len({moves for _, moves, _ in runs[0]}) > 2  # the same games, and not all alike
