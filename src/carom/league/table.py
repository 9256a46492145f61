"""A division's league table: meeting points first, then the format's tie-breaks.

Each team's line sums its reported meetings: meetings won, drawn and lost, meeting
points for and against (the German "Pluspunkte : Minuspunkte"), game points for and
against, and its team average (all its players' points over all their innings; where the
format weighs disciplines, each discipline's points and innings times its factors, the
DBU Mehrkampf's MGD). Teams level on meeting points are ordered by the format's
tie-breaks in turn; :attr:`TieBreak.DIRECT` counts the meeting points of the meetings
among the teams still level at that step. Teams level after all of them share the rank
and are listed by id. Every figure is an exact sum or fraction, so the table does not
depend on the order in which the results arrive.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import groupby

from carom.league.formats import MeetingFormat, TieBreak
from carom.league.meetings import MeetingResult


@dataclass(frozen=True, slots=True)
class TableLine:
    rank: int
    team: int
    played: int
    won: int
    drawn: int
    lost: int
    meeting_points: int
    meeting_points_against: int
    game_points: int
    game_points_against: int
    points: int
    """Weighted points (plain points where the format weighs nothing)."""
    innings: int
    """Weighted innings."""

    @property
    def team_average(self) -> Fraction:
        return Fraction(self.points, self.innings) if self.innings else Fraction(0)

    @property
    def game_point_difference(self) -> int:
        return self.game_points - self.game_points_against


def league_table(fmt: MeetingFormat, teams: Iterable[int],
                 meetings: Iterable[MeetingResult]) -> list[TableLine]:
    """The table of ``teams`` over their reported ``meetings`` (others are ignored)."""
    field = sorted(set(teams))
    mine = [m for m in meetings if set(m.teams) <= set(field)]
    lines = [_line(fmt, team, mine) for team in field]
    blocks = _blocks(lines, (None, *fmt.tiebreaks), mine)
    out: list[TableLine] = []
    for block in blocks:
        rank = len(out) + 1
        out.extend(replace(line, rank=rank) for line in block)
    return out


def _line(fmt: MeetingFormat, team: int, meetings: Sequence[MeetingResult]) -> TableLine:
    won = drawn = lost = mp = mpa = gp = gpa = points = innings = 0
    for m in meetings:
        if team not in m.teams:
            continue
        side = m.teams.index(team)
        outcome = m.outcome if side == 0 else -m.outcome
        won, drawn, lost = won + (outcome > 0), drawn + (outcome == 0), lost + (outcome < 0)
        mp, mpa = mp + m.meeting_points[side], mpa + m.meeting_points[1 - side]
        gp, gpa = gp + m.game_points[side], gpa + m.game_points[1 - side]
        for g in m.games:
            factor_points, factor_innings = fmt.weight(g.game.discipline)
            points += g.result.points[side] * factor_points
            innings += g.result.innings[side] * factor_innings
    return TableLine(0, team, won + drawn + lost, won, drawn, lost, mp, mpa, gp, gpa, points, innings)


def _blocks(lines: list[TableLine], keys: Sequence[TieBreak | None],
            meetings: Sequence[MeetingResult]) -> list[list[TableLine]]:
    """``lines`` cut into blocks of teams level on every key, best block first
    (``None``: meeting points)."""
    if len(lines) < 2 or not keys:
        return [sorted(lines, key=lambda x: x.team)]
    value = _key(keys[0], lines, meetings)
    ordered = sorted(lines, key=lambda x: (-value(x), x.team))
    return [b for _, level in groupby(ordered, key=value) for b in _blocks(list(level), keys[1:], meetings)]


def _key(key: TieBreak | None, level: Sequence[TableLine],
         meetings: Sequence[MeetingResult]) -> Callable[[TableLine], Fraction]:
    if key is None:
        return lambda x: Fraction(x.meeting_points)
    if key is TieBreak.GAME_POINT_DIFFERENCE:
        return lambda x: Fraction(x.game_point_difference)
    if key is TieBreak.GAME_POINTS:
        return lambda x: Fraction(x.game_points)
    if key is TieBreak.TEAM_AVERAGE:
        return lambda x: x.team_average
    among = {x.team for x in level}
    direct = dict.fromkeys(among, 0)
    for m in meetings:
        if set(m.teams) <= among:
            for side in (0, 1):
                direct[m.teams[side]] += m.meeting_points[side]
    return lambda x: Fraction(direct[x.team])
