"""Ten boards and tablets open in one browser all follow their matches (a club's report: bug 8):
a browser keeps six HTTP/1.1 connections to a server, and a page's server-sent event
stream held one for as long as it was open, so the seventh tab waited for ever. The
pages' live channel is a WebSocket now (static/live.js), which is not one of the six."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.web.browser import Watched
from tests.web.server import Server

TABS = 10


def test_ten_boards_and_tablets_in_one_browser_all_follow_their_matches(sqlite_server: Server,
                                                                       browser: Any) -> None:
    organiser = sqlite_server.organiser()
    matches = [sqlite_server.create(organiser, players=[f"Anna {n}", f"Boris {n}"]) for n in range(TABS)]
    watched = Watched(browser)
    pages = []
    for number, (match_id, token) in enumerate(matches):
        page = watched.page()  # one browser: one pool of six connections for all the tabs
        address = f"/m/{match_id}/tablet?t={token}" if number % 2 else f"/m/{match_id}"
        page.goto(sqlite_server.url + address, timeout=15_000)
        pages.append(page)
    for seq, record in enumerate([{"type": "opener", "player": 0}, {"type": "call", "result": "carom"}]):
        for match_id, token in matches:  # every match moves on, entered elsewhere
            answer = organiser.post(f"/api/matches/{match_id}/records", json={"after": seq, "record": record},
                                    headers={"X-Referee-Token": token})
            assert answer.status_code == 201, answer.text
        for number, page in enumerate(pages):
            if number % 2:  # a tablet refreshes its panel when told the match moved on
                expect(page.locator("#panel")).to_have_attribute("data-seq", str(seq + 1))
            elif seq:  # a board shows the carom without a reload
                expect(page.locator("#score-0")).to_have_text("1")
            else:
                expect(page.locator("#player-0")).to_have_class(re.compile("at-table"))
    eleventh = watched.page()  # and the browser still loads another page
    eleventh.goto(sqlite_server.url + "/", timeout=15_000)
    expect(eleventh.locator("body")).to_be_visible()
    organiser.close()
    watched.close()
