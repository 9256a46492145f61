"""``/review``'s "Play what was played" and "What if" in Debian's Chromium: a stroke of the real
match read back and drawn dashed over its tracks, a what-if chosen with the keyboard and
drawn dotted, the training table opened from the link and playing the same stroke; the
page with all of it shown passes axe-core's WCAG 2.1 AA rules at three sizes in English,
Slovak and German. The stroke's screenshot (``CAROM_SCREENSHOTS=docs/img`` puts it into the
docs)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.accessibility import every_look, violations
from tests.web.browser import Watched, log_in, no_sideways_scroll, words_broken
from tests.web.server import Server
from tests.web.training.table_page import play

pytestmark = pytest.mark.warm_pool  # its pages simulate, fit or track at once

DATA = Path(__file__).parents[2] / "data" / "real-3c-match-part1.jsonl"
PLAYED_SHOT = "545683"
"""Read back as played (every ball within about 2 cm of its track)."""


def _read_back(page: Page) -> dict[str, Any]:
    """Click "Play what was played" and wait for the stroke read back: the fit's answer."""
    with page.expect_response(re.compile(r"/strokes/\d+/fit$"), timeout=90_000) as answer:
        page.locator("#fit-play").click()
    expect(page.locator("#fit-panel")).to_have_attribute("data-state", "played", timeout=30_000)
    return answer.value.json()  # type: ignore[no-any-return]


def test_what_was_played_and_what_if(sqlite_server: Server, browser: Any, tmp_path: Path) -> None:
    watched = Watched(browser, locale="en-GB", viewport={"width": 1920, "height": 1080})
    page = watched.page()
    log_in(page, sqlite_server)
    page.goto(sqlite_server.url + "/review")
    page.set_input_files("#review-upload input[name=file]", str(DATA))
    page.locator("#review-upload button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/review/\d+$"), timeout=60_000)
    page.locator(f"#stroke-list li[data-shot='{PLAYED_SHOT}'] a").click()
    expect(page.locator("#stroke")).to_have_attribute("data-ready", "true")
    review = page.url.removeprefix(sqlite_server.url)

    # read back: the strike with its spread, each ball's RMSE, what agrees; the paths dashed
    fit = _read_back(page)
    assert fit["played"]
    expect(page.locator("#fit-strike dd[data-field='speed']")).to_contain_text("±")
    expect(page.locator("#fit-strike dd[data-field='speed']")).to_contain_text("m/s")
    expect(page.locator("#fit-follows dd[data-ball]")).to_have_count(3)
    expect(page.locator("#fit-agree tbody tr")).to_have_count(3)
    expect(page.locator("#replay-svg .sim-path.played")).to_have_count(3)
    assert page.locator("#replay-svg .sim-path.played").first.evaluate(
        "p => getComputedStyle(p).strokeDasharray") != "none"
    expect(page.locator("#legend-played")).to_be_visible()
    expect(page.locator("#fit-result")).to_have_attribute("aria-live", "polite")
    # the simulated balls run on the replay's clock
    page.locator("#replay-time").fill("0")
    ball = page.locator("#replay-svg circle.sim-ball.played.white")
    at_start = ball.get_attribute("cx")
    page.locator("#replay-time").fill("1000")
    assert ball.get_attribute("cx") != at_start

    # what if, with the keyboard: the side changed, played again and drawn dotted
    expect(page.locator("#what-if")).to_be_visible()
    page.locator("#what-if-field").focus()
    page.keyboard.press("ArrowDown")  # the speed's option to the direction's
    page.keyboard.press("ArrowDown")  # … to the side's
    expect(page.locator("#what-if-field")).to_have_value("side")
    expect(page.locator("#what-if-unit")).to_have_text("R")
    assert page.locator("#what-if-value").get_attribute("max") == "0.5"
    page.keyboard.press("Tab")
    expect(page.locator("#what-if-value")).to_be_focused()
    page.keyboard.press("Control+a")
    page.keyboard.type("-0.3" if fit["strike"]["side"] > 0 else "0.3")
    page.keyboard.press("Enter")
    expect(page.locator("#replay-svg .sim-path.what-if")).to_have_count(3, timeout=30_000)
    expect(page.locator("#what-if-result")).to_contain_text("What if Side (tip) were")
    expect(page.locator("#legend-what-if")).to_be_visible()
    assert no_sideways_scroll(page)
    where = Path(os.environ.get("CAROM_SCREENSHOTS") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    page.locator("#stroke").screenshot(path=str(where / "review-fit-1920.png"))

    # a value out of range is refused by the form itself (the server's refusals: test_review_fit.py)
    page.locator("#what-if-value").fill("0.9")
    page.locator("#what-if-play").click()
    assert page.locator("#what-if-value").evaluate("i => i.validity.rangeOverflow")

    # the training table opens with the stroke read back and plays the same ruling
    page.locator("#fit-table").click()
    expect(page).to_have_url(re.compile(r"/table\?"))
    play(page)
    assert page.locator("#ruling").get_attribute("data-points") == str(fit["ruling"]["fitted"]["points"])
    session = watched.context.storage_state()  # one login (the login is rate limited), its cookie shared
    watched.close()
    found = _axe(browser, sqlite_server, session, review)
    assert found == [], "\n".join(found)


def _axe(browser: Any, server: Server, session: Any, review: str) -> list[str]:
    """What axe-core finds on the review page with a stroke read back (kept: answered at once)
    and a what-if shown, at each size, in each language; a page wider than its screen; and
    a heading of the agreement's table broken inside a word."""
    broken: list[str] = []
    for what, page in every_look(browser, session):
        page.goto(server.url + review, wait_until="load")
        expect(page.locator("#stroke")).to_have_attribute("data-ready", "true")
        _read_back(page)
        page.locator("#what-if-play").click()
        expect(page.locator("#replay-svg .sim-path.what-if")).to_have_count(3, timeout=30_000)
        broken += [f"{what}: {v}" for v in violations(page)]
        if not no_sideways_scroll(page):
            broken.append(f"{what}: the page scrolls sideways")
        broken += [f"{what}: a heading's word broken: {word}" for word in words_broken(page, ".fit-agree th")]
    return broken
