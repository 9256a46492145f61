"""What a person sees, in Chromium: the tablet at 1024×768 and 390×844 keeps its scoring
buttons on screen, the phone page is not wider than the phone, the board at 1920×1080
fits long names, its notices are readable, it shows set scores with their labels and
no rule ids; in English, Slovak and German."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import (
    OPENER,
    RULE_ID,
    Watched,
    calls,
    contrast,
    enter,
    fits,
    log_in,
    no_sideways_scroll,
)
from tests.web.server import Server


@pytest.fixture(scope="module")
def sqlite_server(shared_sqlite_server: Server) -> Server:
    """One server for the module's tests: each makes what it looks at."""
    return shared_sqlite_server


TABLETS = [{"width": 1024, "height": 768}, {"width": 390, "height": 844}]
LOCALES = {"en": "en-GB", "sk": "sk-SK", "de": "de-DE"}


def _equalizing(server: Server, players: list[str]) -> tuple[int, str]:
    """A match in its equalizing inning: the tablet shows the notice and where to put
    the balls (E3), the worst case for the buttons below them."""
    client = server.organiser()
    match_id, token = server.create(client, points=2, innings=20, players=players)
    enter(client, match_id, token, [OPENER, *calls("carom", "carom")])
    client.close()
    return match_id, token


@pytest.mark.parametrize("lang", LOCALES)
def test_the_tablet_keeps_its_scoring_buttons_on_screen(
    sqlite_server: Server, browser: Any, lang: str
) -> None:
    match_id, token = _equalizing(sqlite_server, ["Jean-Christophe Roudet-Delacroix", "Dick Jaspers"])
    for viewport in TABLETS:
        watched = Watched(browser, locale=LOCALES[lang], viewport=viewport, has_touch=True)
        tablet = watched.page()
        tablet.goto(f"{sqlite_server.url}/m/{match_id}/tablet?t={token}")
        expect(tablet.locator("#placing svg")).to_be_visible()
        assert tablet.locator("html").get_attribute("lang") == lang
        for button in ("#btn-carom", "#btn-miss"):
            assert fits(tablet, button), (viewport, button)
        if viewport["width"] >= 1024:  # the drawing once pushed Foul and Undo off a tablet's screen
            for button in ("#fouls summary", "#btn-undo"):
                assert fits(tablet, button), (viewport, button)
        assert no_sideways_scroll(tablet), viewport
        for code in ("en", "sk", "de"):
            assert fits(tablet, f".lang a[hreflang={code}]"), (viewport, code)
        watched.close()


@pytest.mark.parametrize("lang", LOCALES)
def test_the_board_fits_long_names_and_says_no_rule_ids(
    sqlite_server: Server, browser: Any, lang: str
) -> None:
    longest = "Jean-Christophe Roudet-Delacroix de la Haute-Villeneuve Ab"  # 58 characters
    for names in (["Jean-Christophe Roudet-Delacroix", "Dick Jaspers"], [longest, "Dick Jaspers"]):
        match_id, _ = _equalizing(sqlite_server, names)
        watched = Watched(browser, locale=LOCALES[lang], viewport={"width": 1920, "height": 1080})
        board = watched.page()
        board.goto(f"{sqlite_server.url}/m/{match_id}")
        assert no_sideways_scroll(board)
        for i in (0, 1):
            assert fits(board, f"#player-{i}"), (names, i)
            assert board.evaluate(
                f"(() => {{ const n = document.querySelector('#player-{i} .name'); "
                f"return n.scrollWidth <= n.clientWidth; }})()"
            )
        notice = board.locator(".scoreboard .notice.equalizing")
        expect(notice).to_be_visible()
        assert contrast(board, ".scoreboard .notice.equalizing") >= 4.5  # WCAG AA
        text = board.locator("#board").inner_text()
        assert not RULE_ID.search(text), text
        watched.close()


def test_the_board_of_a_match_in_sets_says_which_numbers_are_whose(
    sqlite_server: Server, browser: Any
) -> None:
    client = sqlite_server.organiser()
    match_id, token = sqlite_server.create(client, points=3, sets={"to_win": 2}, players=["Anna", "Boris"])
    enter(
        client,
        match_id,
        token,
        [
            OPENER,
            *calls("carom", "carom", "carom"),  # set 1: Anna 3:0 (E4)
            *calls("miss", "carom", "carom", "miss"),
        ],
    )  # set 2, Boris opens (E6)
    client.close()
    watched = Watched(browser, locale="en-GB", viewport={"width": 1920, "height": 1080})
    board = watched.page()
    board.goto(f"{sqlite_server.url}/m/{match_id}")
    expect(board.locator("#set-results")).to_contain_text("Set 1: 3 : 0")
    expect(board.locator("#player-0 .score-label")).to_have_text("Set 2")
    expect(board.locator("#score-0")).to_have_text("2")  # the set's score …
    expect(board.locator("#sets-0")).to_have_text("1")  # … beside the sets won
    expect(board.locator("#player-0 dt").nth(1)).to_have_text("Innings in the set")
    expect(board.locator("#innings-0")).to_have_text("1")
    expect(board.locator("#player-0 dt").nth(2)).to_have_text("Match average")
    expect(board.locator("#average-0")).to_have_text("2.500")  # 5 points in 2 innings, the whole match
    for part in ("#player-0", "#player-1", "#set-results", "#status", "#last"):
        assert fits(board, part), part  # all of it on the hall's screen
    watched.close()


PHONE_PAGES = ("/", "/players", "/hall", "/tournaments", "/table", "/organiser", "/review",
               "/players/register")


@pytest.mark.parametrize("lang", LOCALES)
def test_no_page_is_wider_than_a_phone(sqlite_server: Server, browser: Any, lang: str) -> None:
    """Every page of the navigation, seen by the organiser (the most on screen), fits 390
    pixels: the navigation scrolls within its own row, the organiser's forms shrink."""
    watched = Watched(browser, locale=LOCALES[lang], viewport={"width": 390, "height": 844}, has_touch=True)
    page = watched.page()
    log_in(page, sqlite_server)
    for path in PHONE_PAGES:
        page.goto(f"{sqlite_server.url}{path}?lang={lang}")
        assert no_sideways_scroll(page), path
        assert fits(page, ".lang"), path
    watched.close()


def test_the_phone_board_shows_whole_names(sqlite_server: Server, browser: Any) -> None:
    """Found on a club day: the board on a phone cut names to "Franz …"."""
    client = sqlite_server.organiser()
    match_id, token = sqlite_server.create(client, players=["Franz Stuckenberger", "Jean-Christophe Roudet"])
    enter(client, match_id, token, [OPENER])
    watched = Watched(browser, locale="de-DE", viewport={"width": 390, "height": 844})
    page = watched.page()
    page.goto(f"{sqlite_server.url}/m/{match_id}")
    for i in (0, 1):
        name = page.locator(f"#player-{i} .name")
        expect(name).to_be_visible()
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight + 1"), i
        assert name.evaluate("e => getComputedStyle(e).textOverflow") != "ellipsis"
    assert no_sideways_scroll(page)
    client.close()
    watched.close()


def test_a_running_tournament_fits_a_phone(sqlite_server: Server, browser: Any) -> None:
    """Found by looking at every page with a club day's data at 390 pixels: the list of
    tournaments and the desk's swap form (a game's long names in a select) were wider than
    a phone in every language."""
    client = sqlite_server.organiser()
    tid = client.post("/api/tournaments", json={"name": "Memoriál Jána Kováča, jesenné kolo", "discipline":
                                                "three-cushion", "points": 15, "tables": 2}).json()["id"]
    names = ("Maximilian Stuckenberger-Hohenfels", "Jean-Christophe Roudet-Lefebvre", "Barbora Hrušková",
             "Ján Kováč", "Eva Baranová")
    assert client.post(f"/api/tournaments/{tid}/players",
                       json={"players": [{"name": n} for n in names]}).status_code < 300
    assert client.post(f"/api/tournaments/{tid}/start").status_code < 300
    client.close()
    for locale in LOCALES.values():
        watched = Watched(browser, locale=locale, viewport={"width": 390, "height": 844}, has_touch=True)
        page = watched.page()
        log_in(page, sqlite_server)
        for path in ("/tournaments", f"/tournaments/{tid}/desk", f"/tournaments/{tid}"):
            page.goto(sqlite_server.url + path)
            assert no_sideways_scroll(page), (locale, path)
        expect(page.locator("#tournament-form, #standings, body").first).to_be_visible()
        watched.close()
