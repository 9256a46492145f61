"""A whole season of one division worked out by hand: the fixture the league tests use
and the later browser test replays through the pages.

Four teams of "1. liga" (format ``club-3c-two-boards``: two boards, three-cushion on the
small table to 10 points in at most 20 innings, 2 game points a win and 1 a draw,
2 meeting points a win and 1 a draw) meet home and away: six meetings each, twelve in
all. Everything is given by name (teams, players), as a person would type it, so that
the same data drives the pure package here and the pages later. The expected values
below were computed by hand from the results (docs/leagues.md shows the working).
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from fractions import Fraction

from carom.league import (
    Division,
    Fixture,
    GameResult,
    LineUp,
    Reports,
    TeamSheet,
    check_lineup,
    plan_meeting,
    read_fixtures,
    read_teams,
    report,
    score_meeting,
)

LEAGUE = "Demo karambol league"
SEASON = "2025/26"
DIVISION = "1-liga"

DIVISIONS = (
    Division("extraliga", "Extraliga", "club-3c-two-boards", down="1-liga", relegate=1,
             one_team_per_club=True),
    Division("1-liga", "1. liga", "club-3c-two-boards", up="extraliga", down="2-liga", promote=1, relegate=1),
    Division("2-liga", "2. liga", "club-3c-two-boards", up="1-liga", promote=1),
)

DIVISIONS_CSV = """\
division;name;format;up;down;promote;relegate;one_team_per_club
extraliga;Extraliga;club-3c-two-boards;;1-liga;0;1;yes
1-liga;1. liga;club-3c-two-boards;extraliga;2-liga;1;1;no
2-liga;2. liga;club-3c-two-boards;1-liga;;1;0;no
"""
"""The divisions above as the league office types them (:func:`carom.league.read_divisions`)."""

TEAMS_CSV = """\
division;club;team;number;player
1-liga;BK Trenčín;Trenčín A;1;Adam Kováč
1-liga;BK Trenčín;Trenčín A;1;Peter Horváth
1-liga;BK Trenčín;Trenčín A;1;Ján Baláž
1-liga;BC Žilina;Žilina;1;Martin Šimko
1-liga;BC Žilina;Žilina;1;Lukáš Ďurica
1-liga;BC Žilina;Žilina;1;Tomáš Ľupták
1-liga;Billardfreunde Görlitz;Görlitz;1;Jörg Weiß
1-liga;Billardfreunde Görlitz;Görlitz;1;Günter Schröder
1-liga;KB Nitra;Nitra;1;Róbert Novák
1-liga;KB Nitra;Nitra;1;Marek Čierny
1-liga;KB Nitra;Nitra;1;Pavol Mráz
extraliga;BK Bratislava;Bratislava;1;Oto Hudec
extraliga;BK Bratislava;Bratislava;1;Filip Rybár
extraliga;BC Košice;Košice;1;Imrich Tóth
extraliga;BC Košice;Košice;1;Šimon Lacko
2-liga;BK Trenčín;Trenčín B;2;Igor Štefánik
2-liga;BK Trenčín;Trenčín B;2;Dušan Kráľ
2-liga;KB Martin;Martin;1;Viktor Sloboda
2-liga;KB Martin;Martin;1;Emil Zeman
"""

FIXTURES_CSV = """\
division;round;date;time;home;away
1-liga;1;13.09.2025;14:00;Trenčín A;Nitra
1-liga;1;13.09.2025;14:00;Žilina;Görlitz
1-liga;2;04.10.2025;14:00;Nitra;Görlitz
1-liga;2;04.10.2025;14:00;Trenčín A;Žilina
1-liga;3;25.10.2025;14:00;Žilina;Nitra
1-liga;3;25.10.2025;14:00;Görlitz;Trenčín A
1-liga;4;17.01.2026;14:00;Nitra;Trenčín A
1-liga;4;17.01.2026;14:00;Görlitz;Žilina
1-liga;5;07.02.2026;14:00;Görlitz;Nitra
1-liga;5;07.02.2026;14:00;Žilina;Trenčín A
1-liga;6;28.02.2026;14:00;Nitra;Žilina
1-liga;6;28.02.2026;14:00;Trenčín A;Görlitz
"""
"""The circle method's double round robin of the four teams in the order above
(:func:`carom.league.double_round_robin`), as a league office would type it."""

Game = tuple[str, str, int, int, int, int, int]
"""(home player, away player, home points, away points, innings, home high run, away high run);
both players have the same innings (the equalizing inning)."""

MEETINGS: dict[int, tuple[Game, Game]] = {
    1: (("Adam Kováč", "Róbert Novák", 10, 6, 15, 3, 2),
        ("Peter Horváth", "Marek Čierny", 10, 8, 18, 2, 2)),
    2: (("Martin Šimko", "Jörg Weiß", 10, 7, 14, 4, 2),
        ("Lukáš Ďurica", "Günter Schröder", 6, 10, 17, 2, 3)),
    3: (("Róbert Novák", "Jörg Weiß", 10, 10, 16, 2, 3),
        ("Pavol Mráz", "Günter Schröder", 5, 10, 20, 1, 2)),
    4: (("Adam Kováč", "Martin Šimko", 10, 9, 13, 3, 3),
        ("Ján Baláž", "Tomáš Ľupták", 7, 10, 19, 2, 2)),
    5: (("Martin Šimko", "Róbert Novák", 10, 8, 12, 2, 3),
        ("Lukáš Ďurica", "Marek Čierny", 10, 4, 16, 3, 1)),
    6: (("Jörg Weiß", "Adam Kováč", 6, 10, 14, 2, 4),
        ("Günter Schröder", "Igor Štefánik", 8, 10, 18, 2, 2)),
    7: (("Róbert Novák", "Adam Kováč", 10, 7, 15, 3, 2),
        ("Marek Čierny", "Peter Horváth", 5, 10, 17, 1, 3)),
    8: (("Jörg Weiß", "Martin Šimko", 10, 10, 11, 4, 3),
        ("Günter Schröder", "Lukáš Ďurica", 10, 9, 19, 2, 2)),
    9: (("Jörg Weiß", "Róbert Novák", 10, 5, 13, 3, 1),
        ("Günter Schröder", "Pavol Mráz", 10, 3, 20, 2, 1)),
    10: (("Martin Šimko", "Adam Kováč", 10, 10, 12, 3, 4),
         ("Tomáš Ľupták", "Peter Horváth", 10, 6, 16, 2, 2)),
    11: (("Róbert Novák", "Martin Šimko", 8, 10, 14, 2, 3),
         ("Marek Čierny", "Lukáš Ďurica", 9, 10, 18, 2, 4)),
    12: (("Adam Kováč", "Jörg Weiß", 9, 10, 16, 2, 3),
         ("Peter Horváth", "Günter Schröder", 10, 7, 15, 3, 2)),
}
"""Meeting (the fixtures sheet's line order, from 1) → its two games, board 1 first.
Igor Štefánik of Trenčín B (the club's 2nd team, in 2. liga) stands in for Trenčín A in
meeting 6, as the format allows (a substitute from the next team down, twice a half)."""


def lineup_time(start: datetime) -> datetime:
    """When both captains hand in their line-ups: at 20:00 the evening before the meeting."""
    return datetime.combine(start.date() - timedelta(days=1), time(20, 0))


TABLE = (
    # rank, team, played, won, drawn, lost, meeting points, against, game points, against
    (1, "Žilina", 6, 3, 2, 1, 8, 4, 16, 8),
    (2, "Görlitz", 6, 3, 2, 1, 8, 4, 14, 10),
    (3, "Trenčín A", 6, 2, 3, 1, 7, 5, 15, 9),
    (4, "Nitra", 6, 0, 1, 5, 1, 11, 3, 21),
)
"""The final table. Žilina and Görlitz are level on 8 meeting points; the format's first
tie-break, the game-point difference (+8 against +4), puts Žilina first, although
Görlitz won their direct meetings (2:2 and 3:1 for Görlitz)."""

TEAM_AVERAGES = {"Žilina": Fraction(114, 181), "Görlitz": Fraction(108, 193), "Trenčín A": Fraction(109, 188),
                 "Nitra": Fraction(81, 194)}
"""Each team's points over its innings, all twelve of its games."""

MOVES = (("Nitra", "1-liga", "2-liga", False), ("Žilina", "1-liga", "extraliga", True))
"""(team, from, to, promoted): 1. liga relegates its last and promotes its first."""

PLAYERS = {
    # name: games, won, drawn, lost, points, innings, best single average, high run
    "Adam Kováč": (6, 3, 1, 2, 56, 85, Fraction(10, 12), 4),
    "Peter Horváth": (4, 3, 0, 1, 36, 66, Fraction(10, 15), 3),
    "Ján Baláž": (1, 0, 0, 1, 7, 19, Fraction(7, 19), 2),
    "Martin Šimko": (6, 3, 2, 1, 59, 76, Fraction(10, 11), 4),
    "Lukáš Ďurica": (4, 2, 0, 2, 35, 70, Fraction(10, 16), 4),
    "Tomáš Ľupták": (2, 2, 0, 0, 20, 35, Fraction(10, 16), 2),
    "Jörg Weiß": (6, 2, 2, 2, 53, 84, Fraction(10, 11), 4),
    "Günter Schröder": (6, 4, 0, 2, 55, 109, Fraction(10, 17), 3),
    "Róbert Novák": (6, 1, 1, 4, 47, 85, Fraction(10, 15), 3),
    "Marek Čierny": (4, 0, 0, 4, 26, 69, Fraction(9, 18), 2),
    "Pavol Mráz": (2, 0, 0, 2, 8, 40, Fraction(5, 20), 1),
    "Igor Štefánik": (1, 1, 0, 0, 10, 18, Fraction(10, 18), 2),
}
"""Every player who played, over the season (three-cushion): the general average is
points ÷ innings (Adam Kováč 56/85 = 0.659)."""


def played() -> tuple[TeamSheet, tuple[Fixture, ...], Reports]:
    """The season through the league package: both sheets read, every line-up checked,
    every meeting planned, scored and reported in order."""
    sheet = read_teams(TEAMS_CSV, LEAGUE, SEASON, DIVISIONS)
    season = sheet.season
    fixtures = read_fixtures(FIXTURES_CSV, season)
    player = {name: pid for pid, (name, _) in sheet.players.items()}
    reports = Reports()
    lineups: list[tuple[Fixture, LineUp]] = []
    for fixture in fixtures:
        games = MEETINGS[fixture.id]
        when = lineup_time(fixture.start)
        home = LineUp(fixture.id, fixture.home, tuple(player[g[0]] for g in games), when)
        away = LineUp(fixture.id, fixture.away, tuple(player[g[1]] for g in games), when)
        for lineup in (home, away):
            check_lineup(season, fixture, lineup, lineups)
            lineups.append((fixture, lineup))
        fmt = season.format_of(fixture.home)
        planned = plan_meeting(fmt, home, away)
        results = [GameResult(n, (player[h], player[a]), (hp, ap), (inn, inn), (hr, ar))
                   for n, (h, a, hp, ap, inn, hr, ar) in enumerate(games, 1)]
        reports = report(reports, fixtures, score_meeting(fmt, fixture, planned, results))
    return sheet, fixtures, reports
