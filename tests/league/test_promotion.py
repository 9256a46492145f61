"""Promotion and relegation from the final tables, one team per club where a division says so."""

from __future__ import annotations

import dataclasses

import pytest

from carom.core.errors import UnknownName
from carom.league import Club, Division, Season, TableLine, Team, promotion_and_relegation

DIVISIONS = (
    Division("top", "Top", "club-3c-two-boards", down="mid", relegate=1, one_team_per_club=True),
    Division("mid", "Middle", "club-3c-two-boards", up="top", down="low", promote=2, relegate=1),
    Division("low", "Low", "club-3c-two-boards", up="mid", promote=1),
)
# Club 1 has a team in the top division (1) and one in the middle (2); the others one team each.
TEAMS = (Team(1, 1, "A1", "top"), Team(7, 7, "G1", "top"), Team(2, 1, "A2", "mid", 2),
         Team(3, 3, "C1", "mid"), Team(4, 4, "D1", "mid"), Team(5, 5, "E1", "mid"), Team(6, 6, "F1", "low"),
         Team(8, 8, "H1", "low"))
SEASON = Season("league", "2025/26", DIVISIONS, tuple(Club(n, f"Club {n}") for n in range(1, 9)), TEAMS,
                {t.id: (10 * t.id + 1, 10 * t.id + 2) for t in TEAMS})


def _table(*teams: int) -> list[TableLine]:
    return [TableLine(rank, team, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0) for rank, team in enumerate(teams, 1)]


def _moves(tables: dict[str, list[TableLine]], season: Season = SEASON) -> list[tuple[int, str, str, int]]:
    return [(m.team, m.source, m.target, m.place) for m in promotion_and_relegation(season, tables)]


def test_the_first_go_up_and_the_last_go_down() -> None:
    assert _moves({"mid": _table(3, 4, 5, 2), "low": _table(8, 6)}) == [
        (2, "mid", "low", 4), (3, "mid", "top", 1), (4, "mid", "top", 2), (8, "low", "mid", 1)]


def test_a_clubs_second_team_is_passed_over_while_its_first_stays_above() -> None:
    # A2 finishes first, but club 1 stays in the top division with A1: C1 and D1 go up.
    assert _moves({"mid": _table(2, 3, 4, 5)})[1:] == [(3, "mid", "top", 2), (4, "mid", "top", 3)]


def test_a_second_team_goes_up_when_its_first_team_goes_down() -> None:
    assert _moves({"top": _table(7, 1), "mid": _table(2, 3, 4, 5)}) == [
        (1, "top", "mid", 2), (5, "mid", "low", 4), (2, "mid", "top", 1), (3, "mid", "top", 2)]


def test_without_one_team_per_club_the_order_of_the_table_alone_counts() -> None:
    open_top = dataclasses.replace(DIVISIONS[0], one_team_per_club=False)
    season = dataclasses.replace(SEASON, divisions=(open_top, *DIVISIONS[1:]))
    assert _moves({"mid": _table(2, 3, 4, 5)}, season)[1:] == [(2, "mid", "top", 1), (3, "mid", "top", 2)]


def test_the_top_promotes_nobody_and_the_bottom_relegates_nobody() -> None:
    assert _moves({"top": _table(1, 7)}) == [(7, "top", "mid", 2)]
    assert _moves({"low": _table(6, 8)}) == [(6, "low", "mid", 1)]


def test_a_table_of_an_unknown_division_is_refused() -> None:
    with pytest.raises(UnknownName, match="unknown division 'x' \\(known: top, mid, low\\)"):
        promotion_and_relegation(SEASON, {"x": _table(1)})
