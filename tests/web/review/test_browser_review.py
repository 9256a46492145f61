"""``/review`` in Debian's Chromium: upload the real tracked match, look at a doubtful
stroke replayed from its samples, overrule it, and find the reviewed score on the
scoreboard and in ``carom replay`` of the exported file. Screenshots at 1920×1080 and
1024×768 (``CAROM_SCREENSHOTS=docs/img`` puts them into the docs)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.browser import Watched, log_in, no_sideways_scroll
from tests.web.server import Server

DATA = Path(__file__).parents[2] / "data" / "real-3c-match-part1.jsonl"
DOUBTFUL_SHOT = "545674"


def _shots(page: Page, tmp: Path, name: str) -> None:
    where = Path(os.environ.get("CAROM_SCREENSHOTS") or tmp)
    where.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(where / name))


def test_review_a_tracked_match(sqlite_server: Server, browser: Any, tmp_path: Path) -> None:
    watched = Watched(browser, locale="en-GB", viewport={"width": 1920, "height": 1080})
    page = watched.page()
    log_in(page, sqlite_server)
    page.locator("header nav a[href='/review']").click()
    expect(page).to_have_url(re.compile(r"/review$"))
    page.set_input_files("#review-upload input[name=file]", str(DATA))
    page.fill("#review-upload input[name=player0]", "Anna")
    page.fill("#review-upload input[name=player1]", "Boris")
    page.locator("#review-upload button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/review/\d+$"), timeout=60_000)
    match_id = int(page.url.rsplit("/", 1)[1])

    # the doubtful strokes come first, each with the doubt its ruling hangs on
    items = page.locator("#stroke-list li")
    expect(items).to_have_count(91)
    doubtful = page.locator("#stroke-list li.doubtful")
    count = doubtful.count()
    assert count >= 1
    assert all("doubtful" in (items.nth(i).get_attribute("class") or "") for i in range(count))
    page.locator(f"#stroke-list li[data-shot='{DOUBTFUL_SHOT}'] a").click()
    expect(page.locator("#stroke")).to_have_attribute("data-ready", "true")
    expect(page.locator("#hangs-on")).to_contain_text("the recording misses something")
    expect(page.locator("#auto-ruling")).to_contain_text("no point")
    # the replay: a path per ball, the contacts marked, the balls moved by the scrubber and by Play
    assert page.locator("#replay-svg polyline.path").count() == 3
    assert page.locator("#replay-svg .contact").count() >= 1
    expect(page.locator("#replay-svg .doubt-mark")).to_have_count(1)  # where red came to rest
    expect(page.locator("#replay-time")).to_have_value("1000")
    white = page.locator("#replay-svg circle.ball-now.white")
    at_end = white.get_attribute("cx")
    page.locator("#replay-time").fill("0")
    assert white.get_attribute("cx") != at_end
    expect(page.locator("#replay-clock")).to_have_text("0.00 s")
    page.locator("#replay-play").click()
    expect(page.locator("#stroke")).to_have_attribute("data-played", "true", timeout=30_000)
    expect(page.locator("#replay-events li.past")).to_have_count(page.locator("#replay-events li").count())
    assert no_sideways_scroll(page)
    _shots(page, tmp_path, "review-1920.png")

    # overrule it: a carom after all
    score_before = page.locator("#review-score").inner_text()
    page.locator("#decide-carom").click()
    expect(page.locator("#decision")).to_have_text("overruled: carom")
    expect(page.locator(f"#stroke-list li[data-shot='{DOUBTFUL_SHOT}']")).to_have_class(re.compile("decided"))
    score = page.locator("#review-score").inner_text()
    assert score != score_before
    shown = [int(n) for n in re.findall(r"\d+", score)]

    # the scoreboard shows the reviewed score; carom replay of the export gives the same
    page.goto(sqlite_server.url + "/")
    cell = page.locator(f"tr[data-match='{match_id}'] .score-cell")
    expect(cell).to_have_text(f"{shown[0]} : {shown[1]}")
    exported = page.request.get(f"{sqlite_server.url}/m/{match_id}/export")
    assert exported.ok
    path = tmp_path / "reviewed.carom.jsonl"
    path.write_bytes(exported.body())
    done = subprocess.run([sys.executable, "-m", "carom.cli.main", "replay", str(path), "--json"],
                          capture_output=True, text=True, check=True, timeout=120)
    replayed = json.loads(done.stdout)
    assert [p["points"] for p in replayed["players"]] == shown

    # the smaller screen: the list above the stroke, nothing sideways
    small = watched.page()
    small.set_viewport_size({"width": 1024, "height": 768})
    index = page.request.get(f"{sqlite_server.url}/review/{match_id}").text()
    found = re.search(r'data-index="(\d+)" data-shot="' + DOUBTFUL_SHOT, index)
    assert found
    small.goto(f"{sqlite_server.url}/review/{match_id}?stroke={found.group(1)}")
    expect(small.locator("#decision")).to_have_text("overruled: carom")
    expect(small.locator("#stroke")).to_have_attribute("data-ready", "true")
    assert no_sideways_scroll(small)
    _shots(small, tmp_path, "review-1024.png")
    small.goto(f"{sqlite_server.url}/review")
    expect(small.locator("#reviews tr[data-match]")).to_have_count(1)
    watched.close()
