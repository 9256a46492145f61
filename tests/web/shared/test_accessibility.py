"""Every page passes axe-core's WCAG 2.1 A and AA checks in Debian's Chromium, at phone
(390×844), tablet (1024×768) and hall-screen (1920×1080) size, in English, Slovak and
German: the public pages, the tablet in play with its shot clock and at the end, the
organiser's pages logged in, the tournament's page, the hall, the kiosks, the training
table, the review."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.accessibility import LOCALES, SIZES, violations
from tests.web.browser import OPENER, calls, enter
from tests.web.server import Server

REAL = Path(__file__).parents[2] / "data" / "real-3c-match-part1.jsonl"
CLOCK = {"stroke": 40, "warning": 10, "timeouts": 1, "timeout": 40}


def _pages(server: Server) -> tuple[list[str], list[str]]:
    """The addresses to check: (anyone's, the organiser's). Makes a match in play with a
    shot clock, a finished match, a started tournament and a reviewed recording."""
    client = server.organiser()
    playing, token = server.create(client, players=["Ľudmila Ďurčová", "Jörg Müller"], clock=CLOCK)
    enter(client, playing, token, [OPENER, *calls("carom", "miss", "carom")])
    done, done_token = server.create(client, points=2, players=["Anna", "Boris"])
    enter(client, done, done_token, [OPENER, *calls("carom", "carom", "miss")])
    tid = client.post("/api/tournaments", json={"name": "Club cup", "discipline": "three-cushion",
                                                "points": 2, "tables": 2}).json()["id"]
    client.post(f"/api/tournaments/{tid}/players",
                json={"players": [{"name": n} for n in ("Anna", "Boris", "Cyril", "Dana")]})
    client.post(f"/api/tournaments/{tid}/start")
    uploaded = client.post("/review", files={"file": (REAL.name, REAL.read_bytes())},
                           data={"discipline": "three-cushion", "player0": "Jaspers", "player1": "Sánchez"},
                           follow_redirects=False)
    review = uploaded.headers.get("location", "/review")
    client.close()
    public = ["/", f"/m/{playing}", f"/m/{done}", f"/m/{done}/scoresheet", f"/m/{playing}/tablet?t={token}",
              f"/m/{done}/tablet?t={done_token}", "/players", "/players/register", "/tournaments",
              f"/tournaments/{tid}", "/hall", f"/kiosk/{playing}", "/kiosk", "/table", "/login",
              "/m/999999"]
    organiser = ["/organiser", f"/organiser/matches/{playing}", "/tournaments", f"/tournaments/{tid}",
                 "/players/register", "/review", review]
    return public, organiser


@pytest.mark.parametrize("lang", LOCALES)
def test_every_page_passes_wcag_21_aa(sqlite_server: Server, browser: Any, lang: str) -> None:
    public, organiser = _pages(sqlite_server)
    broken: list[str] = []
    for size, viewport in SIZES.items():
        context = browser.new_context(locale=LOCALES[lang], viewport=viewport, bypass_csp=True)
        page = context.new_page()
        for logged_in, paths in ((False, public), (True, organiser)):
            if logged_in:
                page.goto(sqlite_server.url + "/login")
                page.fill("input[name=password]", "organiser-secret")
                page.click("form button[type=submit]")
                page.wait_for_url("**/organiser")
            for path in paths:
                page.goto(sqlite_server.url + path, wait_until="load")
                broken += [f"{size} {path}: {v}" for v in violations(page)]
        context.close()
    assert broken == [], "\n".join(broken)
