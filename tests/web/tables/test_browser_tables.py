"""A table's fixed tablet and screen in Chromium, each its own browser context (two
devices), neither ever given a new link: the tablet is paired once through its pairing
link, the screen opened once; they follow the table's two games in a row live (no
reload), showing "Next: A – B" in between."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.web.browser import Watched, tap
from tests.web.server import Server
from tests.web.tables.helpers import add_table, new_match, put


def _play(tablet: Page, opener: str) -> None:
    """The player ``opener`` opens and makes the two points; the other misses: over."""
    tap(tablet, f"button:has-text('{opener} opens')")
    tap(tablet, "#btn-carom")
    tap(tablet, "#btn-carom")
    while tablet.locator("#result").count() == 0:
        tap(tablet, "#btn-miss")


def _confirm(tablet: Page) -> None:
    tablet.locator("#btn-confirm-0").click()
    expect(tablet.locator("#confirmed-0")).to_be_visible()
    tablet.locator("#btn-confirm-1").click()


def test_a_tablet_and_a_screen_follow_two_games_in_a_row(server: Server, browser: Any) -> None:
    organiser = server.organiser()
    add_table(organiser, "1")
    first, second = new_match(organiser, "Anna", "Boris"), new_match(organiser, "Cyril", "Dana")
    put(organiser, "1", first)
    put(organiser, "1", second)
    link = organiser.post("/api/tables/1/pairing").json()["pair"]

    tablet_device = Watched(browser, locale="en-GB", viewport={"width": 1024, "height": 768})
    screen_device = Watched(browser, locale="en-GB", viewport={"width": 1920, "height": 1080})
    tablet, screen = tablet_device.page(), screen_device.page()
    tablet.goto(server.url + link)  # the pairing link, opened once (or its QR code scanned)
    tablet.locator("#pair-button").click()
    expect(tablet).to_have_url(server.url + "/tables/1/tablet")
    screen.goto(server.url + "/tables/1/screen")
    for page in (tablet, screen):
        page.evaluate("window.notReloaded = true")
    expect(screen.locator("#board[data-live]")).to_have_count(1)
    expect(tablet.locator("#table-device[data-live]")).to_have_count(1)
    expect(screen.locator("#table-next-game")).to_have_text("Next: Anna – Boris")
    expect(tablet.locator("#table-after")).to_have_text("Next: Cyril – Dana")

    _play(tablet, "Anna")
    expect(screen.locator("#status")).to_contain_text("Anna wins")
    expect(screen.locator("#table-after")).to_have_text("Next: Cyril – Dana")
    _confirm(tablet)
    # the first game is confirmed: both move on to the second by themselves
    expect(tablet.locator("#tablet")).to_have_attribute("data-match", str(second))
    expect(screen.locator("#table-next-game")).to_have_text("Next: Cyril – Dana")

    _play(tablet, "Cyril")
    expect(screen.locator("#status")).to_contain_text("Cyril wins")
    _confirm(tablet)
    for page in (tablet, screen):
        expect(page.locator("#table-next-game")).to_have_text("No game is planned on this table.")
        assert page.evaluate("window.notReloaded") is True  # live, never reloaded
    assert organiser.get(f"/api/matches/{first}").json()["state"]["confirmed"]
    assert organiser.get(f"/api/matches/{second}").json()["state"]["confirmed"]
    organiser.close()
    tablet_device.close()
    screen_device.close()
