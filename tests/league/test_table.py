"""League tables: meeting points, then the format's tie-breaks; the same table whatever
the order the results arrive in, and points that add up."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from carom.league import TieBreak, league_table, meeting_format
from tests.league import hand_season as hand
from tests.league.small import fixtures_of, season_of, two_boards

FMT = meeting_format("club-3c-two-boards")


def _hand_table(tiebreaks: tuple[TieBreak, ...]) -> list[str]:
    sheet, _, reports = hand.played()
    name = {t.id: t.name for t in sheet.season.teams}
    fmt = dataclasses.replace(FMT, tiebreaks=tiebreaks)
    return [name[x.team] for x in league_table(fmt, sheet.season.teams_in(hand.DIVISION), reports.meetings)]


def test_the_order_of_the_tie_breaks_is_the_formats() -> None:
    # Žilina and Görlitz: 8 meeting points each; game points +8 and +4; Görlitz won their meetings.
    assert _hand_table((TieBreak.GAME_POINT_DIFFERENCE, TieBreak.DIRECT))[:2] == ["Žilina", "Görlitz"]
    assert _hand_table((TieBreak.DIRECT, TieBreak.GAME_POINT_DIFFERENCE))[:2] == ["Görlitz", "Žilina"]
    assert _hand_table((TieBreak.GAME_POINTS,))[:2] == ["Žilina", "Görlitz"]
    assert _hand_table((TieBreak.TEAM_AVERAGE,))[:2] == ["Žilina", "Görlitz"]  # 0.630 against 0.560


def test_teams_level_on_everything_share_the_rank() -> None:
    season = season_of("club-3c-two-boards", teams=3)
    fixtures = fixtures_of(season)
    # Every meeting 10:10 on both boards: every team level on every key, ranked 1 and listed by id.
    meetings = [two_boards(f, (10, 10), (10, 10)) for f in fixtures]
    table = league_table(FMT, season.teams_in("d"), meetings)
    assert [(x.rank, x.team, x.played, x.drawn, x.meeting_points, x.game_points) for x in table] == [
        (1, 1, 4, 4, 4, 8), (1, 2, 4, 4, 4, 8), (1, 3, 4, 4, 4, 8)]


def test_a_table_before_any_meeting_lists_every_team_level() -> None:
    table = league_table(FMT, [3, 1, 2], [])
    assert [(x.rank, x.team, x.played, x.team_average) for x in table] == [
        (1, team, 0, Fraction(0)) for team in (1, 2, 3)]


SCORES = st.sampled_from([(10, 6), (6, 10), (10, 10), (7, 7), (10, 9)])


@settings(deadline=None, max_examples=40)
@given(st.integers(min_value=2, max_value=6), st.data())
def test_the_table_is_the_same_whatever_order_the_results_arrive_in(n: int, data: st.DataObject) -> None:
    season = season_of("club-3c-two-boards", teams=n)
    fixtures = fixtures_of(season)
    played = [f for f in fixtures if data.draw(st.booleans())]
    meetings = []
    for f in played:
        (h1, a1), (h2, a2) = data.draw(SCORES), data.draw(SCORES)
        meetings.append(two_boards(f, (h1, h2), (a1, a2)))
    shuffled = list(meetings)
    random.Random(data.draw(st.integers(0, 2**32))).shuffle(shuffled)
    orders = ((TieBreak.GAME_POINT_DIFFERENCE, TieBreak.DIRECT), (TieBreak.DIRECT, TieBreak.TEAM_AVERAGE))
    for tiebreaks in orders:
        fmt = dataclasses.replace(FMT, tiebreaks=tiebreaks)
        assert league_table(fmt, season.teams_in("d"), meetings) == \
            league_table(fmt, list(reversed(season.teams_in("d"))), shuffled)
    # Meeting points add up: 2 a meeting (a win, or a draw each), game points 2 a game.
    table = league_table(FMT, season.teams_in("d"), meetings)
    assert sum(x.meeting_points for x in table) == 2 * len(meetings)
    assert sum(x.meeting_points_against for x in table) == 2 * len(meetings)
    assert sum(x.game_points for x in table) == 2 * len(FMT.games) * len(meetings)
    assert sum(x.played for x in table) == 2 * len(meetings)
    assert sum(x.won for x in table) == sum(x.lost for x in table)
    for m in meetings:
        assert sum(m.meeting_points) == 2 and sum(m.game_points) == 4
        home = m.game_points[0]
        assert m.meeting_points == ((2, 0) if home > 2 else (0, 2) if home < 2 else (1, 1))
    ranks = [x.rank for x in table]
    assert ranks == sorted(ranks) and ranks[0] == 1
