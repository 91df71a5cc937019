"""No-guess boards: certify against an independent step-by-step brute force, the local rules' kernel against
their Python reference, and the uniform draw against a full enumeration of a small board's no-guess boards."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import chisquare

from cspmines import Limit
from cspmines.games import Board, Game, read_board
from cspmines.games.board import BoardFormatError, _first_click_cell
from cspmines.games.certificate import NoFirstClickError, certify, layout_clues
from cspmines.games.deduce import DeductionError, settle_board
from cspmines.games.noguess import NoGuessError, _proposal, draw_no_guess
from cspmines.neighbours import neighbour_table
from cspmines.position import COVERED, FLAG
from cspmines.web import SERVER_MEMORY


class BruteBoard:
    """Every layout of a small board's mines, each with its clues: no boxes, no rules, no engine."""

    def __init__(self, width: int, height: int, mines: int):
        self.width, self.height, self.mines = width, height, mines
        size = width * height
        chosen = np.array(list(itertools.combinations(range(size), mines)), dtype=np.int64).reshape(-1, mines)
        self.layouts = np.zeros((len(chosen), size), dtype=bool)
        np.put_along_axis(self.layouts, chosen, True, axis=1)
        grids = self.layouts.reshape(-1, height, width).astype(np.int8)
        padded = np.pad(grids, ((0, 0), (1, 1), (1, 1)))
        clues = sum(padded[:, 1 + dr:1 + dr + height, 1 + dc:1 + dc + width]
                    for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
        self.clues = clues.reshape(len(chosen), size)

    def play(self, truth: int, click: int) -> tuple[bool, set, dict]:
        """Layout ``truth`` played from ``click``: at each step the covered cells safe in every layout that shows
        the same open cells are opened (a zero opening its neighbours), until none is. Returns whether every
        safe cell was opened, the cells open where it stopped, and each covered cell's mine chance there."""
        width, height = self.width, self.height
        clue = self.clues[truth]
        opened: set = set()

        def open_cell(cell: int) -> None:
            stack = [cell]
            while stack:
                current = stack.pop()
                if current in opened:
                    continue
                opened.add(current)
                if clue[current] == 0:
                    row, col = divmod(current, width)
                    stack.extend(r * width + c for r in range(max(0, row - 1), min(height, row + 2))
                                 for c in range(max(0, col - 1), min(width, col + 2)))

        open_cell(click)
        while True:
            shown = sorted(opened)
            fits = ~self.layouts[:, shown].any(axis=1) & (self.clues[:, shown] == clue[shown]).all(axis=1)
            covered = [cell for cell in range(width * height) if cell not in opened]
            mines_in = self.layouts[fits][:, covered].sum(axis=0)
            chances = {cell: Fraction(int(k), int(fits.sum())) for cell, k in zip(covered, mines_in, strict=True)}
            safe = [cell for cell in covered if chances[cell] == 0]
            if len(opened) == width * height - self.mines:
                return True, opened, chances
            if not safe:
                return False, opened, chances
            for cell in safe:
                open_cell(cell)


def _shown_open(position) -> set:
    return {cell for cell, code in enumerate(position.grid.ravel().tolist()) if code >= 0}


@pytest.mark.parametrize("width,height,mines", [(4, 4, 3), (5, 4, 4), (5, 5, 5), (6, 4, 5), (7, 3, 4), (4, 6, 6)])
def test_certify_agrees_with_a_step_by_step_brute_force(width, height, mines):
    brute = BruteBoard(width, height, mines)
    rng = np.random.default_rng([width, height, mines])
    seen = {True: 0, False: 0}
    for truth in rng.choice(len(brute.layouts), size=min(150, len(brute.layouts)), replace=False).tolist():
        safe = np.flatnonzero(~brute.layouts[truth])
        click = int(safe[rng.integers(len(safe))])
        board = Board(brute.layouts[truth].reshape(height, width), first_click=click)
        no_guess, opened, chances = brute.play(truth, click)
        certificate = certify(board)
        assert certificate.no_guess == no_guess
        assert _shown_open(certificate.position) == opened  # where it stopped: the same cells open
        assert certificate.opened == len(opened)
        seen[no_guess] += 1
        if no_guess:
            continue
        covered = dict(chances)
        proved = {cell for cell, p in covered.items() if p == 1}
        flagged = {cell for cell, code in enumerate(certificate.position.grid.ravel().tolist()) if code == FLAG}
        assert flagged == proved  # every proved mine flagged, nothing else
        least = min(p for cell, p in covered.items())
        assert certificate.least == least
        assert set(certificate.least_cells) == {cell for cell, p in covered.items() if p == least and cell not in proved}
    assert seen[True] and seen[False]  # both verdicts met


def test_a_first_click_on_a_mine_needs_a_guess_and_no_click_is_an_error():
    board = Board([[True, False], [False, False]])
    certificate = certify(board, first_click=0)
    assert certificate.first_click_mine and not certificate.no_guess and certificate.opened == 0
    with pytest.raises(NoFirstClickError, match="carries no first click"):
        certify(board)
    with pytest.raises(NoFirstClickError, match="outside"):
        certify(board, first_click=4)


def test_a_first_click_on_a_mine_stops_where_every_cell_had_the_chance_nothing_shown_gives():
    # nothing shown yet: over every layout of the board's mines, each cell a mine as often as any other
    brute = BruteBoard(4, 3, 3)
    before = {Fraction(int(k), len(brute.layouts)) for k in brute.layouts.sum(axis=0)}
    assert before == {Fraction(3, 12)}
    layout = np.zeros(12, dtype=bool)
    layout[[0, 5, 11]] = True
    certificate = certify(Board(layout.reshape(3, 4)), first_click=5)
    assert certificate.first_click_mine and certificate.least == Fraction(3, 12)
    assert certificate.least_cells == tuple(range(12)) and certificate.opened == 0 and certificate.exact_steps == 0


def test_the_local_rules_never_open_a_mine_of_the_board_they_read():
    # a view that is not the board's: the clue says 0 around a mine
    clues = layout_clues(np.array([[False, True, False]]))
    view = bytearray([0, COVERED & 0xFF, COVERED & 0xFF])
    with pytest.raises(DeductionError, match="proved safe but is a mine"):
        settle_board(clues, view, 3, 1, 1)


def _no_guess_boards(width: int, height: int, mines: int, rule: str) -> list:
    """Every board of the rule's draws that its first click solves without a guess, by brute force."""
    brute = BruteBoard(width, height, mines)
    click, free = _proposal(width, height, mines, rule)
    kept = [i for i in range(len(brute.layouts)) if not brute.layouts[i][np.setdiff1d(np.arange(width * height), free)].any()]
    return [brute.layouts[i].tobytes() for i in kept if brute.play(i, click)[0]]


@pytest.mark.parametrize("rule", ["opening", "safe"])
def test_the_uniform_draw_is_uniform_over_every_no_guess_board(rule):
    width, height, mines = (5, 4, 4) if rule == "opening" else (4, 4, 4)
    boards = _no_guess_boards(width, height, mines, rule)
    assert 20 <= len(boards) <= 400
    draws = 25 * len(boards)
    counts = dict.fromkeys(boards, 0)
    for i in range(draws):
        board = draw_no_guess((width, height, mines), seed=[5, i], first_click=rule).board
        counts[board.mines.ravel().tobytes()] += 1  # a board outside the set raises KeyError
    _, p = chisquare(list(counts.values()))
    assert p > 0.001, (p, sorted(counts.values()))
    assert min(counts.values()) > 0
    # the control: the same check on a draw that favours mines in the low cells finds it out
    click, free = _proposal(width, height, mines, rule)
    rng, weights = np.random.default_rng(5), 1.0 / (1 + free)
    biased = dict.fromkeys(boards, 0)
    while sum(biased.values()) < draws:
        layout = np.zeros(width * height, dtype=bool)
        layout[rng.choice(free, size=mines, replace=False, p=weights / weights.sum())] = True
        if layout.tobytes() in biased:
            biased[layout.tobytes()] += 1
    assert chisquare(list(biased.values()))[1] < 1e-6


def test_every_no_guess_board_of_the_safe_rule_is_among_its_draws():
    # with more mines than the corner has neighbours, a no-guess board's corner is a zero: the draws keep its
    # neighbours free; the safe rule's no-guess boards found over all its boards are exactly those
    brute = BruteBoard(4, 4, 4)
    everything = {brute.layouts[i].tobytes() for i in range(len(brute.layouts))
                  if not brute.layouts[i][0] and brute.play(i, 0)[0]}
    assert everything == set(_no_guess_boards(4, 4, 4, "safe"))


#: Boards small enough to list every layout of every number of mines.
TINY = [(2, 2), (3, 2), (2, 3), (4, 2), (3, 3), (4, 3), (5, 2), (3, 1), (5, 1)]


@pytest.mark.parametrize("rule", ["safe", "opening"])
def test_on_tiny_boards_the_draws_hold_every_no_guess_board_and_none_is_refused_that_has_one(rule):
    # every layout of every number of mines, with the cells the rule promises safe left free, played out by brute
    # force: where some are no-guess, the draw's cells hold each of them and a draw is one of them; where none
    # is, the draw is refused
    drawn = refused = 0
    for width, height in TINY:
        click = _first_click_cell(width, height, rule)
        promised = [click] + (list(neighbour_table(width, height)[click]) if rule == "opening" else [])
        for mines in range(1, width * height):
            brute = BruteBoard(width, height, mines)
            boards = {brute.layouts[i].tobytes() for i in range(len(brute.layouts))
                      if not brute.layouts[i][promised].any() and brute.play(i, click)[0]}
            if not boards:
                with pytest.raises(NoGuessError):
                    draw_no_guess((width, height, mines), seed=0, first_click=rule, attempts=20)
                refused += 1
                continue
            _, free = _proposal(width, height, mines, rule)
            assert all(set(np.flatnonzero(np.frombuffer(board, dtype=bool)).tolist()) <= set(free.tolist()) for board in boards), \
                (width, height, mines)
            board = draw_no_guess((width, height, mines), seed=0, first_click=rule).board
            assert board.mines.ravel().tobytes() in boards and board.first_click == click
            drawn += 1
    assert drawn > 10 and refused > 10


def test_a_board_whose_free_cells_exactly_hold_the_mines_is_drawn_at_once():
    for size, rule, click, mines in [("2x2x3", "safe", 0, [1, 2, 3]),  # the click's neighbours exactly hold them
                                     ("3x3x8", "safe", 0, list(range(1, 9))),  # every cell but the click: the click wins
                                     ("3x1x2", "safe", 0, [1, 2]),
                                     ("4x4x7", "opening", 10, [0, 1, 2, 3, 4, 8, 12])]:  # all but the opening
        drawn = draw_no_guess(size, seed=1, first_click=rule, attempts=1)
        assert drawn.attempts == 1 and drawn.board.first_click == click, size
        assert np.flatnonzero(drawn.board.mines.ravel()).tolist() == mines, size
        assert certify(drawn.board).no_guess, size


def test_the_uniform_draw_is_uniform_where_the_clicks_neighbourhood_exactly_holds_the_mines():
    # 3x3 with 3 mines: the corner's three neighbours hold as many mines as the board, so the draws may not keep
    # them free; one of the seven no-guess boards is those three mined (the click shows 3, the rest is safe)
    boards = _no_guess_boards(3, 3, 3, "safe")
    brute = BruteBoard(3, 3, 3)
    every = {brute.layouts[i].tobytes() for i in range(len(brute.layouts)) if not brute.layouts[i][0] and brute.play(i, 0)[0]}
    assert set(boards) == every
    assert len(boards) == 7 and [1, 3, 4] in [np.flatnonzero(np.frombuffer(board, dtype=bool)).tolist() for board in boards]
    counts = dict.fromkeys(boards, 0)
    for i in range(70 * len(boards)):
        counts[draw_no_guess("3x3x3", seed=[8, i]).board.mines.ravel().tobytes()] += 1  # a board outside the set: KeyError
    assert min(counts.values()) > 0 and chisquare(list(counts.values()))[1] > 0.001, sorted(counts.values())


def test_adjusted_boards_are_certified_and_say_so():
    for i in range(5):
        drawn = draw_no_guess("16x16x50", seed=[3, i], first_click="opening", method="adjust")
        assert drawn.method == "adjust" and certify(drawn.board).no_guess
        assert drawn.board.first_click == 2 * 16 + 2
    drawn = draw_no_guess("30x16x120", seed=1, method="adjust")
    assert drawn.moved > 0 and certify(drawn.board).no_guess


@pytest.mark.parametrize("method", ["uniform", "adjust"])
def test_a_draw_certifies_no_more_boards_than_its_attempts(method, monkeypatch):
    from cspmines.games import noguess

    plays: list = []
    certify_layout = noguess.certify_layout
    monkeypatch.setattr(noguess, "certify_layout", lambda *args, **kwargs: plays.append(1) or certify_layout(*args, **kwargs))
    drawn = failed = 0
    for attempts in (1, 2, 3, 5):
        for seed in range(12):
            plays.clear()
            try:
                found = draw_no_guess("16x16x60", seed=seed, method=method, attempts=attempts)
            except NoGuessError as error:
                assert f"in {attempts:,} " in str(error)
                assert len(plays) == attempts  # every attempt used, no more
                failed += 1
            else:
                assert found.attempts == len(plays) <= attempts
                drawn += 1
    assert drawn and failed


def test_a_no_guess_board_starts_a_game_and_keeps_its_first_click_through_json(tmp_path):
    board = draw_no_guess("expert", seed=4, first_click="opening").board
    assert board.first_click == 3 * 30 + 3 and certify(board).no_guess
    assert draw_no_guess("expert", seed=4, first_click="opening").board == board  # the same seed, the same board
    game = Game(board)
    assert game.status == "playing" and game.position.grid[3, 3] == 0
    path = tmp_path / "board.json"
    path.write_text(board.to_json())
    again = read_board(path)
    assert again == board and again.first_click == board.first_click
    assert json.loads(board.to_json())["first_click"] == [3, 3]


def test_bad_requests_are_refused_in_one_line():
    with pytest.raises(NoGuessError, match="safe or opening"):
        draw_no_guess("beginner", first_click="random-safe")
    with pytest.raises(NoGuessError, match="in 3 draws"):
        draw_no_guess("30x16x200", seed=0, attempts=3)
    with pytest.raises(ValueError, match="method must be one of uniform, adjust"):
        draw_no_guess("beginner", method="fast")
    with pytest.raises(BoardFormatError, match="first click"):
        Board.from_json('{"width": 2, "height": 2, "mines": [], "first_click": [2, 0]}')


def test_generate_writes_no_guess_boards_that_certify_passes(tmp_path, capsys):
    from cspmines.cli import main

    out = tmp_path / "boards"
    assert main(["generate", "--no-guess", "--preset", "expert", "--count", "3", "--seed", "2", "--first-click", "opening",
                 "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "wrote 3 no-guess boards" in said and "uniformly among the boards the first click solves" in said
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files] == ["board-00000.json", "board-00001.json", "board-00002.json"]
    for i, path in enumerate(files):  # board i from the seed and i alone, as Board.no_guess draws it
        assert read_board(path) == draw_no_guess("expert", seed=np.random.default_rng([2, i]), first_click="opening").board
    assert main(["certify", *map(str, files)]) == 0
    assert capsys.readouterr().out.count("no guess needed from (3,3)") == 3
    assert main(["generate", "--no-guess", "--size", "30x16x120", "--method", "adjust", "--out", str(tmp_path / "a")]) == 0
    assert "adjusted (not uniform" in capsys.readouterr().out
    assert main(["certify", str(tmp_path / "a" / "board-00000.json"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["no_guess"] is True
    assert main(["generate", "--no-guess", "--preset", "beginner", "--count", "2", "--seed", "4"]) == 0  # JSON lines
    lines = capsys.readouterr().out.splitlines()
    assert [Board.from_json(line) for line in lines] == [
        draw_no_guess("beginner", seed=np.random.default_rng([4, i])).board for i in range(2)]
    assert all(json.loads(line)["first_click"] == [0, 0] for line in lines)


def test_certify_names_the_first_position_needing_a_guess_and_its_least_risky_cell(tmp_path, capsys):
    from cspmines.cli import main

    board = Board([[False, False, False, False], [False, False, False, True]])
    mbf = tmp_path / "b.mbf"
    mbf.write_bytes(board.to_mbf())
    assert main(["certify", str(mbf), "--first-click", "0,0"]) == 1
    text = capsys.readouterr().out
    assert "a guess is needed from (0,0): with 6 safe cells open" in text
    assert "least risky: (0,3) at 1/2 (0.5000), and 1 more cell at that chance" in text
    assert "001.\n  001." in text
    assert main(["certify", str(mbf), "--first-click", "0,0", "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["least"] == "1/2" and answer["least_cells"] == [[0, 3], [1, 3]] and answer["no_guess"] is False
    text_board = tmp_path / "b.txt"
    text_board.write_text("3x3x1\n000\n011\n01*\n")  # the text format with its mine marked
    assert main(["certify", str(text_board), "--first-click", "0,0"]) == 0
    capsys.readouterr()


def test_certify_refuses_bad_input_in_one_line(tmp_path, capsys):
    from cspmines.cli import main

    board = tmp_path / "b.json"
    board.write_text(Board([[False, True]]).to_json())
    assert main(["certify", str(board)]) == 2
    assert capsys.readouterr().err.strip() == "cspmines: error: the board carries no first click: give one, --first-click ROW,COL"
    assert main(["certify", str(board), "--first-click", "5,5"]) == 2
    assert "outside the 2x1 board" in capsys.readouterr().err
    broken = tmp_path / "c.json"
    broken.write_text("{")
    assert main(["certify", str(broken), str(board), "--first-click", "0,0"]) == 2  # one bad board of two: its line, exit 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "c.json" in err
    assert main(["generate", "--no-guess", "--first-click", "highest"]) == 2
    assert "safe or opening" in capsys.readouterr().err


def test_a_study_plays_the_same_no_guess_boards_for_every_agent(tmp_path):
    from cspmines.bench import board_for
    from cspmines.studies.run import run_study
    from cspmines.studies.spec import parse_study

    study = parse_study('games = 4\nseed = 3\n[[suite]]\nname = "ng"\nsize = "9x9x10"\nfirst_click = "opening"\n'
                        'no_guess = true\nagents = ["exact", "set-theory"]\n')
    (_, point), = study.suites[0].points
    boards = [board_for(point, i) for i in range(4)]
    assert all(certify(board).no_guess for board in boards)
    assert len({board.mines.tobytes() for board in boards}) == 4
    plain = parse_study('games = 4\nseed = 3\n[[suite]]\nname = "p"\nsize = "9x9x10"\nfirst_click = "opening"\nagents = ["exact"]\n')
    assert [board_for(plain.suites[0].points[0][1], i) for i in range(4)] != boards  # the flag changes the boards
    result = run_study(study, tmp_path, workers=1, progress=False)
    assert {(r["agent"], r["game"]) for r in result.records} == {(a, i) for a in ("exact", "set-theory") for i in range(4)}
    assert all(r["no_guess"] is True for r in result.records)
    assert all(r["won"] for r in result.records if r["agent"] == "exact")  # a proved cell is always there to open
    from cspmines.cli import main

    assert main(["compare", str(tmp_path / "games" / "ng-0.jsonl")]) == 0  # their records pair as any suite's


def test_a_study_refuses_a_no_guess_suite_it_cannot_draw(tmp_path):
    from cspmines.studies.spec import StudyError, parse_study

    with pytest.raises(StudyError, match=r"s.toml:5: suite \"ng\": no-guess boards are drawn under the first click safe or opening"):
        parse_study('[[suite]]\nname = "ng"\nagents = ["exact"]\nno_guess = true\nfirst_click = "highest"\n', source="s.toml")
    with pytest.raises(StudyError, match=r"s.toml:3: .*no room for a no-guess first click"):
        parse_study('[[suite]]\nname = "ng"\nsize = "3x3x6"\nagents = ["exact"]\nno_guess = true\n', source="s.toml")
    with pytest.raises(StudyError, match="no_guess must be true or false"):
        parse_study('[[suite]]\nname = "ng"\nagents = ["exact"]\nno_guess = 1\n', source="s.toml")


def test_the_web_api_starts_a_no_guess_game_and_keeps_an_uploaded_boards_first_click():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from cspmines.web import create_app

    client = TestClient(create_app(limit=Limit(time=5.0, memory=SERVER_MEMORY)))
    game = client.post("/api/games", json={"size": "expert", "seed": 9, "no_guess": True, "first_click": "opening"}).json()
    board = draw_no_guess("expert", seed=9, first_click="opening").board
    assert game["position"] == str(Game(board).position)
    answer = client.post("/api/games", json={"size": "expert", "no_guess": "yes"})
    assert answer.status_code == 400 and answer.json()["error"] == "no_guess must be true or false, got 'yes'"
    answer = client.post("/api/games", json={"size": "30x16x200", "no_guess": True})
    assert answer.status_code == 400 and "no no-guess 30x16 board with 200 mines in 2,000 draws" in answer.json()["error"]
    answer = client.post("/api/games", json={"size": "beginner", "no_guess": True, "first_click": "highest"})
    assert answer.status_code == 400 and "safe or opening" in answer.json()["error"]
    uploaded = client.post("/api/games", json={"board": board.to_json()}).json()  # its own first click, (3,3)
    assert uploaded["position"] == game["position"]
