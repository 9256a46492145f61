"""Every page passes axe-core's WCAG 2.1 A and AA checks in Debian's Chromium, at phone
(390×844), tablet (1024×768) and hall-screen (1920×1080) size, in English, Slovak and
German: the public pages, the tablet in play with its shot clock, with a stroke in doubt and at
the end, the
organiser's pages logged in (the accounts', one's own account and a referee's matches too),
the tournament's page and its desk (running, and taking entries), the hall, the kiosks, the
training table, the review."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from carom.core.balls import Ball
from carom.notation.said import Said
from tests.web.accessibility import LOCALES, SIZES, violations
from tests.web.browser import OPENER, calls, enter, log_in
from tests.web.server import Server

PAIRED = "/tables/1/tablet"
"""The table's tablet once the browser is paired with table 1 (:func:`_pair`)."""
REAL = Path(__file__).parents[2] / "data" / "real-3c-match-part1.jsonl"
CLOCK = {"stroke": 40, "warning": 10, "timeouts": 1, "timeout": 40}
SAID = Said("no %(event)s", event=Said("%(ball)s–%(other)s contact at %(t)s s", ball=Ball.WHITE,
                                      other=Ball.RED, t="1.25"))
DOUBTED = {"type": "stroke", "ball": "white",
           "events": [{"kind": "ball", "ball": "white", "other": "red"},
                      *({"kind": "cushion", "ball": "white", "cushion": c}
                        for c in ("top", "left", "bottom"))],
           "doubt": {"confidence": 0.8125, "reasons": [
               {"what": "yellow not seen after frame 1200 (40.040 s): its last place before it is used"},
               {"what": str(SAID), "said": SAID.as_json()}]}}
"""A camera's stroke in doubt: the tablet asks the referee to uphold or overrule it."""


def _pair(server: Server, context: Any) -> None:
    """The browser ``context`` pairs as table 1's tablet with a fresh one-time code."""
    client = server.organiser()
    code = client.post("/api/tables/1/pairing").json()["code"]
    client.close()
    paired = context.request.post(server.url + "/tables/1/pair", form={"code": code}, max_redirects=0)
    assert paired.status == 303, paired.text()


def _pages(server: Server) -> tuple[list[str], list[str]]:
    """The addresses to check: (anyone's, the organiser's). Makes a match in play with a
    shot clock, a finished match, a started tournament and a reviewed recording."""
    client = server.organiser()
    playing, token = server.create(client, players=["Ľudmila Ďurčová", "Jörg Müller"], clock=CLOCK)
    enter(client, playing, token, [OPENER, *calls("carom", "miss", "carom")])
    done, done_token = server.create(client, points=2, players=["Anna", "Boris"])
    enter(client, done, done_token, [OPENER, *calls("carom", "carom", "miss")])
    doubted, doubted_token = server.create(client, players=["Anna", "Boris"])
    enter(client, doubted, doubted_token, [OPENER, DOUBTED])
    tid = client.post("/api/tournaments", json={"name": "Club cup", "discipline": "three-cushion",
                                                "points": 2, "tables": 2}).json()["id"]
    client.post(f"/api/tournaments/{tid}/players",
                json={"players": [{"name": n} for n in ("Anna", "Boris", "Cyril", "Dana")]})
    for order, table in enumerate(("1", "2"), start=1):  # the club's tables: a match on 1, the cup on 2
        client.post("/api/tables", json={"name": table, "size": "large", "order": order})
    client.post("/api/tables/1/matches", json={"match": playing})
    client.post(f"/api/tournaments/{tid}/tables", json={"tables": ["2", "1"]})
    client.post(f"/api/tournaments/{tid}/start")
    entry = client.post("/api/tournaments", json={"name": "Spring cup", "discipline": "three-cushion",
                                                  "points": 2}).json()["id"]
    client.post(f"/api/tournaments/{entry}/players", json={"players": [{"name": "Emil"}, {"name": "Fero"}]})
    uploaded = client.post("/review", files={"file": (REAL.name, REAL.read_bytes())},
                           data={"discipline": "three-cushion", "player0": "Jaspers", "player1": "Sánchez"},
                           follow_redirects=False)
    review = uploaded.headers.get("location", "/review")
    client.close()
    public = ["/", f"/m/{playing}", f"/m/{done}", f"/m/{done}/scoresheet", f"/m/{playing}/tablet?t={token}",
              f"/m/{done}/tablet?t={done_token}", f"/m/{doubted}/tablet?t={doubted_token}",
              "/players", "/players/register", "/tournaments",
              f"/tournaments/{tid}", "/hall", f"/kiosk/{playing}", "/kiosk", "/table", "/login",
              "/m/999999", "/tables/1/screen", "/tables/2/screen", "/tables/1/tablet",
              "/tables/1/pair?code=x"]
    organiser = ["/organiser", f"/organiser/matches/{playing}", "/tournaments", f"/tournaments/{tid}",
                 "/players/register", "/review", review, "/accounts", "/account", "/referee", "/tables",
                 f"/tournaments/{tid}/desk", f"/tournaments/{entry}/desk", PAIRED]
    return public, organiser


@pytest.fixture(scope="module")
def pages(shared_sqlite_server: Server) -> tuple[list[str], list[str]]:
    """The addresses every size and language checks, made once on the module's server."""
    return _pages(shared_sqlite_server)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
def test_every_page_passes_wcag_21_aa(shared_sqlite_server: Server, pages: tuple[list[str], list[str]],
                                      browser: Any, lang: str, size: str) -> None:
    public, organiser = pages
    broken: list[str] = []
    context = browser.new_context(locale=LOCALES[lang], viewport=SIZES[size], bypass_csp=True)
    page = context.new_page()
    for logged_in, paths in ((False, public), (True, organiser)):
        if logged_in:
            _pair(shared_sqlite_server, context)
            log_in(page, shared_sqlite_server)
        for path in paths:
            page.goto(shared_sqlite_server.url + path, wait_until="load")
            broken += [f"{size} {path}: {v}" for v in violations(page)]
    context.close()
    assert broken == [], "\n".join(broken)
