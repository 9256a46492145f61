"""Who may write, and bad input: a 4xx that names the field or the rule, never a 500,
never a changed match."""

from __future__ import annotations

import re
from typing import Any

import pytest

Match = tuple[int, str]


def _seq(client: Any, match_id: int) -> int:
    return int(client.get(f"/api/matches/{match_id}").json()["seq"])


def _post(client: Any, match_id: int, after: Any, record: Any, token: str | None) -> Any:
    headers = {} if token is None else {"X-Referee-Token": token}
    return client.post(f"/api/matches/{match_id}/records", json={"after": after, "record": record},
                       headers=headers)


def test_a_record_gets_its_ruling(client: Any, match: Match) -> None:
    match_id, token = match
    assert _post(client, match_id, 0, {"type": "opener", "player": 1}, token).status_code == 201
    response = _post(client, match_id, 1, {"type": "call", "result": "carom"}, token)
    assert response.status_code == 201
    body = response.json()
    assert body["seq"] == 2 and body["line"] == 3
    assert body["ruling"] == {"line": 3, "player": 1, "points": 1, "fouls": [], "next": 1, "spot": None}
    assert body["state"]["score"] == [0, 1]


@pytest.mark.parametrize(("record", "message"), [
    ({"type": "call", "result": "carom"}, "before the opener"),
    ({"type": "call", "result": "foul", "rule": "F1"}, "call: rule"),
    ({"type": "opener", "player": 2}, "opener: player: expected 0 or 1"),
    ({"type": "teleport"}, "unknown record type"),
    ({"type": "undo"}, "nothing left to withdraw"),
    ({"type": "stroke", "ball": "blue"}, "stroke: ball: unknown ball"),
    ({"type": "lag", "results": [], "collided": False}, "lag: results"),
])
def test_records_the_rules_refuse_say_why(client: Any, match: Match, record: Any, message: str) -> None:
    match_id, token = match
    response = _post(client, match_id, 0, record, token)
    assert response.status_code == 422
    assert message in response.json()["detail"]
    assert _seq(client, match_id) == 0


@pytest.mark.parametrize("body", [
    b"", b"{", b"[]", b'{"after": "one", "record": {}}', b'{"after": -1, "record": {"type": "undo"}}',
    b'{"record": {"type": "undo"}}', b'{"after": 0}', b'{"after": 0, "record": []}',
    b'{"after": 1e400, "record": {}}', b'{"after": 0, "record": {"type": "call", "result": NaN}}',
])
def test_malformed_json_is_a_4xx(client: Any, match: Match, body: bytes) -> None:
    match_id, token = match
    response = client.post(f"/api/matches/{match_id}/records", content=body,
                           headers={"X-Referee-Token": token, "Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, response.text
    assert response.json()["detail"]
    assert _seq(client, match_id) == 0


def test_tokens_and_unknown_matches(client: Any, stranger: Any, match: Match) -> None:
    match_id, token = match
    record = {"type": "opener", "player": 0}
    assert _post(stranger, match_id, 0, record, None).status_code == 401
    assert _post(stranger, match_id, 0, record, "forged").status_code == 403
    assert _post(client, match_id, 0, record, "forged").status_code == 403  # a wrong token is wrong for all
    assert _post(stranger, match_id, 0, record, "").status_code == 401
    assert _post(client, 999, 0, record, token).json() == {"detail": "no match 999"}
    assert _post(client, 999, 0, record, token).status_code == 404
    assert client.get("/api/matches/abc").status_code == 422
    assert client.get("/m/999").status_code == 404
    assert stranger.get(f"/m/{match_id}/tablet?t=forged").status_code == 403
    assert stranger.get(f"/m/{match_id}/tablet").status_code == 403
    assert _seq(client, match_id) == 0


def test_a_stale_write_gets_409_and_the_match_as_it_is(client: Any, match: Match) -> None:
    match_id, token = match
    _post(client, match_id, 0, {"type": "opener", "player": 0}, token)
    response = _post(client, match_id, 0, {"type": "opener", "player": 1}, token)
    assert response.status_code == 409
    assert response.json()["seq"] == 1 and response.json()["match"]["state"]["opener"] == 0
    form = client.post(f"/m/{match_id}/tablet", data={"type": "call", "result": "carom", "after": "0"},
                       headers={"X-Referee-Token": token})
    assert form.status_code == 409
    assert 'data-seq="1"' in form.text and "record 1" in form.text
    assert _seq(client, match_id) == 1


def test_the_tablet_form_refuses_with_the_reason(client: Any, match: Match) -> None:
    match_id, token = match
    headers = {"X-Referee-Token": token}
    cases = [
        ({"type": "call", "result": "carom", "after": "x"}, 422, "after"),
        ({"type": "call", "result": "carom", "after": "\u0660"}, 422, "after"),  # an Arabic-Indic zero
        ({"type": "lag", "lag0_y": "far", "lag1_y": "20", "after": "0"}, 422, "distance"),
        ({"type": "lag", "lag0_y": "500", "lag1_y": "20", "after": "0"}, 422, "not on the table"),
        ({"type": "wave", "after": "0"}, 422, "unknown record type"),
        ({"type": "call", "result": "carom", "after": "0"}, 422, "before the opener"),
    ]
    for data, status, message in cases:
        response = client.post(f"/m/{match_id}/tablet", data=data, headers=headers)
        assert response.status_code == status, data
        assert message in response.text, (data, response.text)
    assert client.post(f"/m/{match_id}/tablet", data={"type": "undo", "after": "0"}).status_code == 403
    assert _seq(client, match_id) == 0


def test_organiser_pages_need_a_login(client: Any) -> None:
    assert client.get("/organiser", follow_redirects=False).headers["location"].startswith("/login")
    assert client.post("/api/matches", json={"discipline": "three-cushion"}).status_code == 401
    assert client.post("/organiser/matches", data={}, follow_redirects=False).status_code == 303
    assert client.post("/login", data={"name": "organiser", "password": "guess"}).status_code == 403
    assert client.get("/api/matches").json() == []


def test_the_create_form_names_the_wrong_field(organiser: Any) -> None:
    form = {"discipline": "three-cushion", "table": "large", "player0": "Anna", "player1": "",
            "points": "30", "innings": "", "sets_to_win": "", "equalizing_inning": "on"}
    response = organiser.post("/organiser/matches", data=form)
    assert response.status_code == 422 and "players" in response.text
    response = organiser.post("/organiser/matches", data={**form, "player1": "Boris", "points": "x"})
    assert response.status_code == 422 and "points limit" in response.text
    response = organiser.post("/organiser/matches", data={**form, "player1": "Boris", "points": ""})
    assert response.status_code == 422 and "E1" in response.text
    assert organiser.get("/api/matches").json() == []


def test_a_table_the_discipline_is_not_played_on_is_refused_naming_its_table(organiser: Any) -> None:
    form = {"discipline": "balkline-47/2", "table": "small", "player0": "Anna", "player1": "Boris",
            "points": "30", "innings": "", "sets_to_win": "", "equalizing_inning": "on"}
    response = organiser.post("/organiser/matches", data=form)
    assert response.status_code == 422
    assert "balkline-47/2 is played on the large table, not small (K1)" in response.text
    assert 'value="Anna"' in response.text  # the form keeps what was typed
    assert organiser.get("/api/matches").json() == []
    assert organiser.post("/organiser/matches", data={**form, "table": "large"}).status_code == 200
    assert organiser.get("/api/matches").json()[0]["header"]["table"] == "large"


def test_a_straight_rail_match_created_through_the_api_without_a_table_is_on_the_large_one(
        organiser: Any) -> None:
    response = organiser.post("/api/matches", json={"discipline": "straight-rail", "players": ["A", "B"],
                                                    "points": 50})
    assert response.status_code == 201, response.text
    assert organiser.get(f"/api/matches/{response.json()['id']}").json()["header"]["table"] == "large"
    response = organiser.post("/api/matches", json={"discipline": "balkline-35/2", "players": ["A", "B"],
                                                    "points": 50, "table": None})
    assert response.status_code == 201, response.text
    assert organiser.get(f"/api/matches/{response.json()['id']}").json()["header"]["table"] == "small"


def test_import_and_export_round_trip(organiser: Any, match: Match) -> None:
    match_id, token = match
    records = [{"type": "opener", "player": 0}, {"type": "inning", "points": 3},
               {"type": "inning", "points": 0}]
    for seq, record in enumerate(records):
        assert _post(organiser, match_id, seq, record, token).status_code == 201
    exported = organiser.get(f"/m/{match_id}/export").text
    response = organiser.post("/organiser/import", files={"file": ("m.carom.jsonl", exported.encode())})
    assert response.status_code == 200
    matches = organiser.get("/api/matches").json()
    assert len(matches) == 2
    assert organiser.get(f"/m/{matches[0]['id']}/export").text == exported
    bad = exported + '{"type": "call", "result": "carom"}\n'
    response = organiser.post("/organiser/import", files={"file": ("m.carom.jsonl", bad.encode())})
    assert response.status_code == 422
    assert "line 5" in response.text and "after the match ended" in response.text
    response = organiser.post("/organiser/import", files={"file": ("x", b"\xff\xfe")})
    assert response.status_code == 422
    assert len(organiser.get("/api/matches").json()) == 2


def test_first_start_makes_the_organisers_account_with_the_printed_code(tmp_path: Any) -> None:
    from fastapi.testclient import TestClient

    from carom.storage import open_store
    from carom.storage.book import MatchBook
    from carom.web.app import create_app

    store = open_store(tmp_path)
    try:
        client = TestClient(create_app(MatchBook(store), setup_code="c0de"))
        assert client.get("/organiser", follow_redirects=False).headers["location"] == "/setup"
        data = {"code": "wrong", "name": "Eva", "password": "long enough", "again": "long enough"}
        assert client.post("/setup", data=data).status_code == 403
        assert client.post("/setup", data={**data, "code": "c0de", "again": "other"}).status_code == 422
        assert client.post("/setup", data={**data, "code": "c0de"}).status_code == 200
        assert client.get("/organiser").status_code == 200
        assert client.post("/setup", data={**data, "code": "c0de"}).status_code == 409
    finally:
        store.close()


def test_language_follows_the_browser_then_the_switch(client: Any, match: Match) -> None:
    match_id, _ = match
    page = client.get(f"/m/{match_id}", headers={"Accept-Language": "sk-SK,sk;q=0.9,en;q=0.5"})
    assert "Nábehy" in page.text and 'lang="sk"' in page.text
    client.get("/lang/en?next=/", follow_redirects=False)
    page = client.get(f"/m/{match_id}", headers={"Accept-Language": "sk"})
    assert "Innings" in page.text
    assert client.get("/lang/sk?next=//evil.example", follow_redirects=False).headers["location"] == "/"


def test_statistics_across_matches(organiser: Any) -> None:
    def play(players: list[str], innings: list[dict[str, Any]]) -> None:
        created = organiser.post("/api/matches", json={
            "discipline": "three-cushion", "table": "large", "players": players, "points": 5}).json()
        records = [{"type": "opener", "player": 0}, *innings]
        for seq, record in enumerate(records):
            response = _post(organiser, created["id"], seq, record, created["referee_token"])
            assert response.status_code == 201, response.text

    play(["Anna", "Boris"], [{"type": "inning", "points": 2}, {"type": "inning", "points": 1},
                             {"type": "inning", "points": 3}, {"type": "inning", "points": 0}])
    play(["Boris", "Anna"], [{"type": "inning", "points": 5}, {"type": "inning", "points": 4}])
    page = organiser.get("/players").text
    rows = {m.group(1): m.group(2) for m in re.finditer(r"<tr data-player=\"\d+\"><td>(\w+)</td>(.*?)</tr>",
                                                         page, re.S)}
    cells = {name: re.findall(r'class="num[^"]*">([^<]*)<', row) for name, row in rows.items()}
    # Anna: 5 + 4 points in 2 + 1 innings; Boris: 1 + 5 in 2 + 1
    assert cells["Anna"] == ["2", "1", "9", "3", "3.000", "4.000", "4"]
    assert cells["Boris"] == ["2", "1", "6", "3", "2.000", "5.000", "5"]
