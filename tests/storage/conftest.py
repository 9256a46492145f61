"""Stores on SQLite (a temporary data folder) and on a real PostgreSQL server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from carom.storage import SqlStore, open_store
from tests.storage.postgres import Postgres, temporary_postgres


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    with temporary_postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database URL of each kind."""
    if request.param == "sqlite":
        return f"sqlite+pysqlite:///{tmp_path / 'carom.sqlite3'}"
    server: Postgres = request.getfixturevalue("postgres")
    return server.new_database()


@pytest.fixture
def store(database: str, tmp_path: Path) -> Iterator[SqlStore]:
    s = open_store(tmp_path, database)
    yield s
    s.close()
