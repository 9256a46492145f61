"""What a table plays now, since when, and what it plays next (TD8).

The games come from the tournaments that play on the table (each called game, with its
match; the game the schedule would call there next, with its start time) and from the
one-off matches put on it. A game stays on its table until its match is finished and
confirmed, so a tablet keeps the result to confirm and a screen keeps the result to read;
then the table's next game that has a match comes on, else the pages say what is next.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from carom.competition.tables.state import Table


@dataclass(frozen=True, slots=True)
class Game:
    """A game on a table, or to be played there."""

    players: tuple[str, str]
    match: int | None = None
    """Its match, once it has one (a tournament game's when it is called)."""
    since: datetime | None = None
    """When it came to the table (put there, or called to it)."""
    start: datetime | None = None
    """When it is to begin (a tournament game's start time)."""
    tournament: int | None = None
    game: str | None = None
    """The tournament game's key (``1.A.2.0``)."""


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a match has come."""

    started: bool
    finished: bool
    confirmed: bool

    @property
    def done(self) -> bool:
        """Finished and confirmed: it leaves its table."""
        return self.finished and self.confirmed


@dataclass(frozen=True, slots=True)
class OnTable:
    table: Table
    now: Game | None
    """The game on the table now (its match under way, or finished and not yet confirmed,
    or made and not yet begun)."""
    next: Game | None
    """The game after it."""
    progress: Progress | None = None
    """How far the match now has come."""

    @property
    def started(self) -> bool:
        return self.progress is not None and self.progress.started


def on_table(table: Table, games: Iterable[Game], progress: Mapping[int, Progress]) -> OnTable:
    """The table's game now and next (TD8): the games with a match that is not done, in the
    order they came to the table, then the games still to be called, by start time."""
    made: list[Game] = []
    waiting: list[Game] = []
    for game in games:
        if game.match is None:
            waiting.append(game)
            continue
        known = progress.get(game.match)
        if known is None or not known.done:
            made.append(game)
    made.sort(key=lambda g: (_when(g.since), g.match or 0))
    waiting.sort(key=lambda g: _when(g.start))
    queue = made + waiting
    if not made:
        return OnTable(table, None, waiting[0] if waiting else None)
    now = made[0]
    assert now.match is not None
    return OnTable(table, now, queue[1] if len(queue) > 1 else None, progress.get(now.match))


def _when(moment: datetime | None) -> tuple[bool, float]:
    """Earlier first, no time last (times carry their offset, so they compare as instants)."""
    return (moment is None, 0.0 if moment is None else moment.timestamp())
