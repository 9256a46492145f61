"""The shot clock in Chromium (docs/clock.md): the tablet runs it from the header's
``clock``, takes the striker's time-out when the time runs out (T2), then records the
foul (T3) through the tablet's ordinary request; the log holds both records, and the
audience board shows the clock large. A penalty shoot-out is entered on the tablet (P2)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import OPENER, Watched, enter, no_sideways_scroll
from tests.web.server import Server


@pytest.fixture(scope="module")
def sqlite_server(shared_sqlite_server: Server) -> Server:
    """One server for the module's tests: each makes what it looks at."""
    return shared_sqlite_server


@pytest.mark.rule("T1", "T2", "T3")
def test_the_clock_runs_out_on_the_tablet_and_the_log_records_it(sqlite_server: Server, browser: Any) -> None:
    client = sqlite_server.organiser()
    match_id, token = sqlite_server.create(client, points=30,
                                           clock={"stroke": 2, "timeouts": 1, "timeout": 2})
    enter(client, match_id, token, [OPENER])
    watched = Watched(browser, locale="en-GB", viewport={"width": 1280, "height": 800})
    board = watched.page()
    board.goto(f"{sqlite_server.url}/m/{match_id}")
    expect(board.locator("#board-clock .clock-seconds")).to_be_visible()
    expect(board.locator("#board-clock")).to_contain_text("Time-outs left")
    tablet = watched.page()
    tablet.goto(f"{sqlite_server.url}/m/{match_id}/tablet?t={token}")
    expect(tablet.locator("#clock")).to_be_visible()
    expect(tablet.locator("#clock-left")).to_have_text("1")
    # 2 s, then the time-out is taken for Anna (T2): 2 s more, then the foul (T3).
    expect(tablet.locator("#panel")).to_have_attribute("data-seq", "2", timeout=8000)
    expect(tablet.locator("#clock-left")).to_have_text("0")
    expect(tablet.locator("#btn-timeout")).to_be_disabled()
    expect(tablet.locator("#panel")).to_have_attribute("data-seq", "3", timeout=8000)
    expect(tablet.locator("#t-player-1")).to_have_class(re.compile("at-table"))  # Boris plays
    expect(tablet.locator("#t-last")).to_contain_text("T3")
    text = client.get(f"/api/matches/{match_id}/file").text
    lines = text.splitlines()
    assert '"timeout"' in lines[2] and '"expired"' in lines[3], text
    expect(board.locator("#last")).to_contain_text("time ran out")
    # Boris has his own time-out; the referee takes it by hand and pauses the clock.
    expect(tablet.locator("#clock-left")).to_have_text("1")
    tablet.locator("#btn-timeout").click()
    expect(tablet.locator("#panel")).to_have_attribute("data-seq", "4")
    tablet.locator("#btn-clock-pause").click()
    expect(tablet.locator("#clock")).to_have_class(re.compile("paused"))
    tablet.wait_for_timeout(4500)  # paused: no record
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 4
    replay = client.get(f"/api/matches/{match_id}").json()["replay"]
    assert [p["timeouts"] for p in replay["players"]] == [1, 1]
    assert replay["rulings"][-1]["fouls"] == ["T3"]
    board.set_viewport_size({"width": 375, "height": 740})  # the board's clock on a phone
    expect(board.locator("#board-clock .clock-seconds")).to_be_visible()
    assert no_sideways_scroll(board)
    client.close()
    watched.close()


@pytest.mark.rule("P1", "P2", "P3")
def test_a_penalty_shootout_on_the_tablet(sqlite_server: Server, browser: Any) -> None:
    client = sqlite_server.organiser()
    match_id, token = sqlite_server.create(client, points=3, innings=1, tiebreak="penalties")
    enter(client, match_id, token, [OPENER, {"type": "inning", "points": 1}, {"type": "inning", "points": 1}])
    watched = Watched(browser, locale="en-GB", viewport={"width": 1024, "height": 768})
    tablet = watched.page()
    tablet.goto(f"{sqlite_server.url}/m/{match_id}/tablet?t={token}")
    expect(tablet.locator("#turn")).to_contain_text("Penalty shoot-out: Anna shoots")
    tablet.locator("#btn-penalty-carom").click()
    expect(tablet.locator("#turn")).to_contain_text("Boris shoots")
    tablet.locator("#btn-penalty-miss").click()
    expect(tablet.locator("#result")).to_contain_text("Anna wins")
    expect(tablet.locator("#t-penalties")).to_contain_text("1")
    replay = client.get(f"/api/matches/{match_id}").json()["replay"]
    assert replay["winner"] == 0 and replay["shootout"]["score"] == [1, 0]
    client.close()
    watched.close()


def _seconds(page: Any, selector: str) -> int:
    return int(page.locator(selector).inner_text())


def test_a_pause_on_the_tablet_stops_the_board_and_the_kiosk_too(sqlite_server: Server, browser: Any) -> None:
    """Found on a club day: the referee's pause stopped only the tablet's own count; the board
    went on to 0. Now it is a match event every page of the match follows (and the kiosk
    shows a working clock at all: bug 4)."""
    client = sqlite_server.organiser()
    match_id, token = sqlite_server.create(client, clock={"stroke": 30, "timeouts": 1, "timeout": 30})
    enter(client, match_id, token, [OPENER])
    watched = Watched(browser, locale="en-GB", viewport={"width": 1280, "height": 800})
    board, kiosk, tablet = watched.page(), watched.page(), watched.page()
    board.goto(f"{sqlite_server.url}/m/{match_id}")
    kiosk.goto(f"{sqlite_server.url}/kiosk/{match_id}")
    tablet.goto(f"{sqlite_server.url}/m/{match_id}/tablet?t={token}")
    for page, seconds in ((board, "#board-clock-seconds"), (kiosk, "#board-clock-seconds")):
        expect(page.locator(seconds)).not_to_have_text("30", timeout=4000)  # counting down
    tablet.locator("#btn-clock-pause").click()
    for page in (board, kiosk):
        expect(page.locator("#board-clock")).to_have_attribute("data-paused", "1")
        expect(page.locator("#board-clock")).to_have_class(re.compile("paused"))
    expect(tablet.locator("#btn-clock-pause")).to_have_text("Resume")
    held = {page: _seconds(page, "#board-clock-seconds") for page in (board, kiosk)}
    tablet.wait_for_timeout(2500)
    assert {page: _seconds(page, "#board-clock-seconds") for page in (board, kiosk)} == held
    tablet.locator("#btn-clock-pause").click()
    for page in (board, kiosk):
        expect(page.locator("#board-clock")).to_have_attribute("data-paused", "0")
        expect(page.locator("#board-clock-seconds")).not_to_have_text(str(held[page]), timeout=4000)
    events = [e["kind"] for e in client.get(f"/api/matches/{match_id}").json()["events"]]
    assert events == ["clock-pause", "clock-resume"]
    client.close()
    watched.close()


def test_the_board_with_a_clock_fits_a_hall_screen(sqlite_server: Server, browser: Any) -> None:
    """Found on a club day: the audience board with a clock was 1188 px tall on 1920×1080."""
    client = sqlite_server.organiser()
    match_id, token = sqlite_server.create(client, players=["Ľudmila Ďurčová", "Jörg Müller"],
                                           clock={"stroke": 40, "timeouts": 2, "timeout": 40})
    enter(client, match_id, token, [OPENER, {"type": "call", "result": "carom"}])
    watched = Watched(browser, locale="en-GB", viewport={"width": 1920, "height": 1080})
    for path in (f"/m/{match_id}", f"/kiosk/{match_id}"):
        page = watched.page()
        page.goto(sqlite_server.url + path)
        expect(page.locator("#board-clock-seconds")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080, path
        # who plays is on screen (read in one go: the live channel may swap the board between
        # finding an element and measuring it, which then measured nothing)
        expect(page.locator("#status")).to_be_visible()
        top = page.evaluate("document.getElementById('status').getBoundingClientRect().top")
        assert top + 40 < 1080, path
    client.close()
    watched.close()
