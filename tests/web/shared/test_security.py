"""The scoreboard under an attacker: requests from another site, forms without their
anti-forgery token, old cookies after a logout or a password change, old tablet links,
guessed passwords, names that break pages, fields a record type does not have, the
security headers. Each refusal changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.server import ORGANISER, PASSWORD

Match = tuple[int, str]
FORM = {
    "discipline": "three-cushion",
    "table": "large",
    "player0": "Anna",
    "player1": "Boris",
    "points": "30",
    "innings": "",
    "sets_to_win": "",
    "equalizing_inning": "on",
}


def _count(client: Any) -> int:
    return len(client.get("/api/matches").json())


# --- another site ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://testserver:8081"},  # another service on the club's machine
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Referer": "http://testserver:9000/attack.html"},
    ],
)
def test_a_form_from_another_origin_is_refused_and_changes_nothing(
    organiser: Any, headers: dict[str, str]
) -> None:
    response = organiser.post("/organiser/matches", data=FORM, headers=headers)
    assert response.status_code == 403
    assert "another site" in response.text and "nothing was changed" in response.text
    assert _count(organiser) == 0


def test_the_servers_own_pages_may_send_forms(organiser: Any) -> None:
    for headers in ({"Origin": "http://testserver"}, {"Referer": "http://testserver/organiser"}, {}):
        assert (
            organiser.post(
                "/organiser/matches", data=FORM, headers=headers, follow_redirects=False
            ).status_code
            == 303
        )
    assert _count(organiser) == 3


def test_a_tablet_entry_from_another_origin_is_refused(client: Any, match: Match) -> None:
    match_id, token = match
    response = client.post(
        f"/m/{match_id}/tablet",
        data={"type": "opener", "player": "0", "after": "0"},
        headers={"X-Referee-Token": token, "Origin": "http://testserver:8081"},
    )
    assert response.status_code == 403
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 0


def test_the_api_answers_another_origin_in_json(organiser: Any) -> None:
    response = organiser.post(
        "/api/matches",
        json={"discipline": "three-cushion", "players": ["A", "B"], "points": 3},
        headers={"Origin": "http://evil.example"},
    )
    assert response.status_code == 403 and "another site" in response.json()["detail"]
    assert _count(organiser) == 0


# --- the anti-forgery token -----------------------------------------------------------


def test_an_organiser_form_without_its_token_is_refused(organiser: Any) -> None:
    csrf = organiser.headers.pop("X-CSRF-Token")
    for data in (FORM, {**FORM, "csrf": "forged"}, {**FORM, "csrf": ""}):
        response = organiser.post("/organiser/matches", data=data)
        assert response.status_code == 403 and "anti-forgery token" in response.text
    assert _count(organiser) == 0
    assert (
        organiser.post("/organiser/matches", data={**FORM, "csrf": csrf}, follow_redirects=False).status_code
        == 303
    )
    assert 'name="csrf" value="' + csrf in organiser.get("/organiser").text  # every form carries it


def test_an_organiser_api_request_without_its_token_is_refused(organiser: Any) -> None:
    organiser.headers.pop("X-CSRF-Token")
    response = organiser.post(
        "/api/matches", json={"discipline": "three-cushion", "players": ["A", "B"], "points": 3}
    )
    assert response.status_code == 403 and "X-CSRF-Token" in response.json()["detail"]
    assert _count(organiser) == 0


def test_another_sessions_token_does_not_do(app: Any, organiser: Any) -> None:
    from fastapi.testclient import TestClient

    with TestClient(app) as other:
        other.post("/login", data={"name": ORGANISER, "password": PASSWORD})
        theirs = other.get("/api/session").json()["csrf"]
    assert theirs != organiser.headers["X-CSRF-Token"]
    organiser.headers["X-CSRF-Token"] = theirs
    assert organiser.post("/organiser/matches", data=FORM).status_code == 403


# --- sessions -------------------------------------------------------------------------


def _login(app: Any) -> Any:
    from fastapi.testclient import TestClient

    client = TestClient(app)
    login = {"name": ORGANISER, "password": PASSWORD}
    assert client.post("/login", data=login, follow_redirects=False).status_code == 303
    client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
    return client


def _is_organiser_with(app: Any, cookie: str) -> bool:
    from fastapi.testclient import TestClient

    with TestClient(app, cookies={"carom_session": cookie}) as client:
        return bool(client.get("/api/session").json()["organiser"])


def test_logging_out_ends_every_session_issued_before(app: Any) -> None:
    phone, laptop = _login(app), _login(app)
    old = [c.cookies["carom_session"] for c in (phone, laptop)]
    assert all(_is_organiser_with(app, cookie) for cookie in old)
    assert phone.post("/logout", follow_redirects=False).status_code == 303
    assert not any(_is_organiser_with(app, cookie) for cookie in old)
    assert laptop.get("/organiser", follow_redirects=False).headers["location"].startswith("/login")
    again = _login(app)  # logging in again works, with a new session
    assert _is_organiser_with(app, again.cookies["carom_session"])


def test_a_password_change_ends_the_other_sessions_and_keeps_this_one(app: Any) -> None:
    mine, other = _login(app), _login(app)
    old_other = other.cookies["carom_session"]
    response = mine.post(
        "/account/password",
        data={"current": PASSWORD, "password": "a new secret", "again": "a new secret"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert not _is_organiser_with(app, old_other)
    assert mine.get("/api/session").json()["organiser"]
    assert "other devices are logged out" in mine.get("/account?password=changed").text
    from fastapi.testclient import TestClient

    with TestClient(app) as fresh:
        assert fresh.post("/login", data={"name": ORGANISER, "password": PASSWORD}).status_code == 403
        assert (
            fresh.post("/login", data={"name": ORGANISER, "password": "a new secret"},
                       follow_redirects=False).status_code == 303
        )


def test_a_password_change_needs_the_current_password(organiser: Any) -> None:
    response = organiser.post(
        "/account/password", data={"current": "guess", "password": "a new secret", "again": "a new secret"}
    )
    assert response.status_code == 403 and "Wrong password" in response.text


def test_login_attempts_are_limited_per_client(app: Any) -> None:
    from fastapi.testclient import TestClient

    with TestClient(app) as client:
        for _ in range(5):
            assert client.post("/login", data={"name": ORGANISER, "password": "guess"}).status_code == 403
        refused = client.post("/login", data={"name": ORGANISER, "password": PASSWORD})  # even the right one
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
        assert "Too many login attempts" in refused.text


# --- headers --------------------------------------------------------------------------


def test_every_page_has_the_security_headers(client: Any, match: Match) -> None:
    match_id, token = match
    for path in (
        "/",
        f"/m/{match_id}",
        f"/m/{match_id}/tablet?t={token}",
        "/login",
        "/api/matches",
        "/static/carom.css",
        "/nowhere",
    ):
        headers = client.get(path).headers
        assert "script-src 'self';" in headers["content-security-policy"], path
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "same-origin"
    assert client.get(f"/m/{match_id}/tablet?t={token}").headers["cache-control"] == "no-store"
    panel = client.get(f"/m/{match_id}/tablet/panel", headers={"X-Referee-Token": token})
    assert panel.headers["cache-control"] == "no-store"
    assert "unsafe" not in client.get("/").headers["content-security-policy"]


# --- tablet links ---------------------------------------------------------------------


def test_a_new_tablet_link_ends_the_old_one(organiser: Any, stranger: Any, match: Match) -> None:
    match_id, old = match
    response = organiser.post(f"/api/matches/{match_id}/referee-token")
    assert response.status_code == 200
    new = response.json()["referee_token"]
    assert new != old and response.json()["tablet"].endswith(f"/m/{match_id}/tablet?t={new}")
    record = {"after": 0, "record": {"type": "opener", "player": 0}}
    assert (
        organiser.post(
            f"/api/matches/{match_id}/records", json=record, headers={"X-Referee-Token": old}
        ).status_code
        == 403
    )
    assert stranger.get(f"/m/{match_id}/tablet?t={old}").status_code == 403  # (the organiser needs no link)
    assert (
        organiser.post(
            f"/api/matches/{match_id}/records", json=record, headers={"X-Referee-Token": new}
        ).status_code
        == 201
    )
    # and from the organiser's page, with its history
    assert (
        organiser.post(f"/organiser/matches/{match_id}/tablet-link", follow_redirects=False).status_code
        == 303
    )
    assert stranger.get(f"/m/{match_id}/tablet?t={new}").status_code == 403
    page = organiser.get(f"/organiser/matches/{match_id}").text
    assert page.count("New tablet link issued by organiser") == 2  # the account's name
    assert "<svg" in page and "qr-code" in page


def test_only_the_organiser_issues_tablet_links(stranger: Any, match: Match) -> None:
    match_id, token = match
    assert stranger.post(f"/api/matches/{match_id}/referee-token").status_code == 401
    assert (
        stranger.post(f"/organiser/matches/{match_id}/tablet-link", follow_redirects=False).status_code == 303
    )
    assert stranger.get(f"/m/{match_id}/tablet?t={token}").status_code == 200


# --- names ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "reason"),
    [
        (["A" * 61, "Boris"], "61 characters; at most 60"),
        (["Anna\u0000", "Boris"], "control character (U+0000"),
        (["\u202eevil", "Boris"], "control character (U+202E"),
        (["Anna", "Bo\u2067ris"], "control character (U+2067"),
        (["Anna\nNová", "Boris"], "control character (U+000A"),
        (["Same", "Same"], "cannot play against himself"),
        (["anna  NOVÁ", "Anna Nová"], "cannot play against himself"),
        (["  ", "Boris"], "expected two names"),
    ],
)
def test_names_a_person_cannot_read_are_refused_by_the_form_and_the_api(
    organiser: Any, names: list[str], reason: str
) -> None:
    response = organiser.post(
        "/api/matches", json={"discipline": "three-cushion", "players": names, "points": 3}
    )
    assert response.status_code == 422 and reason in response.json()["detail"], response.text
    response = organiser.post("/organiser/matches", data={**FORM, "player0": names[0], "player1": names[1]})
    assert response.status_code == 422 and reason in response.text
    assert _count(organiser) == 0


def test_a_sixty_letter_name_is_a_name(organiser: Any) -> None:
    name = "Jean-Christophe Roudet-Delacroix de la Haute-Villeneuve Ábe"
    assert len(name) == 59
    response = organiser.post(
        "/api/matches",
        json={"discipline": "three-cushion", "points": 3, "players": [name + "x", "Dick Jaspers"]},
    )
    assert response.status_code == 201, response.text


def test_an_imported_file_with_a_bad_name_is_refused(organiser: Any) -> None:
    header = (
        '{"format": "carom/1", "discipline": "three-cushion", "table": "large", '
        '"players": ["\\u202eevil", "Boris"], "points": 3, "innings": null, "sets": null, '
        '"equalizing_inning": true}\n'
    )
    response = organiser.post("/organiser/import", files={"file": ("m.carom.jsonl", header.encode())})
    assert response.status_code == 422 and "U+202E" in response.text
    assert _count(organiser) == 0


# --- fields a record type does not have -----------------------------------------------


@pytest.mark.parametrize(
    "record",
    [
        {"type": "opener", "player": 0, "evil": "<script>"},
        {"type": "undo", "note": "x"},
        {"type": "call", "result": "carom", "comment": "nice"},
    ],
)
def test_a_record_from_the_web_carries_only_its_types_fields(
    client: Any, match: Match, record: dict[str, Any]
) -> None:
    match_id, token = match
    if record["type"] != "opener":
        client.post(
            f"/api/matches/{match_id}/records",
            json={"after": 0, "record": {"type": "opener", "player": 0}},
            headers={"X-Referee-Token": token},
        )
    seq = client.get(f"/api/matches/{match_id}").json()["seq"]
    response = client.post(
        f"/api/matches/{match_id}/records",
        json={"after": seq, "record": record},
        headers={"X-Referee-Token": token},
    )
    assert response.status_code == 422
    assert "has no field" in response.json()["detail"]
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == seq
    assert "evil" not in client.get(f"/m/{match_id}/export").text


def test_a_header_from_the_web_carries_only_a_headers_fields(organiser: Any) -> None:
    response = organiser.post(
        "/api/matches",
        json={"discipline": "three-cushion", "players": ["A", "B"], "points": 3, "evil": "<script>"},
    )
    assert response.status_code == 422 and "'evil' is no field of a header" in response.json()["detail"]
    assert _count(organiser) == 0
