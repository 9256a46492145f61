"""What happens to a match beside its records: the result confirmed, the match reopened,
a new tablet link issued, the shot clock paused and resumed, the match given to a referee,
a doubted stroke upheld.
Each is a row of ``match_events``, appended and never changed, with the account that did it
(:mod:`carom.storage.roles`).

A finished match is *confirmed* once both players confirmed it (on the tablet) or an
account that may referee it did, each at the match's current record: from then on no
record is taken, not even an ``undo``, until an organiser or a tournament director
reopens the match (a ``reopen`` event, kept with its time and account). A confirmation
given before a later record, or before a reopening, no longer counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from carom.storage.errors import StorageError
from carom.storage.roles import Account


class EventKind(StrEnum):
    CONFIRM = "confirm"
    REOPEN = "reopen"
    NEW_TABLET_LINK = "new-tablet-link"
    CLOCK_PAUSE = "clock-pause"
    CLOCK_RESUME = "clock-resume"
    GIVEN = "given"
    """The match given to a referee's account (``detail``: its name; empty: to nobody)."""
    UPHELD = "upheld"
    """The referee upheld a stroke its source doubted (``detail``: the stroke's line)."""


class Actor(StrEnum):
    """In whose name: a player (on the tablet, with the match's referee token) or an
    account (the event's ``account``)."""

    PLAYER0 = "player0"
    PLAYER1 = "player1"
    ACCOUNT = "account"
    REFEREE = "referee"
    """Whoever holds the match's tablet link."""

    @classmethod
    def player(cls, index: int) -> Actor:
        return (cls.PLAYER0, cls.PLAYER1)[index]


@dataclass(frozen=True, slots=True)
class MatchEvent:
    kind: EventKind
    actor: Actor
    seq: int
    """The match's number of records when it happened."""
    at: datetime | None = None
    account: Account | None = None
    """The account that did it: always for :attr:`Actor.ACCOUNT`; for a player's
    confirmation, the account logged in on the tablet, if one was."""
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class Confirmation:
    """Who confirmed the match as it stands, and whether that locks it."""

    by: frozenset[Actor]
    account: Account | None = None
    """The account whose confirmation holds, if one's does."""

    @property
    def confirmed(self) -> bool:
        return Actor.ACCOUNT in self.by or {Actor.PLAYER0, Actor.PLAYER1} <= self.by


def confirmation(events: tuple[MatchEvent, ...], seq: int) -> Confirmation:
    """The confirmations that hold for the match at record ``seq``."""
    by: set[Actor] = set()
    account = None
    for event in events:
        if event.kind is EventKind.REOPEN:
            by.clear()
            account = None
        elif event.kind is EventKind.CONFIRM and event.seq == seq:
            by.add(event.actor)
            if event.actor is Actor.ACCOUNT:
                account = event.account
    return Confirmation(frozenset(by), account)


def clock_paused(events: tuple[MatchEvent, ...], seq: int) -> bool:
    """The shot clock of the stroke after record ``seq`` is paused (docs/clock.md): the
    referee paused it and has not resumed it since. A new record starts a new stroke's
    count, unpaused."""
    paused = False
    for event in events:
        if event.seq == seq and event.kind in (EventKind.CLOCK_PAUSE, EventKind.CLOCK_RESUME):
            paused = event.kind is EventKind.CLOCK_PAUSE
    return paused


def upheld(events: tuple[MatchEvent, ...], line: int) -> bool:
    """The referee upheld the stroke on ``line``, which its source doubted (docs/format.md,
    "A stroke in doubt"). Records are only appended, so a line names one stroke for good."""
    return any(e.kind is EventKind.UPHELD and e.detail == str(line) for e in events)


class NotInDoubt(StorageError):
    """Upholding a stroke that is not the latest standing one, or that nobody doubts."""

    def __init__(self, match_id: int, line: int) -> None:
        super().__init__(f"match {match_id}: the stroke on line {line} is not the last one in doubt "
                         "(upheld already, undone, or followed by another)")
        self.match_id = match_id
        self.line = line


class Confirmed(StorageError):
    """A record for a match whose result is confirmed."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"match {match_id}: the result is confirmed; only the organiser or the "
                         "tournament director can reopen it")
        self.match_id = match_id


class NotFinished(StorageError):
    """A confirmation of a match that goes on."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"match {match_id} is not finished: there is no result to confirm")
        self.match_id = match_id
