"""Tournaments stored on SQLite and PostgreSQL: every game an ordinary match, standings
from the matches, the schedule over the tables, revision 0003 on a database full of matches."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from carom.storage import SqlStore, open_store
from carom.storage.book import MatchBook
from carom.storage.tournaments import Settings, TournamentError, Tournaments, UnknownTournament
from tests.storage.day_helpers import play
from tests.storage.revisions import at_revision

NAMES = ["Anna", "Boris", "Cyril", "Dana", "Emil"]

# who wins each game (None: a draw) and what each loser scores, by name (a game is to 5 points:
# the winner makes 5 in one inning, the loser his points in one inning, a draw 5 to 5)
WINNER = {frozenset(("Anna", x)): "Anna" for x in NAMES[1:]} | {
    frozenset(("Boris", "Cyril")): "Boris", frozenset(("Boris", "Dana")): "Boris",
    frozenset(("Boris", "Emil")): None, frozenset(("Cyril", "Dana")): "Cyril",
    frozenset(("Cyril", "Emil")): "Emil", frozenset(("Dana", "Emil")): "Emil"}
LOSER_POINTS = {"Anna": 2, "Boris": 2, "Cyril": 2, "Dana": 4, "Emil": 2}


def score(book: MatchBook, match_id: int, names: dict[int, str], players: tuple[int, int]) -> None:
    a, b = (names[p] for p in players)
    winner = WINNER[frozenset((a, b))]
    if winner is None:
        play(book, match_id, 5, 5)
    elif winner == a:
        play(book, match_id, 5, LOSER_POINTS[b])
    else:
        play(book, match_id, LOSER_POINTS[a], 5)


@pytest.fixture
def book(store: SqlStore) -> MatchBook:
    return MatchBook(store)


def test_a_round_robin_of_five_on_two_tables(book: MatchBook) -> None:
    tournaments = Tournaments(book)
    tid = tournaments.create(Settings("Club cup", "three-cushion", "large", 5, None, tables=2))
    ids = tournaments.add_players(tid, [{"name": n, "club": "BC Nitra"} for n in NAMES])
    names = dict(zip(ids, NAMES, strict=True))
    t = tournaments.start(tid)
    assert len(t.games) == 10 and t.state == "running"
    seen_matches = set()
    while t.state == "running":
        playing = [g for g in t.games if g.status == "playing"]
        assert 1 <= len(playing) <= 2
        assert len({g.table_no for g in playing}) == len(playing)
        busy = [p for g in playing for p in g.players]
        assert len(busy) == len(set(busy))  # nobody in two games at once
        game = playing[0]
        assert game.snapshot is not None and game.snapshot.header.players == tuple(
            names[p] for p in game.players if p is not None)  # an ordinary match of the two players
        assert book.store.read(game.match_id).players == game.players  # type: ignore[arg-type]
        seen_matches.add(game.match_id)
        score(book, game.match_id, names, game.players)  # type: ignore[arg-type]
        t = tournaments.read(tid)
    assert t.state == "finished" and len(seen_matches) == 10
    lines = t.group_standings()[0][1]
    table = [(x.rank, names[x.player], x.match_points, x.points, x.innings, x.general_average, x.high_run)
             for x in lines]
    # by hand: Anna wins all; Boris and Emil 2 wins and the draw between them (17 points in
    # 4 innings each, same BED and HS, the direct game drawn: they share 2nd); Cyril one win;
    # Dana none (4 points a game)
    assert table == [(1, "Anna", 8, 20, 4, 5, 5), (2, "Boris", 5, 17, 4, Fraction(17, 4), 5),
                     (2, "Emil", 5, 17, 4, Fraction(17, 4), 5), (4, "Cyril", 2, 11, 4, Fraction(11, 4), 5),
                     (5, "Dana", 0, 16, 4, 4, 4)]
    assert t.champion() == ids[0]


def test_entries_and_settings_are_checked(book: MatchBook) -> None:
    tournaments = Tournaments(book)
    with pytest.raises(TournamentError, match="discipline"):
        tournaments.create(Settings("X", "snooker", "large", 5, None))
    with pytest.raises(TournamentError, match="mode"):
        tournaments.create(Settings("X", "three-cushion", "large", 5, None, mode="swiss"))
    tid = tournaments.create(Settings("X", "three-cushion", "large", 5, None, groups=2,
                                      mode="groups_knockout"))
    with pytest.raises(TournamentError, match=r"players\[1\]\.name"):
        tournaments.add_players(tid, [{"name": "Anna"}, {"name": ""}])
    assert tournaments.read(tid).participants == ()  # nothing entered
    tournaments.add_players(tid, [{"name": n} for n in NAMES[:3]])
    with pytest.raises(TournamentError, match="twice"):
        tournaments.add_players(tid, [{"name": "anna"}])
    with pytest.raises(TournamentError, match="2 groups need at least 4"):
        tournaments.start(tid)
    with pytest.raises(UnknownTournament):
        tournaments.read(999)


def test_a_drawn_knockout_game_waits_for_its_winner(book: MatchBook) -> None:
    tournaments = Tournaments(book)
    tid = tournaments.create(Settings("KO", "three-cushion", "large", 5, None, mode="knockout", tables=1))
    tournaments.add_players(tid, [{"name": n} for n in NAMES[:3]])  # 3 players: seed 1 has a bye
    t = tournaments.start(tid)
    assert [(g.round, g.status) for g in t.games] == [(1, "playing")]
    play(book, t.games[0].match_id, 5, 5)  # type: ignore[arg-type]
    t = tournaments.read(tid)
    assert [g.status for g in t.games] == ["tie-break"]  # keeps its table, no final yet
    assert t.state == "running" and t.champion() is None


def test_revision_0003_keeps_existing_matches(database: str, tmp_path: Path) -> None:
    from sqlalchemy import text

    engine = at_revision(database, "0002")
    header = json.dumps({"format": "carom/1", "discipline": "three-cushion", "table": "large",
                         "players": ["Anna", "Boris"], "points": 2, "innings": None, "sets": None,
                         "equalizing_inning": True})
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO players (name, name_key) "
                                "VALUES ('Anna', 'anna'), ('Boris', 'boris')"))
        connection.execute(text("INSERT INTO matches (header, referee_token, player0_id, player1_id) "
                                "VALUES (:h, 't', 1, 2)"), {"h": header})
        connection.execute(text("INSERT INTO records (match_id, seq, line) VALUES (1, 1, :l)"),
                           {"l": '{"type": "opener", "player": 0}'})
    engine.dispose()
    store = open_store(tmp_path, database)
    try:
        book = MatchBook(store)
        assert book.snapshot(1).seq == 1 and book.snapshot(1).players == (1, 2)
        tournaments = Tournaments(book)
        tid = tournaments.create(Settings("After", "three-cushion", "large", 5, None))
        assert tournaments.add_players(tid, [{"player": 1}, {"name": "Boris"}]) == [1, 2]
    finally:
        store.close()


def test_players_are_seeded_by_their_average(book: MatchBook) -> None:
    # Dana has the best average in three-cushion, Cyril the next: they are seeds 1 and 2
    first = book.create(json.dumps({"format": "carom/1", "discipline": "three-cushion", "table": "large",
                                    "players": ["Dana", "Cyril"], "points": 5, "innings": None}), "tok")
    play(book, first, 5, 3)
    tournaments = Tournaments(book)
    tid = tournaments.create(Settings("Seeded", "three-cushion", "large", 5, None, mode="knockout"))
    tournaments.add_players(tid, [{"name": n} for n in NAMES[:4]])
    t = tournaments.start(tid)
    names = t.names()
    assert [names[p] for p in t.seeds()] == ["Dana", "Cyril", "Anna", "Boris"]
    # seeds 1-4 and 2-3 in the semi-finals
    assert sorted(tuple(names[p] for p in g.players if p) for g in t.games) == [
        ("Cyril", "Anna"), ("Dana", "Boris")]


def test_a_knockout_of_five_with_byes(book: MatchBook) -> None:
    tournaments = Tournaments(book)
    tid = tournaments.create(Settings("KO", "three-cushion", "large", 5, None, mode="knockout", tables=2,
                                      seeding="hand"))
    ids = tournaments.add_players(tid, [{"name": n, "seed": s} for n, s in zip(NAMES, (5, 4, 3, 2, 1),
                                                                              strict=True)])
    names = dict(zip(ids, NAMES, strict=True))
    t = tournaments.start(tid)
    assert [names[p] for p in t.seeds()] == ["Emil", "Dana", "Cyril", "Boris", "Anna"]
    # a bracket of 8: seeds 1, 2, 3 have byes, so 4-5 plays in the first round, and 2-3 of
    # the semi-finals is known at once: both start on the two tables
    assert [tuple(names[p] for p in g.players if p) for g in t.games] == [("Boris", "Anna"),
                                                                          ("Dana", "Cyril")]
    assert [g.status for g in t.games] == ["playing", "playing"]
    while t.state == "running":
        game = next(g for g in t.games if g.status == "playing")
        play(book, game.match_id, 5, 1)  # type: ignore[arg-type]  # player 0, the better seed, wins
        t = tournaments.read(tid)
    assert names[t.champion()] == "Emil"  # type: ignore[index]
    assert [(rank, names[p]) for rank, p in t.ranking()] == [
        (1, "Emil"), (2, "Dana"), (3, "Cyril"), (3, "Boris"), (5, "Anna")]
    assert len(t.games) == 4  # one game per player knocked out
