"""A whole season of one division, worked out by hand (tests/league/hand_season.py): from
the two sheets to the final table, promotion and relegation, and the players' averages."""

from __future__ import annotations

from carom.league import (
    Competition,
    league_games,
    league_table,
    meeting_format,
    player_stats,
    promotion_and_relegation,
    write_table,
)
from tests.league import hand_season as hand

FORMAT = "club-3c-two-boards"


def test_the_hand_worked_season_ends_in_the_table_worked_out_by_hand() -> None:
    sheet, fixtures, reports = hand.played()
    season = sheet.season
    assert len(fixtures) == 12 and len(reports.meetings) == 12
    name = {t.id: t.name for t in season.teams}
    table = league_table(meeting_format(FORMAT), season.teams_in(hand.DIVISION), reports.meetings)
    got = [(x.rank, name[x.team], x.played, x.won, x.drawn, x.lost, x.meeting_points,
            x.meeting_points_against, x.game_points, x.game_points_against) for x in table]
    assert got == list(hand.TABLE)
    assert {name[x.team]: x.team_average for x in table} == hand.TEAM_AVERAGES


def test_the_season_promotes_the_first_and_relegates_the_last() -> None:
    sheet, _, reports = hand.played()
    season = sheet.season
    table = league_table(meeting_format(FORMAT), season.teams_in(hand.DIVISION), reports.meetings)
    moves = promotion_and_relegation(season, {hand.DIVISION: table})
    name = {t.id: t.name for t in season.teams}
    assert [(name[m.team], m.source, m.target, m.promoted) for m in moves] == list(hand.MOVES)


def test_every_players_season_is_the_one_worked_out_by_hand() -> None:
    sheet, _, reports = hand.played()
    lines = player_stats(league_games(reports.meetings, hand.SEASON), competitions={Competition.LEAGUE})
    got = {sheet.players[x.player][0]: (x.games, x.won, x.drawn, x.lost, x.points, x.innings, x.best_average,
                                        x.high_run) for x in lines}
    assert got == hand.PLAYERS
    assert {x.discipline for x in lines} == {"three-cushion"} and {x.season for x in lines} == {hand.SEASON}
    adam = next(x for x in lines if sheet.players[x.player][0] == "Adam Kováč")
    assert f"{float(adam.general_average):.3f}" == "0.659"


def test_the_final_table_exports_as_a_sheet() -> None:
    sheet, _, reports = hand.played()
    season = sheet.season
    table = league_table(meeting_format(FORMAT), season.teams_in(hand.DIVISION), reports.meetings)
    text = write_table(table, {t.id: t.name for t in season.teams})
    assert text.splitlines() == [
        "rank;team;played;won;drawn;lost;meeting_points;meeting_points_against;game_points;"
        "game_points_against;team_average",  # averages cut, not rounded (carom.core.averages)
        "1;Žilina;6;3;2;1;8;4;16;8;0.629",
        "2;Görlitz;6;3;2;1;8;4;14;10;0.559",
        "3;Trenčín A;6;2;3;1;7;5;15;9;0.579",
        "4;Nitra;6;0;1;5;1;11;3;21;0.417",
    ]
