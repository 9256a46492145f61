"""The records of a tournament's log: every change the organiser or the schedule makes.

Each record names the account that made it (``actor``, a name or an id; ``schedule``
for what the schedule does by itself) and its time. Records are appended, never changed:
the tournament is the fold of its log (:func:`~carom.competition.day.apply.replay`).
Each converts to a JSON object and back (:func:`to_json`, :func:`from_json`), which
refuses a malformed one naming its field.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from carom.competition.day.keys import GameKey
from carom.competition.day.result import Result
from carom.competition.day.settings import Settings

SCHEDULE = "schedule"
"""The actor of what the schedule does by itself (calls, results taken, stages fed)."""
REASON_LENGTH = 500


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    actor: str
    at: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class Created(Record):
    """The tournament made with its settings (the first record)."""

    settings: Settings


@dataclass(frozen=True, slots=True, kw_only=True)
class Entered(Record):
    """A player entered into ``stage`` (a later stage: a seeded player who enters late, the
    UMB World Cup's shape); after the start, a late entry (D1, D2)."""

    player: int
    stage: int = 1
    seed: int | None = None
    target: int | None = None
    """A handicap target by hand (after the start: the one computed for him)."""
    group: int | None = None
    """A late entry's group (``None``: the one the rules choose)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeedingSet(Record):
    """Seeds given by hand or taken from a ranking list, before the start (D3): from then on
    the tournament is seeded by hand, players without a seed after those with one."""

    seeds: tuple[tuple[int, int], ...]
    """(player, seed) pairs; a seed of 0 takes the player's seed away."""
    source: str = "hand"


@dataclass(frozen=True, slots=True, kw_only=True)
class Started(Record):
    """The start: the field in seed order and the handicap targets, as they stood then."""

    seeds: tuple[int, ...]
    targets: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class GameCalled(Record):
    """A game called to a table, with the match it is played as (D5)."""

    game: GameKey
    table: int
    match: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameScheduled(Record):
    """A waiting game given a table and/or a start time (``None``: no longer) (D7)."""

    game: GameKey
    table: int | None = None
    start: datetime | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundScheduled(Record):
    """Every game of a round (of one group, or of the whole stage) given a start time (D7)."""

    stage: int
    round: int
    group: int | None = None
    start: datetime | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameMoved(Record):
    """A called game moved to another, free, table (D6)."""

    game: GameKey
    table: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GamesSwapped(Record):
    """Two waiting games swap their places in the schedule, or two called games their tables (D6)."""

    first: GameKey
    second: GameKey


@dataclass(frozen=True, slots=True, kw_only=True)
class GamePostponed(Record):
    """A waiting game goes to the end of the schedule (D6)."""

    game: GameKey


@dataclass(frozen=True, slots=True, kw_only=True)
class GameFinished(Record):
    """A called game's match finished: its result taken and its table free."""

    game: GameKey
    result: Result


@dataclass(frozen=True, slots=True, kw_only=True)
class GameResumed(Record):
    """A finished game's match goes on again (its last stroke undone before its table or a
    player moved on, D14): its result is no longer taken."""

    game: GameKey


@dataclass(frozen=True, slots=True, kw_only=True)
class GameConfirmed(Record):
    """A game's result confirmed (its match confirmed by both players or the organiser)."""

    game: GameKey


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultEntered(Record):
    """A result typed from a paper scoresheet (D10); it counts as confirmed."""

    game: GameKey
    result: Result


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultCorrected(Record):
    """A finished game's result corrected, with the reason (D11)."""

    game: GameKey
    result: Result
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GameUnlocked(Record):
    """A confirmed game unlocked for a correction, with the reason (D12)."""

    game: GameKey
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Walkover(Record):
    """A game without a result given to one of its players (D9)."""

    game: GameKey
    winner: int
    """0 or 1: the side."""
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Withdrew(Record):
    """A player withdrawn, or who did not come (``no_show``) (D8)."""

    player: int
    no_show: bool = False
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class StageFed(Record):
    """A stage's field, in seed order, once the stage before it is done (D13): its
    direct entrants, then the qualifiers."""

    stage: int
    field: tuple[int, ...]


KINDS: dict[str, type[Record]] = {
    "created": Created, "entered": Entered, "seeding": SeedingSet, "started": Started,
    "called": GameCalled, "scheduled": GameScheduled, "round-scheduled": RoundScheduled,
    "moved": GameMoved, "swapped": GamesSwapped, "postponed": GamePostponed,
    "finished": GameFinished, "resumed": GameResumed, "confirmed": GameConfirmed,
    "paper-result": ResultEntered, "corrected": ResultCorrected, "unlocked": GameUnlocked,
    "walkover": Walkover, "withdrew": Withdrew, "stage-fed": StageFed,
}
KIND_OF: dict[type[Record], str] = {cls: kind for kind, cls in KINDS.items()}


def kind_of(record: Record) -> str:
    return KIND_OF[type(record)]
