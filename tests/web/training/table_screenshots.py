"""Screenshots of the training table (``/table``) in Chromium, for docs/.

    .venv/bin/python -m tests.web.training.table_screenshots docs/img

At 1920×1080 and 1024×768: a three-cushion point played from the starting position (its
paths, contacts and ruling), with the shot finder's suggestions listed.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.server import Server
from tests.web.training.table_page import SCORING, play

SIZES = ((1920, 1080), (1024, 768))


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "data").start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                     args=CHROMIUM_ARGS)
                for width, height in SIZES:
                    page = browser.new_page(viewport={"width": width, "height": height}, locale="en-GB")
                    page.goto(f"{server.url}/table?{SCORING}")
                    page.click("#suggest")
                    expect(page.locator("#suggestion-1")).to_be_visible(timeout=120_000)
                    play(page)
                    page.evaluate("window.scrollTo(0, 0)")
                    page.screenshot(path=str(folder / f"table-{width}x{height}.png"))
                    page.close()
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"))
