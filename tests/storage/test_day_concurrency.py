"""A tournament's next games are called exactly once however many processes advance it:
several servers (each its own store: its engine, its writer) and several real processes
advance the same tournament at the same moment, on SQLite and on PostgreSQL; each game
gets one match, the log one call, and no match is left over. No lock is taken anywhere:
the log's primary key (tournament, seq) refuses all but the first writer, whose
transaction made the matches."""

from __future__ import annotations

import multiprocessing
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from carom.competition.day import records as r
from carom.storage import SqlStore, open_store, schema
from carom.storage.book import MatchBook
from carom.storage.tournaments import Settings, Tournaments
from tests.storage.day_helpers import on_tables, play

SERVERS = 4


def _started_without_calls(tournaments: Tournaments, players: int, tables: int) -> int:
    tid = tournaments.create(Settings("Race", "three-cushion", "large", 3, None, tables=tables))
    ids = tournaments.add_players(tid, [{"name": f"P{i}"} for i in range(players)])
    start = r.Started(actor="test", at=datetime.now(UTC), seeds=tuple(ids))
    tournaments.days.change(tid, lambda state: lambda connection: [start])  # started, nothing called yet
    return tid


def _counts(store: SqlStore, tid: int) -> tuple[int, int, int]:
    log, m = schema.tournament_log.c, schema.tournament_matches.c
    with store.engine.connect() as connection:
        calls = connection.execute(select(func.count()).where(log.tournament_id == tid, log.kind == "called"))
        linked = connection.execute(select(func.count()).where(m.tournament_id == tid))
        matches = connection.execute(select(func.count()).select_from(schema.matches))
        return int(calls.scalar_one()), int(linked.scalar_one()), int(matches.scalar_one())


def test_servers_advancing_at_once_call_each_game_once(store: SqlStore, database: str,
                                                       tmp_path: Path) -> None:
    others = [open_store(tmp_path / f"s{i}", database) for i in range(SERVERS - 1)]
    try:
        servers = [Tournaments(MatchBook(s)) for s in (store, *others)]
        tid = _started_without_calls(servers[0], players=8, tables=3)
        failed: list[BaseException] = []
        for _round in range(3):
            gate = threading.Barrier(SERVERS)

            def advance(server: Tournaments, gate: threading.Barrier = gate) -> None:
                gate.wait()
                try:
                    server.advance(tid)
                except BaseException as error:  # a thread's failure fails the test
                    failed.append(error)

            threads = [threading.Thread(target=advance, args=(s,)) for s in servers]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert failed == []
            t = servers[0].read(tid, advance=False)
            playing = on_tables(t)
            calls, linked, matches = _counts(store, tid)
            assert len(playing) == 3 and len({g.table_no for g in playing}) == 3
            assert calls == linked == matches == len({g.match_id for g in t.games if g.match_id})
            for game in playing:  # every table's game finishes: the next wave is due
                play(servers[0].book, game.match_id, 3, 1)  # type: ignore[arg-type]
    finally:
        for other in others:
            other.close()


def _advance_in_a_process(database: str, folder: str, tid: int, gate: Any) -> None:
    store = open_store(folder, database)
    try:
        tournaments = Tournaments(MatchBook(store))
        gate.wait()
        tournaments.advance(tid)
    finally:
        store.close()


def test_processes_advancing_at_once_call_each_game_once(store: SqlStore, database: str,
                                                         tmp_path: Path) -> None:
    tournaments = Tournaments(MatchBook(store))
    tid = _started_without_calls(tournaments, players=6, tables=3)
    context = multiprocessing.get_context("spawn")
    gate = context.Barrier(3)
    processes = [context.Process(target=_advance_in_a_process,
                                 args=(database, str(tmp_path / f"p{i}"), tid, gate)) for i in range(3)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
        assert process.exitcode == 0
    t = tournaments.read(tid, advance=False)
    assert len(on_tables(t)) == 3
    assert _counts(store, tid) == (3, 3, 3)
