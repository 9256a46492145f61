"""The tournament log in the database, on SQLite and PostgreSQL: the organiser's desk
operations as records with their account, one transaction per request, and the findings
of the attack on the scoreboard (an entry racing the start, numbers out of bounds, no
locks) and the undo after the table moved on (D14)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select

from carom.storage import SqlStore, schema
from carom.storage.book import MatchBook, MovedOn
from carom.storage.tournaments import Settings, TournamentError, TournamentGame, Tournaments
from tests.storage.day_helpers import named, on_tables, play

NAMES = ["Anna", "Boris", "Cyril", "Dana", "Emil"]


@pytest.fixture
def tournaments(store: SqlStore) -> Tournaments:
    return Tournaments(MatchBook(store))


def _count(store: SqlStore, table: object) -> int:
    with store.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(table)).scalar_one())  # type: ignore[arg-type]


def test_an_entry_of_300_players_refused_keeps_none(tournaments: Tournaments, store: SqlStore) -> None:
    tid = tournaments.create(Settings("Big", "three-cushion", "large", 5, None))
    with pytest.raises(TournamentError, match=r"players: at most 256"):
        tournaments.add_players(tid, [{"name": f"Player {i}"} for i in range(300)])
    assert store.players() == []
    # refused on its last entry (a name two players share), after making the others: none kept
    tournaments.add_players(tid, [{"name": "Twin"}])
    with store.engine.begin() as connection:
        connection.execute(schema.players.insert().values(name="Twin", name_key="twin"))
    with pytest.raises(TournamentError, match=r"players\[2\].name: 2 players are called Twin"):
        tournaments.add_players(tid, [{"name": "New one"}, {"name": "Other"}, {"name": "Twin"}])
    assert sorted(p.name for p in store.players()) == ["Twin", "Twin"]


def test_numbers_out_of_bounds_are_refused_with_a_clear_error(tournaments: Tournaments) -> None:
    with pytest.raises(TournamentError, match="knockout_size: expected a whole number from 1 to 100000"):
        tournaments.create(Settings("KO", "three-cushion", "large", 5, None, mode="groups_knockout", groups=2,
                                    knockout_size=2**63))
    with pytest.raises(TournamentError, match="tables: expected 1 to 64"):
        tournaments.create(Settings("T", "three-cushion", "large", 5, None, tables=2**40))
    tid = tournaments.create(Settings("S", "three-cushion", "large", 5, None))
    with pytest.raises(TournamentError, match=r"players\[0\].seed: expected a whole number from 1 to 100000"):
        tournaments.add_players(tid, [{"name": "Anna", "seed": 2**63}])
    with pytest.raises(TournamentError, match=r"game: '1.A.99999999999.0' is not a game's key"):
        tournaments.walkover(tid, "1.A.99999999999.0", 0)


def test_no_lock_is_kept_for_the_tournaments_asked_for(tournaments: Tournaments) -> None:
    from carom.storage.daylog import UnknownTournament
    for tid in range(1000, 1200):
        with pytest.raises(UnknownTournament):
            tournaments.read(tid)
    assert tournaments.days._states == {}  # nothing kept for tournaments that do not exist
    assert not [name for name in vars(tournaments) if "lock" in name]


def test_an_entry_racing_the_start_is_scheduled_or_refused_never_lost(store: SqlStore, database: str,
                                                                        tmp_path: object) -> None:
    from carom.storage import open_store
    other = open_store(tmp_path / "other", database)  # type: ignore[operator]
    try:
        mine, theirs = Tournaments(MatchBook(store)), Tournaments(MatchBook(other))
        tid = mine.create(Settings("Race", "three-cushion", "large", 5, None, tables=1))
        mine.add_players(tid, [{"name": n} for n in NAMES])  # five: a bye place for a late entrant
        outcome: dict[str, object] = {}
        gate = threading.Barrier(2)

        def enter() -> None:
            gate.wait()
            try:
                outcome["entry"] = theirs.add_players(tid, [{"name": "Fero"}])
            except TournamentError as error:
                outcome["entry"] = error

        def start() -> None:
            gate.wait()
            try:
                outcome["start"] = mine.start(tid)
            except BaseException as error:  # a thread's failure fails the test
                outcome["start"] = error

        threads = [threading.Thread(target=enter), threading.Thread(target=start)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not isinstance(outcome["start"], BaseException), outcome["start"]
        t = mine.read(tid)
        fero = [p for p in t.participants if p.name == "Fero"]
        if isinstance(outcome["entry"], TournamentError):
            assert not fero
        else:  # entered before the start, or as a late entry: either way he has his games
            assert len(fero) == 1 and sum(fero[0].player_id in g.players for g in t.games) == 5
    finally:
        other.close()


def _first_game_played(tournaments: Tournaments, players: int) -> tuple[int, TournamentGame]:
    """A round robin of ``players`` on one table, its first game played (3:1)."""
    tid = tournaments.create(Settings("One table", "three-cushion", "large", 3, None, tables=1))
    tournaments.add_players(tid, [{"name": n} for n in NAMES[:players]])
    (first,) = on_tables(tournaments.start(tid))
    play(tournaments.book, first.match_id, 3, 1)  # type: ignore[arg-type]
    return tid, first


def test_an_undo_after_the_table_moved_on_is_refused(tournaments: Tournaments) -> None:
    tid, first = _first_game_played(tournaments, 3)
    book = tournaments.book
    live = book.live(first.match_id)  # type: ignore[arg-type]
    t = tournaments.read(tid)  # the table moves on to the next game
    (second,) = on_tables(t)
    assert second.id != first.id and second.table_no == first.table_no == 1
    with pytest.raises(MovedOn, match=rf"match {first.match_id} is game {first.id} of tournament {tid}, "
                                      rf"finished, and table 1 has moved on to game {second.id}"):
        book.append(first.match_id, live.snapshot.seq, {"type": "undo"}, live.token)  # type: ignore[arg-type]
    assert book.snapshot(first.match_id).state.finished  # type: ignore[arg-type]
    assert len(on_tables(tournaments.read(tid))) == 1  # nobody in two games


def test_an_undo_before_the_table_moved_on_puts_the_game_back_on_its_table(tournaments: Tournaments) -> None:
    tid, game = _first_game_played(tournaments, 2)
    book = tournaments.book
    t = tournaments.read(tid)
    assert t.state == "finished"  # the only game: nothing else takes its table
    live = book.live(game.match_id)  # type: ignore[arg-type]
    book.append(game.match_id, live.snapshot.seq, {"type": "undo"}, live.token)  # type: ignore[arg-type]
    t = tournaments.read(tid)
    assert t.state == "running" and [g.id for g in on_tables(t)] == [game.id]
    kinds = [type(x.record).__name__ for x in tournaments.audit(tid)]
    assert kinds[-2:] == ["GameFinished", "GameResumed"]


def test_the_desk_writes_each_change_with_its_account(tournaments: Tournaments) -> None:
    tid = tournaments.create(Settings("Desk", "three-cushion", "large", 10, None, tables=2), actor="anna")
    ids = tournaments.add_players(tid, [{"name": n} for n in NAMES[:4]], actor="anna")
    tournaments.set_seeding(tid, [(ids[3], 1)], actor="boris")
    t = tournaments.start(tid, actor="anna")
    assert t.seeds()[0] == ids[3]
    first, second = on_tables(t)
    t = tournaments.enter_result(tid, first.id, actor="referee-3", points=[10, 4], innings=[5, 5],
                                 high_run=[4, 2])
    assert next(g for g in t.games if g.id == first.id).status == "done"
    t = tournaments.unlock(tid, first.id, "4 made 6", actor="anna")
    t = tournaments.correct(tid, first.id, "4 made 6, not 4", actor="anna", points=[10, 6], innings=[5, 5],
                            high_run=[4, 3])
    assert next(g for g in t.games if g.id == first.id).outcome.points == (10, 6)  # type: ignore[union-attr]
    (still,) = on_tables(t)  # round 1's other game: the first's players wait for round 2
    assert still.id == second.id
    t = tournaments.move(tid, still.id, first.table_no, actor="anna")  # type: ignore[arg-type]
    assert on_tables(t)[0].table_no == first.table_no
    with pytest.raises(TournamentError, match=r"table: game .* is on table .* already \(D6\)"):
        tournaments.move(tid, still.id, first.table_no, actor="anna")  # type: ignore[arg-type]
    waiting = [g for g in t.games if g.status == "waiting"]
    t = tournaments.postpone(tid, waiting[0].id, actor="anna")
    assert [g.id for g in t.games][-1] == waiting[0].id
    t = tournaments.withdraw(tid, ids[1], actor="anna", reason="his train")
    assert ids[1] in t.withdrawn
    audit = [(x.seq, type(x.record).__name__, x.record.actor) for x in tournaments.audit(tid)]
    assert ("SeedingSet", "boris") in [(k, a) for _, k, a in audit]
    assert ("ResultEntered", "referee-3") in [(k, a) for _, k, a in audit]
    assert [k for _, k, _ in audit if k in ("GameUnlocked", "ResultCorrected", "GameMoved")] == [
        "GameUnlocked", "ResultCorrected", "GameMoved"]
    assert [s for s, _, _ in audit] == list(range(1, len(audit) + 1))
    corrected = next(x.record for x in tournaments.audit(tid) if type(x.record).__name__ == "ResultCorrected")
    assert corrected.reason == "4 made 6, not 4"  # type: ignore[attr-defined]
    assert named(t, next(g for g in t.games if g.id == first.id))  # names shown for the audit's game


def test_a_refused_desk_change_writes_nothing(tournaments: Tournaments, store: SqlStore) -> None:
    tid = tournaments.create(Settings("Desk", "three-cushion", "large", 10, None, tables=1))
    tournaments.add_players(tid, [{"name": n} for n in NAMES[:3]])
    t = tournaments.start(tid)
    before = len(tournaments.audit(tid))
    matches = _count(store, schema.matches)
    with pytest.raises(TournamentError, match=r"points\[0\]: more than the game's limit of 10 \(E1\)"):
        tournaments.enter_result(tid, on_tables(t)[0].id, points=[11, 4], innings=[5, 5], high_run=[4, 2])
    with pytest.raises(TournamentError, match=r"no game 1.A.7.0"):
        tournaments.call(tid, "1.A.7.0", 1)
    assert len(tournaments.audit(tid)) == before and _count(store, schema.matches) == matches


def test_a_ranking_list_seeds_the_entrants_on_it(tournaments: Tournaments, store: SqlStore) -> None:
    from carom.storage.ranking_list import read_ranking
    from carom.storage.register import RegisterError
    tid = tournaments.create(Settings("Seeded", "three-cushion", "large", 10, None, mode="knockout"))
    ids = dict(zip(NAMES[:4], tournaments.add_players(tid, [{"name": n} for n in NAMES[:4]]), strict=True))
    listed = read_ranking(store, "\ufeffrank;name\n2;Cyril\n1;Dana\n3;Zora\n\n4;anna\n")
    assert listed.players == [ids["Dana"], ids["Cyril"], ids["Anna"]] and listed.unknown == [(4, "Zora")]
    t = tournaments.seed_from_ranking(tid, listed.players, actor="boris")
    assert [p.seed for p in t.participants] == [3, None, 2, 1]  # Anna, Boris (not on it), Cyril, Dana
    t = tournaments.start(tid)
    assert t.seeds() == [ids["Dana"], ids["Cyril"], ids["Anna"], ids["Boris"]]
    with pytest.raises(RegisterError, match="line 1: unknown column 'points'"):
        read_ranking(store, "name,points\nAnna,3\n")
    with pytest.raises(RegisterError, match="line 3, rank: expected a whole number"):
        read_ranking(store, "rank,name\n1,Anna\nfirst,Boris\n")
    with pytest.raises(TournamentError, match=r"seeds: the tournament has started: the seeding is fixed"):
        tournaments.seed_from_ranking(tid, listed.players)


def test_a_change_the_database_refuses_is_refused_at_once_not_retried(tournaments: Tournaments) -> None:
    from datetime import UTC, datetime

    from carom.competition.day import GameKey
    from carom.competition.day import records as r
    tid = tournaments.create(Settings("FK", "three-cushion", "large", 3, None))
    tournaments.add_players(tid, [{"name": n} for n in NAMES[:2]])
    before = len(tournaments.audit(tid))
    start = r.Started(actor="test", at=datetime.now(UTC), seeds=tuple(tournaments.days.state(tid).players()))
    call = r.GameCalled(actor="test", at=datetime.now(UTC), game=GameKey.parse("1.A.1.0"), table=1, match=999)
    with pytest.raises(TournamentError, match=r"the change was not stored \(IntegrityError\)"):
        tournaments.days.change(tid, lambda state: lambda connection: [start, call])  # no match 999
    assert len(tournaments.audit(tid)) == before
