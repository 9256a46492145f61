"""A database brought to an older schema revision, as an older ``carom serve`` left it."""

from __future__ import annotations

from alembic import command
from sqlalchemy import Engine

from carom.storage.engine import make_engine
from carom.storage.migrate import alembic_config


def at_revision(database: str, revision: str) -> Engine:
    """An engine on ``database`` with the migrations up to ``revision`` run (dispose it)."""
    engine = make_engine(database)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    return engine
