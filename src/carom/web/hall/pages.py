"""The hall monitor and the kiosk boards: every table of the hall on one screen, live.

- ``GET /hall``: a card per match in play (started, not finished), or per match chosen
  with ``?m=3,5,8``: the players, the score, the innings, the series under way and who
  is at the table. ``?kiosk=1`` leaves out the top bar (no links at all).
- ``/hall/events``: the live channel of the whole page (:mod:`carom.web.shared.live`:
  server-sent events, or a WebSocket), one for every table (not one per table). Event
  ``table``: a card's HTML, sent when its match changes (a match that starts while the
  page is open gets its card). The hub tells the channel which matches changed
  (:meth:`carom.web.shared.hub.Hub.watch_all`).
- With the club's tables registered (:mod:`carom.web.tables.monitor`), the page opens
  with a card per table (its game under way, else what it plays next and when) and
  each running tournament's standings top and next games: event ``tables``, the whole
  block again when it changes. The cards below are then the matches in play on no table.
- ``GET /kiosk/{id}``: a table's board for a screen beside the table: full screen,
  no links or navigation, live over the board's own channel.
- ``GET /kiosk?every=20``: the board of one match in play after another, each shown
  for ``every`` seconds (``m=`` chooses the matches). ``lang=`` sets the language of a
  screen that no one can click.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from carom.core.errors import CaromError
from carom.core.inputs import is_digits
from carom.notation.words import LANGUAGES, N_
from carom.storage.book import MatchBook, Snapshot
from carom.storage.errors import UnknownMatch
from carom.web.hall.start import HallStart
from carom.web.matches.pages import Fragments
from carom.web.shared import i18n
from carom.web.shared.deps import answer, language, render, services, words
from carom.web.shared.hub import Changes, Hub
from carom.web.shared.live import Event, Feed, FeedMaker
from carom.web.shared.live import Refused as LiveRefused
from carom.web.shared.views import MatchView, match_view

router = APIRouter(include_in_schema=False)

MAX_CHOSEN = 64
"""Matches one hall page may follow (``m=``)."""
EVERY = (3, 3600)
"""The seconds a cycling kiosk shows each board: at least, at most."""
DEFAULT_EVERY = 15


class Refused(CaromError):
    """A query field the hall cannot use: the message names it."""


def chosen(value: str | None) -> tuple[int, ...] | None:
    """The match ids of ``m=3,5,8`` (in that order, once each), ``None`` when absent."""
    if value is None or not value.strip():
        return None
    ids: list[int] = []
    for part in value.split(","):
        part = part.strip()
        if not is_digits(part) or len(part) > 9:
            raise Refused(N_("m: expected match numbers separated by commas, got %(value)s"))
        if int(part) not in ids:
            ids.append(int(part))
    if len(ids) > MAX_CHOSEN:
        raise Refused(N_("m: at most %(num)s matches on one page"))
    return tuple(ids)


def in_play(snap: Snapshot) -> bool:
    """A table's game under way: at least one record, not finished, still readable."""
    return snap.seq > 0 and not snap.state.finished and snap.problem is None


def live_ids(book: MatchBook) -> list[int]:
    """The matches in play, oldest first (the order of the hall's tables)."""
    return sorted(s.match_id for s in book.snapshots() if in_play(s))


async def snapshot(book: MatchBook, match_id: int) -> Snapshot:
    live = book.cached(match_id)
    return live.snapshot if live is not None else await run_in_threadpool(book.snapshot, match_id)


async def snapshots(book: MatchBook, ids: Iterable[int]) -> list[Snapshot]:
    """The snapshots of ``ids`` that exist (a chosen number without a match is left out)."""
    out = []
    for match_id in ids:
        try:
            out.append(await snapshot(book, match_id))
        except UnknownMatch:
            continue
    return out


def card_view(snap: Snapshot, t: i18n.PageWords) -> MatchView:
    view = match_view(snap, t)
    view.labels["match"] = t.gettext("Match %(number)s", number=snap.match_id)
    view.labels["at_table"] = t.gettext("At the table")
    return view


CARDS = Fragments("_hall_table.html", card_view)
"""The hall's card of a match."""


@dataclass(frozen=True, slots=True)
class HallTables:
    """The hall's tables block (:mod:`carom.web.tables.monitor`)."""

    html: str
    matches: frozenset[int]
    """The matches whose cards it shows (left out of the cards below it)."""


TablesBlock = Callable[[str], Awaitable[HallTables | None]]
"""The tables block in a language (``None``: no tables, no tournament running)."""


async def tables_block(app: Any, lang: str, chosen: tuple[int, ...] | None) -> HallTables | None:
    """The application's tables block (none on a page of chosen matches)."""
    block: TablesBlock | None = getattr(app.state, "hall_tables", None)
    return None if block is None or chosen is not None else await block(lang)


def _refusal(request: Request, error: Refused, value: str) -> Response:
    t = words(request)
    return answer(request, 422, t.gettext(str(error), value=value[:40], num=MAX_CHOSEN))


@router.get("/hall", response_class=HTMLResponse)
async def hall(request: Request, m: str | None = None, kiosk: str | None = None) -> Response:
    book = services(request).book
    try:
        ids = chosen(m)
    except Refused as error:
        return _refusal(request, error, m or "")
    if ids is None:
        ids = tuple(await run_in_threadpool(live_ids, book))
    lang = language(request)
    block = await tables_block(request.app, lang, chosen(m))
    on_tables = block.matches if block is not None else frozenset()
    cards = [CARDS(s, lang) for s in await snapshots(book, ids) if s.match_id not in on_tables]
    asked = lang if request.query_params.get("lang") == lang else ""  # the page's own ?lang=, kept
    query = urlencode({k: v for k, v in (("m", ",".join(map(str, ids)) if m else ""), ("lang", asked)) if v})
    return render(request, "hall.html", cards=cards, kiosk=bool(kiosk and kiosk != "0"), tables=block,
                  events="/hall/events" + (f"?{query}" if query else ""))


HALL_PATH = re.compile(r"/hall/events")


@dataclass(eq=False)
class HallFeed:
    """The hall's live channel: the tables block (event ``tables``) when the hall has one,
    every card at once, then each card whose match changed (a match not on the page joins
    it when it starts), and the tables block again when it changed."""

    book: MatchBook
    hub: Hub
    ids: tuple[int, ...] | None
    lang: str
    start: HallStart
    """The matches in play and the tables block, read once for the channels opened while
    nothing changes (:mod:`carom.web.hall.start`)."""
    _sent: dict[int, str] = field(default_factory=dict)
    _number: int = 0
    _changes: Changes | None = None
    _tables: HallTables | None = None

    async def first(self) -> list[Event]:
        self._changes = self.hub.watch_all()
        tables = await self._block()
        first = self.ids if self.ids is not None else await self.start.ids()
        return tables + self._cards(await snapshots(self.book, first))

    async def next(self, timeout: float) -> list[Event]:
        assert self._changes is not None
        try:
            async with asyncio.timeout(timeout):
                await self._changes.wake.wait()
        except TimeoutError:
            return await self._block()  # a change another process made to the hall's tables
        tables_changed, self._changes.tables = self._changes.tables, False
        changed = sorted(self._changes.take())
        if self.ids is not None:
            changed = [i for i in changed if i in self.ids]
        snaps = await snapshots(self.book, changed)
        on_tables = self._tables.matches if self._tables is not None else frozenset()
        started = any(in_play(s) and s.match_id not in self._sent for s in snaps)
        tables = await self._block() if tables_changed or started or on_tables & set(changed) else []
        shown = [s for s in snaps if s.match_id in self._sent or self.ids is not None or in_play(s)]
        return tables + self._cards(shown)

    def close(self) -> None:
        if self._changes is not None:
            self.hub.unwatch_all(self._changes)
            self._changes = None

    async def _block(self) -> list[Event]:
        """The tables block when it is new or changed."""
        if self.ids is not None:
            return []
        fresh = await self.start.tables(self.lang)  # the first channel after a change reads it
        if fresh is None or (self._tables is not None and fresh.html == self._tables.html):
            return []
        self._tables = fresh
        self._number += 1
        return [("tables", self._number, fresh.html)]

    def _cards(self, snaps: list[Snapshot]) -> list[Event]:
        out: list[Event] = []
        on_tables = self._tables.matches if self._tables is not None else frozenset()
        for snap in snaps:
            if self._sent.get(snap.match_id) == snap.version or snap.match_id in on_tables:
                continue
            self._sent[snap.match_id] = snap.version
            self._number += 1
            out.append(("table", self._number, CARDS(snap, self.lang)))
        return out


def hall_feeds(book: MatchBook, hub: Hub, block: TablesBlock | None = None) -> FeedMaker:
    """The feed maker of ``/hall/events`` (``m=`` chooses the matches, else those in play;
    ``block``: the hall's tables block, :mod:`carom.web.tables.monitor`)."""
    start = HallStart(hub, lambda: run_in_threadpool(live_ids, book), block)

    async def make(path: re.Match[str], query: dict[str, list[str]], lang: str) -> Feed:
        value = query.get("m", [""])[0]
        try:
            ids = chosen(value)
        except Refused as error:
            raise LiveRefused(422, i18n.PageWords(lang).gettext(str(error), value=value[:40],
                                                                num=MAX_CHOSEN)) from None
        return HallFeed(book, hub, ids, lang, start)

    return make


def _every(value: str | None) -> int:
    if value is None or value == "":
        return DEFAULT_EVERY
    if not is_digits(value) or not EVERY[0] <= int(value) <= EVERY[1]:
        raise Refused(N_("every: expected a number of seconds from 3 to 3600, got %(value)s"))
    return int(value)


def _kiosk_page(request: Request, chosen_lang: str | None, **context: Any) -> Response:
    """A kiosk's page; a language its address chose (``?lang=``) goes to its live channel
    too, and nowhere else (the browser's other pages keep theirs)."""
    asked = f"&lang={chosen_lang}" if chosen_lang in LANGUAGES else ""
    return render(request, "kiosk.html", live_lang=asked, **context)


@router.get("/kiosk/{match_id}", response_class=HTMLResponse)
async def kiosk_one(request: Request, match_id: int, lang: str | None = None) -> Response:
    snap = await run_in_threadpool(services(request).book.snapshot, match_id)
    t = words(request)
    return _kiosk_page(request, lang, view=match_view(snap, t), t=t, lang=t.lang, next_url="",
                       every=0)


@router.get("/kiosk", response_class=HTMLResponse)
async def kiosk_cycle(request: Request, m: str | None = None, every: str | None = None,
                      at: int = 0, lang: str | None = None) -> Response:
    """The board of the match in play after match ``at`` (the first after the last)."""
    book = services(request).book
    try:
        ids = chosen(m)
        seconds = _every(every)
    except Refused as error:
        return _refusal(request, error, (m if "m:" in str(error) else every) or "")
    if ids is None:
        ids = tuple(await run_in_threadpool(live_ids, book))
    order = sorted(await snapshots(book, ids), key=lambda s: s.match_id)
    after = [s for s in order if s.match_id > at] or order
    snap = after[0] if after else None
    t = words(request)
    kept = lang if lang in LANGUAGES else None
    query = {k: v for k, v in (("m", m), ("every", str(seconds)), ("lang", kept),
                               ("at", str(snap.match_id) if snap else None)) if v}
    return _kiosk_page(request, lang, view=match_view(snap, t) if snap else None, t=t, lang=t.lang,
                       next_url="/kiosk?" + urlencode(query), every=seconds)
