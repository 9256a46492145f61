"""The referee's tablet and the first start, in Chromium: a second tap while the first
is on its way is refused visibly; a live update that arrives while the tablet's own entry
is on its way is not lost; the setup link printed at the first start works as
printed, from another machine's point of view too, and a wrong code keeps the form."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.web.browser import OPENER, Watched, calls, enter
from tests.web.server import Server


def test_a_second_tap_while_the_first_is_on_its_way_is_refused_visibly(sqlite_server: Server,
                                                                       browser: Any) -> None:
    client = sqlite_server.organiser()
    match_id, token = sqlite_server.create(client, points=30)
    enter(client, match_id, token, [OPENER])
    watched = Watched(browser, locale="en-GB", viewport={"width": 1024, "height": 768}, has_touch=True)
    tablet = watched.page()
    tablet.goto(f"{sqlite_server.url}/m/{match_id}/tablet?t={token}")
    expect(tablet.locator("#tap-notice")).to_be_hidden()
    tablet.evaluate("const b = document.getElementById('btn-carom'); b.click(); b.click();")  # a double tap
    expect(tablet.locator("#tap-notice")).to_be_visible()
    expect(tablet.locator("#tap-notice")).to_contain_text("was not taken")
    expect(tablet.locator("#panel")).to_have_attribute("data-seq", "2")
    expect(tablet.locator("#t-score-0")).to_have_text("1")  # one carom, not two
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 2
    client.close()
    tablet.locator("#btn-carom").click()  # the next tap, after the first came back, is taken
    expect(tablet.locator("#t-score-0")).to_have_text("2")
    watched.close()


def test_an_update_announced_while_an_entry_is_on_its_way_is_fetched_when_it_settles(
        sqlite_server: Server, browser: Any) -> None:
    """The panel's hx-sync drops the fetch that an announcement starts while the tablet's
    own entry is on its way; once that entry's answer is in, the panel catches up with the
    newest announced version instead of staying one record behind."""
    client = sqlite_server.organiser()
    match_id, token = sqlite_server.create(client, points=30)
    enter(client, match_id, token, [OPENER])
    watched = Watched(browser, locale="en-GB", viewport={"width": 1024, "height": 768})
    tablet = watched.page()
    held: list[Any] = []

    def hold_the_answer(route: Any) -> None:
        if route.request.method == "POST":
            held.append((route, route.fetch()))  # the server has the entry; the page waits
        else:
            route.continue_()

    tablet.route(f"**/m/{match_id}/tablet", hold_the_answer)
    tablet.goto(f"{sqlite_server.url}/m/{match_id}/tablet?t={token}")
    expect(tablet.locator("#panel")).to_have_attribute("data-seq", "1")
    tablet.evaluate("""window.__said = [];
        document.addEventListener("sse:seq", function (e) { window.__said.push(String(e.detail.data)); });""")
    tablet.locator("#btn-carom").click()
    until(tablet, lambda: bool(held))
    enter(client, match_id, token, calls("miss"), after=2)  # another tablet enters the next record
    until(tablet, lambda: any(v.startswith("3.") for v in tablet.evaluate("window.__said")))
    route, answer = held.pop()
    route.fulfill(response=answer)
    expect(tablet.locator("#panel")).to_have_attribute("data-seq", "3")
    expect(tablet.locator("#t-score-0")).to_have_text("1")
    client.close()
    watched.close()


def until(page: Any, condition: Any, seconds: float = 15.0) -> None:
    """Wait (letting the page's routes run) until ``condition()`` holds."""
    for _ in range(int(seconds * 20)):
        if condition():
            return
        page.wait_for_timeout(50)
    raise AssertionError("the page did not get there in time")


def test_the_first_start_link_works_as_printed_and_a_wrong_code_keeps_the_form(tmp_path: Path,
                                                                              browser: Any) -> None:
    server = Server(tmp_path / "data", password=False, host="0.0.0.0").start()
    try:
        printed = server.printed()
        link = re.search(r"make the organiser's account at (\S+)", printed)
        assert link is not None, printed
        url = link.group(1)
        assert "0.0.0.0" not in url and re.fullmatch(r"http://[^/]+/setup\?code=[0-9a-f]{8}", url), url
        watched = Watched(browser, locale="en-GB", viewport={"width": 1024, "height": 768})
        page = watched.page()
        page.goto(url)  # as printed: the machine's address, the code in the link
        code = url.rsplit("=", 1)[1]
        expect(page.locator("input[name=code]")).to_have_value(code)
        page.fill("input[name=code]", "wrong")
        page.fill("input[name=password]", "a long secret")
        page.fill("input[name=again]", "a long secret")
        page.click("#setup-form button[type=submit]")
        expect(page.locator("#setup-error")).to_contain_text("Wrong setup code")
        expect(page.locator("input[name=password]")).to_have_value("a long secret")  # nothing to type again
        expect(page.locator("input[name=again]")).to_have_value("a long secret")
        page.fill("input[name=code]", code)
        page.click("#setup-form button[type=submit]")
        expect(page).to_have_url(re.compile(r"/organiser$"))
        watched.close()
    finally:
        server.stop()
