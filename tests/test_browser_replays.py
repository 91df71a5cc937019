"""The page in a real browser on a replay's own numbers, its move list and guess buttons, and a no-guess game
(the server, the browser and their skip are test_browser.py's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_browser import page  # noqa: F401  (the fixture: a server and Chromium for this module)

from cspmines.games import Game, draw_no_guess

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow  # test_browser.py's server and browser: left out of the quick run with it


def step_is(page, k: int) -> None:  # noqa: F811
    page.wait_for_function(f"document.querySelector('#step').textContent.startsWith('click {k + 1} of')"
                           " && document.querySelector('#status').textContent.includes('layouts')")


def test_a_replay_shows_its_numbers_and_its_clicks_with_guess_buttons(page):  # noqa: F811
    from cspmines.replays import analyse_replay, read_replay

    example = ROOT / "cspmines" / "data" / "examples" / "beginner-game.evf"
    replay = read_replay(example)
    clicks = analyse_replay(replay, agent=False).clicks
    page.set_input_files("#replayfile", str(example))
    step_is(page, 0)
    summary = page.text_content("#advice")
    assert replay.statistics is not None
    for line in replay.statistics.lines():  # ms-toollib's numbers, as the report gives them
        assert line in summary, (line, summary)
    assert "14 clicks opened cells: 12 proved, 1 forced, 1 needless (1 nearby, 0 elsewhere)" in summary
    items = page.query_selector_all("#moves li")
    assert len(items) == len(clicks)
    guesses = [k for k, judged in enumerate(clicks) if judged.kind.value != "proved"]
    assert [k for k, item in enumerate(items) if "guess" in (item.get_attribute("class") or "")] == guesses
    assert items[guesses[0]].text_content().rstrip().endswith("needless (nearby)")
    page.click("#nextguess")
    step_is(page, guesses[0])
    assert "current" in page.query_selector_all("#moves li")[guesses[0]].get_attribute("class")
    page.click("#nextguess")
    step_is(page, guesses[1])
    judged = clicks[guesses[1]]
    assert f"mine chance {judged.chance}, {judged.kind.value}" in page.text_content("#step")
    page.click("#nextguess")  # no guess after the last: it stays
    page.click("#prevguess")
    step_is(page, guesses[0])
    page.click(f"#moves li:nth-child({len(clicks)})")  # a click on an entry goes to it
    step_is(page, len(clicks) - 1)
    page.click("#prevguess")
    step_is(page, guesses[1])


def test_the_new_game_form_starts_a_no_guess_game(page):  # noqa: F811
    page.select_option("#size", "expert")
    page.fill("#seed", "5")
    page.check("#noguess")
    page.click("#new")
    page.wait_for_function("document.querySelector('#status').textContent.includes('game playing')")
    assert page.input_value("#text").strip() == str(Game(draw_no_guess("expert", seed=5).board).position)
    assert page.is_hidden("#replaypanel")
    page.uncheck("#noguess")
