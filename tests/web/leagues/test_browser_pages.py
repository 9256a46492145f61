"""The leagues' pages and the player's page in Chromium: at phone (390×844), tablet
(1024×768) and hall-screen (1920×1080) size, in English, Slovak and German (each language
at one of the sizes), no page is wider than the screen and axe-core finds no WCAG 2.1 AA
violation (tests/web/accessibility.py); the organiser's pages are checked logged in."""

from __future__ import annotations

from typing import Any

from tests.league import hand_season as hand
from tests.web.accessibility import LOCALES, violations
from tests.web.browser import log_in, no_sideways_scroll
from tests.web.leagues import season as api_season
from tests.web.server import Server

SIZES = {"en": (390, 844), "sk": (1024, 768), "de": (1920, 1080)}


def _season(server: Server) -> tuple[int, dict[str, str], dict[str, int], list[dict[str, Any]]]:
    """A season two meetings in: one reported, one with a game going on, one line-up in."""
    client = server.organiser()
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
    third = meetings[2]
    api_season.hand_in(client, third, tokens[third["home"]["name"]],
                       [ids[g[0]] for g in hand.MEETINGS[3]])
    client.close()
    return season_id, tokens, ids, meetings


def test_every_league_page_fits_and_passes_axe(sqlite_server: Server, browser: Any) -> None:
    season_id, tokens, ids, meetings = _season(sqlite_server)
    public = ["/leagues", f"/leagues/{season_id}", f"/leagues/{season_id}/divisions/{hand.DIVISION}",
              f"/leagues/{season_id}/teams/{meetings[0]['home']['id']}",
              f"/leagues/meetings/{meetings[1]['id']}", f"/leagues/meetings/{meetings[2]['id']}",
              f"/leagues/{season_id}/captain?t={tokens['Žilina']}", f"/players/{ids['Adam Kováč']}"]
    organiser = ["/leagues", f"/leagues/{season_id}/organiser", f"/leagues/meetings/{meetings[1]['id']}"]
    found: dict[str, list[str]] = {}
    for lang, (width, height) in SIZES.items():
        context = browser.new_context(locale=LOCALES[lang], viewport={"width": width, "height": height},
                                      bypass_csp=True)
        page = context.new_page()
        for path in public:
            page.goto(sqlite_server.url + path)
            assert page.locator("html").get_attribute("lang") == lang
            assert no_sideways_scroll(page), (path, width)
            found[f"{lang} {width} {path}"] = violations(page)
        log_in(page, sqlite_server)
        for path in organiser:
            page.goto(sqlite_server.url + path)
            assert no_sideways_scroll(page), (path, width)
            found[f"{lang} {width} organiser {path}"] = violations(page)
        context.close()
    broken = [f"{where}: {v}" for where, found_there in found.items() for v in found_there]
    assert broken == [], "\n".join(broken)
