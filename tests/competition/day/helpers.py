"""Building tournament days for the tests: records made with a clock that moves on, games
played to a result, the schedule run until nothing is due."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from itertools import count

from carom.competition.day import (
    PLAYING,
    DayGame,
    DayState,
    GameKey,
    MatchView,
    Result,
    Settings,
    apply,
    day_games,
    due,
)
from carom.competition.day import records as r

T0 = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)
_tick = count()


def at() -> datetime:
    """A moment later than the one before."""
    return T0 + timedelta(minutes=next(_tick))


def made(settings: Settings, players: Iterable[int], *, start: bool = True, actor: str = "anna") -> DayState:
    """A tournament of ``players`` (entered in order, seeded in that order by hand), started."""
    state = apply(DayState(), r.Created(actor=actor, at=at(), settings=settings))
    entered = list(players)
    for player in entered:
        state = apply(state, r.Entered(actor=actor, at=at(), player=player))
    if start:
        state = apply(state, r.Started(actor=actor, at=at(), seeds=tuple(entered)))
    return state


def run(state: DayState, matches: dict[GameKey, MatchView] | None = None,
        now: datetime | None = None) -> tuple[DayState, list[r.Record]]:
    """What the schedule does now, applied (calls get match ids)."""
    done: list[r.Record] = []
    for record in due(state, matches or {}, now or at()):
        if isinstance(record, r.GameCalled):
            record = r.GameCalled(actor=record.actor, at=record.at, game=record.game, table=record.table,
                                  match=1000 + len(state.calls) + 1)
        state = apply(state, record)
        done.append(record)
    return state, done


def win(side: int, loser_points: int = 3, distance: int = 10) -> Result:
    """A one-inning game to ``distance`` won by ``side``."""
    points = (distance, loser_points) if side == 0 else (loser_points, distance)
    return Result(points, (1, 1), points, side)


def finish(state: DayState, key: GameKey, result: Result) -> DayState:
    """The game's match finished with ``result``, and the schedule took it (and called on)."""
    state, _ = run(state, {key: MatchView(True, result)})
    return state


def playing(state: DayState) -> list[DayGame]:
    return [g for g in day_games(state) if g.status == PLAYING]


def game(state: DayState, text: str) -> DayGame:
    found = {g.key.text: g for g in day_games(state)}
    return found[text]


def key(text: str) -> GameKey:
    return GameKey.parse(text)
