"""A table's live channel: what its fixed tablet and screen need to move on by themselves.

``/tables/{name}/events?view=tablet`` sends event ``table`` with the table's state: the
match on it now and that match's version (``m12.31.2``), or its next game (``next:…``). The
tablet page compares it with what it shows and, when it differs, fetches the table's
tablet again (the panel of the match now, or "next: A – B"). ``?view=screen`` sends event
``board``: the audience board of the match now, once it has begun, else the card that
says what is next. Nothing secret goes out: the tablet's writes carry its device token.

A feed wakes when the hub says a match it shows changed, when the hall's tables may have
changed (:meth:`carom.web.shared.hub.Hub.tables_changed`: a game put on a table, a
tournament's call) and every :data:`RECHECK` seconds in any case (a change another
process made). One ``first()``, then ``next()`` until ``close()``: the shape of the live
channel's feeds.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from markupsafe import escape
from starlette.concurrency import run_in_threadpool

from carom.competition.tables import OnTable
from carom.storage.book import Snapshot
from carom.storage.errors import UnknownMatch
from carom.storage.table_games import TableGames
from carom.web.matches.pages import BoardFragments
from carom.web.shared import i18n
from carom.web.shared.deps import templates
from carom.web.shared.hub import Changes, Hub
from carom.web.shared.live import Event, Feed, FeedMaker
from carom.web.shared.live import Refused as LiveRefused
from carom.web.tables.service import app_games
from carom.web.tables.views import coming, next_line

RECHECK = 5.0
"""Seconds after which a feed looks at its table again whatever it was told."""
BOARDS = BoardFragments()


def tablet_state(on: OnTable, snap: Snapshot | None, t: i18n.PageWords) -> str:
    """What a table's tablet shows: the match now and its version (``m12.31.2``), or what
    comes next (:attr:`carom.web.tables.views.Coming.state`)."""
    if on.now is not None and snap is not None:
        return f"m{snap.match_id}.{snap.version}"
    return coming(on, t).state


@dataclass(eq=False)
class TableFeed:
    """The live channel of one table's tablet (``view`` ``tablet``) or screen (``screen``)."""

    games: TableGames
    hub: Hub
    name: str
    view: str
    lang: str
    _changes: Changes | None = None
    _watched: set[int] = field(default_factory=set)
    _last: str | None = None
    _number: int = 0
    _checked: float = 0.0

    async def first(self) -> list[Event]:
        """Everything at once (:class:`UnknownMatch`-free: a table that is not in the hall
        raises :class:`carom.storage.hall.HallError`)."""
        self._changes = self.hub.watch_all()
        return await self._events()

    async def next(self, timeout: float) -> list[Event]:
        """The events of the next change, or none after ``timeout`` seconds of silence."""
        assert self._changes is not None
        wait = max(0.0, min(timeout, RECHECK - (time.monotonic() - self._checked)))
        try:
            async with asyncio.timeout(wait):
                await self._changes.wake.wait()
        except TimeoutError:
            if time.monotonic() - self._checked >= RECHECK:
                return await self._events()
            return []
        tables, self._changes.tables = self._changes.tables, False
        if not tables and not self._changes.take() & self._watched:
            return []
        self._changes.take()
        return await self._events()

    def close(self) -> None:
        if self._changes is not None:
            self.hub.unwatch_all(self._changes)
            self._changes = None

    async def _events(self) -> list[Event]:
        self._checked = time.monotonic()
        on, snap = await run_in_threadpool(self._now)
        self._watched = {g.match for g in (on.now, on.next) if g is not None and g.match is not None}
        key, data = self._data(on, snap)
        if key == self._last:
            return []
        self._last = key
        self._number += 1
        return [("table" if self.view == "tablet" else "board", self._number, data)]

    def _now(self) -> tuple[OnTable, Snapshot | None]:
        on = self.games.now(self.games.hall.table(self.name))
        snap = None
        if on.now is not None and on.now.match is not None:
            try:
                snap = self.games.book.snapshot(on.now.match)
            except UnknownMatch:
                snap = None
        return on, snap

    def _data(self, on: OnTable, snap: Snapshot | None) -> tuple[str, str]:
        t = i18n.PageWords(self.lang)
        if self.view == "tablet":
            state = tablet_state(on, snap, t)
            return state, state
        if snap is not None and on.started:
            return f"m{snap.match_id}.{snap.version}", screen_board(snap, on, self.lang)
        ahead = coming(on, t)
        html = templates.get_template("_table_next.html").render(t=t, lang=self.lang, coming=ahead)
        return ahead.state, html


def screen_board(snap: Snapshot, on: OnTable, lang: str) -> str:
    """The screen's board: the audience board of the match now, and what comes after it."""
    t = i18n.PageWords(lang)
    after = next_line(on, t)
    return BOARDS(snap, lang) + (f'<p class="table-after" id="table-after">{escape(after)}</p>'
                                 if after else "")


TABLE_PATH = re.compile(r"/tables/([^/]{1,80})/events")
VIEWS = ("tablet", "screen")


def table_feeds(app: Any) -> FeedMaker:
    """The feed maker of ``/tables/{name}/events`` (``view=tablet`` or ``screen``)."""

    async def make(path: re.Match[str], query: dict[str, list[str]], lang: str) -> Feed:
        tables = app_games(app)
        name = unquote(path.group(1))
        if await run_in_threadpool(tables.hall.state().table, name) is None:
            raise LiveRefused(404, i18n.PageWords(lang).gettext("There is no table %(name)s in the hall.",
                                                                name=name[:40]))
        view = query.get("view", ["screen"])[0]
        return TableFeed(tables, app.state.services.hub, name, view if view in VIEWS else "screen", lang)

    return make
