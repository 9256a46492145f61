"""A meeting's games on the hall's tables: the league hands the tables its games as one-off
matches (:meth:`carom.storage.hall.Hall.put_all`, TD6), and the tables' own machinery
does the rest: each table plays its games in the order they came to it, a game stays on
its table until its match is finished and confirmed, then the next comes on (TD8).

The games go on round by round (the format's rounds, then its game numbers), each to the
next of the chosen tables in turn: with two tables and the rounds (3, 4), (1, 2), table 1
plays games 3 then 1, table 2 games 4 then 2. The league's formats have a player play one
game a meeting, so no player is wanted at two tables at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from carom.competition.tables import TablesState
from carom.competition.tables.state import name_key
from carom.core.errors import InputError
from carom.storage.hall import Hall
from carom.storage.leagues.office import LeagueConflict, Leagues
from carom.storage.leagues.season import StoredGame

MAX_TABLES = 64


def placements(games: Sequence[StoredGame], names: Sequence[str]) -> list[tuple[StoredGame, str]]:
    """Each game with the table it goes on: round by round, the tables in turn."""
    ordered = sorted(games, key=lambda g: (g.round, g.number))
    return [(game, names[n % len(names)]) for n, game in enumerate(ordered)]


def tables_of(state: TablesState, matches: Sequence[int]) -> dict[int, str]:
    """The table each of these matches was put on (those on none left out)."""
    out = {}
    for match in matches:
        placed = state.placement(match)
        if placed is not None and placed.table in state.tables:
            out[match] = state.tables[placed.table].name
    return out


def check_names(names: object) -> list[str]:
    """The tables named, in order: 1 to :data:`MAX_TABLES` different names."""
    if not isinstance(names, list) or not names or len(names) > MAX_TABLES or not all(
            isinstance(n, str) and n.strip() for n in names):
        raise InputError(f"tables: expected a list of 1 to {MAX_TABLES} of the hall's table names")
    keys = [name_key(n) for n in names]
    if len(set(keys)) != len(keys):
        raise InputError("tables: name each table once")
    return [" ".join(n.split()) for n in names]


def put_meeting(office: Leagues, hall: Hall, fixture_id: int, names: object,
                actor: str) -> list[tuple[StoredGame, str]]:
    """The meeting's games not yet on a table and not finished, put on the tables ``names``
    (a list of names, :func:`check_names`; :func:`placements`) in one change of the hall:
    all of them, or none (a table not in the hall is refused, TD2). :class:`LeagueConflict`
    while the line-ups are not both in (the games are made with the second), and when no
    game is left to put."""
    season = office.read(office.season_of(fixture_id))
    fixture = season.fixture(fixture_id)
    games = season.games.get(fixture_id, ())
    if not games:
        raise LeagueConflict(f"meeting {fixture_id}: its games are made when both line-ups are in; "
                             "they go on the tables then")
    chosen_names = check_names(names)
    state = hall.state()
    left = [g for g in games if not g.finished and state.placement(g.match_id) is None]
    if not left:
        raise LeagueConflict(f"meeting {fixture_id}: every game of {season.team_name(fixture.home)} – "
                             f"{season.team_name(fixture.away)} is on a table or finished already")
    chosen = placements(left, chosen_names)
    hall.put_all([(name, game.match_id) for game, name in chosen], actor)
    return chosen
