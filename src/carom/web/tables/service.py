"""The application's hall (:mod:`carom.storage.hall`) and the games on its tables
(:mod:`carom.storage.table_games`, with the tournaments' calls,
:mod:`carom.web.tables.called`), made on first use; and who a change is made by."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from carom.storage.hall import Hall
from carom.storage.store import SqlStore
from carom.storage.table_games import TableGames
from carom.web.shared.deps import account_of
from carom.web.tournaments.api import app_tournaments

ORGANISER = "organiser"
"""The actor of a change a request makes without an account (none of the routes lets one:
they all ask for one first)."""


def hall(request: Request) -> Hall:
    return games(request).hall


def games(request: Request) -> TableGames:
    """The games on the hall's tables (the application's one :class:`TableGames`)."""
    return app_games(request.app)


def app_games(app: Any) -> TableGames:
    """:func:`games` of an application (the live channel has no request)."""
    found: TableGames | None = getattr(app.state, "table_games", None)
    if found is None:
        from carom.web.tables.called import CalledGames

        book = app.state.services.book
        store = book.store
        if not isinstance(store, SqlStore):
            raise TypeError("the hall needs a SqlStore")
        found = TableGames(book, Hall(store), CalledGames(app_tournaments(app)))
        app.state.table_games = found
    return found


def actor(request: Request) -> str:
    """The account a change of the hall is recorded with: the logged-in account's name and
    id (``Anna #3``, as a tournament's log signs it), else :data:`ORGANISER`."""
    account = account_of(request)
    return ORGANISER if account is None else account.actor
