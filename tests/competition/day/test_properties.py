"""Properties of the day, over random days: the standings do not depend on the order in
which results arrive; no player and no table is ever in two games at once, whatever
withdrawals, late entries, moves and paper results happen; every state the log reaches
replays (and reads back from JSON) to the same state."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from carom.competition.day import (
    PLAYING,
    WAITING,
    DayState,
    MatchView,
    Refused,
    Result,
    Settings,
    Stage,
    apply,
    day_games,
    due,
    from_json,
    group_standings,
    replay,
    to_json,
)
from carom.competition.day import records as r

T0 = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)


def _result(rnd: random.Random, knockout: bool) -> Result:
    innings = rnd.randint(1, 6)
    a, b = rnd.randint(0, 10), rnd.randint(0, 10)
    winner = None if a == b else (0 if a > b else 1)
    if winner is None and knockout:
        winner = rnd.randint(0, 1)
    return Result((a, b), (innings, innings), (min(a, 10), min(b, 10)), winner)


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 8), st.integers(1, 3), st.randoms(use_true_random=False))
def test_the_standings_do_not_depend_on_the_order_results_arrive(n: int, tables: int,
                                                                 rnd: random.Random) -> None:
    made = DayState()
    for record in [r.Created(actor="a", at=T0, settings=Settings("RR", "three-cushion", "large", 10, None,
                                                                tables=tables)),
                   *(r.Entered(actor="a", at=T0, player=p) for p in range(1, n + 1)),
                   r.Started(actor="a", at=T0, seeds=tuple(range(1, n + 1)))]:
        made = apply(made, record)
    results = {g.key: _result(rnd, False) for g in day_games(made)}
    finals = []
    for _ in range(2):
        state, keys = made, list(results)
        rnd.shuffle(keys)
        for key in keys:  # paper results, in any order
            state = apply(state, r.ResultEntered(actor="a", at=T0, game=key, result=results[key]))
        finals.append(group_standings(state, 1))
    # and through the tables: the matches finish in a random order
    state, now = made, T0
    while True:
        records = due(state, {}, now)
        for record in records:
            state = apply(state, record)
        on = [g for g in day_games(state) if g.status == PLAYING]
        if not on:
            break
        game = rnd.choice(on)
        now += timedelta(minutes=1)
        for record in due(state, {game.key: MatchView(True, results[game.key])}, now):
            state = apply(state, record)
    finals.append(group_standings(state, 1))
    assert finals[0] == finals[1] == finals[2]


def _settings(rnd: random.Random) -> Settings:
    tables = rnd.randint(1, 4)
    kind = rnd.choice(["rr", "groups", "ko", "stages"])
    common = {"name": "Day", "discipline": "three-cushion", "table": "large", "points": 10, "innings": None,
              "tables": tables, "withdrawn_games": rnd.choice(["annul", "count"])}
    if kind == "rr":
        return Settings(**common)  # type: ignore[arg-type]
    if kind == "groups":
        return Settings(**common, mode="groups_knockout", groups=2, third_place=rnd.random() < 0.5)  # type: ignore[arg-type]
    if kind == "ko":
        return Settings(**common, mode="knockout", placements=rnd.random() < 0.5)  # type: ignore[arg-type]
    return Settings(**common, mode="stages", stages=(Stage("groups", 2, places=2), Stage("knockout")),  # type: ignore[arg-type]
                    third_place=True)


def _step(state: DayState, rnd: random.Random, now: datetime, log: list[r.Record],
          matches: dict[object, MatchView]) -> DayState:
    """One thing happening on the day, picked at random; refused ones change nothing."""
    games = day_games(state)
    on = [g for g in games if g.status == PLAYING]
    waiting = [g for g in games if g.status == WAITING]
    assert state.settings is not None
    choice = rnd.random()
    record: r.Record | None = None
    if choice < 0.45 and on:
        game = rnd.choice(on)
        matches[game.key] = MatchView(True, _result(rnd, game.key.knockout))
    elif choice < 0.52 and state.entries:
        record = r.Withdrew(actor="a", at=now, player=rnd.choice(state.players()), no_show=rnd.random() < 0.3)
    elif choice < 0.60:
        record = r.Entered(actor="a", at=now, player=100 + len(state.entries), stage=rnd.randint(1, 2)
                           if len(state.stages) > 1 else 1)
    elif choice < 0.68 and on:
        table = rnd.randint(1, state.settings.tables)
        record = r.GameMoved(actor="a", at=now, game=rnd.choice(on).key, table=table)
    elif choice < 0.74 and len(waiting) > 1:
        a, b = rnd.sample(waiting, 2)
        record = r.GamesSwapped(actor="a", at=now, first=a.key, second=b.key)
    elif choice < 0.80 and waiting:
        record = r.GamePostponed(actor="a", at=now, game=rnd.choice(waiting).key)
    elif choice < 0.88 and (waiting or on):
        game = rnd.choice(waiting + on)
        record = r.ResultEntered(actor="a", at=now, game=game.key, result=_result(rnd, game.key.knockout))
    elif choice < 0.92 and waiting:
        record = r.Walkover(actor="a", at=now, game=rnd.choice(waiting).key, winner=rnd.randint(0, 1))
    elif waiting:
        record = r.GameCalled(actor="a", at=now, game=rnd.choice(waiting).key,
                              table=rnd.randint(1, state.settings.tables))
    if record is not None:
        try:
            state = apply(state, record)
            log.append(record)
        except Refused:
            pass
    for made in due(state, {k: v for k, v in matches.items() if k in state.calls}, now):
        state = apply(state, made)
        log.append(made)
    return state


def _no_one_twice(state: DayState) -> None:
    on = [g for g in day_games(state) if g.status == PLAYING]
    tables = [g.table for g in on]
    players = [p for g in on for p in g.players]
    assert len(tables) == len(set(tables)), f"a table plays two games: {on}"
    assert len(players) == len(set(players)), f"a player plays two games: {on}"
    assert state.settings is not None
    assert all(t is not None and 1 <= t <= state.settings.tables for t in tables)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 10), st.randoms(use_true_random=False))
def test_random_days_never_put_a_player_or_a_table_in_two_games_and_replay(n: int,
                                                                           rnd: random.Random) -> None:
    log: list[r.Record] = [r.Created(actor="a", at=T0, settings=_settings(rnd)),
                           *(r.Entered(actor="a", at=T0, player=p) for p in range(1, n + 1))]
    state = replay(log)
    try:
        state = apply(state, r.Started(actor="a", at=T0, seeds=tuple(range(1, n + 1))))
        log.append(r.Started(actor="a", at=T0, seeds=tuple(range(1, n + 1))))
    except Refused:
        return  # a field the mode cannot play (too few for its groups)
    matches: dict[object, MatchView] = {}
    now = T0
    for _ in range(60):
        now += timedelta(minutes=3)
        state = _step(state, rnd, now, log, matches)
        _no_one_twice(state)
    assert replay(log) == state
    assert replay(from_json(to_json(x)) for x in log) == state
