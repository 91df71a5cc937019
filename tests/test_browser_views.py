"""The page in a real browser: a board is drawn only with its own numbers, whatever was still on its way for the
view before; the outline is the agent's move, with a line saying why it beats the least chance; each cell's winning
chance with best play is marked on it, exact or as bounds, and where there is none a line says why; the legend has
every mark the board draws (the server, the browser and their skip are test_browser.py's)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from test_browser import overlay, page  # noqa: F401  (the fixture: a server and Chromium for this module)

from cspmines import Position, insight_of, solve, value_of

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow  # test_browser.py's server and browser: left out of the quick run with it

#: Counts the page's API requests still unanswered, each until its answer is read and the code awaiting it has run
#: (the count falls in a task queued after the answer's): at 0 nothing is on its way and nothing is left to draw.
COUNT_REQUESTS = """
if (window.unanswered === undefined) {
  window.unanswered = 0;
  const real = window.fetch;
  window.fetch = async (...args) => {
    if (!String(args[0]).startsWith("/api/")) return real(...args);  // the page's own requests only
    window.unanswered += 1;
    const settle = () => setTimeout(() => { window.unanswered -= 1; }, 0);
    let response;
    try { response = await real(...args); } catch (error) { settle(); throw error; }
    const read = response.json.bind(response);
    response.json = async () => { try { return await read(); } finally { settle(); } };
    return response;
  };
}
"""


def quiet(page) -> None:  # noqa: F811
    """Wait until no request of the page is on its way and every answer has been drawn."""
    page.wait_for_function("window.unanswered === 0", timeout=180_000)


def test_a_replay_opened_while_a_game_plays_shows_only_the_replays_board_and_numbers(page, tmp_path):  # noqa: F811
    """An expert game let play (seed 8: the exact agent plays it for over 200 moves), then an 8x8 replay file
    opened: the play stops, and once every answer on its way has come back the page shows the replay's first
    position with that position's own chances, counts and summary, nothing of the game."""
    from replaymaker import agent_game

    from cspmines.replays import read_replay
    from cspmines.replays.writer import evf_bytes

    layout, moves = agent_game("exact", (8, 8, 10), seed=3)
    path = tmp_path / "small.evf"
    path.write_bytes(evf_bytes(layout, moves))
    clicks = read_replay(path).clicks
    first = Position.from_string(str(clicks[0].seen))
    page.evaluate(COUNT_REQUESTS)
    page.check("#insight")
    page.select_option("#size", "expert")
    page.fill("#seed", "8")
    page.click("#new")
    page.wait_for_function("document.querySelector('#status').textContent.includes('game playing')")
    page.select_option("#agent", "exact")
    page.click("#play")
    page.wait_for_function("document.querySelector('#advice').textContent.startsWith('exact: ')")  # it plays
    page.set_input_files("#replayfile", str(path))
    page.wait_for_function("document.querySelector('#step').textContent.startsWith('click 1 of')", timeout=60_000)
    quiet(page)

    assert page.text_content("#play") == "Let it play" and page.is_hidden("#gamebar")
    assert page.text_content("#step").startswith(f"click 1 of {len(clicks)}: open")
    assert Position.from_string(page.input_value("#text")) == first
    assert len(page.query_selector_all("#board .cell")) == 64
    analysis = solve(first)
    fractions = analysis.probabilities(exact=True)
    shown = overlay(page)
    assert set(shown) == {first.row_col(cell) for cell in first.covered_cells}
    for (row, col), title in shown.items():
        assert title.startswith(f"({row}, {col}): {fractions[row, col]} ="), title
    status = page.text_content("#status")
    assert status.startswith(f"exact: {analysis.model_count} layouts, {len(analysis.safe_cells)} safe, "
                             f"{len(analysis.mine_cells)} mines proved"), status
    assert "game" not in status
    assert page.text_content("#advice").startswith("small.evf: EVF")  # the replay's summary, not the game's move
    for cell in page.query_selector_all("#board .cell.sure"):  # S and M where the replay's position proves them
        row, col = int(cell.get_attribute("data-row")), int(cell.get_attribute("data-col"))
        assert cell.text_content() == ("S" if fractions[row, col] == 0 else "M")
        assert fractions[row, col] in (0, 1)
    seen = insight_of(analysis)  # the marks are this position's insight, none of the game's

    def marked(kind: str) -> set:
        return {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col"))) for c in page.query_selector_all(f"#board .cell.{kind}")}

    assert marked("dead") == {first.row_col(cell) for cell in seen.dead}
    for kind in ("unavoidable", "pseudo"):
        assert marked("fifty" if kind == "unavoidable" else "pseudo") == \
            {first.row_col(cell) for f in seen.fifty_fifties if f.kind == kind for cell in f.cells}


def held_answers(page, pattern: str) -> list:  # noqa: F811
    """The requests to ``pattern`` from now on, each held (unanswered) until the test lets it go on."""
    held: list = []
    page.route(pattern, lambda route: held.append(route))
    return held


def until(page, check) -> None:  # noqa: F811
    for _ in range(600):  # a bounded wait, polled: the browser's events are handled meanwhile
        if check():
            return
        page.wait_for_timeout(50)
    raise AssertionError("the page never got there")


def test_a_solve_answered_after_the_next_is_not_drawn_on_the_next_board(page):  # noqa: F811
    """Two positions solved one after the other, the first answered last (the server held it): the board shown
    is the second, drawn with the second's chances only, and a redraw while the second is still counted (the
    chances box ticked again) draws no numbers at all rather than the first board's."""
    expert = (ROOT / "cspmines" / "data" / "examples" / "expert-guess.txt").read_text()
    beginner = (ROOT / "cspmines" / "data" / "examples" / "beginner.txt").read_text()
    page.evaluate(COUNT_REQUESTS)
    page.fill("#text", beginner)
    page.click("#solve")
    quiet(page)
    held = held_answers(page, "**/api/solve*")
    try:
        page.fill("#text", expert)
        page.click("#solve")
        until(page, lambda: len(held) == 1)
        page.fill("#text", beginner.replace("9x9x10", "9x9x11"))  # another board of the same size
        page.click("#solve")
        until(page, lambda: len(held) == 2)
        page.uncheck("#overlay")
        page.check("#overlay")  # a redraw while both are counted: the first answer's board is not this one
        assert overlay(page) == {}
        held[1].continue_()
        page.wait_for_function("document.querySelector('#status').textContent.includes('layouts')")
        held[0].continue_()
        quiet(page)
    finally:
        page.unroute("**/api/solve*")
    position = Position.from_string(beginner.replace("9x9x10", "9x9x11"))
    fractions = solve(position).probabilities(exact=True)
    shown = overlay(page)
    assert set(shown) == {position.row_col(cell) for cell in position.covered_cells}
    for (row, col), title in shown.items():
        assert title.startswith(f"({row}, {col}): {fractions[row, col]} ="), title


def outlined(page, kind: str = "best") -> set:  # noqa: F811
    return {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col"))) for c in page.query_selector_all(f"#board .cell.{kind}")}


def test_the_outline_is_the_agents_move_and_the_line_under_the_board_says_why_it_beats_the_least(page):  # noqa: F811
    """The bundled expert guess: the least chance is 14/99 at two cells, the exact agent opens (6,29) at 5/33; the
    page outlines (6,29) alone and says in one line why (the look-ahead's numbers, as the API gives them). Another
    agent chosen, its own move is outlined."""
    from cspmines.web.moves import advice_json

    text = (ROOT / "cspmines" / "data" / "examples" / "expert-guess.txt").read_text()
    page.evaluate(COUNT_REQUESTS)
    page.select_option("#agent", "exact")
    page.fill("#text", text)
    page.click("#solve")
    quiet(page)
    analysis = solve(Position.from_string(text))
    advice, _ = advice_json(analysis, "exact", rules="classic", seed=None)
    least = {tuple(cell) for cell in advice["least_cells"]}
    assert outlined(page) == {tuple(advice["cell"])} == {(6, 29)} and not least & outlined(page)
    assert page.text_content("#why") == (f"exact: open (6,29), a mine 5/33 = 15.2% [look-ahead]: {advice['why']}")
    assert "the look-ahead finds it safe with a safe move after it" in advice["why"] and "14.1%" in advice["why"]
    page.select_option("#agent", "risk-score")  # an agent that plays one cell here, whatever its seed
    quiet(page)
    other, _ = advice_json(analysis, "risk-score", rules="classic", seed=None)
    assert outlined(page) == {tuple(other["cell"])}
    assert page.text_content("#why").startswith(f"risk-score: {other['action']} ({other['cell'][0]},{other['cell'][1]})")
    page.select_option("#agent", "exact")
    quiet(page)


def test_where_no_move_can_be_judged_the_least_chance_is_dashed(page):  # noqa: F811
    """A count cut short leaves no agent's move: the cells of the least chance by the estimate are dashed instead
    (none where a cell is proved safe: then those are), and none once a game is over."""
    page.click("#solve")  # no game
    estimate = "{exact: false, advice: null, advice_missing: 'cut short', safe: [], probabilities: [[0.5, null, 0.25], [0.25, 1, 0.75]]}"
    assert page.evaluate(f"outlines({estimate})") == {"0,2": "least", "1,0": "least"}
    proved = estimate.replace("safe: []", "safe: [[0, 0]]").replace("[[0.5,", "[[0,")
    assert page.evaluate(f"outlines({proved})") == {"0,0": "least"}
    counted = estimate.replace("exact: false", "exact: true")
    assert page.evaluate(f"outlines({counted})") == {}  # counted, and still no move: a won board, say
    judged = estimate.replace("advice: null", "advice: {cell: [1, 2]}")
    assert page.evaluate(f"outlines({judged})") == {"1,2": "best"}


def test_the_legend_shows_every_mark_the_board_draws(page, tmp_path):  # noqa: F811
    """The marks the board draws on a game, the beginner endgame's insight (its winning chances among them), a
    replay's click and chains, gathered from the cells' classes: each has a sample in the legend, painted as the
    board paints it."""
    page.evaluate(COUNT_REQUESTS)
    legend = {name for c in page.query_selector_all("#legend .cell") for name in c.get_attribute("class").split()}
    assert {"sure", "best", "least", "dead", "fifty", "pseudo", "clicked", "flag", "open"} <= legend
    assert {c.text_content() for c in page.query_selector_all("#legend .cell.sure")} == {"S", "M"}
    texts = [item.text_content() for item in page.query_selector_all("#legend li")]
    assert len(texts) == len(set(texts)) == 17 and all(texts)
    wins = {name for mark in page.query_selector_all("#legend .cell .win") for name in mark.get_attribute("class").split()}
    assert wins == {"win", "top", "range"}  # a winning chance, a best one and bounds
    drawn: set = set()
    drawn_wins: set = set()

    def gather() -> None:
        quiet(page)
        for cell in page.query_selector_all("#board .cell"):
            drawn.update(cell.get_attribute("class").split())
        for mark in page.query_selector_all("#board .cell .win"):
            drawn_wins.update(mark.get_attribute("class").split())

    page.check("#insight")
    page.check("#chains")
    for name in ("beginner-endgame.txt", "expert-guess.txt"):
        page.fill("#text", (ROOT / "cspmines" / "data" / "examples" / name).read_text())
        page.click("#solve")
        gather()
    page.set_input_files("#replayfile", str(ROOT / "cspmines" / "data" / "examples" / "beginner-game.evf"))
    page.wait_for_function("document.querySelector('#step').textContent.startsWith('click 1 of')")  # the file read first
    gather()
    page.fill("#text", "4x1x1\nF1.*\n")
    page.click("#solve")
    gather()
    page.uncheck("#chains")
    clues = {name for name in drawn if name[:1] == "c" and name[1:].isdigit()}
    assert {"sure", "best", "dead", "fifty", "pseudo", "clicked", "flag", "open"} <= drawn
    assert drawn - clues - {"cell"} <= legend  # every mark drawn has its sample
    assert {"valued"} <= drawn and {"win", "top"} <= drawn_wins <= wins
    assert all(c.get_attribute("style") for c in page.query_selector_all("#legend .cell:not(.open):not(.flag)"))  # coloured


def win_marks(page) -> dict:  # noqa: F811
    """(row, col) -> (the winning chance written at the cell's foot, its classes) for every cell that has one."""
    found = {}
    for mark in page.query_selector_all("#board .cell .win"):
        cell = mark.evaluate_handle("m => m.parentElement").as_element()
        at = (int(cell.get_attribute("data-row")), int(cell.get_attribute("data-col")))
        found[at] = (mark.text_content(), set(mark.get_attribute("class").split()) - {"win"})
    return found


def percent(chance) -> str:
    """What the page writes of an exact chance: whole percent as JavaScript rounds it, <1 and >99 near the ends."""
    p = float(chance)
    return "0" if p == 0 else "100" if p == 1 else "<1" if p < 0.01 else ">99" if p > 0.99 else str(math.floor(100 * p + 0.5))


def test_each_cells_winning_chance_is_marked_on_the_board_as_the_engine_finds_it(page):  # noqa: F811
    """The bundled beginner position (3,456 layouts, searched exactly within the server's share): every covered
    cell but the proved mines carries its chance of winning with best play, the engine's value_of, and the best
    cells alone are marked best; a mark is seen, not only hovered."""
    text = (ROOT / "cspmines" / "data" / "examples" / "beginner.txt").read_text()
    page.evaluate(COUNT_REQUESTS)
    page.check("#insight")
    page.fill("#text", text)
    page.click("#solve")
    quiet(page)
    position = Position.from_string(text)
    analysis, value = solve(position), value_of(position, cells="all")
    marks = win_marks(page)
    mines = set(analysis.mine_cells)
    assert set(marks) == {position.row_col(cell) for cell in position.covered_cells if cell not in mines}
    assert len(marks) == 48 and "best play wins 557/576" in page.text_content("#status")
    for (row, col), (shown, kinds) in marks.items():
        assert shown == percent(value.value((row, col)).probability) and "range" not in kinds, (row, col)
    assert {at for at, (_, kinds) in marks.items() if "top" in kinds} == {position.row_col(c) for c in value.best_cells}
    assert page.text_content("#endgame") == ""  # exact: nothing more to say under the board
    best = position.row_col(value.best_cells[0])
    assert page.is_visible(f"#board .cell[data-row='{best[0]}'][data-col='{best[1]}'] .win.top")
    page.uncheck("#insight")  # the marks go with the box
    quiet(page)
    assert win_marks(page) == {}
    page.check("#insight")
    quiet(page)


def test_bounds_are_marked_as_ranges_that_hold_the_engines_values(page):  # noqa: F811
    """The same position answered by a server whose budget stops the search after 500 states (the endgame not
    exact, its chance null): each cell left unfinished shows a range that holds value_of's exact chance, none is
    marked best, and the line under the board says the chances are bounds and what stopped the search."""
    from starlette.testclient import TestClient

    from cspmines import Limit
    from cspmines.web import SERVER_MEMORY, create_app

    text = (ROOT / "cspmines" / "data" / "examples" / "beginner.txt").read_text()
    limited = TestClient(create_app(limit=Limit(time=30.0, nodes=500, memory=SERVER_MEMORY)))
    answer = limited.post("/api/solve?insight=true&agent=exact", content=text).json()
    endgame = answer["insight"]["endgame"]
    assert endgame["chance"] is None and not endgame["exact"]
    page.evaluate(COUNT_REQUESTS)
    page.click("#solve")  # a view of a position, no game
    quiet(page)
    page.evaluate("([text, answer]) => { state.text = state.solved = text; state.analysis = answer; draw(); }", [text, answer])
    position = Position.from_string(text)
    value = value_of(position, cells="all")
    marks, entries = win_marks(page), {tuple(e["cell"]): e for e in endgame["cells"]}
    ranges = 0
    for (row, col), (shown, kinds) in marks.items():
        truth = value.value((row, col)).probability
        assert "top" not in kinds
        if entries[row, col]["exact"]:
            assert shown == percent(truth) and "range" not in kinds
            continue
        low, high = (int(part) for part in shown.split("–"))
        assert "range" in kinds and low <= 100 * truth <= high, (row, col, shown, truth)
        ranges += 1
    assert ranges > 0 and len(marks) == 48
    line = page.text_content("#endgame")
    assert line.startswith("winning chances as bounds (a range at the foot of each cell): the search stopped at the work limit; "
                           "best play wins "), line
    assert "(the search stopped short)" in page.get_attribute(".win.range >> xpath=..", "title")


def test_a_position_past_the_budget_shows_no_winning_chances_and_says_why(page):  # noqa: F811
    """The bundled expert guess (2,302,344 layouts, more than the server searches): no cell is marked, and the
    line under the board gives the server's reason."""
    page.evaluate(COUNT_REQUESTS)
    page.check("#insight")
    page.fill("#text", (ROOT / "cspmines" / "data" / "examples" / "expert-guess.txt").read_text())
    page.click("#solve")
    quiet(page)
    assert "layouts" in page.text_content("#status") and "best play wins" not in page.text_content("#status")
    assert win_marks(page) == {} and len(overlay(page)) > 100  # the chances drawn, no winning chance among them
    assert page.text_content("#endgame").startswith("no winning chances: not searched: 2,302,344 layouts, more than the")
    assert page.is_visible("#endgame")
