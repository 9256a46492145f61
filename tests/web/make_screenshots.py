"""Screenshots of the tablet and the audience board for the docs, taken with Playwright.

    .venv/bin/python -m tests.web.make_screenshots docs/img
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.server import Server

RECORDS = [{"type": "lag", "results": [{"top": True, "red": False, "y": 0.18, "crossed": False},
                                       {"top": True, "red": False, "y": 0.41, "crossed": False}],
            "collided": False},
           {"type": "opener", "player": 0}]
PLAY = ["carom", "carom", "carom", "miss", "carom", "miss", "carom", "carom", "miss",
        "carom", "carom", "carom", "carom", "miss", "carom", "carom"]


def enter(client: Any, match_id: int, token: str, records: list[dict[str, Any]]) -> None:
    for seq, record in enumerate(records):
        response = client.post(f"/api/matches/{match_id}/records", json={"after": seq, "record": record},
                               headers={"X-Referee-Token": token})
        assert response.status_code == 201, response.text


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "data").start()
        try:
            client = server.organiser()
            match_id, token = server.create(client, players=["Daniel Šimko", "Barbora Hrušková"],
                                            points=15, innings=30)
            enter(client, match_id, token, RECORDS + [{"type": "call", "result": r} for r in PLAY])
            last_id, last_token = server.create(client, discipline="balkline-47/2", table="large",
                                                players=["Ján Kováč", "Peter Horváth"], points=100,
                                                innings=2)
            enter(client, last_id, last_token, [
                {"type": "opener", "player": 0}, {"type": "inning", "points": 14},
                {"type": "inning", "points": 9}, {"type": "call", "result": "carom"},
                {"type": "call", "result": "foul", "rule": "Z7"}])
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                tablet = browser.new_page(viewport={"width": 1024, "height": 1240}, locale="en-GB")
                tablet.goto(f"{server.url}/m/{match_id}/tablet?t={token}")
                tablet.locator("#fouls summary").click()
                tablet.screenshot(path=str(out / "tablet.png"), full_page=True)
                tablet.goto(f"{server.url}/m/{last_id}/tablet?t={last_token}")
                tablet.screenshot(path=str(out / "tablet-equalizing.png"), full_page=True)
                board = browser.new_page(viewport={"width": 1600, "height": 900}, locale="sk-SK")
                board.goto(f"{server.url}/m/{match_id}")
                board.screenshot(path=str(out / "board.png"))
                organiser = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
                organiser.goto(f"{server.url}/login")
                organiser.fill("input[name=password]", "organiser-secret")
                organiser.click("form button[type=submit]")
                organiser.screenshot(path=str(out / "organiser.png"), full_page=True)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"))
