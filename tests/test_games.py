"""Boards, rules and the runner."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cspmines import CspminesError, Position, sample_layouts
from cspmines.agents import Action, agent_names, make_agent
from cspmines.games import (
    PRESETS,
    AgentError,
    Board,
    BoardFormatError,
    BoardMismatchError,
    Game,
    IllegalMoveError,
    parse_size,
    play,
    read_board,
)
from cspmines.position import COVERED, FLAG, MINE, WITHHELD

from randompositions import positions_with_total


def test_presets_and_sizes():
    assert PRESETS == {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}
    assert parse_size("7x5x3") == (7, 5, 3)
    with pytest.raises(BoardFormatError, match="cannot hold"):
        parse_size("3x3x10")


def test_same_seed_same_board_and_generators_accepted():
    assert Board.random("expert", seed=9) == Board.random("expert", seed=9)
    assert Board.random("expert", seed=9) != Board.random("expert", seed=10)
    assert Board.random("expert", seed=np.random.default_rng(3)) == Board.random("expert", seed=np.random.default_rng(3))
    # the board depends on the seed alone, not on global numpy state
    np.random.seed(1)
    first = Board.random("beginner", seed=5)
    np.random.seed(2)
    assert Board.random("beginner", seed=5) == first


@pytest.mark.parametrize("preset", list(PRESETS))
def test_first_click_policies(preset):
    width, height, mines = PRESETS[preset]
    for seed in range(20):
        safe = Board.random(preset, seed=seed, first_click="safe")
        assert safe.first_click == 0 and not safe.is_mine(0) and safe.n_mines == mines
        opening = Board.random(preset, seed=seed, first_click="opening")
        k = 3 if preset == "expert" else 2
        assert opening.first_click == k * width + k and opening.clue(opening.first_click) == 0
        assert not opening.is_mine(opening.first_click)
        assert Board.random(preset, seed=seed, first_click="unsafe").first_click is None
    assert any(Board.random("5x5x20", seed=s, first_click="unsafe").is_mine(0) for s in range(10))
    with pytest.raises(ValueError, match="first_click"):
        Board.random(preset, first_click="sometimes")


def test_the_seeds_first_squares():
    """Seed 004's first square is "the safe square" of the board (anywhere); seed 000's is "guaranteed to
    have the highest possible label value". Both are drawn after the mines, which stay uniform."""
    firsts, corner_mines = set(), 0
    for seed in range(300):
        board = Board.random("6x6x9", seed=seed, first_click="random-safe")
        assert not board.is_mine(board.first_click)
        firsts.add(board.first_click)
        corner_mines += board.is_mine(0)  # the corner is not kept free, as the "safe" policy keeps it
        highest = Board.random("6x6x9", seed=seed, first_click="highest")
        clues = [highest.clue(c) for c in range(36) if not highest.is_mine(c)]
        assert not highest.is_mine(highest.first_click) and highest.clue(highest.first_click) == max(clues)
    assert len(firsts) == 36 and 50 < corner_mines < 100  # every square in turn; the corner a mine about 1 in 4


def test_a_boards_clues_count_the_mines_around_each_cell():
    rng = np.random.default_rng(5)
    for width, height in [(1, 1), (1, 7), (9, 1), (5, 4), (30, 16)]:
        mines = rng.random((height, width)) < 0.3
        board = Board(mines.tolist())
        for cell in range(width * height):
            row, col = divmod(cell, width)
            around = sum(bool(mines[r, c]) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                         if 0 <= r < height and 0 <= c < width and (r, c) != (row, col))
            assert board.clue(cell) == around


def test_board_files_round_trip(tmp_path):
    board = Board.random("intermediate", seed=4)
    assert Board.from_mbf(board.to_mbf()).mines.tolist() == board.mines.tolist()
    (tmp_path / "b.mbf").write_bytes(board.to_mbf())
    (tmp_path / "b.txt").write_text(str(board))
    cells = [[int(r), int(c)] for r, c in np.argwhere(board.mines)]
    (tmp_path / "b.json").write_text(json.dumps({"width": 16, "height": 16, "mines": cells}))
    for name in ("b.mbf", "b.txt", "b.json"):
        assert read_board(tmp_path / name).mines.tolist() == board.mines.tolist()


@pytest.mark.parametrize(
    "loader, data, words",
    [
        (Board.from_mbf, b"\x02\x02\x00\x02\x00\x00", "needs 8 bytes"),
        (Board.from_mbf, b"\x02\x02\x00\x01\x05\x00", "outside"),
        (Board.from_json, "[1, 2]", "not a board JSON"),
        (Board.from_json, '{"width": 2, "height": 2, "mines": [[2, 0]]}', "outside"),
        (Board.from_position_text, "2x1x2\n*1", "header says 2 mines but 1"),
    ],
)
def test_bad_board_files(loader, data, words):
    with pytest.raises(BoardFormatError, match=words):
        loader(data)


@pytest.mark.parametrize("first_click", ["safe", "opening", "random-safe", "highest"])
def test_a_board_with_no_safe_cell_is_refused_by_every_safe_first_click(first_click):
    with pytest.raises(BoardFormatError, match=f"a 3x2 board with 6 mines has no safe cell for the first click '{first_click}'"):
        Board.random("3x2x6", seed=0, first_click=first_click)
    board = Board.random("3x2x5", seed=0, first_click=first_click)  # one safe cell: that is where it clicks
    assert board.first_click is not None and not board.is_mine(board.first_click)


def test_an_unsafe_first_click_may_meet_a_full_board():
    assert Board.random("3x2x6", seed=0, first_click="unsafe").n_mines == 6


@pytest.mark.parametrize("size, first_click", [("1x1x0", "safe"), ("1x1x1", "unsafe"), ("2x2x4", "unsafe"), ("3x3x0", "opening"), ("2x1x0", "unsafe")])
@pytest.mark.parametrize("rules", ["classic", "minesearch", "score"])
def test_every_agent_finishes_the_smallest_and_fullest_boards(size, first_click, rules):
    board = Board.random(size, seed=0, first_click=first_click)
    if rules == "classic" and board.n_mines == board.size:  # nothing safe to open: won before a move
        assert Game(board, rules=rules).status == "won"
    for name in agent_names():
        record = play(make_agent(name), Game(board, rules=rules), seed=0)
        assert record.status in ("won", "finished"), (name, record.status)
        if rules == "minesearch":
            assert record.mines_opened == board.n_mines


def board_of(text: str, **options) -> Board:
    return Board(np.array([[ch == "*" for ch in row] for row in text.split()]), **options)


def test_classic_rules():
    game = Game(board_of("*.. ...", first_click=None))
    game.apply(Action.open(5))  # a 0 in the far corner opens its neighbours
    assert game.position.grid.tolist() == [[COVERED, 1, 0], [COVERED, 1, 0]]  # (1,0) touches no 0
    game.apply(Action.flag(0))
    assert game.position.grid[0, 0] == FLAG and game.status == "playing"
    game.apply(Action.open(3))
    assert game.status == "won"
    lost = Game(board_of("*.. ...", first_click=None))
    lost.apply(Action.open(0))
    assert lost.status == "lost" and lost.position.grid[0, 0] == MINE
    with pytest.raises(IllegalMoveError, match="over"):
        lost.apply(Action.open(1))


def test_minesearch_goes_on_until_every_mine_is_found():
    game = Game(board_of("*.* ...", first_click=None), rules="minesearch")
    game.apply(Action.open(0))
    assert game.status == "playing" and game.position.grid[0, 0] == MINE
    game.apply(Action.open(2))
    assert game.status == "won" and game.opened_fraction == pytest.approx(2 / 6)


def test_minesearch_opens_one_square_a_move_and_counts_only_the_players_openings():
    """Seeds 000 and 004 mine one square at a time and measure the squares mined: a zero shows itself
    alone (its neighbours stay covered, known safe), and the measure is the player's openings over all
    cells, the first (safe) square included, mines included."""
    game = Game(board_of("*.. ... ...", first_click=8), rules="minesearch")  # the game's first click: a zero
    assert game.position.grid.tolist() == [[COVERED] * 3, [COVERED] * 3, [COVERED, COVERED, 0]]
    assert game.opened == 1 and game.opened_fraction == pytest.approx(1 / 9)
    game.apply(Action.open(4))  # a 1: shows itself alone too
    assert int(np.count_nonzero(game.position.grid != COVERED)) == 2
    game.apply(Action.open(0))
    assert game.status == "won" and game.opened_fraction == pytest.approx(3 / 9)  # three squares mined, one a mine
    cascading = Game(board_of("*.. ... ...", first_click=8), rules="classic")
    assert int(np.count_nonzero(cascading.position.grid != COVERED)) == 8  # classic opens through the zeros


@pytest.mark.parametrize("agent", agent_names())
def test_under_minesearch_the_measure_is_the_players_openings(agent):
    """Every agent under the seeds' rule: the fraction opened is exactly its open moves (and the game's
    first click) over the board, so nothing is opened for it."""
    for seed in range(4):
        board = Board.random("8x8x8", seed=seed)
        record = play(make_agent(agent), Game(board, rules="minesearch"), seed=seed)
        opens = sum(move.action.kind == "open" for move in record.history)
        assert record.status == "won" and record.mines_opened == 8
        assert record.opened_fraction == pytest.approx((opens + 1) / 64)


def test_score_counts_correct_flags():
    game = Game(board_of("*.* ...", first_click=None), rules="score")
    game.apply(Action.flag(0))
    game.apply(Action.open(2))  # set off
    for cell in (1, 3, 4, 5):
        game.apply(Action.open(cell))
    assert game.status == "finished" and game.score == 0.5 and game.mines_opened == 1


def test_withheld_clues_are_seeded_and_do_not_cascade():
    board = Board.random("expert", seed=1)
    views = [Game(board, withheld=0.5, seed=7).position for _ in range(2)]
    assert views[0] == views[1]
    assert np.any(views[0].grid == WITHHELD)
    game = Game(board_of("... ...", first_click=None), withheld=0.99, seed=0)
    game.apply(Action.open(0))
    assert game.opened == 1 and game.position.grid[0, 0] == WITHHELD


def test_illegal_moves_are_errors():
    game = Game(board_of("*.. ..."))
    with pytest.raises(IllegalMoveError, match="outside"):
        game.apply(Action.open(99))
    game.apply(Action.open(5))
    with pytest.raises(IllegalMoveError, match="not covered"):
        game.apply(Action.open(5))
    with pytest.raises(IllegalMoveError, match="exceed the 1 mines"):
        game.apply(Action.flag(0))
        game.apply(Action.flag(3))  # (1,0) is still covered
    with pytest.raises(ValueError):
        Game(board_of("*.."), rules="chess")


class Dithering:
    name = "dithering"

    def reset(self, *, rules, seed):
        pass

    def act(self, position):
        return Action.flag(position.size - 1)  # flag, unflag, flag, ... the same cell


def test_runner_stops_a_runaway_agent():
    with pytest.raises(AgentError, match="made 48 moves"):
        play(Dithering(), Game(Board.random("6x2x2", seed=3)))


def test_runner_reports_illegal_moves_with_the_agent_name():
    class Stubborn(Dithering):
        def act(self, position):
            return Action.open(position.clue_cells[0])

    with pytest.raises(AgentError, match="stubborn|dithering"):
        play(Stubborn(), Game(Board.random("6x2x2", seed=1)))


def test_records_are_reproducible():
    board = Board.random("intermediate", seed=21)
    records = [play(make_agent("knowledge-base"), Game(board, rules="score"), seed=5) for _ in range(2)]
    assert [m.action for m in records[0].history] == [m.action for m in records[1].history]
    assert records[0].moves == len(records[0].history) and records[0].guesses <= records[0].moves


def test_a_game_resumes_from_a_position_as_it_stood():
    """Mid-game, the position and the board rebuild the same game: same view, counts and replies to moves."""
    board = Board.random("intermediate", seed=4, first_click="safe")
    game = Game(board, rules="score")
    agent = make_agent("exact")
    for _ in range(25):
        if game.status != "playing":
            break
        game.apply(agent.act(game.position))
    resumed = Game.from_position(game.position, board, rules="score")
    assert (resumed.position.grid == game.position.grid).all()
    assert (resumed.opened, resumed.mines_opened, resumed.status) == (game.opened, game.mines_opened, game.status)
    for cell in range(board.size):
        if game.position.grid.flat[cell] == COVERED and game.status == "playing":
            game.apply(Action.open(cell))
            resumed.apply(Action.open(cell))
            assert (resumed.position.grid == game.position.grid).all() and resumed.status == game.status


def test_a_drawn_layout_resumes_the_position_and_plays_to_the_end():
    position = Position.from_string("5x3x3\n1....\n.....\n.....")
    for layout in sample_layouts(position, 10, seed=2):
        board = Board.from_layout(5, 3, layout)
        game = Game.from_position(position, board)
        assert (game.position.grid == position.grid).all() and game.status == "playing"
        assert play(make_agent("exact"), game, seed=1).status in ("won", "lost")


@pytest.mark.parametrize(
    "text, mines, message",
    [
        ("3x1x1\n1..", [[False, False, True]], r"\(0, 0\) shows 1, the board's clue there is 0"),
        ("3x1x1\n1..", [[True, False, False]], r"\(0, 0\) is open, the board has a mine there"),
        ("3x1x1\nF1.", [[False, False, True]], r"\(0, 0\) is flagged, the board has no mine there"),
        ("3x1x1\n*1.", [[False, False, True]], r"\(0, 0\) shows a mine, the board has none there"),
        ("3x1x2\n.1.", [[True, False, False]], "the board has 1 mines, the position's total is 2"),
        ("2x1x1\n.1", [[True, False, False]], "the board is 3x1, the position 2x1"),
    ],
)
def test_a_board_that_cannot_show_the_position_is_named(text, mines, message):
    with pytest.raises(BoardMismatchError, match=message):
        Game.from_position(Position.from_string(text), Board(mines))


def test_a_classic_position_with_an_opened_mine_is_lost():
    position = Position.from_string("3x1x1\n*1.")
    assert Game.from_position(position, Board([[True, False, False]])).status == "lost"
    assert Game.from_position(position, Board([[True, False, False]]), rules="minesearch").status == "won"


@pytest.mark.parametrize("agent", ["exact", "greedy", "knowledge-base", "partition", "random", "risk-score", "set-theory", "single-point"])
def test_minesearch_from_a_flagged_position_lifts_the_flags_so_every_mine_can_be_found(agent):
    """A flagged cell cannot be opened, and under minesearch opening is how a mine is found:
    the resumed game starts with the flags lifted, and every agent finds every mine."""
    position = Position.from_string("5x5x7\nF.111\n3?32F\n..3.4\n113..\n00.22")
    (board_mines,) = sample_layouts(position, 1, seed=2)
    board = Board.from_layout(5, 5, board_mines)
    game = Game.from_position(position, board, rules="minesearch")
    assert not (game.position.grid == FLAG).any()
    assert (game.position.grid == COVERED).sum() == (position.grid == COVERED).sum() + (position.grid == FLAG).sum()
    assert Game.from_position(position, board, rules="classic").position == position  # other rules keep them
    record = play(make_agent(agent), game, seed=0)
    assert record.status == "won" and record.mines_opened == 7


def test_every_agent_plays_on_to_the_end_from_random_positions_under_every_rule():
    """Resumed from 150 random small positions (flags, opened mines and withheld clues among them)
    on a board drawn from the position, every agent finishes every game it can play without an error."""
    def drawn_board(position: Position):
        try:
            (layout,) = sample_layouts(position, 1, seed=position.size)
        except CspminesError:  # inconsistent: no board shows it
            return None
        return Board.from_layout(position.width, position.height, layout)

    finished = 0
    for position, board in positions_with_total(150, 11, max_covered=10, accept=drawn_board):
        for rules in ("classic", "minesearch", "score"):
            if Game.from_position(position, board, rules=rules).status != "playing":
                continue
            for agent in agent_names():
                record = play(make_agent(agent), Game.from_position(position, board, rules=rules), seed=1)
                assert record.status in ("won", "lost", "finished"), (agent, rules, position)
                finished += 1
    assert finished > 2000
