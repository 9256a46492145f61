"""A real ``carom serve`` (on SQLite and on PostgreSQL) and Debian's Chromium driven by Playwright."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.storage.postgres import Postgres, temporary_postgres
from tests.web.server import ORGANISER, PASSWORD, Server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-gpu", "--disable-dev-shm-usage"]


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    with temporary_postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """``carom serve`` on a fresh database of each kind."""
    database = None
    if request.param == "postgresql":
        database = request.getfixturevalue("postgres").new_database()
    running = Server(tmp_path / "data", database, warm_pool=_warm(request)).start()
    yield running
    running.stop()


@pytest.fixture
def sqlite_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """``carom serve`` on SQLite only: for what the database does not change (layout, words)."""
    running = Server(tmp_path / "data", warm_pool=_warm(request)).start()
    yield running
    running.stop()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def shared_server(request: pytest.FixtureRequest,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One ``carom serve`` of each kind for a module's tests, the organiser logged in once:
    for tests that each make what they read (a match, a tournament) and change nothing
    the others read. A server's start is most of a short browser test's time."""
    database = None
    if request.param == "postgresql":
        database = request.getfixturevalue("postgres").new_database()
    yield from _shared(tmp_path_factory, database, _warm(request))


@pytest.fixture(scope="module")
def shared_sqlite_server(request: pytest.FixtureRequest,
                         tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``shared_server`` on SQLite only."""
    yield from _shared(tmp_path_factory, None, _warm(request))


def _warm(request: pytest.FixtureRequest) -> bool:
    """Whether the test's module is marked ``warm_pool``: its pages simulate, fit or track
    at once (the other tests' servers start their simulation pool at the first such request)."""
    return request.node.get_closest_marker("warm_pool") is not None


def _shared(tmp_path_factory: pytest.TempPathFactory, database: str | None,
            warm_pool: bool) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("shared") / "data", database, warm_pool=warm_pool)
    running.one_login = True
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    """The application in this process, on SQLite, with the organiser's account made."""
    from carom.storage import open_store
    from carom.storage.accounts import Accounts
    from carom.storage.book import MatchBook
    from carom.storage.roles import Role
    from carom.web.app import create_app
    from carom.web.shared.auth import hash_password

    store = open_store(tmp_path / "data")
    Accounts(store).create(ORGANISER, Role.ORGANISER, hash_password(PASSWORD), by=None)
    yield create_app(MatchBook(store), setup_code="let-me-in")
    store.close()


@pytest.fixture
def client(app: Any) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def stranger(app: Any) -> Iterator[Any]:
    """Another browser: no login, no token."""
    from fastapi.testclient import TestClient

    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def organiser(client: Any) -> Any:
    """The client, logged in as the organiser, sending its session's anti-forgery token."""
    assert client.post("/login", data={"name": ORGANISER, "password": PASSWORD},
                       follow_redirects=False).status_code == 303
    client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
    return client


@pytest.fixture
def match(organiser: Any) -> tuple[int, str]:
    """A three-cushion match to 3 points: its id and referee token."""
    response = organiser.post("/api/matches", json={
        "discipline": "three-cushion", "table": "large", "players": ["Anna", "Boris"], "points": 3})
    assert response.status_code == 201, response.text
    return int(response.json()["id"]), str(response.json()["referee_token"])


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")


@pytest.fixture(scope="session", autouse=True)
def _patient_expectations() -> None:
    """Live updates on a busy two-core CI machine: wait up to 15 s, not 5."""
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
