"""CSV sheets: a season's teams and fixtures in, the league table out.

Pure functions over text. A sheet's first line names its columns; cells are separated
by ``;`` (what German and Slovak spreadsheets write) or ``,``, whichever the header
line uses. Bytes are UTF-8 with or without a byte-order mark, or Windows-1250 (Central
European) or Windows-1252 (Western) when the caller says so (:func:`decode_sheet`).
A bad sheet is refused as a whole at its first bad line, naming the line, the column and,
where a league rule forbids it, the rule: ``line 7: home: 'BC Kladno' is not a team of
division 'extraliga' (LG11)``.

Teams (one line per player of a team): ``division``, ``club``, ``team``, ``player``;
optionally ``number`` (the club's 1st, 2nd … team; by default the first number the club's
teams above in the sheet leave free) and ``licence`` (a player is their licence where given, else their
name). Fixtures: ``division``, ``round``, ``date`` (``2025-09-13`` or ``13.09.2025``),
optionally ``time`` (``14:30``; 00:00 when left out), ``home``, ``away`` (team names).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import count

from carom.core.errors import InputError, UnknownName
from carom.core.inputs import decode, is_digits
from carom.core.spreadsheet import CHARSETS, Cell, Style, csv_text
from carom.core.spreadsheet import decode as decode_in
from carom.league.errors import LeagueError
from carom.league.fixtures import Fixture, check_fixtures
from carom.league.formats import meeting_format
from carom.league.season import Club, Division, Season, Team, check_roster_size
from carom.league.table import TableLine

MAX_DIGITS = 6
"""A sheet's whole numbers (a round, a team's number, places up or down) have at most
this many digits: far beyond any league, and within every database's integers."""
MAX_WHOLE = 10 ** MAX_DIGITS - 1
ENCODINGS = CHARSETS
"""The encodings a sheet may come in, by the names callers use."""

TEAM_COLUMNS = ("division", "club", "team", "player", "number", "licence")
FIXTURE_COLUMNS = ("division", "round", "date", "time", "home", "away")
TABLE_COLUMNS = ("rank", "team", "played", "won", "drawn", "lost", "meeting_points", "meeting_points_against",
                 "game_points", "game_points_against", "team_average")


def decode_sheet(data: bytes, encoding: str = "utf-8") -> str:
    """``data`` as text: UTF-8 (a byte-order mark dropped), or the Windows code page named
    (:func:`carom.core.spreadsheet.decode`)."""
    if encoding not in ENCODINGS:
        raise UnknownName("encoding", encoding, ENCODINGS)
    return decode(data) if encoding == "utf-8" else decode_in(data, encoding)


@dataclass(frozen=True, slots=True)
class TeamSheet:
    """A season read from a teams sheet, and the names behind its ids."""

    season: Season
    players: Mapping[int, tuple[str, str | None]]
    """Player id → (name, licence)."""


def teams_sheet_names(text: str) -> Iterator[tuple[int, str, str]]:
    """Each name a teams sheet brings, as (line, column, name): its clubs', teams' and
    players' (what the scoreboard checks before it shows them)."""
    for line, row in _rows(text, TEAM_COLUMNS, ("division", "club", "team", "player")):
        for column in ("club", "team", "player"):
            yield line, column, row[column]


def read_teams(text: str, league: str, name: str, divisions: Sequence[Division]) -> TeamSheet:
    """The season ``name`` of ``league``, its ``divisions`` filled from a teams sheet."""
    known = {d.id: d for d in divisions}
    clubs: dict[str, int] = {}
    teams: dict[str, Team] = {}
    first_line: dict[str, int] = {}
    rosters: dict[int, list[int]] = {}
    players: dict[str | tuple[str, None], int] = {}
    names: dict[int, tuple[str, str | None]] = {}
    where: dict[int, tuple[str, int]] = {}
    for line, row in _rows(text, TEAM_COLUMNS, ("division", "club", "team", "player")):
        if row["division"] not in known:
            raise LeagueError("LG12", f"division: {row['division']!r} is not a division of the season "
                                      f"(known: {', '.join(known)})", line)
        club = clubs.setdefault(row["club"], len(clubs) + 1)
        number = _whole(row, "number", line) if row["number"] else None
        team = teams.get(row["team"])
        if team is None:
            used = {t.number for t in teams.values() if t.club == club}
            number = number or next(n for n in count(1) if n not in used)
            same = next((t for t in teams.values() if (t.club, t.number) == (club, number)), None)
            if same is not None:
                raise LeagueError("LG12", f"number: {row['club']!r} has {same.name!r} as its team {number} "
                                          f"already (line {first_line[same.name]})", line)
            team = teams[row["team"]] = Team(len(teams) + 1, club, row["team"], row["division"], number)
            first_line[row["team"]] = line
        elif (team.club, team.division) != (club, row["division"]) or number not in (None, team.number):
            raise LeagueError("LG12", f"team: {row['team']!r} is given with another club, division or number "
                                      f"on line {first_line[row['team']]}", line)
        licence = row["licence"] or None
        key: str | tuple[str, None] = licence if licence else (row["player"], None)
        player = players.setdefault(key, len(players) + 1)
        names.setdefault(player, (row["player"], licence))
        if player in where:
            other, at = where[player]
            raise LeagueError("LG1", f"player: {row['player']!r} is twice on its roster (line {at})"
                              if other == row["team"] else
                              f"player: {row['player']!r} is on the roster of {other!r} already (line {at})",
                              line)
        where[player] = (row["team"], line)
        rosters.setdefault(team.id, []).append(player)
    for t in teams.values():
        try:
            check_roster_size(meeting_format(known[t.division].format), t.name, len(rosters[t.id]))
        except LeagueError as error:
            raise error.at(first_line[t.name]) from None
    season = Season(league, name, tuple(divisions), tuple(Club(i, n) for n, i in clubs.items()),
                    tuple(teams.values()), {t: tuple(p) for t, p in rosters.items()})
    return TeamSheet(season, names)


def read_fixtures(text: str, season: Season) -> tuple[Fixture, ...]:
    """The season's meetings from a fixtures sheet, ids in the sheet's order; refused
    unless the meetings of each division in it make a double round robin (LG11)."""
    by_name = {t.name: t for t in season.teams}
    names = {t.id: t.name for t in season.teams}
    out: list[Fixture] = []
    for line, row in _rows(text, FIXTURE_COLUMNS, ("division", "round", "date", "home", "away")):
        division = row["division"]
        if division not in {d.id for d in season.divisions}:
            raise LeagueError("LG12", f"division: {division!r} is not a division of the season", line)
        sides = []
        for column in ("home", "away"):
            team = by_name.get(row[column])
            if team is None or team.division != division:
                raise LeagueError("LG11", f"{column}: {row[column]!r} is not a team of division "
                                          f"{division!r}", line)
            sides.append(team.id)
        fixture = Fixture(len(out) + 1, division, _whole(row, "round", line), sides[0], sides[1],
                          _start(row, line))
        try:
            check_fixtures(division, season.teams_in(division), [*out, fixture], complete=False, names=names)
        except LeagueError as error:
            raise error.at(line) from None
        out.append(fixture)
    for division in dict.fromkeys(f.division for f in out):
        check_fixtures(division, season.teams_in(division), out, names=names)
    return tuple(out)


def write_table(lines: Iterable[TableLine], team_names: Mapping[int, str], delimiter: str = ";") -> str:
    """The league table as a sheet (the team average cut to three decimals, as every printed
    average is, :mod:`carom.core.averages`; a point as the decimal mark), each line ending
    in CR LF (:func:`carom.core.spreadsheet.csv_text`)."""
    if delimiter not in (";", ","):
        raise InputError(f"delimiter: {delimiter!r} is not ';' or ','")
    rows: list[list[Cell]] = [list(TABLE_COLUMNS)]
    rows += [[x.rank, team_names.get(x.team, str(x.team)), x.played, x.won, x.drawn, x.lost, x.meeting_points,
              x.meeting_points_against, x.game_points, x.game_points_against, x.team_average] for x in lines]
    return csv_text(rows, Style(delimiter))


def _rows(text: str, columns: Sequence[str], required: Sequence[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """Each non-empty line after the header as (line number, column → cell)."""
    lines = text.splitlines()
    head = next((i for i, x in enumerate(lines) if x.strip()), None)
    if head is None:
        raise InputError("the sheet is empty: a header line naming the columns is needed", 1)
    delimiter = ";" if ";" in lines[head] else ","
    reader = csv.reader(lines[head:], delimiter=delimiter)
    header = [h.strip().lower() for h in next(reader)]
    for h in header:
        if h and h not in columns:
            raise InputError(f"header: unknown column {h!r} (columns: {', '.join(columns)})", head + 1)
    for name in required:
        if name not in header:
            raise InputError(f"header: no column {name!r}", head + 1)
    for cells in reader:
        line = head + reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
            raise InputError(f"{len(cells)} cells, the header names {len(header)} columns", line)
        row = dict.fromkeys(columns, "") | {h: c.strip() for h, c in zip(header, cells, strict=False) if h}
        for name in required:
            if not row[name]:
                raise InputError(f"{name}: empty", line)
        yield line, row


def _whole(row: Mapping[str, str], column: str, line: int) -> int:
    value = row[column]
    if not is_digits(value) or len(value) > MAX_DIGITS or int(value) < 1:
        raise InputError(f"{column}: {value!r} is not a whole number from 1 to {MAX_WHOLE}", line)
    return int(value)


def _start(row: Mapping[str, str], line: int) -> datetime:
    date, time = row["date"], row["time"] or "00:00"
    for form in ("%Y-%m-%d", "%d.%m.%Y"):
        try:
            day = datetime.strptime(date, form)
            break
        except ValueError:
            continue
    else:
        raise InputError(f"date: {date!r} is not a date like 2025-09-13 or 13.09.2025", line)
    try:
        clock = datetime.strptime(time, "%H:%M")
    except ValueError:
        raise InputError(f"time: {time!r} is not a time like 14:30", line) from None
    return day.replace(hour=clock.hour, minute=clock.minute)


DIVISION_COLUMNS = ("division", "name", "format", "up", "down", "promote", "relegate", "one_team_per_club")
_YES, _NO = ("yes", "1", "true", "ja", "áno", "ano"), ("", "no", "0", "false", "nein", "nie")


def read_divisions(text: str) -> tuple[Division, ...]:
    """A season's divisions from a sheet, one a line: ``division`` (its id), ``format``
    (a row of :data:`~carom.league.formats.FORMATS`), optionally ``name``, ``up`` and
    ``down`` (the ids of the divisions teams move to), ``promote``, ``relegate`` (how many;
    0 when left out) and ``one_team_per_club`` (yes or no, LG13). The divisions are
    checked as a season checks them (LG12) when the teams sheet is read with them."""
    out: list[Division] = []
    rows = list(_rows(text, DIVISION_COLUMNS, ("division", "format")))
    known = {row["division"] for _, row in rows}
    for line, row in rows:
        try:
            meeting_format(row["format"])
        except UnknownName as error:
            raise LeagueError("LG12", f"format: {error}", line) from None
        for column in ("up", "down"):
            if row[column] and row[column] not in known:
                raise LeagueError("LG12", f"{column}: {row[column]!r} is not a division of the sheet", line)
        flag = row["one_team_per_club"].lower()
        if flag not in (*_YES, *_NO):
            raise InputError(f"one_team_per_club: {row['one_team_per_club']!r} is not yes or no", line)
        if any(d.id == row["division"] for d in out):
            raise LeagueError("LG12", f"division: {row['division']!r} is given twice", line)
        out.append(Division(row["division"], row["name"] or row["division"], row["format"],
                            row["up"] or None, row["down"] or None,
                            _whole(row, "promote", line) if row["promote"] not in ("", "0") else 0,
                            _whole(row, "relegate", line) if row["relegate"] not in ("", "0") else 0,
                            flag in _YES))
    if not out:
        raise InputError("the sheet names no division", 2)
    return tuple(out)
