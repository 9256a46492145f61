"""End to end in Debian's Chromium: an organiser creates a match, a referee enters it on
the tablet, the audience board follows live, both players confirm the result, the
scoresheet is what ``carom replay`` makes of the exported file. On SQLite and on
PostgreSQL; every page without a Content-Security-Policy violation."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.browser import Watched, create_match, foul, log_in, tap
from tests.web.server import Server


def _carom(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "carom.cli.main", *args], capture_output=True,
                          text=True, check=True, timeout=60)
    return done.stdout


def check_scoresheet(tablet: Page, server: Server, match_id: int, tmp_path: Path) -> str:
    """The scoresheet page equals ``carom replay`` of the exported file; the API's replay
    object equals ``carom replay --json``."""
    tablet.locator("#sheet-link").click()
    shown = tablet.locator("#scoresheet").text_content()
    exported = tablet.request.get(f"{server.url}/m/{match_id}/export")
    assert exported.ok
    path = tmp_path / "exported.carom.jsonl"
    path.write_bytes(exported.body())
    assert shown == _carom("replay", str(path))
    api: dict[str, Any] = tablet.request.get(f"{server.url}/api/matches/{match_id}").json()
    assert api["replay"] == json.loads(_carom("replay", str(path), "--json"))
    return shown or ""


def test_three_cushion_match_with_an_equalizing_inning(server: Server, browser: Any, tmp_path: Path) -> None:
    watched = Watched(browser, locale="en-GB", viewport={"width": 1180, "height": 900})
    page = watched.page()
    log_in(page, server)
    match_id, url = create_match(page, discipline="three-cushion", table="large", player0="Anna",
                                 player1="Boris", points="3", innings="", equalizing_inning="on")

    board = watched.page()
    board.goto(f"{server.url}/m/{match_id}")
    board.evaluate("window.notReloaded = true")
    tablet = watched.page()
    tablet.goto(url)

    # the lag: Anna's ball stops closer to the bottom cushion (L2); she lets herself open
    tablet.fill("input[name=lag0_y]", "18")
    tablet.fill("input[name=lag1_y]", "42.5")
    tap(tablet, "#lag-form button[type=submit]")
    expect(tablet.locator("#turn")).to_contain_text("Anna won the lag and chooses who opens")
    tap(tablet, "button:has-text('Anna opens')")
    expect(tablet.locator("#placing svg")).to_be_visible()  # the starting position (O2)
    expect(tablet.locator("#notices")).to_contain_text("O3")
    expect(board.locator("#player-0")).to_have_class(re.compile("at-table"))

    tap(tablet, "#btn-carom")
    tap(tablet, "#btn-carom")
    expect(tablet.locator("#t-series")).to_have_text("2")
    expect(tablet.locator("#t-high-0")).to_have_text("2")  # the tablet shows the high run
    expect(board.locator("#series-0")).to_contain_text("2")
    tap(tablet, "#btn-miss")
    expect(board.locator("#player-1")).to_have_class(re.compile("at-table"))

    tap(tablet, "#btn-carom")
    tap(tablet, "#btn-carom")  # a mis-entry …
    expect(board.locator("#score-1")).to_have_text("2")
    tap(tablet, "#btn-undo")  # … withdrawn
    expect(board.locator("#score-1")).to_have_text("1")
    tap(tablet, "#btn-miss")

    tap(tablet, "#btn-carom")  # Anna reaches 3: Boris has the equalizing inning (E3)
    expect(tablet.locator("#notices")).to_contain_text("Equalizing inning: Boris")
    expect(tablet.locator("#placing svg circle.ball")).to_have_count(3)
    expect(board.locator("#status")).to_contain_text("Equalizing inning")
    expect(board.locator("#score-0")).to_have_text("3")

    tap(tablet, "#btn-carom")
    foul(tablet, "F4")
    expect(tablet.locator("#result")).to_have_text("Anna wins")
    expect(board.locator("#status")).to_contain_text("Anna wins")
    expect(board.locator("#innings-0")).to_have_text("2")
    expect(board.locator("#innings-1")).to_have_text("2")
    expect(board.locator("#score-1")).to_have_text("2")
    expect(board.locator("#last")).to_have_text("Boris: foul – touching a ball")  # words, no rule ids
    assert board.evaluate("window.notReloaded") is True  # live, not reloaded

    # the referee may still undo until both players confirm; then only the organiser reopens
    expect(tablet.locator("#btn-undo")).to_be_visible()
    tablet.locator("#btn-confirm-0").click()
    expect(tablet.locator("#confirmed-0")).to_contain_text("Anna confirmed")
    expect(tablet.locator("#btn-undo")).to_be_visible()
    tablet.locator("#btn-confirm-1").click()
    expect(tablet.locator("#confirmed")).to_contain_text("confirmed")
    expect(tablet.locator("#btn-undo")).to_have_count(0)
    page.goto(f"{server.url}/organiser/matches/{match_id}")
    expect(page.locator("#history")).to_contain_text("Result confirmed by Boris")
    page.locator("#reopen").click()
    expect(page.locator("#history")).to_contain_text("Reopened by organiser")
    expect(tablet.locator("#btn-undo")).to_be_visible()  # the tablet follows live

    sheet = check_scoresheet(tablet, server, match_id, tmp_path)
    assert "1 F4" in sheet and "won" in sheet
    watched.close()


def test_balkline_match_with_a_z7_fault(server: Server, browser: Any, tmp_path: Path) -> None:
    watched = Watched(browser, locale="sk-SK", viewport={"width": 1024, "height": 1300})
    page = watched.page()
    log_in(page, server)
    match_id, url = create_match(page, discipline="balkline-47/2", table="large", player0="Anna",
                                 player1="Boris", points="50", innings="2", equalizing_inning="on")
    board = watched.page()
    board.goto(f"{server.url}/m/{match_id}")
    expect(board.locator("#player-0 dt").first).to_have_text("Nábehy")  # Slovak by Accept-Language
    board.evaluate("window.notReloaded = true")

    tablet = watched.page()
    tablet.goto(url)
    expect(tablet.locator("#btn-carom")).to_have_count(0)
    tablet.locator("a[href^='/lang/en']").click()  # the referee prefers English
    expect(tablet.locator("#turn")).to_contain_text("The lag decides who opens")
    tap(tablet, "button:has-text('Boris opens')")  # drawn by lot, no lag
    expect(tablet.locator("#notices")).to_contain_text("Forbidden fields")

    tap(tablet, "#btn-carom")
    foul(tablet, "Z7")  # both object balls stayed in the field
    expect(tablet.locator("#t-last")).to_contain_text("Z7")  # the referee sees the rule
    expect(board.locator("#last")).not_to_contain_text("Z7")  # the audience the words
    tap(tablet, "#btn-carom")
    tap(tablet, "#btn-carom")
    tap(tablet, "#btn-miss")
    tap(tablet, "#btn-carom")
    expect(tablet.locator("#t-inning")).to_have_text("Inning 2 of 2")
    tap(tablet, "#btn-miss")  # Boris has played his 2 innings: Anna equalizes (E3)
    expect(tablet.locator("#notices")).to_contain_text("Equalizing inning: Anna")
    expect(board.locator("#status")).to_contain_text("Dohrávka")
    tap(tablet, "#btn-carom")
    tap(tablet, "#btn-miss")
    expect(tablet.locator("#result")).to_have_text("Anna wins")
    expect(board.locator("#score-0")).to_have_text("3")
    expect(board.locator("#status")).to_contain_text("Vyhráva Anna")
    expect(board.locator("#average-0")).to_have_text("1,500")  # 3 points in 2 innings, by the page's language
    assert board.evaluate("window.notReloaded") is True

    sheet = check_scoresheet(tablet, server, match_id, tmp_path)
    assert "1 Z7" in sheet
    watched.close()
