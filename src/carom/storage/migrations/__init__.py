"""Alembic migrations of the carom database, run by :func:`carom.storage.migrate.upgrade`."""
