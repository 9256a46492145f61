"""The club day of ``tests/club_day.py`` (the tournament day's "Done when") with the hall's devices:
three tables, each with its tablet (paired once through its pairing link) and its screen
(opened once), six browser contexts, none ever given another link. The organiser's
decisions that have no page yet (the entries, the seeding from the ranking list, the
no-show, the late entries, the paper result, the move, the withdrawal, the unlock and the
correction) are made on the storage service beside the server, on the same database, as
``tests/storage/test_club_day.py`` makes them; every game is played on its table: its
records sent with the table's device token (its tablet's cookie, through the API), its
result confirmed by both players on the tablet page. At each of the fixture's table
checks every tablet and screen shows its table's game, having moved on by itself; the
standings, the second stage, the ranking and the audit end as worked out by hand."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from carom.storage import open_store
from carom.storage.book import MatchBook
from carom.storage.tournaments import Tournaments
from tests import club_day
from tests.club_day import ORGANISER, Step
from tests.storage.day_helpers import named
from tests.storage.test_club_day import _do, _game, _settings, check_the_end
from tests.web.server import Server
from tests.web.tables.helpers import add_table

TABLES = ("1", "2", "3")
FOLLOW = 15_000
"""How long a page may take to move on (ms): a decision made beside the server reaches
the tables' channels at their next look (every 5 s)."""


class Table:
    """A table's two devices: its tablet and its screen, each a browser context of its own."""

    def __init__(self, browser: Any, server: Server, organiser: Any, name: str) -> None:
        self.name = name
        link = organiser.post(f"/api/tables/{name}/pairing").json()["pair"]
        self.tablet_context: BrowserContext = browser.new_context(viewport={"width": 1024, "height": 768},
                                                                  locale="en-GB")
        self.tablet: Page = self.tablet_context.new_page()
        self.tablet.goto(server.url + link)
        self.tablet.locator("#pair-button").click()
        expect(self.tablet).to_have_url(server.url + f"/tables/{name}/tablet")
        self.screen_context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
        self.screen: Page = self.screen_context.new_page()
        self.screen.goto(server.url + f"/tables/{name}/screen")
        for page in (self.tablet, self.screen):
            page.evaluate("window.notReloaded = true")
        self.url = server.url

    def shows(self, names: tuple[str, str]) -> None:
        """Both devices show the game of these players (under way, or next)."""
        for page, box in ((self.tablet, "#table-now"), (self.screen, "#board")):
            for name in names:
                expect(page.locator(box)).to_contain_text(name, timeout=FOLLOW)

    def play(self, match: int, first: int, second: int) -> None:
        """The match's player 0 makes ``first`` points, player 1 ``second`` (one inning each),
        sent through the API with the tablet's device token (its cookie); then both players
        confirm on the tablet page."""
        seq = 0
        for record in ({"type": "opener", "player": 0}, {"type": "inning", "points": first},
                       {"type": "inning", "points": second}):
            answer = self.tablet_context.request.post(f"{self.url}/api/matches/{match}/records",
                                                      data={"after": seq, "record": record})
            assert answer.status == 201, answer.text()
            seq = answer.json()["seq"]
            if answer.json()["state"]["finished"]:
                break
        expect(self.tablet.locator("#tablet")).to_have_attribute("data-match", str(match), timeout=FOLLOW)
        self.tablet.locator("#btn-confirm-0").click(timeout=FOLLOW)
        expect(self.tablet.locator("#confirmed-0")).to_be_visible()
        self.tablet.locator("#btn-confirm-1").click()
        # confirmed by both: the game leaves the table, the tablet moves on by itself
        expect(self.tablet.locator(f"#tablet[data-match='{match}']")).to_have_count(0, timeout=FOLLOW)

    def close(self) -> None:
        for page in (self.tablet, self.screen):
            assert page.evaluate("window.notReloaded") is True  # moved on live, never reloaded
        self.tablet_context.close()
        self.screen_context.close()


def test_a_club_day_on_three_tables_with_fixed_tablets_and_screens(sqlite_server: Server,
                                                                   browser: Any) -> None:
    server = sqlite_server
    organiser = server.organiser()
    for order, name in enumerate(TABLES, start=1):
        add_table(organiser, name, order)
    store = open_store(server.data)
    try:
        tournaments = Tournaments(MatchBook(store))
        tid = tournaments.create(_settings(), actor=ORGANISER)
        chosen = organiser.post(f"/api/tournaments/{tid}/tables", json={"tables": list(TABLES)})
        assert chosen.status_code == 200, chosen.text
        tables = {int(name): Table(browser, server, organiser, name) for name in TABLES}
        for step in club_day.STEPS:
            if step.kind == "tables":
                for number, names in step.tables.items():
                    tables[number].shows(names)
            elif step.kind == "play":
                _play(tournaments, tid, tables, step)
            elif step.kind != "confirm":  # every game is confirmed on its tablet as it ends
                _do(tournaments, store, tid, step)
        check_the_end(tournaments, tid)
        for table in tables.values():
            expect(table.screen.locator("#table-next-game")).to_have_text(
                re.compile("No game is planned"), timeout=FOLLOW)
            table.close()
    finally:
        store.close()
        organiser.close()


def _play(tournaments: Tournaments, tid: int, tables: dict[int, Table], step: Step) -> None:
    t = tournaments.read(tid)
    game = _game(t, step.names)
    assert game.status == "playing" and game.table_no is not None and game.match_id is not None, game
    first, second = step.points if named(t, game) == step.names else step.points[::-1]
    tables[game.table_no].play(game.match_id, first, second)
