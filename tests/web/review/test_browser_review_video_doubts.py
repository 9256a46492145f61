"""The review of a video with a stroke left out and a stroke the video doubts, in Chromium:
the notice above the stroke list and the video's doubts beside the ruling pass axe-core's
WCAG 2.1 AA rules at three sizes in English, Slovak and German, nothing sideways.
``CAROM_SCREENSHOTS=docs/img`` writes ``review-video-doubts-1024.png``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import Watched, log_in, no_sideways_scroll
from tests.web.review.test_browser_review import _shots
from tests.web.review.test_browser_review_video import _axe
from tests.web.review.test_review_video_doubts import _lines, _track
from tests.web.server import Server


@pytest.fixture
def doubted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Server, int, int]]:
    """``carom serve`` on a data folder holding the review of such a video: the server,
    the review's id and the shot the video doubts."""
    from carom.storage import open_store
    from carom.storage.book import MatchBook
    from carom.web.shared import auth

    lines = _lines(6)
    header, records = _track(lines, tmp_path / "job", monkeypatch)
    store = open_store(tmp_path / "data")
    try:
        match_id = int(MatchBook(store).create(header, auth.new_token(), records, by=None))
    finally:
        store.close()
    running = Server(tmp_path / "data", warm_pool=True).start()
    yield running, match_id, int(lines[2]["shot"])
    running.stop()


def test_the_left_out_stroke_and_the_videos_doubts_pass_wcag_21_aa(doubted: tuple[Server, int, int],
                                                                   browser: Any, tmp_path: Path) -> None:
    server, match_id, shot = doubted
    watched = Watched(browser, locale="en-GB", viewport={"width": 1024, "height": 768})
    page = watched.page()
    log_in(page, server)
    page.goto(f"{server.url}/review/{match_id}")
    expect(page.locator("#not-judged")).to_contain_text("1 stroke of the video was not judged")
    page.locator(f"#stroke-list li[data-shot='{shot}'] a").click()
    expect(page.locator("#stroke")).to_have_attribute("data-ready", "true")
    expect(page.locator("#video-doubts")).to_contain_text("it left the picture or was covered")
    expect(page.locator(f"#stroke-list li[data-shot='{shot}']")).to_have_class(re.compile("doubtful"))
    assert no_sideways_scroll(page)
    _shots(page, tmp_path, "review-video-doubts-1024.png")
    chosen = page.url.removeprefix(server.url)
    watched.close()
    assert _axe(server, browser, [chosen]) == []
