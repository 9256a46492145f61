"""Leagues stored on SQLite and PostgreSQL: the hand-worked season made from its three
sheets, line-ups handed in by the captains, every game an ordinary match played on the
match book, reports signed by both captains; the table, promotion and the players'
figures come out as worked out by hand. Every refused request (LG ids) keeps nothing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest
from sqlalchemy import func, select

from carom.league import LeagueError
from carom.storage import SqlStore
from carom.storage.accounts import Accounts
from carom.storage.book import MatchBook
from carom.storage.events import Actor
from carom.storage.leagues import LeagueConflict, Leagues, StoredSeason, UnknownSeason
from carom.storage.leagues import tables as lt
from carom.storage.roles import Role
from tests.league import hand_season as hand
from tests.league.play import records


@pytest.fixture
def leagues(store: SqlStore) -> Leagues:
    return Leagues(MatchBook(store))


def _create(leagues: Leagues) -> int:
    return leagues.create_season(hand.LEAGUE, hand.SEASON, hand.DIVISIONS_CSV, hand.TEAMS_CSV,
                                 hand.FIXTURES_CSV)


def _ids(s: StoredSeason) -> dict[str, int]:
    return {name: pid for pid, name in s.players.items()}


def _lineups(leagues: Leagues, season_id: int, number: int) -> list[int]:
    """Both line-ups of the fixture sheet's ``number``-th meeting, handed in the evening
    before; returns the games' match ids."""
    s = leagues.read(season_id)
    fixture = s.fixtures[number - 1]
    ids = _ids(s)
    when = hand.lineup_time(fixture.start)
    games = hand.MEETINGS[number]
    assert leagues.submit_lineup(fixture.id, fixture.home, [ids[g[0]] for g in games], when) == ()
    return list(leagues.submit_lineup(fixture.id, fixture.away, [ids[g[1]] for g in games], when))


def _play(leagues: Leagues, matches: list[int], number: int) -> None:
    for match_id, game in zip(matches, hand.MEETINGS[number], strict=True):
        leagues.book.append_many(match_id, 0, list(records(game)), leagues.book.live(match_id).token)


def _counts(store: SqlStore) -> dict[str, int]:
    with store.engine.connect() as connection:
        return {t.name: connection.execute(select(func.count()).select_from(t)).scalar_one()
                for t in (*lt.leagues.metadata.sorted_tables,)}


@pytest.fixture
def played(leagues: Leagues) -> Iterator[int]:
    season_id = _create(leagues)
    for number in hand.MEETINGS:
        _play(leagues, _lineups(leagues, season_id, number), number)
        fixture = leagues.read(season_id).fixtures[number - 1]
        leagues.sign_report(fixture.id, fixture.home)
        assert leagues.sign_report(fixture.id, fixture.away) == {fixture.home, fixture.away}
    yield season_id


def test_the_hand_season_stored_and_played_gives_the_hand_worked_table(leagues: Leagues, played: int) -> None:
    s = leagues.read(played)
    names = {t.id: t.name for t in s.season.teams}
    table = s.table(hand.DIVISION)
    assert [(x.rank, names[x.team], x.played, x.won, x.drawn, x.lost, x.meeting_points,
             x.meeting_points_against, x.game_points, x.game_points_against)
            for x in table] == list(hand.TABLE)
    assert {names[x.team]: x.team_average for x in table} == hand.TEAM_AVERAGES
    assert [(names[m.team], m.source, m.target, m.promoted) for m in s.moves()] == list(hand.MOVES)
    assert len(s.reports().meetings) == 12
    lines = {s.players[x.player]: x for x in s.player_lines()}
    for name, (games, won, drawn, lost, points, innings, best, high) in hand.PLAYERS.items():
        x = lines[name]
        assert (x.games, x.won, x.drawn, x.lost, x.points, x.innings, x.best_average, x.high_run) == (
            games, won, drawn, lost, points, innings, best, high), name
    assert lines["Adam Kováč"].general_average == Fraction(56, 85)
    assert len(leagues.league_matches()) == 24


def test_every_game_is_an_ordinary_match_with_the_formats_header(leagues: Leagues) -> None:
    season_id = _create(leagues)
    matches = _lineups(leagues, season_id, 1)
    snap = leagues.book.snapshot(matches[0])
    h = snap.header
    assert (h.discipline, h.table, h.points, h.innings, h.players) == (
        "three-cushion", "small", 10, 20, ("Adam Kováč", "Róbert Novák"))
    s = leagues.read(season_id)
    assert snap.players == (_ids(s)["Adam Kováč"], _ids(s)["Róbert Novák"])


def _refused(store: SqlStore, error: type[Exception], match: str, call: object, *args: object) -> None:
    before = _counts(store)
    with pytest.raises(error, match=match):
        call(*args)  # type: ignore[operator]
    assert _counts(store) == before


def test_refusals_name_their_rule_and_keep_nothing(leagues: Leagues, store: SqlStore) -> None:
    season_id = _create(leagues)
    s = leagues.read(season_id)
    ids = _ids(s)
    first = s.fixtures[0]  # Trenčín A – Nitra
    when = hand.lineup_time(first.start)
    late = first.start + timedelta(minutes=1)
    kovac, horvath, novak, cierny = (ids[n] for n in ("Adam Kováč", "Peter Horváth", "Róbert Novák",
                                                      "Marek Čierny"))
    submit = leagues.submit_lineup
    _refused(store, LeagueError, r"deadline.*\(LG5\)", submit, first.id, first.home, [kovac, horvath], late)
    _refused(store, LeagueError, r"Trenčín A.*player .* roster of 'Nitra'.*\(LG3\)", submit, first.id,
             first.home, [kovac, novak], when)
    _refused(store, LeagueError, r"would play 2 games.*\(LG7\)", submit, first.id, first.home, [kovac, kovac],
             when)
    _refused(store, LeagueError, r"\(LG6\)", submit, first.id, s.fixtures[1].home, [kovac, horvath], when)
    submit(first.id, first.home, [kovac, horvath], when)
    _refused(store, LeagueConflict, "in already", submit, first.id, first.home, [horvath, kovac], when)
    _refused(store, LeagueError, r"before both line-ups are in \(LG10\)", leagues.sign_report, first.id,
             first.home)
    matches = submit(first.id, first.away, [novak, cierny], when)
    _refused(store, LeagueError, r"game 1 has 0 results.*\(LG10\)", leagues.sign_report, first.id, first.home)
    _play(leagues, list(matches), 1)
    leagues.sign_report(first.id, first.home)
    _refused(store, LeagueError, r"signed its report already \(LG9\)", leagues.sign_report, first.id,
             first.home)
    leagues.sign_report(first.id, first.away)
    _refused(store, LeagueError, r"reported already \(LG9\)", leagues.sign_report, first.id, first.away)


def test_a_substitute_stands_in_twice_a_half_and_no_more(leagues: Leagues, store: SqlStore) -> None:
    season_id = _create(leagues)
    s = leagues.read(season_id)
    ids = _ids(s)
    trencin = [f for f in s.fixtures if "Trenčín A" in (s.team_name(f.home), s.team_name(f.away))]
    first_half = [f for f in trencin if f.round <= 3]
    stefanik, kovac = ids["Igor Štefánik"], ids["Adam Kováč"]
    for f in first_half[:2]:
        leagues.submit_lineup(f.id, s.season.teams_in(hand.DIVISION)[0], [kovac, stefanik],
                              hand.lineup_time(f.start))
    third = first_half[2]
    _refused(store, LeagueError, r"stood in 2 times.*\(LG4\)", leagues.submit_lineup, third.id,
             s.season.teams_in(hand.DIVISION)[0], [kovac, stefanik], hand.lineup_time(third.start))


@pytest.mark.parametrize(("sheet", "match"), [
    ("teams", r"line 5: player: 'Adam Kováč' is on the roster of 'Trenčín A' already \(line 2\) \(LG1\)"),
    ("roster", r"line 2: team 'Trenčín A': 5 players on the roster.*\(LG2\)"),
    ("fixtures", r"line 3: 'Trenčín A' receives 'Nitra' 2 times \(LG11\)"),
])
def test_a_season_breaking_eligibility_is_refused_whole(leagues: Leagues, store: SqlStore, sheet: str,
                                                          match: str) -> None:
    teams, fixtures = hand.TEAMS_CSV, hand.FIXTURES_CSV
    if sheet == "teams":
        teams = teams.replace("Žilina;1;Martin Šimko", "Žilina;1;Adam Kováč")
    if sheet == "roster":
        extra = "1-liga;BK Trenčín;Trenčín A;1;X1\n1-liga;BK Trenčín;Trenčín A;1;X2\n"
        teams = teams.replace("Trenčín A;1;Ján Baláž\n", "Trenčín A;1;Ján Baláž\n" + extra)
    if sheet == "fixtures":
        fixtures = fixtures.replace("Žilina;Görlitz\n", "Trenčín A;Nitra\n", 1)
    _refused(store, LeagueError, match, leagues.create_season, hand.LEAGUE, hand.SEASON, hand.DIVISIONS_CSV,
             teams, fixtures)


def test_a_season_is_made_once(leagues: Leagues, store: SqlStore) -> None:
    _create(leagues)
    _refused(store, LeagueConflict, "has a season '2025/26' already", _create, leagues)


def test_a_new_captain_link_replaces_the_old(leagues: Leagues) -> None:
    season_id = _create(leagues)
    team = leagues.read(season_id).season.teams[0].id
    old = leagues.issue_captain_link(season_id, team)
    assert leagues.captain(season_id, old) == team
    new = leagues.issue_captain_link(season_id, team)
    assert (leagues.captain(season_id, old), leagues.captain(season_id, new)) == (None, team)
    assert leagues.captain(season_id, "") is None and leagues.captain(season_id + 1, new) is None


def test_a_signature_holds_only_for_the_games_as_they_stood(leagues: Leagues) -> None:
    season_id = _create(leagues)
    matches = _lineups(leagues, season_id, 1)
    _play(leagues, matches, 1)
    fixture = leagues.read(season_id).fixtures[0]
    leagues.sign_report(fixture.id, fixture.home)
    book = leagues.book
    director = Accounts(book.store).create("director", Role.DIRECTOR, "not-a-hash", by=None)
    book.confirm(matches[0], Actor.ACCOUNT, director)
    assert leagues.read(season_id).signed_by(fixture) == {fixture.home}  # a confirmation changes no result
    book.reopen(matches[0], director)
    book.append(matches[0], book.snapshot(matches[0]).seq, {"type": "undo"}, book.live(matches[0]).token)
    assert leagues.read(season_id).signed_by(fixture) == frozenset()
    assert leagues.read(season_id).result(fixture) is None  # the game goes on again


def test_an_unknown_season_or_meeting_is_named(leagues: Leagues) -> None:
    with pytest.raises(UnknownSeason, match="there is no season 7"):
        leagues.read(7)
    with pytest.raises(UnknownSeason, match="there is no meeting 9"):
        leagues.submit_lineup(9, 1, [1, 2], datetime(2030, 1, 1))


def test_revision_0007_adds_the_league_tables_and_goes_back(database: str, tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import inspect, text

    from carom.storage import open_store
    from carom.storage.engine import make_engine
    from carom.storage.migrate import alembic_config

    engine = make_engine(database)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
        connection.execute(text("INSERT INTO matches (header, referee_token) VALUES ('{}', 't')"))
    store = open_store(tmp_path, database)  # migrates to the head
    store.close()
    tables = set(inspect(engine).get_table_names())
    assert {t.name for t in lt.leagues.metadata.sorted_tables if t.name.startswith("league_")} <= tables
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0006")  # the revision before
        assert connection.execute(text("SELECT count(*) FROM matches")).scalar_one() == 1
    assert not {t for t in inspect(engine).get_table_names() if t.startswith("league_")}
    engine.dispose()


MIXED_DIVISIONS = "division;format\nclub;club-handicap-mixed\n"
MIXED_TEAMS = "division;club;team;player\n" + "".join(
    f"club;Club {c};Team {c};Player {c}{n}\n" for c in "AB" for n in range(1, 4))
MIXED_FIXTURES = "division;round;date;time;home;away\nclub;1;01.09.2040;19:00;Team A;Team B\n" \
                 "club;2;08.09.2040;19:00;Team B;Team A\n"


def _alternate(home: list[int], away: list[int]) -> list[dict[str, object]]:
    """An opener, then the two players' innings in turn."""
    records: list[dict[str, object]] = [{"type": "opener", "player": 0}]
    for a, b in zip(home, away, strict=True):
        records += [{"type": "inning", "points": a}, {"type": "inning", "points": b}]
    return records


def test_a_handicap_meeting_of_three_disciplines_gives_each_player_their_distance(leagues: Leagues) -> None:
    """``club-handicap-mixed``: straight rail, balkline 52/2 and three-cushion on the small
    table; in the first meeting nobody has an average (the full distances), in the second
    each player plays the distance in proportion to their league average in the game's
    discipline, the better of the two the full one."""
    season_id = leagues.create_season("Club league", "2040/41", MIXED_DIVISIONS, MIXED_TEAMS, MIXED_FIXTURES)
    s = leagues.read(season_id)
    first, second = s.fixtures
    with pytest.raises(LeagueError, match=r"\(LG5\)"):  # the format's deadline is an hour before the start
        leagues.submit_lineup(first.id, first.home, list(s.season.roster(first.home)),
                              first.start - timedelta(minutes=30))
    for fixture in (first, second):
        when = fixture.start - timedelta(hours=2)
        leagues.submit_lineup(fixture.id, fixture.home, list(s.season.roster(fixture.home)), when)
        matches = leagues.submit_lineup(fixture.id, fixture.away, list(s.season.roster(fixture.away)), when)
        headers = [leagues.book.snapshot(m).header for m in matches]
        if fixture is first:
            assert [(h.discipline, h.table, h.points, h.innings) for h in headers] == [
                ("straight-rail", "small", 120, 25), ("balkline-52/2", "small", 80, 25),
                ("three-cushion", "small", 20, 50)]
            games = (_alternate([12] * 10, [6] * 10), _alternate([2] * 20, [4] * 20),
                     _alternate([1] * 20, [1, 0] * 10))  # averages 12 : 6, 2 : 4, 1 : 0.5
            for match_id, records in zip(matches, games, strict=True):
                leagues.book.append_many(match_id, 0, list(records), leagues.book.live(match_id).token)
    assert [h.points for h in headers] == [(60, 120), (80, 40), (10, 20)]  # Team B at home now
