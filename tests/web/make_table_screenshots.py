"""Screenshots of the club's tables for docs/tables.md, taken with Playwright in Chromium.

    .venv/bin/python -m tests.web.make_table_screenshots docs/img

The scene: three tables in the hall; a round robin of four on tables 1 and 2 (its first
games under way); a one-off match on table 3. The pictures: the organiser's /tables with
a pairing code's link and QR code (1280×900), table 1's paired tablet (1024×768), its
screen and the hall monitor (1920×1080).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from tests.web.browser import OPENER, calls, enter
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.server import PASSWORD, Server

PLAYERS = ("Daniel Šimko", "Barbora Hrušková", "Ján Kováč", "Eva Baranová")


def _scene(server: Server) -> None:
    client = server.organiser()
    for order, name in enumerate(("1", "2", "3"), start=1):
        client.post("/api/tables", json={"name": name, "size": "large", "order": order}).raise_for_status()
    tid = client.post("/api/tournaments", json={"name": "Club evening", "discipline": "three-cushion",
                                                "points": 15, "tables": 2}).json()["id"]
    client.post(f"/api/tournaments/{tid}/tables", json={"tables": ["1", "2"]}).raise_for_status()
    client.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": n} for n in PLAYERS]})
    games = client.post(f"/api/tournaments/{tid}/start").json()["games"]
    for game, play in zip([g for g in games if g["status"] == "playing"],
                          (("carom", "carom", "miss", "carom"), ("miss", "carom", "carom", "carom", "miss")),
                          strict=True):
        enter(client, game["match"], game["referee_token"], [OPENER, *calls(*play)])
    match, token = server.create(client, players=["Peter Horváth", "Anna Nováková"], points=20)
    client.post("/api/tables/3/matches", json={"match": match}).raise_for_status()
    enter(client, match, token, [OPENER, *calls("carom", "carom", "carom", "miss")])
    client.close()


def _shot(page: Page, path: Path, *, full: bool = False) -> None:
    """A PNG, or a JPEG (``.jpg``: the hall's gradient makes a PNG of 1920×1080 big)."""
    page.wait_for_timeout(400)
    if path.suffix == ".jpg":
        page.screenshot(path=str(path), full_page=full, type="jpeg", quality=85)
    else:
        page.screenshot(path=str(path), full_page=full)


def shots(browser: Any, server: Server, out: Path) -> None:
    organiser = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    organiser.goto(f"{server.url}/login")
    organiser.fill("input[name=password]", PASSWORD)
    organiser.click("form button[type=submit]")
    organiser.wait_for_url("**/organiser")
    organiser.goto(f"{server.url}/tables")
    organiser.locator("form[action='/tables/1/pairing'] button").click()
    _shot(organiser, out / "tables.png", full=True)
    link = organiser.locator("#pairing-url").inner_text().strip()

    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-GB").new_page()
    tablet.goto(link)
    tablet.locator("#pair-button").click()
    tablet.wait_for_url("**/tables/1/tablet")
    _shot(tablet, out / "tables-tablet.png")

    hall = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB").new_page()
    hall.goto(f"{server.url}/tables/1/screen")
    _shot(hall, out / "tables-screen.jpg")
    hall.goto(f"{server.url}/hall?kiosk=1")
    _shot(hall, out / "tables-hall.jpg")


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/img")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "data").start()
        try:
            _scene(server)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                     args=CHROMIUM_ARGS)
                shots(browser, server, out)
                browser.close()
        finally:
            server.stop()
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
