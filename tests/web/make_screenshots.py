"""Screenshots of the scoreboard as its users see it, taken with Playwright in Chromium.

    .venv/bin/python -m tests.web.make_screenshots docs/img          # the pictures of docs/
    .venv/bin/python -m tests.web.make_screenshots /tmp/walk --all   # the whole walk, every language

The walk: the organiser's list and a match's page (tablet link, QR code), the tablet at
1024×768 and 390×844 (the lag, play with the placing diagram, the fouls, the end with
the players' confirmation), the board at 1920×1080 (long names, the equalizing inning,
a match in sets); in English, Slovak and German.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from tests.web.browser import OPENER, calls, enter
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.server import ORGANISER, PASSWORD, Server

LAG = {
    "type": "lag",
    "results": [
        {"top": True, "red": False, "y": 0.18, "crossed": False},
        {"top": True, "red": False, "y": 0.41, "crossed": False},
    ],
    "collided": False,
}
PLAY = (
    "carom",
    "carom",
    "carom",
    "miss",
    "carom",
    "miss",
    "carom",
    "carom",
    "miss",
    "carom",
    "carom",
    "carom",
    "carom",
    "miss",
    "carom",
    "carom",
)
LOCALES = {"en": "en-GB", "sk": "sk-SK", "de": "de-DE"}
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
HALL = {"width": 1920, "height": 1080}


class Matches:
    """The matches of the walk, entered through the API as tablets would."""

    def __init__(self, server: Server) -> None:
        client = server.organiser()
        self.playing = self._match(
            client,
            server,
            [LAG, OPENER, *calls(*PLAY)],
            players=["Daniel Šimko", "Barbora Hrušková"],
            points=15,
            innings=30,
        )
        self.fresh = self._match(client, server, [], players=["Ján Kováč", "Peter Horváth"], points=30)
        self.equalizing = self._match(
            client,
            server,
            [
                OPENER,
                {"type": "inning", "points": 14},
                {"type": "inning", "points": 9},
                *calls("carom", "Z7"),
            ],
            discipline="balkline-47/2",
            players=["Ján Kováč", "Peter Horváth"],
            points=100,
            innings=2,
        )
        self.long = self._match(
            client,
            server,
            [OPENER, *calls("carom", "carom", "miss", "carom")],
            players=["Jean-Christophe Roudet-Delacroix", "Dick Jaspers"],
            points=40,
        )
        self.sets = self._match(
            client,
            server,
            [OPENER, *calls("carom", "carom", "carom", "miss", "carom", "carom", "miss", "carom")],
            players=["Eva Baranová", "Daniel Šimko"],
            points=3,
            sets={"to_win": 2},
        )
        self.over = self._match(
            client,
            server,
            [OPENER, *calls("carom", "carom", "carom", "F4")],
            players=["Anna Nováková", "Boris Kráľ"],
            points=2,
        )
        client.close()

    @staticmethod
    def _match(client: Any, server: Server, records: list[dict[str, Any]], **header: Any) -> tuple[int, str]:
        match_id, token = server.create(client, **header)
        enter(client, match_id, token, records)
        return match_id, token


def _shot(page: Page, path: Path, *, full: bool = False) -> None:
    page.wait_for_timeout(300)
    page.screenshot(path=str(path), full_page=full)


def _organiser(browser: Any, server: Server, lang: str) -> Page:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale=LOCALES[lang])
    page.goto(f"{server.url}/login")
    page.fill("input[name=name]", ORGANISER)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url("**/organiser")
    return page


def docs(browser: Any, server: Server, matches: Matches, out: Path) -> None:
    """The pictures docs/scoreboard.md shows."""
    tablet = browser.new_page(viewport=TABLET, locale="en-GB")
    match_id, token = matches.playing
    tablet.goto(f"{server.url}/m/{match_id}/tablet?t={token}")
    tablet.locator("#fouls summary").click()
    _shot(tablet, out / "tablet.png", full=True)
    match_id, token = matches.equalizing
    tablet.goto(f"{server.url}/m/{match_id}/tablet?t={token}")
    _shot(tablet, out / "tablet-equalizing.png")
    phone = browser.new_page(viewport=PHONE, locale="sk-SK", has_touch=True, is_mobile=True)
    phone.goto(f"{server.url}/m/{match_id}/tablet?t={token}")
    _shot(phone, out / "tablet-phone.png")
    board = browser.new_page(viewport=HALL, locale="sk-SK", device_scale_factor=0.5)  # a smaller file
    board.goto(f"{server.url}/m/{matches.playing[0]}")
    _shot(board, out / "board.png")
    board.goto(f"{server.url}/m/{matches.sets[0]}")
    _shot(board, out / "board-sets.png")
    organiser = _organiser(browser, server, "en")
    _shot(organiser, out / "organiser.png", full=True)
    organiser.goto(f"{server.url}/organiser/matches/{matches.over[0]}")
    _shot(organiser, out / "organiser-match.png", full=True)


def walk(browser: Any, server: Server, matches: Matches, out: Path) -> None:
    """Every page a user meets, in every language, at the sizes they use."""
    for lang, locale in LOCALES.items():
        organiser = _organiser(browser, server, lang)
        _shot(organiser, out / f"{lang}-organiser.png", full=True)
        organiser.goto(f"{server.url}/organiser/matches/{matches.fresh[0]}")
        _shot(organiser, out / f"{lang}-organiser-match.png", full=True)
        organiser.goto(f"{server.url}/players")
        _shot(organiser, out / f"{lang}-players.png", full=True)
        for size, viewport in (("tablet", TABLET), ("phone", PHONE)):
            page = browser.new_page(viewport=viewport, locale=locale, has_touch=True)
            for name, (match_id, token) in (
                ("lag", matches.fresh),
                ("play", matches.playing),
                ("equalizing", matches.equalizing),
                ("over", matches.over),
            ):
                page.goto(f"{server.url}/m/{match_id}/tablet?t={token}")
                _shot(page, out / f"{lang}-{size}-{name}.png")
            page.goto(f"{server.url}/m/{matches.playing[0]}/tablet?t={matches.playing[1]}")
            page.locator("#fouls summary").click()
            _shot(page, out / f"{lang}-{size}-fouls.png", full=True)
            page.close()
        board = browser.new_page(viewport=HALL, locale=locale)
        for name, (match_id, _) in (
            ("playing", matches.playing),
            ("long", matches.long),
            ("equalizing", matches.equalizing),
            ("sets", matches.sets),
            ("over", matches.over),
        ):
            board.goto(f"{server.url}/m/{match_id}")
            _shot(board, out / f"{lang}-board-{name}.png")
        board.close()
        organiser.close()


def main(out: Path, everything: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "data", host="0.0.0.0").start()  # tablet links with the network address
        try:
            matches = Matches(server)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                (walk if everything else docs)(browser, server, matches, out)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"), "--all" in sys.argv)
