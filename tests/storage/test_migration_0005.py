"""Revision 0005 on a database the tournament code of revision 0004 made (its rows in
``data/tournaments_0004.json``, written by that code with what it showed): every
tournament becomes its log, and shows the same standings, ranking, champion and games.
On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from carom.storage import open_store
from carom.storage.book import MatchBook
from carom.storage.tournaments import Tournaments
from tests.storage.revisions import at_revision

OLD = json.loads((Path(__file__).with_name("data") / "tournaments_0004.json").read_text(encoding="utf-8"))
TABLES = ("players", "matches", "records", "match_events", "tournaments", "participants", "tournament_groups",
          "games")


def _revision_0004(database: str) -> None:
    engine = at_revision(database, "0004")
    tables = sa.MetaData()
    tables.reflect(engine)
    with engine.begin() as connection:
        for name in TABLES:
            rows = [{k: datetime.fromisoformat(v) if k == "created_at" else v for k, v in row.items()}
                    for row in OLD["rows"][name]]
            if rows:
                connection.execute(tables.tables[name].insert(), rows)
        if engine.dialect.name == "postgresql":  # the ids were given: move the sequences past them
            for name in ("players", "matches", "match_events", "tournaments", "participants", "games"):
                connection.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                           f"(SELECT max(id) FROM {name}))"))
    engine.dispose()


def _lines(t: Any) -> list[Any]:
    return [[n, [[x.rank, x.player, x.played, x.won, x.drawn, x.lost, x.match_points, x.points, x.innings,
                  f"{x.general_average.numerator}/{x.general_average.denominator}",
                  f"{x.best_average.numerator}/{x.best_average.denominator}", x.high_run] for x in lines]]
            for n, lines in t.group_standings()]


def test_every_old_tournament_shows_the_same_after_revision_0005(database: str, tmp_path: Path) -> None:
    _revision_0004(database)
    store = open_store(tmp_path, database)  # migrates to the head
    try:
        tournaments = Tournaments(MatchBook(store))
        assert [i for i, *_ in tournaments.list()] == [6, 5, 4, 3, 2, 1]
        for tid, old in OLD["expected"].items():
            t = tournaments.read(int(tid), advance=False)
            assert (t.settings.name, t.state) == (old["name"], old["state"])
            assert _lines(t) == old["standings"]
            assert t.champion() == old["champion"]
            assert sorted([p.player_id, p.seed, p.target, p.group_no] for p in t.participants) == \
                sorted(old["participants"])
            assert sorted((g.stage, list(g.players), g.table_no, g.match_id, g.status) for g in t.games) == \
                sorted((g[0], g[4], g[5], g[6], g[7]) for g in old["games"])
            ranking = [list(x) for x in t.ranking()]
            if tid == "2":  # the old code ranked a lost semi-final 1st while the final was unknown
                assert old["ranking"][0] == [1, 3] and ranking[0] == [3, 3]
                assert ranking[1:] == old["ranking"][1:]
            else:
                assert ranking == old["ranking"]
        # the migrated tournaments go on: the running semi-final finishes, the final is called
        book = tournaments.book
        t = tournaments.read(2, advance=False)
        semi = next(g for g in t.games if g.status == "playing")
        for points in (1, 1, 0):  # 2:1, then 3:1 and the equalizing inning
            live = book.live(semi.match_id)  # type: ignore[arg-type]
            book.append(semi.match_id, live.snapshot.seq, {"type": "inning", "points": points},  # type: ignore[arg-type]
                        live.token)
        t = tournaments.read(2)
        assert [g.id for g in t.games if g.status == "playing"] == ["2.K1.2.0"]
        # the log says who made the old tournament's records: the migration
        assert {x.record.actor for x in tournaments.audit(1)} == {"migration"}
    finally:
        store.close()
