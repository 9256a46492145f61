"""The tournament as a log: how fast a day's log folds, and what a read and an advance
cost on the storage (docs/tournaments.md, "Speed").

    .venv/bin/python benchmarks/tournament_log.py [--players 64] [--tables 8]

1. The pure rules: a day of ``--players`` players (groups of 8, then a knock-out of 16
   with every place played out) on ``--tables`` tables, every game's match finishing in
   turn (results drawn from a seeded random generator): the records the schedule writes,
   then the whole log folded again from nothing (records/s) and the derivation of one
   state (its games, brackets and order).
2. The storage on SQLite (a fresh data folder): the same day's log stored, then a read of
   the tournament's state from the service's cache of folded states (only newer records
   are fetched) against a cold read (a fresh service folding the whole log), and an
   advance with nothing due (what every read of a tournament costs first).

Figures are medians of repeated timings within one run (the machine's speed drifts).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from carom.competition.day import (
    PLAYING,
    MatchView,
    Result,
    Settings,
    Stage,
    apply,
    day_games,
    derived,
    due,
    finished,
    replay,
)
from carom.competition.day import records as r

T0 = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)


def day(players: int, tables: int) -> list[r.Record]:
    """A whole day's log, played to the end."""
    rnd = random.Random(35)
    settings = Settings("Benchmark day", "three-cushion", "large", 30, None, tables=tables, mode="stages",
                        placements=True, stages=(Stage("groups", players // 8, places=16), Stage("knockout")))
    log: list[r.Record] = [r.Created(actor="bench", at=T0, settings=settings),
                           *(r.Entered(actor="bench", at=T0, player=p) for p in range(1, players + 1)),
                           r.Started(actor="bench", at=T0, seeds=tuple(range(1, players + 1)))]
    state = replay(log)
    now, matches, ids = T0, {}, iter(range(1, 10**6))
    while not finished(state):
        for record in due(state, matches, now):
            if isinstance(record, r.GameCalled):
                record = r.GameCalled(actor=record.actor, at=record.at, game=record.game, table=record.table,
                                      match=next(ids))
            state = apply(state, record)
            log.append(record)
        on = [g for g in day_games(state) if g.status == PLAYING and g.key not in matches]
        if on:
            game = rnd.choice(on)
            a, b = rnd.randint(10, 30), 30
            points = (b, a) if rnd.random() < 0.5 else (a, b)
            matches[game.key] = MatchView(True, Result(points, (20, 20), (6, 6), points.index(30)))
        now += timedelta(minutes=1)
    return log


def timed(work: object, repeat: int) -> float:
    """The median seconds of ``work()``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--tables", type=int, default=8)
    args = parser.parse_args()
    start = time.perf_counter()
    log = day(args.players, args.tables)
    played = time.perf_counter() - start
    state = replay(log)
    games = len(day_games(state))
    fold = timed(lambda: replay(log), 5)
    derive = timed(lambda: derived(replace(state)), 20)  # a new value: derived afresh
    print(f"day: {args.players} players, {args.tables} tables, {games} games, {len(log)} records "
          f"(played through the schedule in {played:.1f} s)")
    print(f"fold the whole log: {fold * 1000:.0f} ms, {len(log) / fold:,.0f} records/s")
    print(f"derive one state (games, brackets, order): {derive * 1000:.2f} ms")

    from carom.storage import open_store
    from carom.storage.book import MatchBook
    from carom.storage.tournaments import Tournaments

    with tempfile.TemporaryDirectory() as folder:
        store = open_store(folder)
        try:
            book = MatchBook(store)
            tournaments = Tournaments(book)
            tid = tournaments.days.create(log[0])  # type: ignore[arg-type]
            stored = [replace(x, match=None) if isinstance(x, r.GameCalled) else x for x in log[1:]]
            tournaments.days.change(tid, lambda state: lambda connection: stored)
            tournaments.days.state(tid)
            cached = timed(lambda: tournaments.days.state(tid), 20)
            cold = timed(lambda: Tournaments(MatchBook(store)).days.state(tid), 5)
            idle = timed(lambda: tournaments.advance(tid), 10)
            print(f"storage (SQLite): state from the cache {cached * 1000:.2f} ms, cold (the whole log "
                  f"folded) {cold * 1000:.0f} ms; an advance with nothing due {idle * 1000:.1f} ms")
        finally:
            store.close()


if __name__ == "__main__":
    main()
