"""``/review`` of a video in Debian's Chromium: the tests' rendered clip uploaded through the
page, followed while it is tracked, and reviewed with its stills beside the replayed paths;
the new pages pass axe-core's WCAG 2.1 AA rules at three sizes in English, Slovak and German."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.video.conftest import clip  # noqa: F401 (the rendered clip, a fixture)
from tests.web.accessibility import every_look, violations
from tests.web.browser import Watched, log_in, no_sideways_scroll
from tests.web.server import ORGANISER, PASSWORD, Server

pytestmark = pytest.mark.warm_pool  # its pages simulate, fit or track at once


def _job(data: Path, key: str, **state: Any) -> str:
    """A job's folder as a server writes it (its state far from stale while the test runs)."""
    folder = data / "review-videos" / key
    folder.mkdir(parents=True)
    (folder / "status.json").write_text(json.dumps({**state, "written": time.time() + 3600}))
    return f"/review/video/{key}"


def test_a_video_reviewed_in_the_browser(sqlite_server: Server, browser: Any, clip: Any) -> None:  # noqa: F811
    path, _ = clip
    watched = Watched(browser, locale="en-GB", viewport={"width": 1920, "height": 1080})
    page = watched.page()
    log_in(page, sqlite_server)
    page.goto(sqlite_server.url + "/review")
    page.set_input_files("#video-upload input[name=file]", str(path))
    page.fill("#video-upload input[name=player0]", "Anna")
    page.fill("#video-upload input[name=player1]", "Boris")
    page.locator("#video-upload button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/review/video/[0-9a-f]{32}$"))
    expect(page.locator("#video-progress")).to_be_attached()
    expect(page).to_have_url(re.compile(r"/review/\d+$"), timeout=240_000)  # moved on by itself

    expect(page.locator("#stroke")).to_have_attribute("data-ready", "true")
    still = page.locator("#still-img")
    expect(still).to_be_visible()
    assert page.evaluate("document.getElementById('still-img').naturalWidth") > 0
    stills = page.locator("#stills li")
    assert stills.count() >= 3
    assert (still.get_attribute("alt") or "").startswith("Video frame at ")
    expect(page.locator("#still-caption")).to_contain_text("the balls at rest")
    at_end = still.get_attribute("src")
    page.locator("#replay-time").fill("0")  # the replay's start: the start's still
    expect(page.locator("#still-caption")).to_contain_text("the stroke's start")
    assert still.get_attribute("src") != at_end
    expect(page.locator("#stills li.shown")).to_have_count(1)
    assert no_sideways_scroll(page)
    review = page.url.removeprefix(sqlite_server.url)
    watched.close()
    assert _axe(sqlite_server, browser, [review]) == []


def test_the_video_pages_pass_wcag_21_aa(sqlite_server: Server, browser: Any) -> None:
    data = sqlite_server.data
    tracking = _job(data, "a" * 32, state="tracking", done=12.0, seconds=41.5, name="match.mp4")
    waiting = _job(data, "b" * 32, state="tracking", done=0.0, seconds=41.5, name="match.mp4")
    failed = _job(data, "c" * 32, state="failed",
                  error="cut.mp4: frame 312 (12.480 s): the video breaks off (Invalid data)")
    assert _axe(sqlite_server, browser, ["/review", tracking, waiting, failed]) == []


def _axe(server: Server, browser: Any, paths: list[str]) -> list[str]:
    """What axe-core finds on ``paths`` (logged in) at each size, in each language."""
    first = browser.new_context()
    page = first.new_page()
    page.goto(server.url + "/login")
    page.fill("input[name=name]", ORGANISER)
    page.fill("input[name=password]", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url("**/organiser")
    session = first.storage_state()  # one login (the login is rate limited), its cookie shared
    first.close()
    broken: list[str] = []
    for what, page in every_look(browser, session):
        for where in paths:
            page.goto(server.url + where, wait_until="load")
            broken += [f"{what} {where}: {v}" for v in violations(page)]
    return broken
