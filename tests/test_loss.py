"""The winning chance a move loses (cspmines.games.loss, and the judge's loss): against a plain expectimax of the
game as it is played (tests/bruteforce.py), proved opens at 0, a proved mine at the whole value, chords and
searches past the budget counted and not valued, the budget's edge, and a game's losses adding up to the
winning chance given up (on a tiny board where every position is valued)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from cspmines import Limit, Position
from cspmines.actions import Action
from cspmines.agents import make_agent
from cspmines.bench.judged import judged_paired, judged_summary
from cspmines.cli import main
from cspmines.engine.layouts import layout_table
from cspmines.engine.value import value_of
from cspmines.errors import InconsistentPositionError
from cspmines.games import Board, Game, play
from cspmines.games.judge import (
    JUDGE_VALUE_LIMIT,
    ClickClass,
    GameJudgement,
    OpenJudgement,
    as_seen,
    expected_win,
    judge_moves,
    judge_open,
)
from cspmines.games.loss import mine_loss, move_loss

from bruteforce import best_play_wins, mine_layouts
from randompositions import positions_with_total


def small_positions(count: int, seed: int, most: int = 9):
    """Random positions (flags, opened mines, withheld clues) with a total, at most ``most`` covered cells once
    their flags are read as covered, and a layout."""
    def fits(position):
        seen = as_seen(position)
        try:
            return True if 2 <= len(seen.covered_cells) <= most and layout_table(seen).count >= 1 else None
        except InconsistentPositionError:
            return None

    return [position for position, _ in positions_with_total(count, seed, max_covered=most + 3, accept=fits)]


def test_every_cells_loss_is_the_brute_force_value_minus_the_brute_force_value_after_it():
    positions = small_positions(120, seed=5)
    assert any("F" in str(p) for p in positions) and any("?" in str(p) for p in positions)
    lossy = 0
    for position in positions:
        seen = as_seen(position)
        wins, cells, layouts = best_play_wins(seen)
        for cell, after in cells.items():
            found = move_loss(seen, (cell,))
            assert found.loss == Fraction(wins - after, layouts), (position, cell)
            assert (found.value, found.move) == (Fraction(wins, layouts), Fraction(after, layouts))
            lossy += found.loss > 0
    assert lossy > 50  # many moves here do lose: the check is not of zeros alone


def test_the_judge_gives_proved_opens_0_a_proved_mine_the_whole_value_and_a_guess_its_brute_force_loss():
    kinds = set()
    for position in small_positions(80, seed=6):
        seen = as_seen(position)
        wins, cells, layouts = best_play_wins(seen)
        mines = set.intersection(*(set(layout) for layout in mine_layouts(seen)))
        for cell, after in cells.items():
            judged = judge_open(position, (cell,))
            assert not judged.unvalued and judged.loss == Fraction(wins - after, layouts), (position, cell)
            if judged.kind == ClickClass.PROVED:
                assert judged.loss == 0
            if cell in mines:
                assert judged.blunder and judged.loss == Fraction(wins, layouts) == mine_loss(seen).loss
            kinds.add((judged.kind, judged.blunder))
    assert {(ClickClass.PROVED, False), (ClickClass.FORCED, True), (ClickClass.FORCED, False), (ClickClass.NEEDLESS, False)} <= kinds


def test_a_proved_open_loses_0_without_a_search():
    # a value budget too small for any search here (a guess is not valued in it), yet the proved open is valued: 0
    position, tiny = Position.from_string("3x2x1\n1..\n..."), Limit(nodes=1, memory=64)
    assert judge_open(position, (1,), value=tiny).unvalued and move_loss(position, (1,), limit=tiny).why == "layouts"
    judged = judge_open(position, (2,), value=tiny)
    assert judged.kind == ClickClass.PROVED and judged.loss == 0 and not judged.unvalued


def test_a_chord_is_counted_and_not_valued_unless_every_cell_of_it_is_proved():
    position = Position.from_string("5x1x2\n....1")
    assert move_loss(position, (0, 1)).why == "chord" and move_loss(position, (0, 1)).loss is None
    chord = judge_open(position, (0, 1))
    assert chord.kind == ClickClass.FORCED and chord.loss is None and chord.unvalued
    proved = judge_open(Position.from_string("3x2x1\n1..\n..."), (2, 5))  # (0,2) and (1,2): both away from the mine
    assert proved.kind == ClickClass.PROVED and proved.loss == 0 and not proved.unvalued
    game = GameJudgement.of([chord, proved, judge_open(position, (0,))], valued=True)
    assert (game.guesses, game.unvalued, game.loss, game.fully_valued) == (2, 1, Fraction(0), False)
    assert GameJudgement.of([chord], valued=False).unvalued is None  # not asked: neither valued nor counted


def test_a_search_needs_exactly_its_states_and_one_fewer_leaves_a_guess_unvalued():
    position = Position.from_string("4x4x4\n....\n....\n....\n....")
    states = value_of(position, cells="all").states
    enough = [move_loss(position, (cell,), limit=Limit(nodes=states)) for cell in position.covered_cells]
    assert all(found.valued for found in enough)
    short = [move_loss(position, (cell,), limit=Limit(nodes=states - 1)) for cell in position.covered_cells]
    assert any(not found.valued for found in short) and {found.why for found in short if not found.valued} == {"nodes"}
    assert all(found.loss == whole.loss for found, whole in zip(short, enough, strict=True) if found.valued)  # bounds met: exact
    cell = next(c for c, found in zip(position.covered_cells, short, strict=True) if not found.valued)
    judged = judge_open(position, (cell,), value=Limit(nodes=states - 1))
    assert judged.kind == ClickClass.FORCED and judged.loss is None and judged.unvalued
    assert judge_open(position, (cell,), value=Limit(nodes=states)).loss == enough[position.covered_cells.index(cell)].loss
    game = GameJudgement.of([judged, judge_open(position, (cell,), value=Limit(nodes=states))], valued=True)
    assert (game.unvalued, game.fully_valued) == (1, False)


def test_too_many_layouts_for_the_memory_are_refused_unvalued_and_the_judges_budget_is_named():
    empty = Position.from_string("9x9x10\n" + "\n".join("." * 9 for _ in range(9)))
    assert move_loss(empty, (40,), limit=JUDGE_VALUE_LIMIT).why == "layouts"
    assert judge_open(empty, (40,)).unvalued
    assert JUDGE_VALUE_LIMIT.nodes is not None and JUDGE_VALUE_LIMIT.memory is not None


def start_position():
    """A 4x3 board of 3 mines after its first click (8 covered cells): the tiny board of the telescoping test."""
    board = Board.from_layout(4, 3, [3, 6, 8])
    game = Game(board)
    game.apply(Action.open(0))
    return game.position


def played(agent: str, game: Game) -> tuple:
    """The agent's game record and its (position seen, action) pairs, in order."""
    moves: list = []
    record = play(make_agent(agent), game, seed=3, observe=lambda p, a: moves.append((p, a)))
    return record, moves


@pytest.mark.parametrize("agent", ["random", "greedy", "exact"])
def test_a_games_losses_add_up_on_average_to_the_value_of_its_start_minus_the_players_win_chance(agent):
    """Over every layout the start allows (each as likely), the mean of a game's summed losses is the start's
    value minus the share of games the agent wins: the value of each position reached is, on average over
    what a move shows, the value of the move that reached it."""
    start = start_position()
    wins, _, layouts = best_play_wins(start)
    total, won = Fraction(0), 0
    for layout in mine_layouts(start):
        board = Board.from_layout(start.width, start.height, sorted(layout))
        record, moves = played(agent, Game.from_position(start, board))
        judged = judge_moves(moves)
        assert judged.fully_valued and judged.exact
        total += judged.loss
        won += record.won
    assert total / layouts == Fraction(wins, layouts) - Fraction(won, layouts)
    if agent == "random":
        assert total > 0  # a player that loses chances: the sum is not 0 = 0


def test_means_and_pairs_of_the_loss_take_fully_valued_games_alone_and_old_records_are_read(tmp_path, capsys):
    base = {"width": 9, "height": 9, "mines": 10, "rules": "classic", "withheld": 0.0, "first_click": "safe", "seed": 0, "won": True}
    old = {"guesses": 1, "needless": 0, "blunders": 0, "excess_risk": 0.0, "survival": 0.5}  # written before the loss was kept

    def game(agent, i, loss, unvalued):
        return {**base, "agent": agent, "game": i, "judged": {**old, "loss": loss, "unvalued": unvalued}, "judged_exact": True}

    records = [game("a", 0, 0.25, 0), game("b", 0, 0.0, 0), game("a", 1, 0.5, 1), game("b", 1, 0.0, 0),
               game("a", 2, 0.125, 0), {**base, "agent": "b", "game": 2, "judged": old, "judged_exact": True}]
    rows = {row["agent"]: row for row in judged_summary(records)}
    assert (rows["a"]["loss"], rows["a"]["valued_games"], rows["a"]["unvalued"]) == (0.1875, 2, 1 / 3)
    assert (rows["b"]["loss"], rows["b"]["valued_games"], rows["b"]["valued_guesses"]) == (0.0, 2, 1.0)
    (loss,) = [row for row in judged_paired(records, against="b") if row["measure"] == "loss"]
    assert (loss["games"], loss["difference"]) == (1, 0.25)  # board 0 alone: a's board 1 has a guess not valued, b's board 2 no loss
    new, old_file = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    assert main(["bench", "--agent", "exact", "--agent", "random", "--size", "5x4x4", "--games", "4", "--workers", "1", "--quiet",
                 "--judge", "--out", str(new)]) == 0
    kept = [json.loads(line) for line in new.read_text().splitlines()]
    assert all(isinstance(r["judged"]["loss"], float) and isinstance(r["judged"]["unvalued"], int) for r in kept)
    old_file.write_text("".join(json.dumps({**r, "judged": {k: v for k, v in r["judged"].items() if k not in ("loss", "unvalued")}})
                                + "\n" for r in kept))
    capsys.readouterr()
    assert main(["compare", str(old_file)]) == 0
    text = capsys.readouterr().out
    assert "judged by the engine before every open" in text and "\n            loss" not in text  # no loss to pair


def test_a_replays_clicks_carry_their_losses_and_the_report_shows_the_games():
    from cspmines.replays import Replay, analyse_replay
    from cspmines.replays.report import replay_json, replay_text

    start = start_position()
    layout = [[int(r * 4 + c in (3, 6, 8)) for c in range(4)] for r in range(3)]
    clicks = [("open", 0, 0), ("open", 0, 3)]  # the second, a mine: a blunder or a guess, whatever it lost
    result = analyse_replay(Replay.from_moves(layout, clicks), agent=False)
    click = result.clicks[1]
    wins, cells, layouts = best_play_wins(start)
    assert click.loss == Fraction(wins - cells[3], layouts) and result.loss == click.loss and result.unvalued == 0
    data = replay_json(result)
    assert data["loss"] == str(click.loss) and data["clicks"][1]["loss"] == str(click.loss) and data["unvalued"] == 0
    assert "winning chance lost to best play" in replay_text(result)
    plain = analyse_replay(Replay.from_moves(layout, clicks), agent=False, value=None)
    assert plain.loss is None and plain.unvalued is None and replay_json(plain)["loss"] is None


def test_a_covered_board_for_the_first_click_is_valued_where_its_layouts_are_few():
    covered = Position.from_string("3x2x1\n...\n...")
    wins, cells, layouts = best_play_wins(covered)
    assert move_loss(covered, (0,)).loss == Fraction(wins - cells[0], layouts)


def four_by_four_start():
    """A 4x4 board of 3 mines after its first click, which shows 1 (15 covered cells, 198 layouts)."""
    game = Game(Board.from_layout(4, 4, [5, 10, 15]))
    game.apply(Action.open(0))
    return game.position


@pytest.mark.parametrize("agent", ["random", "greedy", "exact"])
def test_the_expected_win_has_the_win_rate_as_its_mean_over_every_layout_whatever_the_budget_values(agent):
    """Over every layout the start allows (each as likely), a game's expected win averages to the share of games
    won, exactly: with the first guesses past the value budget (their luck left in) and the later ones valued
    (theirs taken out), as with every guess valued."""
    start = four_by_four_start()
    layouts = mine_layouts(start)
    states = value_of(start, cells="all").states  # a quarter of them: no guess at the start is valued, later ones are
    assert len(layouts) == 198 and states > 20
    games = [played(agent, Game.from_position(start, Board.from_layout(4, 4, sorted(layout)))) for layout in layouts]
    won = Fraction(sum(record.won for record, _ in games), len(games))
    for budget in (Limit(nodes=states // 4), JUDGE_VALUE_LIMIT, Limit(nodes=3)):
        judged = [judge_moves(moves, value=budget, won=record.won) for record, moves in games]
        assert sum(j.expected_win for j in judged) / len(judged) == won, budget
        assert not any(j.luck_kept for j in judged)
        luck_out = sum(j.expected_win != record.won for j, (record, _) in zip(judged, games, strict=True))
        assert luck_out > 20 or budget.nodes == 3, budget  # many games' luck is taken out: the mean is not the win's by identity
    partly = [judge_moves(moves, value=Limit(nodes=states // 4), won=record.won) for record, moves in games]
    assert sum(j.unvalued for j in partly) > 0 and sum(j.guesses - j.unvalued for j in partly) > 0


def test_a_valued_guess_keeps_its_luck_when_the_next_position_has_no_value():
    valued = OpenJudgement(Fraction(1, 2), ClickClass.FORCED, loss=Fraction(1, 8), value=Fraction(3, 4))
    unknown = OpenJudgement(Fraction(1, 2), ClickClass.FORCED, unvalued=True)
    assert expected_win([valued, unknown], won=True) == (Fraction(1), 1)
    known = OpenJudgement(Fraction(1, 2), ClickClass.FORCED, unvalued=True, value=Fraction(1, 2))
    assert expected_win([valued, known], won=True) == (1 - (Fraction(1, 2) - Fraction(5, 8)), 0)
    game = GameJudgement.of([valued, unknown], valued=True, won=True)
    assert (game.expected_win, game.luck_kept, game.record()["expected_win"]) == (Fraction(1), 1, 1.0)
    assert GameJudgement.of([valued], valued=True).expected_win is None  # the outcome not given
    assert GameJudgement.of([valued], won=True).expected_win is None  # judged without values
