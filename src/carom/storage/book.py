"""The match book: every match's state as the replay of its stored records.

The database holds records; the rules engine (:mod:`carom.match`) makes them a
state. A :class:`LiveMatch` keeps that replay in memory so that a new record is
judged against the state in microseconds, and a write is: judge it, store it
(durably), show it. A record the rules refuse is never stored; a record the
database refuses (a stale sequence number) leaves the replay to be rebuilt from
the database, which stays the only source of truth.

Beside its records a match has events (:mod:`carom.storage.events`): a finished
match confirmed by both players or by an account takes no more records until an
organiser or a tournament director reopens it. Every write names the account that made
it, where one did (:mod:`carom.storage.roles`); a record entered with the tablet link
alone names none.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection

from carom.core.errors import RecordError
from carom.core.records import Header, Record
from carom.match.replay import Replayer
from carom.match.state import MatchState, Ruling
from carom.match.stats import PlayerStats, player_stats
from carom.notation.reader import parse_header, parse_record, record_from_json
from carom.notation.writer import dumps, format_header, record_json
from carom.storage.changes import Change
from carom.storage.daylog import DayLog
from carom.storage.errors import StaleSequence, StorageError
from carom.storage.events import (
    Actor,
    Confirmation,
    Confirmed,
    EventKind,
    MatchEvent,
    NotFinished,
    NotInDoubt,
    clock_paused,
    confirmation,
    upheld,
)
from carom.storage.roles import Account
from carom.storage.store import SqlStore, Store, StoredMatch

CACHED = 512
"""Matches whose replay stays in memory (the least recently used leave first)."""
MAX_RECORDS = 5_000
"""Records one match holds: about ten times the longest match played (a straight-rail
game to a few hundred points); every page of a match costs in proportion to it."""
MAX_BYTES = 16 * 1024 * 1024
"""The size of a match's lines: the largest file the organiser may import."""


class WrongToken(StorageError):
    """A write without the match's referee token."""


class FullMatch(RecordError):
    """A record, or an imported file, beyond what one match may hold (:data:`MAX_RECORDS`,
    :data:`MAX_BYTES`): refused like a record that cannot be read."""


class BrokenMatch(StorageError):
    """Stored records that the current rules no longer replay: the match is read-only."""


class MovedOn(BrokenMatch):
    """A record for a finished tournament game's match after its table or a player moved on
    to another game (D14): read-only; the organiser corrects its result instead."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match at one moment: what every page shows. Immutable, so readers need no lock."""

    match_id: int
    header: Header
    header_line: str
    seq: int
    """The number of records (0: only the header)."""
    lines: tuple[str, ...]
    state: MatchState
    rulings: tuple[Ruling, ...]
    problem: str | None = None
    """Why the stored records stop replaying (a later rules version refuses one)."""
    players: tuple[int, int] | None = None
    """The players' ids."""
    events: tuple[MatchEvent, ...] = ()
    referee: Account | None = None
    """The referee's account the match is given to."""

    @property
    def version(self) -> str:
        """Changes with every record and every event: what live pages compare."""
        return f"{self.seq}.{len(self.events)}"

    @property
    def confirmation(self) -> Confirmation:
        return confirmation(self.events, self.seq) if self.state.finished else Confirmation(frozenset())

    @property
    def in_doubt(self) -> tuple[int, dict[str, Any]] | None:
        """The latest standing stroke, when its source doubted it (its ``doubt``) and the
        referee has not upheld it: its line and its doubt; else ``None``."""
        if not self.rulings:
            return None
        line = self.rulings[-1].line
        if not 2 <= line <= self.seq + 1 or '"doubt"' not in self.lines[line - 2]:
            return None
        record = json.loads(self.lines[line - 2])
        doubt = record.get("doubt") if record.get("type") == "stroke" else None
        if not isinstance(doubt, dict) or upheld(self.events, line):
            return None
        return line, doubt

    @property
    def text(self) -> str:
        """The match as a ``carom/1`` file."""
        return "".join(line + "\n" for line in (self.header_line, *self.lines))

    @property
    def stats(self) -> tuple[PlayerStats, PlayerStats]:
        return player_stats(self.state)


@dataclass(frozen=True, slots=True)
class Appended:
    """A record stored: its sequence number, its ruling (if it has one), the new snapshot."""

    seq: int
    ruling: Ruling | None
    snapshot: Snapshot


class LiveMatch:
    """One match's replay, fed as records arrive (undo included)."""

    def __init__(self, stored: StoredMatch) -> None:
        self.id = stored.id
        self.token = stored.token
        self.players = stored.players
        self.events = stored.events
        self.referee = stored.referee
        self.header_line = stored.header
        self.header = parse_header(stored.header)
        self.replayer = Replayer(self.header)
        self.lock = threading.Lock()
        self.queue = asyncio.Lock()
        self.size = len(stored.header)
        """The bytes of the match's lines (what :data:`MAX_BYTES` bounds)."""
        self.snapshot = self._snap(())
        self.catch_up(stored)

    def catch_up(self, stored: StoredMatch) -> None:
        """Take what was stored after this replay's last record: the records of
        ``stored`` (the first is the next record), its events, its referee token and the
        referee's account it is given to."""
        self.token, self.events, self.referee = stored.token, stored.events, stored.referee
        self.take(stored.lines)

    def take(self, stored: tuple[str, ...]) -> None:
        """Take records stored after this replay's last one (the first is the next record)."""
        lines, problem = list(self.snapshot.lines), self.snapshot.problem
        for seq, line in enumerate(stored, start=self.snapshot.seq + 1):
            self.size += len(line)
            if problem is not None:
                continue
            try:
                self.replayer.feed(seq + 1, parse_record(line, self.header))
            except RecordError as error:
                problem = str(error.at(seq + 1))
                continue
            lines.append(line)
        self.snapshot = self._snap(tuple(lines), problem)

    def _snap(self, lines: tuple[str, ...], problem: str | None = None) -> Snapshot:
        return Snapshot(self.id, self.header, self.header_line, len(lines), lines,
                        self.replayer.state, tuple(self.replayer.rulings), problem, self.players, self.events,
                        self.referee)

    def check_token(self, token: str | None) -> None:
        if not token or not hmac.compare_digest(token.encode(), self.token.encode()):
            raise WrongToken("missing referee token" if not token
                             else "the referee token is not this match's")


class MatchBook:
    """The matches of a store, replayed and cached; the only way records are written."""

    def __init__(self, store: Store, cached: int = CACHED) -> None:
        self.store = store
        self._cached = cached
        self._live: OrderedDict[int, LiveMatch] = OrderedDict()
        self._summaries: dict[int, Snapshot] = {}
        self._lock = threading.Lock()
        self.days = DayLog(store) if isinstance(store, SqlStore) else None
        """The tournaments' logs of the store (a tournament game's finished match asks them
        before it takes a record, D14)."""

    def live(self, match_id: int) -> LiveMatch:
        """The match's replay (:class:`UnknownMatch` when there is none)."""
        with self._lock:
            live = self._live.get(match_id)
            if live is not None:
                self._live.move_to_end(match_id)
                return live
        live = LiveMatch(self.store.read(match_id))
        with self._lock:
            live = self._live.setdefault(match_id, live)
            self._live.move_to_end(match_id)
            while len(self._live) > self._cached:
                self._live.popitem(last=False)
        return live

    def snapshot(self, match_id: int) -> Snapshot:
        return self.live(match_id).snapshot

    def refresh(self, match_id: int) -> Snapshot | None:
        """Bring the match's replay up to the database, where another process wrote
        (:mod:`carom.storage.changes`): its new records, its events, its referee token and
        its referee's account.
        ``None`` when the match is not in memory (it is read whole when it is next asked for)."""
        with self._lock:
            self._summaries.pop(match_id, None)
        live = self.cached(match_id)
        if live is None:
            return None
        with live.lock:
            live.catch_up(self.store.read_after(match_id, live.snapshot.seq))
            return live.snapshot

    async def refresh_async(self, match_id: int) -> Snapshot | None:
        """:meth:`refresh` for an event loop, in turn with this process's own writes."""
        live = self.cached(match_id)
        if live is None:
            return await asyncio.to_thread(self.refresh, match_id)
        async with live.queue:
            return await asyncio.to_thread(self.refresh, match_id)

    async def follow(self, change: Change) -> Snapshot | None:
        """Bring the match up to a change another process made (:meth:`refresh_async`): a
        record it carries that follows the replay's last one is taken as it is, without
        reading the database; anything else is read."""
        live = self.cached(change.match_id)
        if live is None or change.record is None:
            return await self.refresh_async(change.match_id)
        seq, line = change.record
        async with live.queue:
            if (seq == live.snapshot.seq + 1 and self.cached(change.match_id) is live
                    and live.lock.acquire(blocking=False)):
                try:
                    live.take((line,))
                finally:
                    live.lock.release()
                with self._lock:
                    self._summaries.pop(change.match_id, None)
                return live.snapshot
        return await self.refresh_async(change.match_id)

    def forget(self, match_id: int) -> None:
        """Drop a replay that may no longer match the database."""
        with self._lock:
            self._live.pop(match_id, None)

    def cached_ids(self) -> list[int]:
        """The matches whose replay is in memory."""
        with self._lock:
            return list(self._live)

    def cached(self, match_id: int) -> LiveMatch | None:
        """The match's replay if it is in memory (no database access)."""
        return self._live.get(match_id)

    def append(self, match_id: int, after: int, record: Mapping[str, Any] | Record,
               token: str | None, *, strict: bool = False, by: Account | None = None) -> Appended:
        """Judge ``record`` against the match after record ``after``, store it, return it.

        Raises :class:`WrongToken`, :class:`StaleSequence` (the match moved on: the
        caller shows it afresh), :class:`RecordError` (the rules refuse the record:
        nothing is stored), :class:`BrokenMatch` or :class:`Confirmed`. ``strict``: a
        field the record's type does not have is refused, not kept (records from the web).
        ``by``: the account that enters it.
        """
        live = self.live(match_id)
        live.check_token(token)
        self._moved_on(live)
        with live.lock:
            line, ruling = self._judge(live, after, record, strict)
            try:
                seq = self.store.append(match_id, after, line, _id(by))
            except BaseException:
                self.forget(match_id)  # the replay ran ahead of the database
                raise
            return self._keep(live, seq, line, ruling)

    def append_many(self, match_id: int, after: int, records: list[Mapping[str, Any] | Record],
                    token: str | None, by: Account | None = None) -> Snapshot:
        """:meth:`append` for several records in order, each judged against the match as
        the ones before it left it. A record the rules refuse stores none of them; the
        others are written without waiting for each other's commit (the writer groups
        them into as few commits as it can)."""
        live = self.live(match_id)
        live.check_token(token)
        self._moved_on(live)
        with live.lock:
            try:
                lines = []
                for seq, record in enumerate(records, start=after):
                    line, ruling = self._judge(live, seq, record, False)
                    self._keep(live, seq + 1, line, ruling)
                    lines.append(line)
            except BaseException:
                self.forget(match_id)  # the replay ran ahead of the database
                raise
            futures = [self.store.append_future(match_id, seq, line, _id(by))
                       for seq, line in enumerate(lines, start=after)]
            failed: BaseException | None = None
            for future in futures:
                try:
                    future.result()
                except BaseException as error:
                    failed = failed or error
            if failed is not None:
                self.forget(match_id)
                raise failed
            return live.snapshot

    async def append_async(self, match_id: int, after: int, record: Mapping[str, Any] | Record,
                           token: str | None, *, strict: bool = False, by: Account | None = None) -> Appended:
        """:meth:`append` for an event loop: the loop never waits on the disk, and the
        writes to one match queue on its own lock. (A process uses one of the two.)"""
        cached = self.cached(match_id)
        live = cached if cached is not None else await asyncio.to_thread(self.live, match_id)
        live.check_token(token)
        if live.snapshot.state.finished:
            await asyncio.to_thread(self._moved_on, live)
        async with live.queue:
            line, ruling = self._judge(live, after, record, strict)
            try:
                seq = await asyncio.wrap_future(self.store.append_future(match_id, after, line, _id(by)))
            except BaseException:
                self.forget(match_id)
                raise
            return self._keep(live, seq, line, ruling)

    def _moved_on(self, live: LiveMatch) -> None:
        """:class:`MovedOn` for a finished tournament game's match whose table or players
        have moved on (D14: an undo then would put a player in two games)."""
        if self.days is None or not live.snapshot.state.finished:
            return
        why = self.days.refusal(live.id)
        if why is not None:
            raise MovedOn(why)

    @staticmethod
    def _judge(live: LiveMatch, after: int, record: Mapping[str, Any] | Record,
               strict: bool) -> tuple[str, Ruling | None]:
        """The record's line and ruling, the replay moved on by it; or a refusal."""
        snap = live.snapshot
        if snap.problem is not None:
            raise BrokenMatch(f"match {live.id} is read-only: {snap.problem}")
        if snap.confirmation.confirmed:
            raise Confirmed(live.id)
        if after != snap.seq:
            raise StaleSequence(live.id, after, snap.seq)
        if snap.seq >= MAX_RECORDS:
            raise FullMatch(f"match {live.id} holds {MAX_RECORDS} records, as many as a match may hold")
        line_no = snap.seq + 2
        try:
            parsed = record_from_json(record, live.header) if isinstance(record, Mapping) else record
            if strict and parsed.extra:
                raise RecordError(f"record: a {type(parsed).__name__.lower()} record has no field "
                                  f"{', '.join(map(repr, sorted(parsed.extra)))[:80]}")
            line = dumps(record_json(parsed))
            if live.size + len(line) > MAX_BYTES:
                raise FullMatch(f"match {live.id} holds {live.size} bytes: this record would pass "
                                f"the {MAX_BYTES} a match may hold")
            ruling = live.replayer.feed(line_no, parsed)
        except RecordError as error:
            raise error.at(line_no) from None
        return line, ruling

    @staticmethod
    def _keep(live: LiveMatch, seq: int, line: str, ruling: Ruling | None) -> Appended:
        live.snapshot = live._snap((*live.snapshot.lines, line))
        live.size += len(line)
        assert live.snapshot.seq == seq
        return Appended(seq, ruling, live.snapshot)

    def create(self, header: Header | str, token: str, lines: tuple[str, ...] = (),
               player_ids: tuple[int, int] | None = None, by: Account | None = None,
               within: Connection | None = None) -> int:
        """Store a new match (an import brings its records) with its players: the ones
        its names find or make, or the ones given by id (a register's). Returns its id
        (:class:`~carom.storage.players.SamePlayer`, ``AmbiguousName``, ``UnknownPlayer``).
        ``by``: the account that creates it. ``within``: the write transaction to make it in
        (else a commit of its own)."""
        parsed = parse_header(header) if isinstance(header, str) else header
        names = None if player_ids is not None else parsed.players
        line = format_header(parsed)
        if len(lines) > MAX_RECORDS:
            raise FullMatch(f"{len(lines)} records: a match may hold at most {MAX_RECORDS}")
        if len(line) + sum(len(x) for x in lines) > MAX_BYTES:
            raise FullMatch(f"the match's lines pass the {MAX_BYTES} bytes a match may hold")
        if within is None:
            return self.store.create_match(line, token, lines, names, player_ids, by)
        return self.store.create_match(line, token, lines, names, player_ids, by, within=within)

    def new_token(self, match_id: int, token: str, by: Account) -> None:
        """A new tablet link for the match: the old token stops working at once."""
        live = self.live(match_id)
        with live.lock:
            self.store.set_token(match_id, token)
            live.token = token
            self._add_event(live, EventKind.NEW_TABLET_LINK, Actor.ACCOUNT, by)

    def confirm(self, match_id: int, actor: Actor, by: Account | None = None) -> Snapshot:
        """``actor`` confirms the result of the finished match as it stands: a player (on
        the tablet; ``by`` the account logged in there, if any) or the account ``by``."""
        live = self.live(match_id)
        with live.lock:
            if not live.snapshot.state.finished:
                raise NotFinished(match_id)
            self._add_event(live, EventKind.CONFIRM, actor, by)
            return live.snapshot

    def reopen(self, match_id: int, by: Account) -> Snapshot:
        """An organiser or a director reopens a confirmed match: the referee may enter
        records again (an ``undo`` first); the reopening stays in the match's events."""
        live = self.live(match_id)
        with live.lock:
            if not live.snapshot.confirmation.confirmed:
                return live.snapshot
            self._add_event(live, EventKind.REOPEN, Actor.ACCOUNT, by)
            return live.snapshot

    def give(self, match_id: int, referee: Account | None, by: Account) -> Snapshot:
        """Give the match to a referee's account (``None``: to nobody), in its events."""
        live = self.live(match_id)
        with live.lock:
            self.store.give(match_id, referee)
            live.referee = referee
            named = "" if referee is None else referee.name
            self._add_event(live, EventKind.GIVEN, Actor.ACCOUNT, by, named)
            return live.snapshot

    def uphold(self, match_id: int, line: int, actor: Actor = Actor.REFEREE,
               by: Account | None = None) -> Snapshot:
        """The referee upholds the stroke on ``line``, which its source doubted: kept as a
        match event (the record is not changed). It must be the latest standing stroke and
        still in doubt (:class:`NotInDoubt`); a confirmed match takes nothing (:class:`Confirmed`)."""
        live = self.live(match_id)
        with live.lock:
            if live.snapshot.confirmation.confirmed:
                raise Confirmed(match_id)
            in_doubt = live.snapshot.in_doubt
            if in_doubt is None or in_doubt[0] != line:
                raise NotInDoubt(match_id, line)
            self._add_event(live, EventKind.UPHELD, actor, by, str(line))
            return live.snapshot

    def pause_clock(self, match_id: int, paused: bool, actor: Actor = Actor.REFEREE,
                    by: Account | None = None) -> Snapshot:
        """The referee pauses (or resumes) the shot clock of the stroke under way, for every
        tablet and board that shows it. Pausing a paused clock changes nothing. ``by``: the
        account logged in on the tablet, if one is."""
        live = self.live(match_id)
        with live.lock:
            if clock_paused(live.events, live.snapshot.seq) != paused:
                self._add_event(live, EventKind.CLOCK_PAUSE if paused else EventKind.CLOCK_RESUME, actor, by)
            return live.snapshot

    def _add_event(self, live: LiveMatch, kind: EventKind, actor: Actor, by: Account | None,
                   detail: str | None = None) -> None:
        event = self.store.add_event(live.id, kind, actor, live.snapshot.seq, by, detail)
        live.events = (*live.events, event)
        live.snapshot = replace(live.snapshot, events=live.events, referee=live.referee)
        with self._lock:
            self._summaries.pop(live.id, None)

    def snapshots(self) -> list[Snapshot]:
        """Every match, newest first, as snapshots without lines and rulings (the
        state is there). A match unchanged since the last call is not replayed again."""
        infos = self.store.matches()
        out = []
        for info in infos:
            with self._lock:
                live = self._live.get(info.id)
                known = self._summaries.get(info.id)
            snap = live.snapshot if live is not None else known
            if snap is None or (snap.seq != info.records and snap.problem is None):
                snap = LiveMatch(self.store.read(info.id)).snapshot
            snap = replace(snap, lines=(), rulings=())  # the state is all a summary needs
            with self._lock:
                self._summaries[info.id] = snap
            out.append(snap)
        return out



def _id(account: Account | None) -> int | None:
    return None if account is None else account.id
