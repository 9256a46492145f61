"""The leagues' pages and the player's page in Chromium: every page at phone (390×844),
tablet (1024×768) and hall-screen (1920×1080) size, in English, Slovak and German, is no
wider than the screen and axe-core finds no WCAG 2.1 AA violation on it
(tests/web/accessibility.py); the organiser's pages are checked logged in. One browser
context a language (a test each): each page is loaded once and checked at the three sizes in turn (the
window resized, the page's layout following it)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.league import hand_season as hand
from tests.web.accessibility import LOCALES, SIZES, violations
from tests.web.browser import log_in, no_sideways_scroll
from tests.web.leagues import season as api_season
from tests.web.server import Server
from tests.web.tables.helpers import add_table


@pytest.fixture(scope="module")
def sqlite_server(shared_sqlite_server: Server) -> Server:
    """One server for the module's tests: each makes what it looks at."""
    return shared_sqlite_server


def _season(server: Server) -> tuple[int, dict[str, str], dict[str, int], list[dict[str, Any]]]:
    """A season four meetings in: one reported, one with a game going on and its games on
    the hall's tables, one line-up in, and one with its games made and on no table yet."""
    client = server.organiser()
    for order, name in enumerate(("1", "Stôl 2"), 1):
        add_table(client, name, order)
    season_id = api_season.create(client)
    tokens = api_season.links(client, season_id, ["Trenčín A", "Nitra", "Žilina", "Görlitz"])
    ids = api_season.player_ids(client, season_id)
    meetings = [m for m in client.get(f"/api/leagues/{season_id}").json()["meetings"]
                if m["division"] == hand.DIVISION]
    for number in (1, 2):
        seen = api_season.lineups(client, meetings[number - 1], number, tokens, ids)
        for game, hand_game in zip(seen["games"][: 3 - number], hand.MEETINGS[number], strict=False):
            api_season.play(client, game, hand_game)
    for side in ("home", "away"):
        api_season.sign(client, meetings[0], tokens[meetings[0][side]["name"]])
    put = client.post(f"/api/leagues/meetings/{meetings[1]['id']}/tables", json={"tables": ["Stôl 2"]})
    assert put.status_code == 200, put.text
    api_season.lineups(client, meetings[3], 4, tokens, ids)
    third = meetings[2]
    api_season.hand_in(client, third, tokens[third["home"]["name"]],
                       [ids[g[0]] for g in hand.MEETINGS[3]])
    client.close()
    return season_id, tokens, ids, meetings


@pytest.fixture(scope="module")
def season(sqlite_server: Server) -> tuple[int, dict[str, str], dict[str, int], list[dict[str, Any]]]:
    """The season every language looks at, made once on the module's server."""
    return _season(sqlite_server)


@pytest.mark.parametrize("lang", LOCALES)
def test_every_league_page_fits_and_passes_axe(
        sqlite_server: Server, season: tuple[int, dict[str, str], dict[str, int], list[dict[str, Any]]],
        browser: Any, lang: str) -> None:
    season_id, tokens, ids, meetings = season
    fourth = meetings[3]
    public = ["/leagues", f"/leagues/{season_id}", f"/leagues/{season_id}/divisions/{hand.DIVISION}",
              f"/leagues/{season_id}/teams/{meetings[0]['home']['id']}",
              f"/leagues/meetings/{meetings[0]['id']}", f"/leagues/meetings/{meetings[1]['id']}",
              f"/leagues/meetings/{meetings[2]['id']}",
              f"/leagues/meetings/{fourth['id']}?t={tokens[fourth['home']['name']]}",
              f"/leagues/{season_id}/captain?t={tokens['Žilina']}", f"/players/{ids['Adam Kováč']}"]
    organiser = ["/leagues", f"/leagues/{season_id}/organiser", f"/leagues/meetings/{meetings[1]['id']}",
                 f"/leagues/meetings/{fourth['id']}"]
    found: dict[str, list[str]] = {}
    context = browser.new_context(locale=LOCALES[lang], viewport=SIZES["phone"], bypass_csp=True)
    page = context.new_page()
    for who, paths in (("anyone", public), ("organiser", organiser)):
        if who == "organiser":
            page.set_viewport_size(SIZES["phone"])
            log_in(page, sqlite_server)
        for path in paths:
            page.goto(sqlite_server.url + path)
            assert page.locator("html").get_attribute("lang") == lang
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                assert no_sideways_scroll(page), (lang, size, who, path)
                found[f"{lang} {size} {who} {path}"] = violations(page)
    context.close()
    broken = [f"{where}: {v}" for where, found_there in found.items() for v in found_there]
    assert broken == [], "\n".join(broken)
