"""The divisions sheet: a season's divisions, the formats they play and where their teams
move, as the league office types them; a bad line refused, naming the line, column and rule."""

from __future__ import annotations

import pytest

from carom.core.errors import InputError
from carom.league import LeagueError, read_divisions
from tests.league import hand_season as hand

HEAD = "division;name;format;up;down;promote;relegate;one_team_per_club\n"


def test_the_hand_seasons_divisions_read_as_the_fixture_gives_them() -> None:
    assert read_divisions(hand.DIVISIONS_CSV) == hand.DIVISIONS


def test_only_division_and_format_are_needed() -> None:
    (only,) = read_divisions("division,format\nliga,club-3c-two-boards\n")
    assert (only.id, only.name, only.up, only.promote, only.one_team_per_club) == (
        "liga", "liga", None, 0, False)


@pytest.mark.parametrize(("line", "message"), [
    ("a;A;no-such-format;;;;;", "line 2: format: "),
    ("a;A;club-3c-two-boards;nowhere;;1;;", "line 2: up: 'nowhere' is not a division of the sheet (LG12)"),
    ("a;A;club-3c-two-boards;;;x;;", "line 2: promote: 'x' is not a whole number from 1"),
    ("a;A;club-3c-two-boards;;;;;maybe", "line 2: one_team_per_club: 'maybe' is not yes or no"),
    ("a;A;club-3c-two-boards;;;;;\na;B;club-3c-two-boards;;;;;",
     "line 3: division: 'a' is given twice (LG12)"),
])
def test_a_bad_line_is_named(line: str, message: str) -> None:
    with pytest.raises((LeagueError, InputError)) as refused:
        read_divisions(HEAD + line + "\n")
    assert str(refused.value).startswith(message)


def test_an_empty_sheet_is_refused() -> None:
    with pytest.raises(InputError, match="names no division"):
        read_divisions(HEAD)
