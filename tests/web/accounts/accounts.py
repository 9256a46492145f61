"""An application with an account of every role, each logged in in its own client."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.web.server import ORGANISER, PASSWORD

REFEREE, OTHER_REFEREE, DIRECTOR = "Rita", "Otto", "Dora"


def log_in(app: Any, name: str, password: str = PASSWORD, *, beside: Any = None, **options: Any) -> Any:
    """A test client of ``app`` logged in as ``name``, sending its anti-forgery token;
    ``beside``: a running client whose event loop it shares (:func:`sharing_loop`)."""
    from fastapi.testclient import TestClient

    client = TestClient(app, **options) if beside is None else sharing_loop(beside)
    response = client.post("/login", data={"name": name, "password": password}, follow_redirects=False)
    assert response.status_code == 303, response.text
    client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
    return client


def sharing_loop(running: Any) -> Any:
    """Another client of ``running``'s application whose requests run in ``running``'s event
    loop (entered with ``with``), as every browser's run in the server's: the simulation
    pool keeps the loop it started in."""
    from fastapi.testclient import TestClient

    client = TestClient(running.app)
    client.portal = running.portal
    return client


@dataclass
class Clients:
    """The application, its store and one client per role (``anonymous`` too)."""

    app: Any
    store: Any
    by_role: dict[str, Any]
    match_token: str

    def __getitem__(self, role: str) -> Any:
        return self.by_role[role]

    def seq(self, match_id: int = 1) -> int:
        return int(self.by_role["anonymous"].get(f"/api/matches/{match_id}").json()["seq"])


def make_accounts(store: Any) -> dict[str, Any]:
    """The organiser, a director and two referees, all with :data:`PASSWORD`."""
    from carom.storage.accounts import Accounts
    from carom.storage.roles import Role
    from carom.web.shared.auth import hash_password

    accounts = Accounts(store)
    stored = hash_password(PASSWORD)
    made = {ORGANISER: accounts.create(ORGANISER, Role.ORGANISER, stored, by=None)}
    for name, role in ((DIRECTOR, Role.DIRECTOR), (REFEREE, Role.REFEREE), (OTHER_REFEREE, Role.REFEREE)):
        made[name] = accounts.create(name, role, stored, by=made[ORGANISER])
    return made


@contextmanager
def clients_of_every_role(data: Path) -> Iterator[Clients]:
    """Match 1 (three-cushion to 3) given to the referee; every role logged in."""
    from fastapi.testclient import TestClient

    from carom.storage import open_store
    from carom.storage.book import MatchBook
    from carom.web.app import create_app

    store = open_store(data)
    made = make_accounts(store)
    app = create_app(MatchBook(store), setup_code="let-me-in")
    anonymous = TestClient(app).__enter__()
    clients = {"anonymous": anonymous, "organiser": log_in(app, ORGANISER, beside=anonymous),
               "director": log_in(app, DIRECTOR, beside=anonymous),
               "referee": log_in(app, REFEREE, beside=anonymous),
               "other referee": log_in(app, OTHER_REFEREE, beside=anonymous)}
    try:
        created = clients["organiser"].post("/api/matches", json={
            "discipline": "three-cushion", "players": ["Anna", "Boris"], "points": 3})
        match_id, token = created.json()["id"], created.json()["referee_token"]
        given = clients["organiser"].post(f"/api/matches/{match_id}/referee",
                                          json={"account": made[REFEREE].id})
        assert given.status_code == 200, given.text
        yield Clients(app, store, clients, token)
    finally:
        for client in clients.values():
            if client is not anonymous:
                client.close()
        anonymous.__exit__(None, None, None)
        store.close()
