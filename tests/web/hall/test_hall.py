"""The hall monitor and the kiosk boards: which matches a hall page shows, the query's
refusals, one live channel for every table, kiosk pages without a link that stay or
cycle; in Debian's Chromium, the hall follows records posted to three matches."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.browser import Watched, enter
from tests.web.server import Server

OPENER = {"type": "opener", "player": 0}
CAROM = {"type": "call", "result": "carom"}
MISS = {"type": "call", "result": "miss"}


def new_match(client: Any, a: str, b: str) -> tuple[int, str]:
    response = client.post("/api/matches", json={
        "discipline": "three-cushion", "table": "large", "players": [a, b], "points": 30})
    assert response.status_code == 201, response.text
    return int(response.json()["id"]), str(response.json()["referee_token"])


def cards(html: str) -> list[int]:
    return [int(x) for x in re.findall(r'<article class="hall-table[^"]*" id="table-(\d+)"', html)]


def test_the_hall_shows_the_matches_in_play_or_the_chosen_ones(organiser: Any) -> None:
    started, token = new_match(organiser, "Ján Šťastný", "Jürgen Größer")
    waiting, _ = new_match(organiser, "Anna", "Boris")
    third, third_token = new_match(organiser, "Cyril", "Dana")
    finished, finished_token = new_match(organiser, "Emil", "Fero")
    enter(organiser, started, token, [OPENER, CAROM, CAROM])
    enter(organiser, third, third_token, [OPENER])
    enter(organiser, finished, finished_token, [OPENER, *[CAROM] * 30, MISS])  # equalizing inning
    page = organiser.get("/hall")
    assert page.status_code == 200
    assert cards(page.text) == [started, third]
    assert "Ján Šťastný" in page.text and "Jürgen Größer" in page.text
    assert f'id="hall-{started}-score-0">2<' in page.text
    assert f'id="hall-{started}-series-0">Series <b>2</b>' in page.text
    assert 'aria-label="At the table"' in page.text
    chosen = organiser.get(f"/hall?m={waiting},{started},{waiting},999")
    assert cards(chosen.text) == [waiting, started]  # as chosen, once each, the unknown left out
    assert f'data-events="/hall/events?m={waiting}%2C{started}%2C999"' in chosen.text
    kiosk = organiser.get("/hall?kiosk=1")
    assert "<a " not in kiosk.text and cards(kiosk.text) == [started, third]


def test_an_empty_hall_says_so_in_each_language(client: Any) -> None:
    for lang, words in (("en", "No match is being played."), ("sk", "Práve sa nehrá žiadny zápas."),
                        ("de", "Zurzeit wird keine Partie gespielt.")):
        page = client.get("/hall", headers={"Accept-Language": lang})
        assert words in page.text and cards(page.text) == []


@pytest.mark.parametrize(("path", "field"), [
    ("/hall?m=1,x", "m: "), ("/hall/events?m=-3", "m: "),
    ("/hall?m=" + ",".join(map(str, range(1, 70))), "m: "),
    ("/kiosk?m=1;2", "m: "), ("/kiosk?every=1", "every: "), ("/kiosk?every=soon", "every: "),
    ("/kiosk?every=99999", "every: ")])
def test_a_query_the_hall_cannot_use_is_refused_naming_its_field(client: Any, path: str, field: str) -> None:
    response = client.get(path)
    assert response.status_code == 422
    assert field in response.text


def test_a_kiosk_board_has_no_link_and_takes_its_language_from_the_query(organiser: Any) -> None:
    match_id, token = new_match(organiser, "Ján", "Jürgen")
    enter(organiser, match_id, token, [OPENER, CAROM])
    page = organiser.get(f"/kiosk/{match_id}?lang=de")
    assert page.status_code == 200
    assert "href=" not in page.text.replace('href="/static/', "") and "<a " not in page.text
    assert "Ján am Stoß" in page.text  # the live channel speaks German too:
    assert f'sse-connect="/m/{match_id}/events?view=board&amp;lang=de"' in page.text
    assert organiser.get("/kiosk/999").status_code == 404


def test_lang_in_the_address_chooses_that_page_only(organiser: Any) -> None:
    """Found on a club day: ``/hall?lang=de`` was in English; ``/kiosk?lang=de`` set the
    browser's language cookie and so switched every other page too."""
    match_id, token = new_match(organiser, "Ján", "Jürgen")
    enter(organiser, match_id, token, [OPENER])
    hall = organiser.get("/hall?lang=de", headers={"Accept-Language": "en"})
    assert '<html lang="de"' in hall.text and 'data-events="/hall/events?lang=de"' in hall.text
    assert 'href="/lang/en?next=/hall"' in hall.text  # the switch leaves the address's choice behind
    for path in (f"/kiosk/{match_id}?lang=de", "/kiosk?lang=sk", "/hall?lang=de"):
        assert "carom_lang" not in organiser.get(path).cookies
    assert '<html lang="en"' in organiser.get("/", headers={"Accept-Language": "en"}).text
    with organiser.stream("GET", "/hall/events?lang=sk") as events:
        first = next(events.iter_text())
    assert "Zápas" in first or "zápas" in first


def test_a_cycling_kiosk_goes_from_one_match_in_play_to_the_next(organiser: Any) -> None:
    ids = []
    for i in range(3):
        match_id, token = new_match(organiser, f"A{i}", f"B{i}")
        if i != 1:
            enter(organiser, match_id, token, [OPENER])
        ids.append(match_id)
    first = organiser.get("/kiosk?every=7")
    assert f'data-match="{ids[0]}"' in first.text
    assert f'data-next="/kiosk?every=7&amp;at={ids[0]}"' in first.text and 'data-every="7"' in first.text
    second = organiser.get(f"/kiosk?every=7&at={ids[0]}")
    assert f'data-match="{ids[2]}"' in second.text  # the match not started is left out
    again = organiser.get(f"/kiosk?every=7&at={ids[2]}")
    assert f'data-match="{ids[0]}"' in again.text  # after the last, the first
    chosen = organiser.get(f"/kiosk?m={ids[1]},{ids[2]}&at={ids[1]}")
    assert f'data-match="{ids[2]}"' in chosen.text
    assert f'data-next="/kiosk?m={ids[1]}%2C{ids[2]}&amp;every=15&amp;at={ids[2]}"' in chosen.text
    for page in (first, second, chosen):
        assert "<a " not in page.text


def test_no_match_in_play_the_cycling_kiosk_waits_and_looks_again(client: Any) -> None:
    page = client.get("/kiosk?every=5")
    assert "No match is being played." in page.text and 'data-next="/kiosk?every=5"' in page.text


def read_events(url: str, until: int, found: list[bytes], opened: threading.Event) -> None:
    with httpx.stream("GET", url, timeout=20) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        opened.set()
        for chunk in response.iter_raw():
            found.append(chunk)
            if b"".join(found).count(b"event: table") >= until:
                return


def test_one_stream_carries_every_table_and_a_match_that_starts_joins_it(sqlite_server: Server) -> None:
    organiser = sqlite_server.organiser()
    (one, t1), (two, t2), (three, t3) = (new_match(organiser, f"A{i}", f"B{i}") for i in range(3))
    enter(organiser, one, t1, [OPENER])
    enter(organiser, two, t2, [OPENER])
    found: list[bytes] = []
    opened = threading.Event()
    reader = threading.Thread(target=read_events, args=(sqlite_server.url + "/hall/events", 5, found, opened))
    reader.start()
    assert opened.wait(20)
    deadline = time.monotonic() + 20
    while b"".join(found).count(b"event: table") < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    enter(organiser, one, t1, [CAROM], after=1)
    enter(organiser, two, t2, [MISS], after=1)
    enter(organiser, three, t3, [OPENER])
    reader.join(20)
    text = b"".join(found).decode()
    tables = re.findall(r'id="table-(\d+)" data-match="\d+" data-seq="(\d+)"', text)
    assert [(int(a), int(b)) for a, b in tables] == [(one, 1), (two, 1), (one, 2), (two, 2), (three, 1)]


def test_the_hall_follows_three_tables_live_in_chromium(sqlite_server: Server, browser: Any) -> None:
    organiser = sqlite_server.organiser()
    matches = [new_match(organiser, name, "Jürgen Größer") for name in ("Ján Šťastný", "Eva", "Zoë")]
    for match_id, token in matches[:2]:
        enter(organiser, match_id, token, [OPENER])
    watched = Watched(browser, locale="sk-SK", viewport={"width": 1600, "height": 900})
    page = watched.page()
    streams: list[str] = []
    page.on("request", lambda r: streams.append(r.url) if "/events" in r.url else None)
    page.on("websocket", lambda w: streams.append(w.url))
    page.goto(sqlite_server.url + "/hall")
    expect(page.locator("article.hall-table")).to_have_count(2)
    expect(page.locator("#hall")).to_have_attribute("data-live", "1")
    (one, t1), (two, t2), (three, t3) = matches
    enter(organiser, one, t1, [CAROM, CAROM], after=1)
    enter(organiser, two, t2, [MISS, CAROM], after=1)
    enter(organiser, three, t3, [OPENER, CAROM, CAROM, CAROM])
    expect(page.locator(f"#hall-{one}-score-0")).to_have_text("2")
    expect(page.locator(f"#hall-{one}-series-0")).to_contain_text("2")
    expect(page.locator(f"#hall-{two}-score-1")).to_have_text("1")
    expect(page.locator(f"#hall-{two}-player-1")).to_have_class(re.compile("at-table"))
    expect(page.locator(f"#hall-{three}-score-0")).to_have_text("3")  # joined when it started
    expect(page.locator("article.hall-table")).to_have_count(3)
    assert [c.get_attribute("data-match") for c in page.locator("article.hall-table").all()] == [
        str(one), str(two), str(three)]
    expect(page.locator(f"#table-{one}")).to_contain_text("Zápas")  # Slovak, from the browser's language
    assert streams == [sqlite_server.url.replace("http:", "ws:") + "/hall/events"]  # one for every table
    watched.close()


def test_a_kiosk_has_no_link_stays_live_and_cycles_in_chromium(sqlite_server: Server, browser: Any) -> None:
    organiser = sqlite_server.organiser()
    matches = [new_match(organiser, f"Spieler {i}", f"Gegner {i}") for i in range(2)]
    for match_id, token in matches:
        enter(organiser, match_id, token, [OPENER])
    watched = Watched(browser, viewport={"width": 1280, "height": 720})
    page = watched.page()
    (one, t1), (two, _) = matches
    page.goto(f"{sqlite_server.url}/kiosk/{one}?lang=de")
    expect(page.locator("#board .scoreboard")).to_be_visible()
    assert page.locator("a").count() == 0 and page.locator("nav, header.top, form").count() == 0
    enter(organiser, one, t1, [CAROM], after=1)
    expect(page.locator("#score-0")).to_have_text("1")  # live over the board's channel
    expect(page.locator("#status")).to_contain_text("am Stoß")
    page.goto(f"{sqlite_server.url}/kiosk?every=3")
    expect(page.locator("#board")).to_have_attribute("data-match", str(one))
    assert page.locator("a").count() == 0
    expect(page.locator("#board")).to_have_attribute("data-match", str(two), timeout=15_000)
    expect(page.locator("#board")).to_have_attribute("data-match", str(one), timeout=15_000)
    assert page.locator("a").count() == 0
    watched.close()


def test_a_watcher_of_every_match_is_told_which_changed_until_it_stops() -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from carom.web.shared.hub import Hub

    async def scenario() -> None:
        hub = Hub()
        changes = hub.watch_all()
        single = hub.subscribe(2)
        assert not changes.wake.is_set()
        hub.publish(2, "1.0")
        hub.publish(5, "3.0")
        hub.publish(2, "2.0")
        await asyncio.wait_for(changes.wake.wait(), 1)
        assert changes.take() == {2, 5} and not changes.wake.is_set()
        assert single.get_nowait() == "2.0"  # the one match's watcher as before: the latest version
        assert changes.take() == set()
        hub.unwatch_all(changes)
        hub.publish(7, "1.0")
        assert changes.take() == set()

    # in a thread of its own: a browser test of this worker may hold an event loop in this one
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result(timeout=10)



def test_two_scoreboards_in_one_process_each_show_their_own_match_1(organiser: Any, tmp_path: Any) -> None:
    """The cards are rendered once per snapshot: another database's match 1 at the same
    version is another game, not the card already made (the tests' many applications in one
    process, or a database restored from a backup under a running server)."""
    from fastapi.testclient import TestClient

    from carom.storage import open_store
    from carom.storage.accounts import Accounts
    from carom.storage.book import MatchBook
    from carom.storage.roles import Role
    from carom.web.app import create_app
    from carom.web.shared.auth import hash_password
    from tests.web.conftest import ORGANISER, PASSWORD

    first, token = new_match(organiser, "Anna", "Boris")
    enter(organiser, first, token, [OPENER])
    assert "Anna" in organiser.get("/hall?lang=en").text
    store = open_store(tmp_path / "other")
    try:
        Accounts(store).create(ORGANISER, Role.ORGANISER, hash_password(PASSWORD), by=None)
        with TestClient(create_app(MatchBook(store))) as other:
            assert other.post("/login", data={"name": ORGANISER, "password": PASSWORD},
                              follow_redirects=False).status_code == 303
            other.headers["X-CSRF-Token"] = other.get("/api/session").json()["csrf"]
            again, again_token = new_match(other, "Emil", "Fero")
            enter(other, again, again_token, [OPENER])
            assert again == first
            page = other.get("/hall?lang=en").text
            assert "Emil" in page and "Anna" not in page
    finally:
        store.close()
