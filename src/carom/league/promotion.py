"""Promotion and relegation between divisions, from their final tables.

A division promotes its ``promote`` best teams to the division ``up`` and relegates its
``relegate`` last to the division ``down`` (both fields of
:class:`~carom.league.season.Division`; the top has no ``up``, the bottom no ``down``).
Where the division above takes one team per club (LG13), a team whose club stays there
with another team is passed over and the next in the table goes up in its place, as the
DBU's 2. Bundesliga Mehrkampf promoted its third when the second was a club's second team
(docs/leagues.md). Teams relegated from above make room before that is judged; a
division with fewer eligible teams than places promotes the eligible ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from carom.league.season import Season
from carom.league.table import TableLine


@dataclass(frozen=True, slots=True)
class Move:
    team: int
    place: int
    """The team's rank in its division's final table."""
    source: str
    target: str
    promoted: bool
    """``True``: up, ``False``: down."""


def promotion_and_relegation(season: Season, tables: Mapping[str, Sequence[TableLine]]) -> tuple[Move, ...]:
    """Who moves where after the season, from each division's final table (a division
    without a table moves nobody): relegations first, then promotions."""
    for division in tables:
        season.division(division)
    down = [m for d in season.divisions if d.id in tables for m in _relegated(season, d.id, tables[d.id])]
    up = [m for d in season.divisions if d.id in tables for m in _promoted(season, d.id, tables[d.id], down)]
    return (*down, *up)


def _relegated(season: Season, division: str, table: Sequence[TableLine]) -> list[Move]:
    d = season.division(division)
    if d.down is None or d.relegate <= 0:
        return []
    last = list(table)[-d.relegate:]
    return [Move(x.team, x.rank, d.id, d.down, False) for x in last]


def _promoted(season: Season, division: str, table: Sequence[TableLine], down: Sequence[Move]) -> list[Move]:
    d = season.division(division)
    if d.up is None or d.promote <= 0:
        return []
    above = season.division(d.up)
    leaving = {m.team for m in down if m.source == above.id}
    staying = {season.team(t).club for t in season.teams_in(above.id) if t not in leaving}
    moves: list[Move] = []
    for line in table:
        if len(moves) == d.promote:
            break
        club = season.team(line.team).club
        if above.one_team_per_club and club in staying:
            continue
        staying.add(club)
        moves.append(Move(line.team, line.rank, d.id, above.id, True))
    return moves
