"""Each table's fixed tablet: pairing with a one-time code, revoking, and the device token's
limits (TD4, TD5, TD8): a tablet writes its own table's game now and nothing else, and a
device that is not paired gets a page that says so and writes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.tables.helpers import (
    CAROM,
    OPENER,
    add_table,
    new_match,
    pair,
    pairing_code,
    play_out,
    put,
    write,
)


@pytest.fixture
def two_tables(organiser: Any) -> Any:
    add_table(organiser, "1", 1)
    add_table(organiser, "Stôl 2", 2)
    return organiser


def test_td5_an_unpaired_device_gets_a_page_that_says_so_and_writes_nothing(two_tables: Any,
                                                                             stranger: Any) -> None:
    match = new_match(two_tables, "Anna", "Boris")
    put(two_tables, "1", match)
    for path in ("/tables/1/tablet", "/tables/1/tablet/now"):
        page = stranger.get(path)
        assert page.status_code == 403 and "This device is not paired with table 1" in page.text
    assert write(stranger, match, 0, OPENER).status_code == 401
    stranger.cookies.set("carom_device", "made-up")
    assert write(stranger, match, 0, OPENER).status_code == 403
    refused = stranger.post(f"/m/{match}/tablet", data={"after": "0", "type": "opener", "player": "0"})
    assert refused.status_code == 403
    assert two_tables.get(f"/api/matches/{match}").json()["seq"] == 0
    assert stranger.get("/tables/9/tablet").status_code == 404


def test_td4_a_device_pairs_once_with_its_code(two_tables: Any, stranger: Any, app: Any) -> None:
    from fastapi.testclient import TestClient

    code = pairing_code(two_tables, "1")
    page = stranger.get(f"/tables/1/pair?code={code}")
    assert page.status_code == 200 and f'value="{code}"' in page.text and "<form" in page.text
    wrong = stranger.post("/tables/1/pair", data={"code": "guessed"}, follow_redirects=False)
    assert wrong.status_code == 403 and "not a pairing code of table" in wrong.text
    assert "carom_device" not in wrong.cookies
    other_table = stranger.post("/tables/Stôl 2/pair", data={"code": code}, follow_redirects=False)
    assert other_table.status_code == 403  # a code is one table's
    paired = stranger.post("/tables/1/pair", data={"code": code}, follow_redirects=False)
    assert paired.status_code == 303 and paired.headers["location"] == "/tables/1/tablet"
    cookie = paired.headers["set-cookie"]
    assert "carom_device=" in cookie and "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    assert stranger.get("/tables/1/tablet").status_code == 200
    with TestClient(app) as second:
        again = second.post("/tables/1/pair", data={"code": code}, follow_redirects=False)
        assert again.status_code == 403 and "used, replaced or never given" in again.text


def test_a_tablet_of_table_1_cannot_write_to_table_2s_match(two_tables: Any, stranger: Any) -> None:
    pair(two_tables, stranger, "1")
    own, other, nowhere = (new_match(two_tables, *names) for names in (("Anna", "Boris"), ("Cyril", "Dana"),
                                                                       ("Emil", "Fero")))
    put(two_tables, "1", own)
    put(two_tables, "Stôl 2", other)
    refused = write(stranger, other, 0, OPENER)
    assert refused.status_code == 403 and "is not on table 1 now" in refused.json()["detail"]
    assert write(stranger, nowhere, 0, OPENER).status_code == 403
    form = stranger.post(f"/m/{other}/tablet", data={"after": "0", "type": "opener", "player": "0"})
    assert form.status_code == 403
    assert stranger.get(f"/m/{other}/tablet/panel").status_code == 403
    assert stranger.post(f"/api/matches/{other}/clock", json={"paused": True}).status_code == 403
    assert [two_tables.get(f"/api/matches/{m}").json()["seq"] for m in (other, nowhere)] == [0, 0]
    assert write(stranger, own, 0, OPENER).status_code == 201
    panel = stranger.post(f"/m/{own}/tablet", data={"after": "1", "type": "call", "result": "carom"})
    assert panel.status_code == 200 and 'data-seq="2"' in panel.text


def test_a_tablet_writes_its_tables_game_until_it_is_confirmed_then_the_next(two_tables: Any,
                                                                              stranger: Any) -> None:
    pair(two_tables, stranger, "1")
    first, second = new_match(two_tables, "Anna", "Boris"), new_match(two_tables, "Cyril", "Dana")
    put(two_tables, "1", first)
    put(two_tables, "1", second)
    assert write(stranger, second, 0, OPENER).status_code == 403  # the next game waits its turn
    seq = play_out(stranger, first)
    for player in (0, 1):  # both players confirm on the table's tablet
        confirmed = stranger.post(f"/m/{first}/tablet/confirm", data={"player": str(player)})
        assert confirmed.status_code == 200
    assert two_tables.get(f"/api/matches/{first}").json()["state"]["confirmed"]
    undo = write(stranger, first, seq, {"type": "undo"})
    assert undo.status_code == 403  # the table has moved on: the old game is not the tablet's any more
    assert write(stranger, second, 0, OPENER).status_code == 201
    now = stranger.get("/tables/1/tablet/now")
    assert f'data-match="{second}"' in now.text


def test_a_revoked_device_writes_nothing_and_a_per_game_link_still_works(two_tables: Any,
                                                                         stranger: Any) -> None:
    pair(two_tables, stranger, "1")
    match = new_match(two_tables, "Anna", "Boris")
    put(two_tables, "1", match)
    assert write(stranger, match, 0, OPENER).status_code == 201
    device = two_tables.get("/api/tables/1").json()["devices"][0]["id"]
    assert two_tables.post(f"/api/tables/1/devices/{device}/revoke").status_code == 200
    assert write(stranger, match, 1, CAROM).status_code == 403
    page = stranger.get("/tables/1/tablet")
    assert page.status_code == 403 and "not paired" in page.text
    token = two_tables.post(f"/api/matches/{match}/referee-token").json()["referee_token"]
    assert write(stranger, match, 1, CAROM, **{"X-Referee-Token": token}).status_code == 201


def test_a_program_pairs_through_the_api_and_writes_with_the_header(two_tables: Any, stranger: Any) -> None:
    code = pairing_code(two_tables, "Stôl 2")
    assert stranger.post("/api/tables/Stôl 2/pair", json={"code": "nope"}).status_code == 422
    paired = stranger.post("/api/tables/Stôl 2/pair", json={"code": code})
    assert paired.status_code == 201
    token = paired.json()["token"]
    assert "carom_device" not in stranger.cookies
    match = new_match(two_tables, "Anna", "Boris")
    put(two_tables, "Stôl 2", match)
    assert write(stranger, match, 0, OPENER, **{"X-Device-Token": token}).status_code == 201
    assert write(stranger, match, 1, CAROM, **{"X-Device-Token": token + "x"}).status_code == 403


def test_a_retired_tables_tablet_is_paired_no_more(two_tables: Any, stranger: Any) -> None:
    pair(two_tables, stranger, "1")
    assert two_tables.post("/api/tables/1/retire").status_code == 200
    assert stranger.get("/tables/1/tablet").status_code == 404
    add_table(two_tables, "1", 1)  # a new table of the same name: the old device is not its
    assert stranger.get("/tables/1/tablet").status_code == 403
