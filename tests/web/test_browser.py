"""End to end in Debian's Chromium: an organiser creates a match, a referee enters it on
the tablet, the audience board follows live, the scoresheet is what ``carom replay``
makes of the exported file. On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.server import PASSWORD, Server


def _carom(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "carom.cli.main", *args], capture_output=True,
                          text=True, check=True, timeout=60)
    return done.stdout


def create_match(page: Page, server: Server, **fields: str) -> str:
    """Log in, fill the organiser's form, return the new match's tablet link."""
    page.goto(server.url + "/organiser")
    expect(page).to_have_url(re.compile(r"/login"))
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    expect(page).to_have_url(re.compile(r"/organiser$"))
    form = page.locator("#create-form")
    for name, value in fields.items():
        if name in ("discipline", "table"):
            form.locator(f"select[name={name}]").select_option(value)
        elif name == "equalizing_inning":
            form.locator("input[name=equalizing_inning]").set_checked(value == "on")
        else:
            form.locator(f"input[name={name}]").fill(value)
    form.locator("button[type=submit]").click()
    link = page.locator("a.tablet-link").first
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href is not None and "?t=" in href
    return href


def tap(tablet: Page, selector: str) -> None:
    """Press a tablet button and wait until the panel shows the next record."""
    seq = int(tablet.locator("#panel").get_attribute("data-seq") or "0")
    tablet.locator(selector).click()
    expect(tablet.locator("#panel")).to_have_attribute("data-seq", str(seq + 1))
    expect(tablet.locator("#panel-error")).to_have_count(0)


def foul(tablet: Page, rule: str) -> None:
    tablet.locator("#fouls summary").click()
    tap(tablet, f"button.rule[data-rule={rule}]")


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
    context = browser.new_context(locale="en-GB", viewport={"width": 1180, "height": 900})
    page = context.new_page()
    href = create_match(page, server, discipline="three-cushion", table="large", player0="Anna",
                        player1="Boris", points="3", innings="", equalizing_inning="on")
    match_id = int(href.split("/")[2])

    board = context.new_page()
    board.goto(f"{server.url}/m/{match_id}")
    board.evaluate("window.notReloaded = true")
    tablet = context.new_page()
    tablet.goto(server.url + href)

    # the lag: Anna's ball stops closer to the bottom cushion (L2); she lets herself open
    tablet.fill("input[name=lag0_y]", "18")
    tablet.fill("input[name=lag1_y]", "42.5")
    tap(tablet, "#lag-form button[type=submit]")
    expect(tablet.locator("#notices")).to_contain_text("Anna won the lag")
    tap(tablet, "button:has-text('Anna opens')")
    expect(tablet.locator("#placing svg")).to_be_visible()  # the starting position (O2)
    expect(tablet.locator("#notices")).to_contain_text("O3")
    expect(board.locator("#player-0")).to_have_class(re.compile("at-table"))

    tap(tablet, "#btn-carom")
    tap(tablet, "#btn-carom")
    expect(tablet.locator("#t-series")).to_have_text("2")
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
    expect(board.locator("#last")).to_contain_text("F4")
    assert board.evaluate("window.notReloaded") is True  # live, not reloaded

    sheet = check_scoresheet(tablet, server, match_id, tmp_path)
    assert "1 F4" in sheet and "won" in sheet
    context.close()


def test_balkline_match_with_a_z7_fault(server: Server, browser: Any, tmp_path: Path) -> None:
    context = browser.new_context(locale="sk-SK", viewport={"width": 1024, "height": 1300})
    page = context.new_page()
    href = create_match(page, server, discipline="balkline-47/2", player0="Anna", player1="Boris",
                        points="50", innings="2", equalizing_inning="on")
    match_id = int(href.split("/")[2])
    board = context.new_page()
    board.goto(f"{server.url}/m/{match_id}")
    expect(board.locator("#player-0 dt").first).to_have_text("Nábehy")  # Slovak by Accept-Language
    board.evaluate("window.notReloaded = true")

    tablet = context.new_page()
    tablet.goto(server.url + href)
    tablet.locator("a[href^='/lang/en']").click()  # the referee prefers English
    expect(tablet.locator("#lag-form")).to_contain_text("The lag")
    tap(tablet, "button:has-text('Boris opens')")  # drawn by lot, no lag
    expect(tablet.locator("#notices")).to_contain_text("Forbidden fields")

    tap(tablet, "#btn-carom")
    foul(tablet, "Z7")  # both object balls stayed in the field
    expect(tablet.locator("#t-last")).to_contain_text("Z7")
    tap(tablet, "#btn-carom")
    tap(tablet, "#btn-carom")
    tap(tablet, "#btn-miss")
    tap(tablet, "#btn-carom")
    tap(tablet, "#btn-miss")  # Boris has played his 2 innings: Anna equalizes (E3)
    expect(tablet.locator("#notices")).to_contain_text("Equalizing inning: Anna")
    expect(board.locator("#status")).to_contain_text("Dohrávka")
    tap(tablet, "#btn-carom")
    tap(tablet, "#btn-miss")
    expect(tablet.locator("#result")).to_have_text("Anna wins")
    expect(board.locator("#score-0")).to_have_text("3")
    expect(board.locator("#status")).to_contain_text("Vyhráva Anna")
    assert board.evaluate("window.notReloaded") is True

    sheet = check_scoresheet(tablet, server, match_id, tmp_path)
    assert "1 Z7" in sheet
    context.close()
