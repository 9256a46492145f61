"""The league office on the match book: what the organiser and the captains do, each
request one transaction that a refusal leaves without a trace.

- The organiser makes a season from three sheets (divisions, teams, fixtures: part 1's
  readers check them, LG1-LG2, LG11-LG13) and issues each team's captain link.
- A captain hands in the team's line-up (LG3-LG8 against the server's clock); with the
  second line-up the meeting's games are made, each an ordinary ``carom/1`` match
  (:meth:`MatchBook.create` in the same transaction) to be played on a table of the
  home club.
- Both captains sign the meeting report once every game is finished (LG9, LG10).

Every row written is a record with its actor; nothing is updated or deleted.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TypeVar

from sqlalchemy import Connection, insert, select

from carom.core.errors import InputError
from carom.league import (
    Fixture,
    LeagueError,
    LineUp,
    PlannedGame,
    TeamSheet,
    check_lineup,
    read_divisions,
    read_fixtures,
    read_teams,
    report,
)
from carom.storage import schema
from carom.storage.book import MatchBook
from carom.storage.errors import StorageError
from carom.storage.leagues import tables as lt
from carom.storage.leagues.season import StoredSeason, UnknownSeason, load, season_of_fixture
from carom.storage.players import name_key
from carom.storage.store import SqlStore

T = TypeVar("T")
ORGANISER = "organiser"
NAME_LENGTH = 200


class LeagueConflict(StorageError):
    """A request the league's state does not allow (no league rule: the message says why)."""


def captain_actor(team: int) -> str:
    return f"captain:{team}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Leagues:
    """The leagues of a store, their games played on its match book."""

    def __init__(self, book: MatchBook,
                 new_token: Callable[[], str] = lambda: secrets.token_urlsafe(16)) -> None:
        if not isinstance(book.store, SqlStore):
            raise TypeError("leagues need a SqlStore")
        self.book = book
        self.store = book.store
        self._new_token = new_token

    # --- reads ------------------------------------------------------------------------

    def read(self, season_id: int) -> StoredSeason:
        with self.store.engine.connect() as connection:
            return load(connection, self.book, season_id)

    def season_of(self, fixture_id: int) -> int:
        with self.store.engine.connect() as connection:
            return season_of_fixture(connection, fixture_id)

    def seasons(self) -> list[tuple[int, str, str]]:
        """Every season, newest first: (id, league, season)."""
        s, league = lt.seasons.c, lt.leagues.c
        with self.store.engine.connect() as connection:
            return [(r.id, r.league, r.name) for r in connection.execute(
                select(s.id, s.name, league.name.label("league")).join(lt.leagues, league.id == s.league_id)
                .order_by(s.id.desc()))]

    def league_matches(self) -> dict[int, str]:
        """Every league game's match id → its season's name (for the players' statistics)."""
        g, f, s = lt.games.c, lt.fixtures.c, lt.seasons.c
        with self.store.engine.connect() as connection:
            return {r.match_id: r.name for r in connection.execute(
                select(g.match_id, s.name).join(lt.fixtures, f.id == g.fixture_id)
                .join(lt.seasons, s.id == f.season_id))}

    def captain(self, season_id: int, token: str | None) -> int | None:
        """The team whose newest captain link carries ``token``, if any."""
        if not token:
            return None
        c = lt.captains.c
        with self.store.engine.connect() as connection:
            rows = connection.execute(select(c.team_id, c.token_hash).where(c.season_id == season_id)
                                      .order_by(c.id)).all()
        newest = {r.team_id: r.token_hash for r in rows}
        given = token_hash(token)
        return next((team for team, h in newest.items() if hmac.compare_digest(h, given)), None)

    # --- the organiser ----------------------------------------------------------------

    def create_season(self, league: str, season: str, divisions: str, teams: str, fixtures: str,
                      actor: str = ORGANISER) -> int:
        """A season from its three sheets (checked whole before anything is written)."""
        league, season = " ".join(league.split()), " ".join(season.split())
        for what, value, limit in (("league", league, NAME_LENGTH), ("season", season, 64)):
            if not value or len(value) > limit:
                raise InputError(f"{what}: expected 1 to {limit} characters")
        sheet = read_teams(teams, league, season, read_divisions(divisions))
        planned = read_fixtures(fixtures, sheet.season)
        return self._run(lambda c: _insert_season(c, sheet, planned, actor))

    def issue_captain_link(self, season_id: int, team_id: int, actor: str = ORGANISER) -> str:
        """A new captain link's token for the team; the team's earlier link stops working."""
        token = self._new_token()

        def job(connection: Connection) -> None:
            season = load(connection, self.book, season_id)
            if team_id not in {t.id for t in season.season.teams}:
                raise UnknownSeason("team", team_id)
            connection.execute(insert(lt.captains).values(season_id=season_id, team_id=team_id,
                                                          token_hash=token_hash(token), actor=actor))

        self._run(job)
        return token

    # --- the captains -------------------------------------------------------------------

    def submit_lineup(self, fixture_id: int, team_id: int, players: Sequence[int], now: datetime,
                      actor: str | None = None) -> tuple[int, ...]:
        """The team's line-up for the meeting, handed in at ``now`` (the server's clock).
        With the second line-up the games' matches are made: their ids are returned."""

        def job(connection: Connection) -> tuple[int, ...]:
            s = load(connection, self.book, season_of_fixture(connection, fixture_id))
            fixture = s.fixture(fixture_id)
            if s.lineup(fixture, team_id) is not None:
                raise LeagueConflict(f"meeting {fixture_id}: the line-up of {s.team_name(team_id)!r} is in "
                                     "already; it cannot be changed")
            lineup = LineUp(fixture_id, team_id, tuple(players), now)
            earlier = [(s.fixture(x.fixture), x) for x in s.lineups]
            check_lineup(s.season, fixture, lineup, earlier, s.averages(before=fixture))
            planned = replace(s, lineups=(*s.lineups, lineup)).planned(fixture)
            names = self._names(connection, players) | dict(s.players)
            lu = connection.execute(insert(lt.lineups).values(
                fixture_id=fixture_id, team_id=team_id, submitted=now, actor=actor or captain_actor(team_id))
                .returning(lt.lineups.c.id)).scalar_one()
            connection.execute(insert(lt.lineup_players), [
                {"lineup_id": lu, "position": n, "player_id": p} for n, p in enumerate(players, 1)])
            return () if planned is None else tuple(self._make_game(connection, fixture_id, g, names)
                                                    for g in planned)

        return self._run(job)

    def _make_game(self, connection: Connection, fixture_id: int, game: PlannedGame,
                   names: dict[int, str]) -> int:
        """A game of the meeting as an ordinary match, to be played on a table of the home
        club (the table devices' schedule picks its table by its match id)."""
        first, second = game.targets
        header = {"format": "carom/1", "discipline": game.discipline, "table": game.table,
                  "players": [names[p] for p in game.players],
                  "points": first if first == second else [first, second], "innings": game.innings,
                  "sets": None, "equalizing_inning": True}
        match_id = self.book.create(json.dumps(header, ensure_ascii=False), self._new_token(),
                                    player_ids=game.players, within=connection)
        connection.execute(insert(lt.games).values(fixture_id=fixture_id, number=game.number,
                                                   round=game.round, match_id=match_id))
        return match_id

    def sign_report(self, fixture_id: int, team_id: int, actor: str | None = None) -> frozenset[int]:
        """The team's captain signs the meeting report; returns the teams whose signatures
        hold. Refused while a game goes on (LG10) and once signed (LG9)."""

        def job(connection: Connection) -> frozenset[int]:
            s = load(connection, self.book, season_of_fixture(connection, fixture_id))
            fixture = s.fixture(fixture_id)
            if team_id not in (fixture.home, fixture.away):
                raise LeagueConflict(f"meeting {fixture_id}: {s.team_name(team_id)!r} does not play it")
            result = s.score(fixture)
            signed = s.signed_by(fixture)
            if signed >= {fixture.home, fixture.away}:
                report(s.reports(), s.fixtures, result)  # refuses: the meeting is reported (LG9)
            if team_id in signed:
                raise LeagueError("LG9", f"meeting {fixture_id}: the captain of {s.team_name(team_id)!r} has "
                                         "signed its report already")
            versions = {g.match_id: g.snapshot.seq for g in s.games.get(fixture_id, ())}
            connection.execute(insert(lt.signoffs).values(fixture_id=fixture_id, team_id=team_id,
                                                          versions=json.dumps(versions),
                                                          actor=actor or captain_actor(team_id)))
            return signed | {team_id}

        return self._run(job)

    # --- helpers --------------------------------------------------------------------------

    @staticmethod
    def _names(connection: Connection, players: Sequence[int]) -> dict[int, str]:
        p = schema.players.c
        return {r.id: r.name for r in connection.execute(select(p.id, p.name).where(p.id.in_(list(players))))}

    def _run(self, job: Callable[[Connection], T]) -> T:
        """``job`` in the single writer's transaction, inside a savepoint of its own: a
        refusal raised after a write takes back what the job wrote, and only that."""
        def atomic(connection: Connection) -> T:
            with connection.begin_nested():
                return job(connection)

        return self.store.run(atomic)


def _insert_season(connection: Connection, sheet: TeamSheet, planned: Sequence[Fixture], actor: str) -> int:
    season = sheet.season
    league = connection.execute(select(lt.leagues.c.id).where(lt.leagues.c.name == season.league)).scalar()
    if league is None:
        league = connection.execute(insert(lt.leagues).values(name=season.league, actor=actor)
                                    .returning(lt.leagues.c.id)).scalar_one()
    s = lt.seasons.c
    if connection.execute(select(s.id).where(s.league_id == league, s.name == season.name)).first():
        raise LeagueConflict(f"season: {season.league!r} has a season {season.name!r} already")
    players = _register_players(connection, sheet)
    season_id = connection.execute(insert(lt.seasons).values(league_id=league, name=season.name, actor=actor)
                                   .returning(s.id)).scalar_one()
    for position, d in enumerate(season.divisions, 1):
        connection.execute(insert(lt.divisions).values(
            season_id=season_id, code=d.id, position=position, name=d.name, format=d.format, up=d.up,
            down=d.down, promote=d.promote, relegate=d.relegate, one_team_per_club=d.one_team_per_club))
    clubs = {c.id: connection.execute(insert(lt.clubs).values(season_id=season_id, name=c.name)
                                      .returning(lt.clubs.c.id)).scalar_one() for c in season.clubs}
    teams = {t.id: connection.execute(insert(lt.teams).values(
        season_id=season_id, club_id=clubs[t.club], division=t.division, number=t.number, name=t.name)
        .returning(lt.teams.c.id)).scalar_one() for t in season.teams}
    connection.execute(insert(lt.rosters), [
        {"season_id": season_id, "team_id": teams[team], "player_id": players[p], "position": n,
         "actor": actor} for team, roster in season.rosters.items() for n, p in enumerate(roster, 1)])
    connection.execute(insert(lt.fixtures), [
        {"season_id": season_id, "division": f.division, "round": f.round, "home_id": teams[f.home],
         "away_id": teams[f.away], "start": f.start, "number": f.id} for f in planned])
    return int(season_id)


def _register_players(connection: Connection, sheet: TeamSheet) -> dict[int, int]:
    """Each sheet player's register id: the player of that licence, else the one player of
    that name (without another licence), else a new player; refused when a name is several
    players' or two lines of the sheet come to one player (LG1)."""
    p = schema.players.c
    out: dict[int, int] = {}
    for sheet_id, (name, licence) in sheet.players.items():
        found = None
        if licence:
            found = connection.execute(select(p.id).where(p.licence == licence)).scalar()
        if found is None:
            same = connection.execute(select(p.id, p.licence).where(p.name_key == name_key(name))).all()
            same = [r for r in same if r.licence in (None, "", licence)]
            if len(same) > 1:
                raise LeagueConflict(f"player {name!r}: {len(same)} players of the register have this name; "
                                     "give each a licence in the teams sheet")
            found = same[0].id if same else None
        if found is None:
            found = connection.execute(insert(schema.players).values(name=name, name_key=name_key(name),
                                                                     licence=licence).returning(p.id)).scalar_one()
        if found in out.values():
            raise LeagueError("LG1", f"player {name!r} is the register's player {found}, who is on the sheet "
                                     "twice")
        out[sheet_id] = int(found)
    return out
