"""The web page in a real browser: Playwright drives Debian's Chromium against a server on this machine.

It loads the page, pastes a reference position and reads the overlay against the engine, plays a
beginner game to its end by clicking, steps through a replayed bench game, and saves the screenshot
that the documentation shows. ``.ci/run`` installs Chromium with apt-get when it is missing.
"""

from __future__ import annotations

import json
import shutil
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

import pytest

from cspmines import Position, solve
from cspmines.bench import Suite, play_game
from cspmines.position import FLAG, MINE

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.slow  # a browser started, a server, a game played by clicks: the quick run leaves them out


@pytest.fixture(scope="module")
def page():
    from localserver import serving
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.skip("the browser test needs Debian's Chromium: apt-get install chromium (.ci/run installs it)")

    from cspmines.web import create_app

    with serving(create_app()) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        tab = browser.new_page(viewport={"width": 1400, "height": 900})
        tab.goto(f"{url}/")
        tab.wait_for_selector("#board .cell")
        yield tab
        browser.close()


def overlay(tab) -> dict:
    """(row, col) -> the cell's title (its exact fraction) for every covered cell the page shaded."""
    cells = tab.query_selector_all("#board .cell[title]")
    return {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col"))): c.get_attribute("title") for c in cells}


def test_the_overlay_shows_the_engines_exact_chances(page):
    text = (DATA / "expert-5-027.txt").read_text()
    page.fill("#text", text)
    page.click("#solve")
    page.wait_for_function("document.querySelector('#status').textContent.includes('layouts')")
    assert page.query_selector_all("#board .cell").__len__() == 30 * 16  # the pasted board is the one drawn
    shown = overlay(page)
    analysis = solve(Position.from_string(text))
    fractions = analysis.probabilities(exact=True)
    covered = analysis.position.covered_cells
    assert len(shown) == len(covered)
    for (row, col), title in shown.items():
        assert title.startswith(f"({row}, {col}): {fractions[row, col]} =")


def test_clicking_a_covered_cell_outside_a_game_shows_what_it_will_show(page):
    import re

    from cspmines.engine.clues import clue_spread

    text = (DATA / "expert-5-027.txt").read_text()
    page.fill("#text", text)
    page.click("#solve")
    page.wait_for_function("document.querySelector('#status').textContent.includes('layouts')")
    analysis = solve(Position.from_string(text))
    cell = analysis.chains[0].cells[0]  # by the front: its clues revealed and counted
    row, col = analysis.position.row_col(cell)
    page.evaluate("document.querySelector('#advice').textContent = ''")
    page.click(f"#board .cell[data-row='{row}'][data-col='{col}']")
    page.wait_for_function("document.querySelector('#advice').textContent.startsWith('opening')")
    shown = page.text_content("#advice")
    spread = clue_spread(analysis, cell)
    mine, *clues = spread.floats()
    assert shown.startswith(f"opening ({row},{col}): a mine ")
    assert float(re.search(r"a mine ([0-9.]+)%", shown).group(1)) == pytest.approx(100 * mine, abs=0.006)
    listed = {int(k): float(v) for k, v in re.findall(r"(\d): ([0-9.]+)%", shown.split("shows", 1)[1])}
    assert listed.keys() == {k for k, p in enumerate(clues) if p > 0}
    for k, percent in listed.items():
        assert percent == pytest.approx(100 * clues[k], abs=0.006)


def test_a_beginner_game_is_played_to_the_end_by_clicking(page):
    page.select_option("#size", "beginner")
    page.fill("#seed", "7")
    page.click("#new")
    page.wait_for_function("document.querySelector('#status').textContent.includes('game playing')")
    for _ in range(200):
        status = page.text_content("#status")
        if "game won" in status or "game lost" in status:
            break
        safe = page.query_selector("#board .cell.sure:text-is('S')") or page.query_selector("#board .cell.best")
        safe.click()
        page.wait_for_function(f"!['solving…', {json.dumps(status)}].includes(document.querySelector('#status').textContent)")
    assert "game won" in page.text_content("#status") or "game lost" in page.text_content("#status")


def test_a_bench_record_is_replayed_step_by_step_and_the_page_saved(page, tmp_path):
    record = play_game(Suite.create(agents=["exact"], size="beginner", games=2, seed=4), "exact", 1)
    page.fill("#record", json.dumps(record))
    page.click("#replay")
    page.wait_for_function("document.querySelector('#step').textContent.startsWith('move 0 of')")
    total = int(page.text_content("#step").split(" of ")[1].split(":")[0])
    assert total == record["moves"]
    page.click("#next")
    page.wait_for_function("document.querySelector('#step').textContent.startsWith('move 1 of')")
    page.fill("#text", (ROOT / "cspmines" / "data" / "examples" / "beginner.txt").read_text())
    page.check("#chains")
    page.click("#solve")
    page.wait_for_function("document.querySelector('#status').textContent.includes('layouts')")
    shot = tmp_path / "web.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    if (target := __import__("os").environ.get("CSPMINES_SCREENSHOT")):  # how docs/web.png is made
        shutil.copy(shot, target)


def test_a_replay_file_is_stepped_through_with_each_clicks_chance(page):
    from cspmines.replays import analyse_replay, read_replay

    example = ROOT / "cspmines" / "data" / "examples" / "beginner-game.evf"
    judged = analyse_replay(read_replay(example), agent=False).clicks
    page.set_input_files("#replayfile", str(example))
    page.wait_for_function("document.querySelector('#step').textContent.startsWith('click 1 of')")
    assert page.text_content("#step").startswith(f"click 1 of {len(judged)}: open")
    page.focus("#board")
    page.keyboard.press("ArrowRight")  # the keys step through the clicks
    page.wait_for_function("document.querySelector('#status').textContent.includes('layouts')"
                           " && document.querySelector('#step').textContent.startsWith('click 2 of')")
    second = judged[1]
    assert f"mine chance {second.chance}, {second.kind.value}" in page.text_content("#step")
    marked = page.query_selector("#board .cell.clicked")
    assert (int(marked.get_attribute("data-row")), int(marked.get_attribute("data-col"))) == (second.click.row, second.click.col)
    assert marked.get_attribute("title").startswith(f"({second.click.row}, {second.click.col}): {second.chance} =")
    last = len(judged) - 1
    page.eval_on_selector("#slider", f"s => {{ s.value = {last}; s.dispatchEvent(new Event('input')); }}")
    page.wait_for_function(f"document.querySelector('#step').textContent.startsWith('click {last + 1} of')")


def test_a_malformed_paste_leaves_a_clean_page(page):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.fill("#text", "9x9x10\n1....\n..")
    page.click("#solve")
    page.wait_for_function("document.querySelector('#status').className === 'error'")
    assert page.text_content("#status").startswith("line ") and "<request>" not in page.text_content("#status")
    assert page.query_selector_all("#board .cell") == [] and page.text_content("#advice") == ""
    assert errors == []


def test_let_it_play_plays_the_game_to_its_end(page):
    page.select_option("#size", "beginner")
    page.fill("#seed", "11")
    page.click("#new")
    page.wait_for_function("document.querySelector('#status').textContent.includes('game playing')")
    page.select_option("#agent", "exact")
    page.click("#play")
    page.wait_for_function("/game (won|lost)/.test(document.querySelector('#status').textContent)", timeout=60_000)
    page.wait_for_function("document.querySelector('#play').textContent === 'Let it play'")
    status = page.text_content("#status")
    position = Position.from_string(page.input_value("#text"))
    assert position.width == position.height == 9 and position.mines == 10
    shown = overlay(page)
    opened_mines = int((position.grid == MINE).sum())
    if "game won" in status:  # every safe cell opened: what is still covered (or flagged) is the ten mines
        assert opened_mines == 0 and len(position.covered_cells) + int((position.grid == FLAG).sum()) == 10
        assert shown and all(title.endswith("= 1.0000") for title in shown.values())
    else:
        assert "game lost" in status and opened_mines == 1
    assert page.query_selector_all("#board .cell.best") == []  # the game is over: no cell to advise
    assert page.text_content("#advice").startswith("exact: ")  # the last move played, about the board shown
    assert page.text_content("#advice").startswith("exact: ")  # the last move played, about the board shown


def upload(page, tmp_path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    page.set_input_files("#upload", str(path))


def test_no_cell_is_outlined_once_the_game_is_won(page, tmp_path):
    """A 4x4 board whose first click leaves (3,0) and (3,2) proved safe between two mines: the exact agent's move,
    the first of them, is outlined; both opened, the game is won, and nothing is outlined."""
    upload(page, tmp_path, "board.json", json.dumps({"width": 4, "height": 4, "mines": [[3, 1], [3, 3]]}))
    page.wait_for_function("document.querySelector('#status').textContent.includes('game playing')")
    outlined = {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col")))
                for c in page.query_selector_all("#board .cell.best")}
    assert outlined == {(3, 0)}  # while playing: the agent's move, a proved safe cell
    assert page.text_content("#why") == "exact: open (3,0), a mine 0 = 0.0% [proved]"
    for col in (0, 2):
        status = page.text_content("#status")
        page.click(f"#board .cell[data-row='3'][data-col='{col}']")
        page.wait_for_function(f"!['solving…', {json.dumps(status)}].includes(document.querySelector('#status').textContent)")
    assert "game won" in page.text_content("#status")
    assert [c.text_content() for c in page.query_selector_all("#board .cell.sure")] == ["M", "M"]
    assert page.query_selector_all("#board .cell.best, #board .cell.least") == [] and page.text_content("#why") == ""


def test_the_advice_is_cleared_when_the_position_changes(page, tmp_path):
    """Advice is about the position it was asked on: a new game, an uploaded position, an undo or an edit
    clears it, so it never names a cell of a board no longer shown."""
    def ask() -> None:
        page.evaluate("document.querySelector('#advice').textContent = ''")
        page.click("#ask")
        page.wait_for_function("document.querySelector('#advice').textContent.startsWith('exact: ')")

    def settled(before: str) -> None:
        page.wait_for_function(f"!['solving…', {json.dumps(before)}].includes(document.querySelector('#status').textContent)"
                               " && document.querySelector('#status').textContent.includes('layouts')")

    page.select_option("#agent", "exact")
    page.fill("#text", (ROOT / "cspmines" / "data" / "examples" / "beginner.txt").read_text())
    page.click("#solve")
    page.wait_for_function("document.querySelector('#status').textContent.includes('layouts')")
    ask()
    page.select_option("#size", "beginner")
    page.fill("#seed", "3")
    before = page.text_content("#status")
    page.click("#new")
    page.wait_for_function("document.querySelector('#status').textContent.includes('game playing')")
    assert page.text_content("#advice") == ""
    ask()
    before = page.text_content("#status")
    upload(page, tmp_path, "position.txt", (DATA / "expert-5-027.txt").read_text())
    settled(before)
    assert page.text_content("#advice") == ""
    ask()
    page.check("#edit")
    before = page.text_content("#status")
    page.click("#board .cell[data-row='0'][data-col='0']")
    settled(before)
    page.uncheck("#edit")
    assert page.text_content("#advice") == ""
    page.click("#solve")  # the same text again: the advice asked on it would stand
    ask()
    page.click("#solve")  # sets the status to "solving…" at once, in the click
    page.wait_for_function("document.querySelector('#status').textContent.includes('layouts')")
    assert page.text_content("#advice").startswith("exact: ")


def test_a_long_game_keeps_the_page_within_its_board(page, tmp_path):
    """A 60x36 replay whose survival is a fraction of hundreds of digits: the page shows it by its leading
    digits and grows no wider than the board it draws."""
    from replaymaker import agent_game

    from cspmines.replays import Replay, analyse_replay
    from cspmines.replays.writer import evf_bytes

    layout, moves = agent_game("exact", (60, 36, 540), seed=0)
    survival = analyse_replay(Replay.from_moves(layout, moves), agent=False).survival
    assert len(str(survival)) > 400
    path = tmp_path / "long.evf"
    path.write_bytes(evf_bytes(layout, moves))
    page.set_input_files("#replayfile", str(path))
    page.wait_for_function("document.querySelector('#step').textContent.startsWith('click 1 of')", timeout=60_000)
    page.wait_for_function("document.querySelector('#status').textContent.includes('layouts')")
    from cspmines.replays.report import leading_digits

    assert f"survival {leading_digits(survival)}, luck" in page.text_content("#advice")
    widest = page.evaluate("document.documentElement.scrollWidth")
    right = page.evaluate("document.querySelector('#board').getBoundingClientRect().right + window.scrollX")
    assert widest <= right + 16 + 1  # the board and the page's margin, nothing wider


def test_the_page_shortens_fractions_as_the_report_does(page):
    from cspmines.replays.report import leading_digits

    values = [Fraction(1, 3), Fraction(1, 8), Fraction(2, 3 * 10**600), Fraction(10**500 - 1, 10**500), Fraction(3, 10**5)]
    rng = __import__("random").Random(2)
    values += [Fraction(rng.randrange(1, 10**40), rng.randrange(10**40, 10**80)) for _ in range(40)]
    for value in values:
        assert page.evaluate(f"leadingDigits({json.dumps(str(value))})") == leading_digits(value), value


def test_the_overlay_greys_dead_cells_frames_fifty_fifties_and_gives_winning_chances(page):
    """The bundled beginner endgame: each covered cell's marks and winning chance are the engine's insight."""
    from cspmines import insight_of

    text = (ROOT / "cspmines" / "data" / "examples" / "beginner-endgame.txt").read_text()
    page.check("#insight")
    page.fill("#text", text)
    page.click("#solve")
    page.wait_for_function("document.querySelector('#status').textContent.includes('best play wins')")
    analysis = solve(Position.from_string(text))
    seen = insight_of(analysis)
    assert "best play wins 1/2" in page.text_content("#status")

    def marked(kind: str) -> set:
        return {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col"))) for c in page.query_selector_all(f"#board .cell.{kind}")}

    rc = analysis.position.row_col
    assert marked("dead") == {rc(cell) for cell in seen.dead} == {(7, 1), (8, 1)}
    assert marked("fifty") == {rc(cell) for f in seen.fifty_fifties if f.kind == "unavoidable" for cell in f.cells} == {(6, 0), (6, 1)}
    assert marked("pseudo") == {rc(cell) for f in seen.fifty_fifties if f.kind == "pseudo" for cell in f.cells}
    for (row, col), title in overlay(page).items():
        chance = seen.endgame.value((row, col)).probability
        assert f"; win with best play after opening it: {chance} = {100 * float(chance):.1f}%" in title, title
    assert "unavoidable 50/50 with (6,1)" in overlay(page)[(6, 0)]
    assert "pseudo-50/50 with (8,1), told by (6,0) (6,1)" in overlay(page)[(7, 1)]
    page.uncheck("#insight")  # the marks go with the box
    page.wait_for_function("!document.querySelector('#status').textContent.includes('best play wins')"
                           " && document.querySelector('#status').textContent.includes('layouts')")
    assert marked("dead") == marked("fifty") == marked("pseudo") == set()
    page.check("#insight")


@contextmanager
def clocked_tab(page):
    """A fresh tab on the page's server whose clock (Date, timers) stands still but where the test moves it."""
    from datetime import datetime

    tab = page.context.browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        tab.clock.install(time=datetime(2025, 1, 1))
        tab.clock.pause_at(datetime(2025, 1, 1, 0, 0, 1))  # from here, time moves only when the test says
        tab.goto(page.url)
        tab.wait_for_selector("#board .cell")
        yield tab
    finally:
        tab.close()


def test_a_game_counts_the_mines_left_and_the_seconds(page):
    """A tab whose clock the test moves: the timer starts with the game and counts, the counter is the total
    less the flags, and a new game starts both again."""
    with clocked_tab(page) as tab:
        assert tab.is_hidden("#gamebar")  # no game yet
        tab.select_option("#size", "beginner")
        tab.fill("#seed", "7")
        tab.click("#new")
        tab.wait_for_function("document.querySelector('#status').textContent.includes('game playing')")
        assert tab.text_content("#counter") == "mines left: 10" and tab.text_content("#timer") == "time: 0 s"
        tab.clock.run_for(5_000)
        assert tab.text_content("#timer") == "time: 5 s"
        covered = tab.query_selector("#board .cell:not(.open)")
        status = tab.text_content("#status")
        covered.click(button="right")  # a flag
        tab.wait_for_function(f"!['solving…', {json.dumps(status)}].includes(document.querySelector('#status').textContent)")
        assert tab.text_content("#counter") == "mines left: 9"
        tab.click("#new")
        tab.wait_for_function("document.querySelector('#counter').textContent === 'mines left: 10'")
        assert tab.text_content("#timer") == "time: 0 s"
        tab.click("#solve")  # outside a game: no bar
        assert tab.is_hidden("#gamebar")


def test_the_timer_stops_when_the_game_is_over(page, tmp_path):
    """A 4x4 board won in two clicks: the seconds stand still once it is won."""
    with clocked_tab(page) as tab:
        upload(tab, tmp_path, "board.json", json.dumps({"width": 4, "height": 4, "mines": [[3, 1], [3, 3]]}))
        tab.wait_for_function("document.querySelector('#status').textContent.includes('game playing')")
        tab.clock.run_for(3_000)
        for col in (0, 2):
            status = tab.text_content("#status")
            tab.click(f"#board .cell[data-row='3'][data-col='{col}']")
            tab.wait_for_function(f"!['solving…', {json.dumps(status)}].includes(document.querySelector('#status').textContent)")
        assert "game won" in tab.text_content("#status") and tab.text_content("#timer") == "time: 3 s"
        tab.clock.run_for(10_000)
        assert tab.text_content("#timer") == "time: 3 s"


def test_fit_to_width_keeps_a_large_board_within_the_window(page):
    wide = "90x20x300\n" + "\n".join(["." * 90] * 20)
    page.fill("#text", wide)
    page.click("#solve")
    page.wait_for_function("document.querySelector('#status').textContent.includes('layouts')")
    viewport = page.evaluate("document.documentElement.clientWidth")

    def right() -> float:
        return page.evaluate("document.querySelector('#board').getBoundingClientRect().right")

    def cell_width() -> float:
        return page.evaluate("document.querySelector('#board .cell').getBoundingClientRect().width")

    assert right() > viewport and cell_width() == 26  # 91 columns of 26 px: wider than the window
    page.check("#fit")
    assert right() <= viewport and 4 <= cell_width() < 26
    assert len(page.query_selector_all("#board .cell")) == 90 * 20
    page.set_viewport_size({"width": 1000, "height": 900})  # the window narrower: the board follows
    page.wait_for_function(f"document.querySelector('#board').getBoundingClientRect().right <= {viewport - 400}")
    page.set_viewport_size({"width": 1400, "height": 900})
    page.uncheck("#fit")
    assert cell_width() == 26
