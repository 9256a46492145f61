"""What the schedule does by itself, and what each table plays now and next.

:func:`due` is the records the schedule appends at a moment: the results of games whose
matches have finished (their tables are free), a result given back when a finished
match went on before its table moved on (D14), confirmations, the next stage fed once a
stage is done (D13), and the waiting games called to the free tables (D5). The calls
follow the schedule's order: the first waiting games whose players are both free and
whose start time has come, each on its own table if the organiser gave it one, else on
the first free table; games whose players did not just finish come first (rest where it
can). :func:`tables` says for each table what is on it and what comes next.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from carom.competition.day import records as r
from carom.competition.day.apply import apply, moved_on
from carom.competition.day.games import DONE, PLAYING, WAITING, DayGame, derived
from carom.competition.day.keys import GameKey
from carom.competition.day.rank import next_field, stage_done
from carom.competition.day.refusal import Refused
from carom.competition.day.result import Result
from carom.competition.day.state import DayState
from carom.competition.schedule import Pairing, dispatch


@dataclass(frozen=True, slots=True)
class MatchView:
    """What the schedule needs to know of a called game's match."""

    finished: bool
    result: Result | None
    """Its totals and winner (``None`` while it goes on)."""
    confirmed: bool = False


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    now: DayGame | None
    since: datetime | None
    next: DayGame | None
    next_start: datetime | None


def start_of(state: DayState, game: DayGame) -> datetime | None:
    """When a waiting game may begin: its own start time, else the latest of the times
    given to its round and the rounds before it (a later round never starts before an
    earlier one's time); ``None``: whenever its table and players are free."""
    plan = state.plans.get(game.key)
    if plan is not None and plan.start is not None:
        return plan.start
    key = game.key
    times = [when for (stage, group, round_), when in state.round_starts.items()
             if stage == key.stage and group in (0, key.group) and round_ <= key.round]
    return max(times, default=None)


def due(state: DayState, matches: Mapping[GameKey, MatchView], now: datetime,
        actor: str = r.SCHEDULE) -> list[r.Record]:
    """The records the schedule appends now, in order (each applies to the state the ones
    before it left); the calls have no match yet (who makes matches gives each its own)."""
    out: list[r.Record] = []
    current = state

    def push(record: r.Record) -> None:
        nonlocal current
        current = apply(current, record)
        out.append(record)

    for game in derived(state).games:
        match = matches.get(game.key)
        if match is None:
            continue
        taken = state.taken.get(game.key)
        if game.status == PLAYING and match.finished and match.result is not None and (
                not game.key.knockout or match.result.winner is not None):
            push(r.GameFinished(actor=actor, at=now, game=game.key, result=match.result))
            taken = current.taken.get(game.key)
        elif (game.status == DONE and taken is not None and taken.source == "match" and not match.finished
              and game.key not in state.confirmed and moved_on(current, game) is None):
            push(r.GameResumed(actor=actor, at=now, game=game.key))
            continue
        fresh = taken is not None and taken.source == "match" and game.key not in current.confirmed \
            and game.key not in current.unlocked
        if match.confirmed and fresh:
            push(r.GameConfirmed(actor=actor, at=now, game=game.key))
    for stage in range(2, len(current.stages) + 1):
        if stage not in current.fields and stage - 1 in current.fields and stage_done(current, stage - 1):
            try:
                push(r.StageFed(actor=actor, at=now, stage=stage, field=next_field(current, stage)))
            except Refused:
                break  # a stage that cannot be played (too few left): the organiser decides
    for table, key in calls_now(current, now):
        push(r.GameCalled(actor=actor, at=now, game=key, table=table))
    return out


def calls_now(state: DayState, now: datetime | None) -> list[tuple[int, GameKey]]:
    """The waiting games to call now, each with its table (``now`` ``None``: whatever
    their start times)."""
    if state.settings is None or state.started is None:
        return []
    games = derived(state).games
    busy_tables = {g.table for g in games if g.status == PLAYING}
    free = [t for t in range(1, state.settings.tables + 1) if t not in busy_tables]
    busy = {p for g in games if g.status == PLAYING for p in g.players}
    recent = [derived(state).by_key[k] for k in state.finished_order[-len(free):]] if free else []
    resting = {p for g in recent for p in g.players}
    ready = [g for g in games if g.status == WAITING and (now is None or (start_of(state, g) or now) <= now)]
    return _dispatch(state, ready, free, busy, resting)


def _dispatch(state: DayState, games: Sequence[DayGame], free: list[int], busy: set[int],
              resting: set[int]) -> list[tuple[int, GameKey]]:
    """:func:`carom.competition.schedule.dispatch` of ``games``, honouring the tables the
    organiser gave them."""
    wanted: dict[Hashable, int] = {k: p.table for k, p in state.plans.items() if p.table is not None}
    chosen = dispatch([Pairing(g.key, g.players) for g in games], busy, free, resting, wanted)
    out = []
    for table, pairing in chosen:
        assert isinstance(pairing.key, GameKey)
        out.append((table, pairing.key))
    return out


def tables(state: DayState) -> list[TableView]:
    """Each table: the game on it now (since when) and the one it plays next (the first
    the schedule would call there if every table were free; with its start time)."""
    if state.settings is None:
        return []
    games = derived(state).games
    playing = {g.table: g for g in games if g.status == PLAYING}
    waiting = [g for g in games if g.status == WAITING]
    upcoming = dict(_dispatch(state, waiting, list(range(1, state.settings.tables + 1)), set(), set())) \
        if state.started is not None else {}
    by_key = derived(state).by_key
    out = []
    for number in range(1, state.settings.tables + 1):
        now = playing.get(number)
        following = by_key[upcoming[number]] if number in upcoming else None
        out.append(TableView(number, now, None if now is None or now.call is None else now.call.at, following,
                             None if following is None else start_of(state, following)))
    return out
