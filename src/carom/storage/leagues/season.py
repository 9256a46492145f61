"""A stored season read back as the pure package's values (:mod:`carom.league`): the
season with its rosters, the fixtures, the line-ups, each meeting's games with their
matches as they stand, and the captains' sign-offs. Everything else (a meeting's result,
the tables, promotion, the players' figures) is computed from these by the package on
every read, never stored."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction

from sqlalchemy import Connection, select

from carom.league import (
    Club,
    Division,
    Fixture,
    GameResult,
    LeagueError,
    LineUp,
    MeetingFormat,
    MeetingResult,
    Move,
    PlannedGame,
    PlayerLine,
    Reports,
    Season,
    TableLine,
    Team,
    league_games,
    league_table,
    meeting_format,
    plan_meeting,
    player_stats,
    promotion_and_relegation,
    report,
    score_meeting,
)
from carom.storage import schema
from carom.storage.book import MatchBook, Snapshot
from carom.storage.errors import StorageError
from carom.storage.leagues import tables as lt
from carom.storage.store import MAX_ID


class UnknownSeason(StorageError):
    def __init__(self, what: str, number: int) -> None:
        super().__init__(f"{what}: there is no {what} {number}")
        self.what = what
        self.number = number


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game of a meeting: the format's ``number``-th, its match as it stands."""

    number: int
    round: int
    match_id: int
    snapshot: Snapshot

    @property
    def finished(self) -> bool:
        return self.snapshot.state.finished

    @property
    def players(self) -> tuple[int, int]:
        assert self.snapshot.players is not None  # a league game's match is made with its players
        return self.snapshot.players

    def planned(self) -> PlannedGame:
        """The game as its match was made: players, discipline, table, targets, innings."""
        h = self.snapshot.header
        targets = h.points if isinstance(h.points, tuple) else (h.points, h.points)
        return PlannedGame(self.number, self.round, h.discipline, h.table, self.players, targets, h.innings)

    def result(self) -> GameResult:
        st = self.snapshot.state
        return GameResult(self.number, self.players, st.points_total, st.innings_total, st.high_run)


@dataclass(frozen=True, slots=True)
class SignOff:
    team: int
    versions: Mapping[int, int]
    """Each game's match id → its number of records when signed."""
    actor: str
    at: datetime | None


@dataclass(frozen=True, slots=True)
class StoredSeason:
    id: int
    league: str
    season: Season
    players: Mapping[int, str]
    """Register id → name, for everybody on a roster or in a line-up."""
    fixtures: tuple[Fixture, ...]
    lineups: tuple[LineUp, ...]
    games: Mapping[int, tuple[StoredGame, ...]] = field(default_factory=dict)
    """Fixture id → its games (once both line-ups are in)."""
    signoffs: Mapping[int, tuple[SignOff, ...]] = field(default_factory=dict)
    _results: dict[int, MeetingResult | None] = field(default_factory=dict, init=False, repr=False,
                                                       compare=False)
    """Each meeting's result once computed: a page asks for it many times (the values above
    never change in one read)."""

    @property
    def name(self) -> str:
        return self.season.name

    def fixture(self, fixture_id: int) -> Fixture:
        found = next((f for f in self.fixtures if f.id == fixture_id), None)
        if found is None:
            raise UnknownSeason("meeting", fixture_id)
        return found

    def format_of(self, fixture: Fixture) -> MeetingFormat:
        return self.season.format_of(fixture.home)

    def team_name(self, team: int) -> str:
        return self.season.team(team).name

    def lineup(self, fixture: Fixture, team: int) -> LineUp | None:
        return next((x for x in self.lineups if x.fixture == fixture.id and x.team == team), None)

    def planned(self, fixture: Fixture) -> tuple[PlannedGame, ...] | None:
        """The meeting's games (``None`` until both line-ups are in): as their matches were
        made, once they are; before, as :func:`carom.league.plan_meeting` makes them."""
        stored = self.games.get(fixture.id)
        if stored:
            return tuple(g.planned() for g in stored)
        home, away = self.lineup(fixture, fixture.home), self.lineup(fixture, fixture.away)
        if home is None or away is None:
            return None
        return plan_meeting(self.format_of(fixture), home, away, self.discipline_averages(before=fixture))

    def score(self, fixture: Fixture) -> MeetingResult:
        """The meeting's result from its games' matches (LG10 while one is not finished)."""
        planned = self.planned(fixture)
        if planned is None:
            raise LeagueError("LG10", f"meeting {fixture.id}: no game is played before both line-ups are in")
        results = [g.result() for g in self.games.get(fixture.id, ()) if g.finished]
        return score_meeting(self.format_of(fixture), fixture, planned, results)

    def result(self, fixture: Fixture) -> MeetingResult | None:
        """The meeting's result once every game is finished, else ``None``."""
        if fixture.id not in self._results:
            games = self.games.get(fixture.id, ())
            done = bool(games) and all(g.finished for g in games)
            self._results[fixture.id] = self.score(fixture) if done else None
        return self._results[fixture.id]

    def meetings(self, division: str | None = None) -> list[MeetingResult]:
        """Every meeting whose games are all finished: the table counts it at once."""
        return [m for f in self.fixtures if division in (None, f.division)
                if (m := self.result(f)) is not None]

    def signed_by(self, fixture: Fixture) -> frozenset[int]:
        """The teams whose captain's signature holds: given for the games as they stand."""
        current = {g.match_id: g.snapshot.seq for g in self.games.get(fixture.id, ())}
        return frozenset(s.team for s in self.signoffs.get(fixture.id, ()) if dict(s.versions) == current)

    def reports(self) -> Reports:
        """The meetings both captains signed, through the package's one-report rule (LG9)."""
        out = Reports()
        for fixture in self.fixtures:
            if self.signed_by(fixture) >= {fixture.home, fixture.away} and (m := self.result(fixture)):
                out = report(out, self.fixtures, m)
        return out

    def table(self, division: str) -> list[TableLine]:
        d = self.season.division(division)
        return league_table(meeting_format(d.format), self.season.teams_in(division), self.meetings(division))

    def complete(self, division: str) -> bool:
        """Every meeting of the division has its result: its table is final."""
        mine = [f for f in self.fixtures if f.division == division]
        return bool(mine) and all(self.result(f) is not None for f in mine)

    def moves(self) -> tuple[Move, ...]:
        """Promotion and relegation from the divisions whose tables are final."""
        tables = {d.id: self.table(d.id) for d in self.season.divisions if self.complete(d.id)}
        return promotion_and_relegation(self.season, tables)

    def player_lines(self, meetings: list[MeetingResult] | None = None) -> list[PlayerLine]:
        """Every player's figures over the season's finished meetings (part 1's statistics)."""
        return player_stats(league_games(self.meetings() if meetings is None else meetings, self.name))

    def _before(self, before: Fixture | None) -> list[MeetingResult]:
        """The finished meetings that started before ``before`` (``None``: all)."""
        return [m for f in self.fixtures if before is None or f.start < before.start
                if (m := self.result(f)) is not None]

    def discipline_averages(self, before: Fixture | None = None) -> dict[tuple[int, str], Fraction]:
        """Each (player, discipline)'s average in the league so far (for a handicap)."""
        return {(x.player, x.discipline): x.general_average
                for x in self.player_lines(self._before(before)) if x.innings}

    def averages(self, before: Fixture | None = None) -> dict[int, Fraction]:
        """Each player's average in the league so far, all disciplines together (LG8)."""
        lines = player_stats(league_games(self._before(before), self.name), by_season=False)
        totals: dict[int, tuple[int, int]] = {}
        for x in lines:
            points, innings = totals.get(x.player, (0, 0))
            totals[x.player] = (points + x.points, innings + x.innings)
        return {p: Fraction(a, b) for p, (a, b) in totals.items() if b}


def load(connection: Connection, book: MatchBook, season_id: int) -> StoredSeason:
    """The season ``season_id`` as it stands (:class:`UnknownSeason`)."""
    if not 0 < season_id <= MAX_ID:
        raise UnknownSeason("season", season_id)
    s = lt.seasons.c
    row = connection.execute(select(s.id, s.name, lt.leagues.c.name.label("league"))
                             .join(lt.leagues, lt.leagues.c.id == s.league_id)
                             .where(s.id == season_id)).first()
    if row is None:
        raise UnknownSeason("season", season_id)
    d, c, t, r, f = lt.divisions.c, lt.clubs.c, lt.teams.c, lt.rosters.c, lt.fixtures.c
    divisions = tuple(Division(x.code, x.name, x.format, x.up, x.down, x.promote, x.relegate,
                               bool(x.one_team_per_club))
                      for x in connection.execute(select(lt.divisions).where(d.season_id == season_id)
                                                  .order_by(d.position)))
    clubs = tuple(Club(x.id, x.name) for x in connection.execute(
        select(c.id, c.name).where(c.season_id == season_id).order_by(c.id)))
    teams = tuple(Team(x.id, x.club_id, x.name, x.division, x.number) for x in connection.execute(
        select(lt.teams).where(t.season_id == season_id).order_by(t.id)))
    rosters: dict[int, list[int]] = {}
    for x in connection.execute(select(r.team_id, r.player_id).where(r.season_id == season_id)
                                .order_by(r.team_id, r.position)):
        rosters.setdefault(x.team_id, []).append(x.player_id)
    fixtures = tuple(Fixture(x.id, x.division, x.round, x.home_id, x.away_id, x.start)
                     for x in connection.execute(select(lt.fixtures).where(f.season_id == season_id)
                                                 .order_by(f.number)))
    season = Season(row.league, row.name, divisions, clubs, teams, {k: tuple(v) for k, v in rosters.items()})
    ids = [x.id for x in fixtures]
    lineups = _lineups(connection, ids)
    games: dict[int, list[StoredGame]] = {}
    g = lt.games.c
    for x in connection.execute(select(lt.games).where(g.fixture_id.in_(ids))
                                .order_by(g.fixture_id, g.number)):
        games.setdefault(x.fixture_id, []).append(StoredGame(x.number, x.round, x.match_id,
                                                             book.snapshot(x.match_id)))
    signoffs: dict[int, list[SignOff]] = {}
    so = lt.signoffs.c
    for x in connection.execute(select(lt.signoffs).where(so.fixture_id.in_(ids)).order_by(so.id)):
        versions = {int(k): int(v) for k, v in json.loads(x.versions).items()}
        signoffs.setdefault(x.fixture_id, []).append(SignOff(x.team_id, versions, x.actor, x.created_at))
    wanted = {p for players in rosters.values() for p in players} | {p for x in lineups for p in x.players}
    p = schema.players.c
    players = {x.id: x.name for x in connection.execute(select(p.id, p.name).where(p.id.in_(wanted)))}
    return StoredSeason(row.id, row.league, season, players, fixtures, lineups,
                        {k: tuple(v) for k, v in games.items()}, {k: tuple(v) for k, v in signoffs.items()})


def _lineups(connection: Connection, fixture_ids: list[int]) -> tuple[LineUp, ...]:
    lu, lp = lt.lineups.c, lt.lineup_players.c
    players: dict[int, list[int]] = {}
    rows = connection.execute(select(lu.id, lu.fixture_id, lu.team_id, lu.submitted)
                              .where(lu.fixture_id.in_(fixture_ids)).order_by(lu.id)).all()
    for x in connection.execute(select(lp.lineup_id, lp.player_id)
                                .where(lp.lineup_id.in_([r.id for r in rows]))
                                .order_by(lp.lineup_id, lp.position)):
        players.setdefault(x.lineup_id, []).append(x.player_id)
    return tuple(LineUp(r.fixture_id, r.team_id, tuple(players.get(r.id, ())), r.submitted) for r in rows)


def season_of_fixture(connection: Connection, fixture_id: int) -> int:
    """The season a meeting belongs to (:class:`UnknownSeason`)."""
    found = None
    if 0 < fixture_id <= MAX_ID:
        f = lt.fixtures.c
        found = connection.execute(select(f.season_id).where(f.id == fixture_id)).scalar()
    if found is None:
        raise UnknownSeason("meeting", fixture_id)
    return int(found)
