"""The club day of ``tests/club_day.py`` (the tournament day's "Done when") with the hall's devices
and the organiser's desk: three tables, each with its tablet (paired once through its pairing
link) and its screen (opened once), and the organiser's own browser, seven browser contexts,
none ever given another link. The tournament is made through the JSON API with the
organiser's session (its stages have no form); every decision of the day is made on the
organiser's pages, in the organiser's browser context: the entries, the seeding from the
ranking list's file, the start, the no-show, the late entries, the paper result, the move,
the withdrawal, the unlock and the correction on the desk (``/tournaments/{id}/desk``), the
start on the tournament's page. Every game is played on its table: its records sent with
the table's device token (its tablet's cookie, through the API), its result confirmed by
both players on the tablet page. At each of the fixture's table checks every tablet and
screen shows its table's game, having moved on by itself; the standings, the second stage,
the ranking and the audit (signed with the organiser's account) end as worked out by hand,
read on the storage service beside the server."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from carom.storage import open_store
from carom.storage.book import MatchBook
from carom.storage.tournaments import Tournaments
from tests import club_day
from tests.club_day import Step
from tests.storage.day_helpers import named
from tests.storage.test_club_day import _game, _sheet, check_the_end
from tests.web.server import ORGANISER, PASSWORD, Server
from tests.web.tables.helpers import add_table

TABLES = ("1", "2", "3")
FOLLOW = 15_000
"""How long a page may take to move on (ms)."""


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


class Desk:
    """The organiser's browser: logged in once, making the day's decisions on the desk."""

    def __init__(self, browser: Any, server: Server, tid: int) -> None:
        self.context: BrowserContext = browser.new_context(viewport={"width": 1280, "height": 900},
                                                           locale="en-GB")
        self.page: Page = self.context.new_page()
        self.url = f"{server.url}/tournaments/{tid}/desk"
        self.tid = tid
        self.page.goto(self.url)
        expect(self.page).to_have_url(re.compile(r"/login"))
        self.page.fill("#login-form input[name=name]", ORGANISER)
        self.page.fill("#login-form input[name=password]", PASSWORD)
        self.page.click("#login-form button[type=submit]")
        expect(self.page).to_have_url(self.url)

    def send(self, form: Any, **fields: str) -> Page:
        """Fill the form's fields (text, a tick, a choice) and send it: the desk says it is done."""
        for name, value in fields.items():
            field = form.locator(f"[name={name}]")
            tag = field.evaluate("e => e.tagName + (e.type || '')")
            if tag == "SELECTselect-one":
                field.select_option(value)
            elif tag == "INPUTcheckbox":
                field.set_checked(value == "on")
            else:
                field.fill(value)
        form.locator("button[type=submit]").click()
        expect(self.page.locator("#desk-done")).to_be_visible()
        expect(self.page.locator("#desk-error")).to_have_count(0)
        return self.page

    def game_form(self, game: str, kind: str) -> Any:
        """A game's form on a freshly loaded desk, its decisions unfolded."""
        self.page.goto(self.url)
        row = self.page.locator(f"#desk-games tr[data-game='{game}']")
        row.locator("details summary").click()
        return row.locator(f"form.{kind}-form")

    def player_form(self, player: int) -> Any:
        """A player's withdrawal form on a freshly loaded desk, unfolded."""
        self.page.goto(self.url)
        row = self.page.locator(f"#desk-players tr[data-player='{player}']")
        row.locator("details summary").click()
        return row.locator("form.withdraw-form")

    def start(self, base: str) -> None:
        """The start, on the tournament's page."""
        self.page.goto(f"{base}/tournaments/{self.tid}")
        self.page.locator("#start-form button[type=submit]").click()
        expect(self.page.locator("#schedule")).to_be_visible()

    def close(self) -> None:
        self.context.close()


def test_a_club_day_on_three_tables_with_fixed_tablets_and_screens(sqlite_server: Server,
                                                                   browser: Any) -> None:
    server = sqlite_server
    organiser = server.organiser()
    for order, name in enumerate(TABLES, start=1):
        add_table(organiser, name, order)
    store = open_store(server.data)
    desk: Desk | None = None
    try:
        tournaments = Tournaments(MatchBook(store))
        created = organiser.post("/api/tournaments", json=club_day.SETTINGS)
        assert created.status_code == 201, created.text
        tid = int(created.json()["id"])
        chosen = organiser.post(f"/api/tournaments/{tid}/tables", json={"tables": list(TABLES)})
        assert chosen.status_code == 200, chosen.text
        account = organiser.get("/api/session").json()["account"]
        tables = {int(name): Table(browser, server, organiser, name) for name in TABLES}
        desk = Desk(browser, server, tid)
        for step in club_day.STEPS:
            if step.kind == "tables":
                for number, names in step.tables.items():
                    tables[number].shows(names)
            elif step.kind == "play":
                _play(tournaments, tid, tables, step)
            elif step.kind != "confirm":  # every game is confirmed on its tablet as it ends
                _decide(desk, tournaments, tid, step, server.url)
        check_the_end(tournaments, tid, actor=f"{account['name']} #{account['id']}")
        for table in tables.values():
            expect(table.screen.locator("#table-next-game")).to_have_text(
                re.compile("No game is planned"), timeout=FOLLOW)
            table.close()
    finally:
        if desk is not None:
            desk.close()
        store.close()
        organiser.close()


def _decide(desk: Desk, tournaments: Tournaments, tid: int, step: Step, base: str) -> None:
    """One of the organiser's decisions, made on the desk (the start on the tournament's page)."""
    t = tournaments.read(tid)
    ids = {name: p for p, name in t.names().items()}
    if step.kind == "enter":
        for name in step.names:
            form = desk.page.locator("#entry-form")
            desk.page.goto(desk.url)
            fields = {"name": name, "stage": str(step.stage)} if form.locator("[name=stage]").count() \
                else {"name": name}
            desk.send(form, **fields)
    elif step.kind == "seed":
        desk.page.goto(desk.url)
        form = desk.page.locator("#ranking-form")
        form.locator("input[type=file]").set_input_files(
            files=[{"name": "ranking.csv", "mimeType": "text/csv", "buffer": club_day.RANKING_LIST.encode()}])
        form.locator("button[type=submit]").click()
        # Zora is on the list but not in the register: left aside, and said so
        expect(desk.page.locator("#desk-left-aside")).to_contain_text("9: Zora Nováková")
    elif step.kind == "start":
        desk.start(base)
    elif step.kind in ("no_show", "withdraw"):
        desk.send(desk.player_form(ids[step.names[0]]), reason=step.reason,
                  no_show="on" if step.kind == "no_show" else "")
    elif step.kind in ("paper", "correct"):
        game = _game(t, step.names)
        sheet = _sheet(t, game, step)
        fields = {f"{key}_{side}": str(sheet[key][side]) for key in ("points", "innings", "high_run")
                  for side in (0, 1)}
        if step.kind == "correct":
            fields["reason"] = step.reason
        desk.send(desk.game_form(game.id, "result" if step.kind == "paper" else "correct"), **fields)
    elif step.kind == "move":
        desk.send(desk.game_form(_game(t, step.names).id, "move"), table=str(step.table))
    elif step.kind == "unlock":
        desk.send(desk.game_form(_game(t, step.names).id, "unlock"), reason=step.reason)
    else:  # pragma: no cover - a step the fixture does not know
        raise AssertionError(step.kind)


def _play(tournaments: Tournaments, tid: int, tables: dict[int, Table], step: Step) -> None:
    t = tournaments.read(tid)
    game = _game(t, step.names)
    assert game.status == "playing" and game.table_no is not None and game.match_id is not None, game
    first, second = step.points if named(t, game) == step.names else step.points[::-1]
    tables[game.table_no].play(game.match_id, first, second)
