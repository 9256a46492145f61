"""Named accounts over HTTP: logging in by name, sessions that end in every server
process (two applications on one database), the login throttle per account and per
client, argon2 hashes (an scrypt hash of before rehashed at its login), the ``Secure``
cookie over https, the organiser's accounts pages, and the account every change names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from carom.storage import schema
from tests.web.accounts.accounts import DIRECTOR, OTHER_REFEREE, REFEREE, log_in, make_accounts
from tests.web.server import ORGANISER, PASSWORD


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[Any, Any, Any]]:
    """Two applications on one database, as two server processes, and the store."""
    from carom.storage import open_store
    from carom.storage.book import MatchBook
    from carom.web.app import create_app

    first, second = open_store(tmp_path / "data"), open_store(tmp_path / "data")
    make_accounts(first)
    yield create_app(MatchBook(first)), create_app(MatchBook(second)), first
    first.close()
    second.close()


def _client(app: Any, **options: Any) -> Any:
    from fastapi.testclient import TestClient

    return TestClient(app, **options)


def _is_in(app: Any, cookie: str) -> bool:
    with _client(app, cookies={"carom_session": cookie}) as client:
        return client.get("/api/session").json()["account"] is not None


def test_a_session_made_in_one_process_holds_and_ends_in_the_other(two: tuple[Any, Any, Any]) -> None:
    one, other, _ = two
    rita_phone, rita_laptop, dora = log_in(one, REFEREE), log_in(other, REFEREE), log_in(one, DIRECTOR)
    cookies = [c.cookies["carom_session"] for c in (rita_phone, rita_laptop, dora)]
    assert all(_is_in(other, c) and _is_in(one, c) for c in cookies)
    assert rita_phone.post("/logout", follow_redirects=False).status_code == 303
    assert [_is_in(other, c) for c in cookies] == [False, False, True]  # Rita's sessions, and only hers


def test_removing_an_account_or_resetting_its_password_ends_its_sessions(two: tuple[Any, Any, Any]) -> None:
    one, other, _ = two
    organiser, rita, otto = log_in(one, ORGANISER), log_in(other, REFEREE), log_in(other, OTHER_REFEREE)
    ids = {a["name"]: a["id"] for a in organiser.get("/api/accounts").json()}
    reset = organiser.post(f"/api/accounts/{ids[REFEREE]}/password", json={"password": "a new secret"})
    assert reset.is_success
    assert rita.get("/account", follow_redirects=False).headers["location"] == "/login?next=/account"
    log_in(one, REFEREE, "a new secret")
    assert organiser.delete(f"/api/accounts/{ids[OTHER_REFEREE]}").status_code == 204
    assert otto.get("/api/session").json()["account"] is None
    assert _client(one).post("/login", data={"name": OTHER_REFEREE, "password": PASSWORD}).status_code == 403
    names = [a["name"] for a in organiser.get("/api/accounts").json()]
    assert OTHER_REFEREE not in names and REFEREE in names


def test_ones_own_and_the_last_organisers_account_are_not_removed(two: tuple[Any, Any, Any]) -> None:
    one, _, _ = two
    organiser = log_in(one, ORGANISER)
    me = organiser.get("/api/session").json()["account"]["id"]
    response = organiser.delete(f"/api/accounts/{me}")
    assert response.status_code == 409 and "your own account" in response.json()["detail"]
    assert organiser.delete("/api/accounts/99999").status_code == 404


def test_login_attempts_are_limited_per_account_from_every_address(two: tuple[Any, Any, Any]) -> None:
    one, other, _ = two
    for n in range(10):  # ten addresses, one attempt each, across both processes
        guess = _client(one if n % 2 else other, client=(f"10.0.0.{n}", 5000))
        assert guess.post("/login", data={"name": "rita", "password": "guess"}).status_code == 403
    elsewhere = _client(one, client=("10.0.1.1", 5000))
    refused = elsewhere.post("/login", data={"name": REFEREE, "password": PASSWORD})
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
    log_in(other, DIRECTOR)  # another account is not held up


def test_login_attempts_are_limited_per_client_in_every_process(two: tuple[Any, Any, Any]) -> None:
    one, other, _ = two
    for n in range(5):
        guess = _client(one if n % 2 else other, client=("10.0.0.7", 5000 + n))
        assert guess.post("/login", data={"name": f"nobody {n}", "password": "guess"}).status_code == 403
    refused = _client(other, client=("10.0.0.7", 6000)).post("/login", data={"name": ORGANISER,
                                                                             "password": PASSWORD})
    assert refused.status_code == 429 and "Too many login attempts" in refused.text


def test_passwords_are_argon2_and_an_scrypt_hash_is_rehashed_at_its_login(tmp_path: Path) -> None:
    import hashlib

    from carom.storage import open_store
    from carom.storage.accounts import Accounts
    from carom.storage.book import MatchBook
    from carom.storage.roles import Role
    from carom.web.app import create_app
    from carom.web.shared.auth import hash_password

    store = open_store(tmp_path / "data")
    try:
        salt = b"0123456789abcdef"
        digest = hashlib.scrypt(PASSWORD.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
        b64 = lambda data: __import__("base64").urlsafe_b64encode(data).decode().rstrip("=")  # noqa: E731
        old = f"scrypt$16384$8$1${b64(salt)}${b64(digest)}"
        accounts = Accounts(store)
        accounts.create(ORGANISER, Role.ORGANISER, old, by=None)
        assert hash_password("x").startswith("$argon2id$v=19$m=19456,t=2,p=1$")
        app = create_app(MatchBook(store))
        assert _client(app).post("/login", data={"name": ORGANISER, "password": "wrong"}).status_code == 403
        assert accounts.credentials(ORGANISER)[1] == old  # type: ignore[index]
        log_in(app, ORGANISER)
        rehashed = accounts.credentials(ORGANISER)[1]  # type: ignore[index]
        assert rehashed.startswith("$argon2id$")
        log_in(app, ORGANISER)
        assert accounts.credentials(ORGANISER)[1] == rehashed  # type: ignore[index]
    finally:
        store.close()


def test_the_session_cookie_is_secure_over_https(app: Any) -> None:
    over_https = _client(app, base_url="https://testserver")
    login = {"name": ORGANISER, "password": PASSWORD}
    response = over_https.post("/login", data=login, follow_redirects=False)
    cookie = response.headers["set-cookie"]
    assert "carom_session=" in cookie and "Secure" in cookie and "HttpOnly" in cookie
    plain = _client(app).post("/login", data=login, follow_redirects=False)
    assert "Secure" not in plain.headers["set-cookie"]


def test_a_referee_starts_at_its_matches_and_may_not_run_the_day(app: Any) -> None:
    organiser = log_in(app, ORGANISER)
    assert organiser.post("/api/accounts", json={"name": REFEREE, "role": "referee",
                                                 "password": PASSWORD}).status_code == 201
    rita = _client(app)
    response = rita.post("/login", data={"name": REFEREE, "password": PASSWORD}, follow_redirects=False)
    assert response.headers["location"] == "/referee"
    page = rita.get("/organiser")
    assert page.status_code == 403 and "Rita (referee) may not do this" in page.text
    assert 'href="/referee"' in rita.get("/").text and 'href="/accounts"' not in rita.get("/").text


def test_the_accounts_pages_make_reset_and_remove_accounts(app: Any) -> None:
    organiser = log_in(app, ORGANISER)
    form = {"name": "Dora", "role": "director", "password": "long enough", "again": "long enough"}
    assert organiser.post("/accounts", data=form, follow_redirects=False).status_code == 303
    again = organiser.post("/accounts", data={**form, "name": "DORA"})
    assert again.status_code == 422 and "already an account called DORA" in again.text
    assert organiser.post("/accounts", data={**form, "name": "Eva", "again": "other"}).status_code == 422
    assert organiser.post("/accounts", data={**form, "name": "Eva", "role": "king"}).status_code == 422
    page = organiser.get("/accounts").text
    dora = next(a for a in organiser.get("/api/accounts").json() if a["name"] == "Dora")
    assert 'data-account="{}"'.format(dora["id"]) in page and "tournament director" in page
    reset = {"password": "another secret", "again": "another secret"}
    done = organiser.post(f"/accounts/{dora['id']}/password", data=reset, follow_redirects=False)
    assert done.status_code == 303
    log_in(app, "Dora", "another secret")
    assert organiser.post(f"/accounts/{dora['id']}/remove", follow_redirects=False).status_code == 303
    page = organiser.get("/accounts").text
    assert 'data-account="{}"'.format(dora["id"]) not in page
    for line in ("organiser made the account Dora", "organiser set a new password for Dora",
                 "organiser removed the account Dora"):
        assert line in page
    for lang, words in (("sk", ("Účty", "riaditeľ turnaja", "organiser odstránil účet Dora")),
                        ("de", ("Konten", "Turnierleiter", "organiser hat das Konto Dora entfernt"))):
        text = organiser.get("/accounts", headers={"Accept-Language": lang}).text
        assert all(word in text for word in words), lang


def test_ones_own_password_is_changed_on_the_account_page(app: Any) -> None:
    organiser = log_in(app, ORGANISER)
    assert organiser.post("/api/accounts", json={"name": REFEREE, "role": "referee",
                                                 "password": PASSWORD}).status_code == 201
    rita, elsewhere = log_in(app, REFEREE), log_in(app, REFEREE)
    change = {"current": PASSWORD, "password": "mine alone", "again": "mine alone"}
    assert rita.post("/account/password", data=change, follow_redirects=False).status_code == 303
    assert "your other devices are logged out" in rita.get("/account?password=changed").text
    assert elsewhere.get("/api/session").json()["account"] is None
    log_in(app, REFEREE, "mine alone")
    assert "Rita changed their own password" in organiser.get("/accounts").text


def _authors(store: Any, match_id: int) -> list[int | None]:
    r = schema.records.c
    with store.engine.connect() as connection:
        return list(connection.execute(select(r.account_id).where(r.match_id == match_id).order_by(r.seq))
                    .scalars())


def test_every_change_names_its_account(tmp_path: Path) -> None:
    from carom.storage import open_store
    from carom.storage.book import MatchBook
    from carom.web.app import create_app

    store = open_store(tmp_path / "data")
    try:
        made = make_accounts(store)
        app = create_app(MatchBook(store))
        dora, rita = log_in(app, DIRECTOR), log_in(app, REFEREE)
        created = dora.post("/api/matches", json={"discipline": "three-cushion", "players": ["A", "B"],
                                                  "equalizing_inning": False,
                                                  "points": 1}).json()
        match_id, token = created["id"], created["referee_token"]
        with store.engine.connect() as connection:
            m = schema.matches.c
            creator = connection.execute(select(m.created_by).where(m.id == match_id)).scalar()
            assert creator == made[DIRECTOR].id
        assert dora.post(f"/api/matches/{match_id}/referee", json={"account": made[REFEREE].id}).is_success
        opener = {"after": 0, "record": {"type": "opener", "player": 0}}
        assert _client(app).post(f"/api/matches/{match_id}/records", json=opener,
                                 headers={"X-Referee-Token": token}).status_code == 201  # the link alone
        carom = {"after": 1, "record": {"type": "call", "result": "carom"}}
        assert rita.post(f"/api/matches/{match_id}/records", json=carom).status_code == 201  # no token: given
        assert _authors(store, match_id) == [None, made[REFEREE].id]
        confirmed = rita.post(f"/referee/matches/{match_id}/confirm", follow_redirects=False)
        assert confirmed.status_code == 303
        assert dora.post(f"/api/matches/{match_id}/reopen").is_success
        assert dora.post(f"/api/matches/{match_id}/referee-token").is_success
        match = dora.get(f"/api/matches/{match_id}").json()
        events = [(e["kind"], e["by"], e["account"]["name"]) for e in match["events"]]
        assert events == [("given", "account", DIRECTOR), ("confirm", "account", REFEREE),
                          ("reopen", "account", DIRECTOR), ("new-tablet-link", "account", DIRECTOR)]
        history = dora.get(f"/organiser/matches/{match_id}").text
        for line in ("Given to the referee Rita by Dora", "Result confirmed by Rita", "Reopened by Dora"):
            assert line in history
        otto = log_in(app, OTHER_REFEREE)
        undo = {"after": 2, "record": {"type": "undo"}}
        response = otto.post(f"/api/matches/{match_id}/records", json=undo)
        assert response.status_code == 403 and "not given to the account Otto" in response.json()["detail"]
    finally:
        store.close()


def test_every_change_to_a_tournament_names_its_account_in_its_log(tmp_path: Path) -> None:
    """The API's and the pages' changes are signed by the account logged in (its name and
    id), the games the schedule calls by the schedule."""
    from carom.competition.day.records import kind_of
    from carom.storage import open_store
    from carom.storage.book import MatchBook
    from carom.web.app import create_app

    store = open_store(tmp_path / "data")
    try:
        made = make_accounts(store)
        app = create_app(MatchBook(store))
        dora, organiser = log_in(app, DIRECTOR), log_in(app, ORGANISER)
        tid = dora.post("/api/tournaments", json={"name": "Cup", "discipline": "three-cushion",
                                                  "points": 5}).json()["id"]
        entered = organiser.post(f"/tournaments/{tid}/players", follow_redirects=False, data={
            "csrf": organiser.headers["X-CSRF-Token"], "names": "Anna\nBoris\nCyril"})
        assert entered.status_code == 303, entered.text[:300]
        assert dora.post(f"/api/tournaments/{tid}/start").status_code == 200
        signed = {(kind_of(x.record), x.record.actor) for x in app.state.tournaments.audit(tid)}
        director, first = made[DIRECTOR].actor, made[ORGANISER].actor
        assert {("created", director), ("entered", first), ("started", director)} <= signed
        assert {actor for _, actor in signed} == {director, first, "schedule"}
        assert director == f"{DIRECTOR} #{made[DIRECTOR].id}"
    finally:
        store.close()


def test_a_referee_sees_the_matches_given_to_it_and_opens_their_tablet(app: Any) -> None:
    organiser = log_in(app, ORGANISER)
    rita_id = organiser.post("/api/accounts", json={"name": REFEREE, "role": "referee",
                                                    "password": PASSWORD}).json()["id"]
    header = {"discipline": "three-cushion", "points": 3}
    ids = [organiser.post("/api/matches", json={**header, "players": [a, b]}).json()["id"]
           for a, b in (("A", "B"), ("C", "D"))]
    rita = log_in(app, REFEREE)
    assert "No match is given to your account yet" in rita.get("/referee").text
    assert rita.get(f"/m/{ids[0]}/tablet").status_code == 403
    given = organiser.post(f"/organiser/matches/{ids[0]}/referee", data={"referee": str(rita_id)},
                           follow_redirects=False)
    assert given.status_code == 303
    page = rita.get("/referee").text
    assert f'data-match="{ids[0]}"' in page and f'data-match="{ids[1]}"' not in page
    assert rita.get(f"/m/{ids[0]}/tablet").status_code == 200
    refused = organiser.post(f"/organiser/matches/{ids[0]}/referee", data={"referee": "1"})  # not a referee
    assert refused.status_code == 422 and "choose one of the referees" in refused.text
    organiser.post(f"/organiser/matches/{ids[0]}/referee", data={"referee": ""})
    assert rita.get(f"/m/{ids[0]}/tablet").status_code == 403
    assert "Taken from its referee by organiser" in organiser.get(f"/organiser/matches/{ids[0]}").text
