"""Applying a record to the tournament: checked against the state, then folded into a
new state. A record the state cannot take is refused (:class:`Refused` naming the
field and the rule) and changes nothing. :func:`replay` folds a whole log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, TypeVar

from carom.competition.day import records as r
from carom.competition.day.games import DONE, PLAYING, WAITING, DayGame, derived, game_at, playing
from carom.competition.day.keys import GameKey
from carom.competition.day.planning import begin_stage, with_late_entry
from carom.competition.day.rank import next_field, stage_done
from carom.competition.day.refusal import Refused
from carom.competition.day.result import Result, check_within
from carom.competition.day.settings import MAX_LIMIT, MAX_PLAYERS
from carom.competition.day.state import Call, DayState, Entry, Plan, Taken, Withdrawal

MAX_ID = 2**31 - 1
ACTOR_LENGTH = 200
R = TypeVar("R", bound=r.Record)
_HANDLERS: dict[type[r.Record], Callable[[DayState, Any], DayState]] = {}


def apply(state: DayState, record: r.Record) -> DayState:
    """The state after ``record`` (:class:`Refused` when the state cannot take it)."""
    if not isinstance(record.actor, str) or not record.actor.strip() or len(record.actor) > ACTOR_LENGTH:
        raise Refused("actor", f"expected the account that made it (1 to {ACTOR_LENGTH} characters)")
    if record.at.tzinfo is None:
        raise Refused("at", "expected a time with its offset from UTC")
    if state.settings is None and not isinstance(record, r.Created):
        raise Refused("type", "a tournament's log begins with its creation")
    return replace(_HANDLERS[type(record)](state, record), seq=state.seq + 1)


def replay(log: Iterable[r.Record]) -> DayState:
    """The state a whole log makes."""
    state = DayState()
    for record in log:
        state = apply(state, record)
    return state


Handler = Callable[[DayState, R], DayState]


def _handles(kind: type[R]) -> Callable[[Handler[R]], Handler[R]]:
    def register(handler: Handler[R]) -> Handler[R]:
        _HANDLERS[kind] = handler
        return handler
    return register


# --- before the start ---------------------------------------------------------------------


@_handles(r.Created)
def _created(state: DayState, record: r.Created) -> DayState:
    if state.settings is not None:
        raise Refused("type", "the tournament is made once")
    record.settings.check()
    return DayState(settings=record.settings)


@_handles(r.Entered)
def _entered(state: DayState, record: r.Entered) -> DayState:
    player = _player_id(record.player)
    if state.entry(player) is not None:
        raise Refused("player", f"player {player} is entered already", "D1")
    if len(state.entries) >= MAX_PLAYERS:
        raise Refused("players", f"at most {MAX_PLAYERS}", "D1")
    if not 1 <= record.stage <= len(state.stages):
        raise Refused("stage", f"expected a stage from 1 to {len(state.stages)}")
    for name, value in (("seed", record.seed), ("target", record.target)):
        if value is not None and not 1 <= value <= MAX_LIMIT:
            raise Refused(name, f"expected a whole number from 1 to {MAX_LIMIT}")
    if state.started is None:
        if record.group is not None:
            raise Refused("group", "the groups are drawn at the start")
        entry = Entry(player, record.stage, record.seed, record.target)
        return replace(state, entries=(*state.entries, entry))
    return with_late_entry(state, record)


@_handles(r.SeedingSet)
def _seeding(state: DayState, record: r.SeedingSet) -> DayState:
    if state.started is not None:
        raise Refused("seeds", "the tournament has started: the seeding is fixed", "D3")
    seeds = dict(record.seeds)
    if len(seeds) != len(record.seeds):
        raise Refused("seeds", "a player is given two seeds", "D3")
    for player, seed in record.seeds:
        if state.entry(player) is None:
            raise Refused("seeds", f"player {player} is not entered", "D3")
        if not 0 <= seed <= MAX_LIMIT:
            raise Refused("seeds", f"player {player}: expected a seed from 1 to {MAX_LIMIT} (0: none)", "D3")
    entries = tuple(replace(e, seed=(seeds[e.player] or None) if e.player in seeds else e.seed)
                    for e in state.entries)
    return replace(state, entries=entries, hand_seeding=True)


@_handles(r.Started)
def _started(state: DayState, record: r.Started) -> DayState:
    if state.started is not None:
        raise Refused("state", "the tournament has already started", "D4")
    if sorted(record.seeds) != sorted(state.players()):
        raise Refused("seeds", "expected every entrant once, in seed order", "D4")
    targets = dict(record.targets)
    for player, target in record.targets:
        if state.entry(player) is None or not 1 <= target <= MAX_LIMIT:
            raise Refused("targets", f"player {player}: expected an entrant's target from 1 to {MAX_LIMIT}")
    field = tuple(p for p in record.seeds if _entry(state, p).stage == 1)
    started = replace(state, started=record.at, seeds=record.seeds, targets=targets)
    return begin_stage(started, 1, field)


# --- the schedule ---------------------------------------------------------------------------


@_handles(r.GameCalled)
def _called(state: DayState, record: r.GameCalled) -> DayState:
    game = _game(state, record.game)
    if game.status != WAITING:
        raise Refused("game", f"game {game.key} is {game.status}, not waiting", "D5")
    table = _table(state, record.table)
    _table_free(state, table, record.game)
    for other in playing(state):
        if set(other.players) & set(game.players):
            raise Refused("game", f"game {game.key}: a player is playing game {other.key}", "D5")
    if record.match is not None:
        if not 0 < record.match <= MAX_ID:
            raise Refused("match", "expected a match's id")
        if any(c.match == record.match for c in state.calls.values()):
            raise Refused("match", f"match {record.match} is another game's")
    return replace(state, calls={**state.calls, record.game: Call(table, record.match, record.at)})


@_handles(r.GameScheduled)
def _scheduled(state: DayState, record: r.GameScheduled) -> DayState:
    game = _game(state, record.game)
    if game.status != WAITING:
        raise Refused("game", f"game {game.key} is {game.status}: only a waiting game is given a table "
                              "or a time", "D7")
    if record.table is not None:
        _table(state, record.table)
    if record.start is not None and record.start.tzinfo is None:
        raise Refused("start", "expected a time with its offset from UTC", "D7")
    plans = {k: v for k, v in state.plans.items() if k != record.game}
    if record.table is not None or record.start is not None:
        plans[record.game] = Plan(record.table, record.start)
    return replace(state, plans=plans)


@_handles(r.RoundScheduled)
def _round_scheduled(state: DayState, record: r.RoundScheduled) -> DayState:
    if not 1 <= record.stage <= len(state.stages):
        raise Refused("stage", f"expected a stage from 1 to {len(state.stages)}", "D7")
    if not 1 <= record.round <= MAX_PLAYERS:
        raise Refused("round", f"expected a round from 1 to {MAX_PLAYERS}", "D7")
    groups = state.stages[record.stage - 1].groups
    if record.group is not None and not 1 <= record.group <= groups:
        raise Refused("group", f"expected a group from 1 to {groups}", "D7")
    if record.start is not None and record.start.tzinfo is None:
        raise Refused("start", "expected a time with its offset from UTC", "D7")
    where = (record.stage, record.group or 0, record.round)
    starts = {k: v for k, v in state.round_starts.items() if k != where}
    if record.start is not None:
        starts[where] = record.start
    return replace(state, round_starts=starts)


@_handles(r.GameMoved)
def _moved(state: DayState, record: r.GameMoved) -> DayState:
    game = _game(state, record.game)
    call = state.calls.get(record.game)
    if game.status != PLAYING or call is None:
        raise Refused("game", f"game {game.key} is {game.status}: only a game on a table moves "
                              "(give a waiting game its table instead)", "D6")
    table = _table(state, record.table)
    if table == call.table:
        raise Refused("table", f"game {game.key} is on table {table} already", "D6")
    _table_free(state, table, record.game)
    return replace(state, calls={**state.calls, record.game: replace(call, table=table)})


@_handles(r.GamesSwapped)
def _swapped(state: DayState, record: r.GamesSwapped) -> DayState:
    first, second = _game(state, record.first), _game(state, record.second)
    if first.key == second.key:
        raise Refused("second", "a game is swapped with another", "D6")
    if first.status == second.status == WAITING:
        return replace(state, moves=(*state.moves, (first.key, second.key)))
    a, b = state.calls.get(first.key), state.calls.get(second.key)
    if first.status == second.status == PLAYING and a is not None and b is not None:
        calls = {**state.calls, first.key: replace(a, table=b.table), second.key: replace(b, table=a.table)}
        return replace(state, calls=calls)
    raise Refused("second", f"games {first.key} ({first.status}) and {second.key} ({second.status}): "
                            "swap two waiting games or two games on tables", "D6")


@_handles(r.GamePostponed)
def _postponed(state: DayState, record: r.GamePostponed) -> DayState:
    game = _game(state, record.game)
    if game.status != WAITING:
        raise Refused("game", f"game {game.key} is {game.status}: only a waiting game is postponed", "D6")
    return replace(state, moves=(*state.moves, (game.key, None)))


# --- results ----------------------------------------------------------------------------------


@_handles(r.GameFinished)
def _finished(state: DayState, record: r.GameFinished) -> DayState:
    game = _game(state, record.game)
    if game.status != PLAYING:
        raise Refused("game", f"game {game.key} is {game.status}: only a game on a table finishes")
    _shape(record.result)
    if game.key.knockout and record.result.winner is None:
        raise Refused("result.winner", "a knock-out game needs a winner", "P1")
    return _take(state, game, record.result, "match", record.at)


@_handles(r.GameResumed)
def _resumed(state: DayState, record: r.GameResumed) -> DayState:
    game = _game(state, record.game)
    taken = state.taken.get(game.key)
    if taken is None or taken.source != "match" or game.key in state.confirmed:
        raise Refused("game", f"game {game.key}: only an unconfirmed result taken from its match goes on",
                      "D14")
    if moved_on(state, game) is not None:
        raise Refused("game", f"game {game.key}: {moved_on(state, game)}", "D14")
    taken_rest = {k: v for k, v in state.taken.items() if k != game.key}
    order = tuple(k for k in state.finished_order if k != game.key)
    return replace(state, taken=taken_rest, finished_order=order)


def moved_on(state: DayState, game: DayGame) -> str | None:
    """Why a finished game can no longer go on (D14), ``None`` while it can: a game called
    since on its table or with one of its players, or its stage's next one fed."""
    taken = state.taken.get(game.key)
    if taken is None:
        return None
    own = state.calls.get(game.key)
    for key, call in state.calls.items():
        if key == game.key or call.at < taken.at:
            continue
        other = game_at(state, key)
        if own is not None and call.table == own.table:
            return f"table {call.table} has moved on to game {key}"
        if other is not None and set(other.players) & set(game.players):
            return f"a player has moved on to game {key}"
    if game.key.stage + 1 in state.fields:
        return f"stage {game.key.stage} has fed stage {game.key.stage + 1}"
    return None


@_handles(r.GameConfirmed)
def _confirmed(state: DayState, record: r.GameConfirmed) -> DayState:
    game = _game(state, record.game)
    if game.status != DONE or game.key not in state.taken:
        raise Refused("game", f"game {game.key} has no result to confirm")
    if game.key in state.confirmed:
        raise Refused("game", f"game {game.key} is confirmed already")
    return replace(state, confirmed=state.confirmed | {game.key})


@_handles(r.ResultEntered)
def _paper(state: DayState, record: r.ResultEntered) -> DayState:
    game = _game(state, record.game)
    if game.status == DONE:
        raise Refused("game", f"game {game.key} has a result: correct it instead", "D10")
    _within(state, game, record.result)
    done = _take(state, game, record.result, "paper", record.at)
    return replace(done, confirmed=done.confirmed | {game.key})


@_handles(r.ResultCorrected)
def _corrected(state: DayState, record: r.ResultCorrected) -> DayState:
    game = _game(state, record.game)
    _reason(record.reason)
    taken = state.taken.get(game.key)
    if game.status != DONE or taken is None:
        raise Refused("game", f"game {game.key} has no result to correct: enter its result instead", "D11")
    if game.key in state.confirmed:
        raise Refused("game", f"game {game.key} is confirmed: unlock it first", "D12")
    _within(state, game, record.result)
    corrected = _take(state, game, record.result, "correction", record.at, again=True)
    if (why := _changes_who_went_on(state, corrected, game)) is not None:
        raise Refused("result", f"game {game.key}: {why}", "D11")
    return replace(corrected, confirmed=corrected.confirmed | {game.key})


@_handles(r.GameUnlocked)
def _unlocked(state: DayState, record: r.GameUnlocked) -> DayState:
    game = _game(state, record.game)
    _reason(record.reason)
    if game.key not in state.confirmed:
        raise Refused("game", f"game {game.key} is not confirmed", "D12")
    return replace(state, confirmed=state.confirmed - {game.key}, unlocked=state.unlocked | {game.key})


@_handles(r.Walkover)
def _walkover(state: DayState, record: r.Walkover) -> DayState:
    game = _game(state, record.game)
    if game.status == DONE:
        raise Refused("game", f"game {game.key} has a result", "D9")
    if record.winner not in (0, 1):
        raise Refused("winner", "expected 0 or 1 (the side)", "D9")
    done = _take(state, game, Result.walkover_for(record.winner), "walkover", record.at)
    return replace(done, confirmed=done.confirmed | {game.key})


@_handles(r.Withdrew)
def _withdrew(state: DayState, record: r.Withdrew) -> DayState:
    player = _player_id(record.player)
    if state.entry(player) is None:
        raise Refused("player", f"player {player} is not entered", "D8")
    if player in state.withdrawn:
        raise Refused("player", f"player {player} has withdrawn already", "D8")
    if state.started is None:  # before the start: the entry is taken back
        return replace(state, entries=tuple(e for e in state.entries if e.player != player))
    mine = [g for g in derived(state).games if player in g.players]
    finished = frozenset(g.key for g in mine if g.status == DONE)
    if record.no_show and any(g.key in state.taken and not state.taken[g.key].result.walkover for g in mine):
        raise Refused("no_show", f"player {player} has played: he withdraws (not a no-show)", "D8")
    gone = Withdrawal(record.no_show, record.at, finished, state.seq)
    return replace(state, withdrawn={**state.withdrawn, player: gone})


@_handles(r.StageFed)
def _fed(state: DayState, record: r.StageFed) -> DayState:
    stage = record.stage
    if not 2 <= stage <= len(state.stages) or stage in state.fields or stage - 1 not in state.fields:
        raise Refused("stage", "only the stage after the last begun one is fed", "D13")
    if not stage_done(state, stage - 1):
        raise Refused("stage", f"stage {stage - 1} has games to play", "D13")
    field = next_field(state, stage)
    if record.field != field:
        raise Refused("field", f"expected {list(field)} (direct entrants, then qualifiers)", "D13")
    if len(field) < 2:
        raise Refused("field", f"stage {stage} needs at least two players", "D4")
    return begin_stage(state, stage, field)


# --- helpers ----------------------------------------------------------------------------------


def _player_id(value: int) -> int:
    if not 0 < value <= MAX_ID:
        raise Refused("player", "expected a player's id")
    return value


def _entry(state: DayState, player: int) -> Entry:
    entry = state.entry(player)
    assert entry is not None
    return entry


def _game(state: DayState, key: GameKey) -> DayGame:
    found = game_at(state, key)
    if found is None:
        raise Refused("game", f"no game {key} (not drawn, or its players are not known yet)")
    return found


def _table(state: DayState, table: int) -> int:
    assert state.settings is not None
    if not 1 <= table <= state.settings.tables:
        raise Refused("table", f"expected a table from 1 to {state.settings.tables}")
    return table


def _table_free(state: DayState, table: int, game: GameKey) -> None:
    for other in playing(state):
        if other.table == table and other.key != game:
            raise Refused("table", f"table {table} is playing game {other.key}", "D5")


def _reason(reason: str) -> None:
    if not reason.strip() or len(reason) > r.REASON_LENGTH:
        raise Refused("reason", f"expected why (1 to {r.REASON_LENGTH} characters)")


def _shape(result: Result) -> None:
    for name in ("points", "innings", "high_run"):
        pair = getattr(result, name)
        if len(pair) != 2 or not all(0 <= v <= MAX_LIMIT for v in pair):
            raise Refused(f"result.{name}", f"expected two whole numbers from 0 to {MAX_LIMIT}")
    if result.winner not in (None, 0, 1):
        raise Refused("result.winner", "expected 0, 1 or null")


def _within(state: DayState, game: DayGame, result: Result) -> None:
    """A result typed by hand: its shape, and the game's limits (a handicap target each)."""
    _shape(result)
    if result.walkover:
        raise Refused("result.walkover", "a walkover is given as one (not as a result)", "D9")
    settings = state.settings
    assert settings is not None
    limits = None
    if settings.points is not None:
        limits = tuple(state.targets.get(p, settings.points) if settings.handicap else settings.points
                       for p in game.players)
    check_within(result, limits, settings.innings, game.key.knockout)  # type: ignore[arg-type]


def _take(state: DayState, game: DayGame, result: Result, source: str, at: Any,
          again: bool = False) -> DayState:
    order = state.finished_order if again else (*state.finished_order, game.key)
    return replace(state, taken={**state.taken, game.key: Taken(result, source, at)}, finished_order=order)


def _changes_who_went_on(before: DayState, after: DayState, game: DayGame) -> str | None:
    """A corrected result must not change who went on once that was used (D11): a fed
    stage's qualifiers, or a bracket winner whose next game is called or played."""
    stage = game.key.stage
    if stage + 1 in before.fields:
        now = next_field(after, stage + 1)
        if now != before.fields[stage + 1]:
            return f"stage {stage + 1} was fed with other qualifiers"
    if game.key.knockout:
        old, new = derived(before).brackets.get(stage), derived(after).brackets.get(stage)
        if old is not None and new is not None:
            for key, resolved in new[1].items():
                was = old[1][key]
                if was.sides != resolved.sides and (key in before.calls or key in before.taken):
                    return f"game {key} is already played or on a table with its players"
    return None
