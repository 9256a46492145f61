"""The meeting formats as data: every registered row plays, names carom's disciplines and
tables, and is cited in docs/leagues.md; a row that could not be played is refused."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from pathlib import Path

import pytest

from carom.competition import CompetitionError
from carom.core.errors import UnknownName
from carom.league import FORMATS, GameSlot, Handicap, MeetingFormat, Points, meeting_format
from carom.rules.disciplines import DISCIPLINES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "leagues.md"


@pytest.mark.parametrize("fmt", FORMATS.values(), ids=list(FORMATS))
def test_every_row_names_carom_disciplines_on_their_tables(fmt: MeetingFormat) -> None:
    for slot in fmt.games:
        assert slot.discipline in DISCIPLINES
        assert fmt.table in DISCIPLINES[slot.discipline].tables
    for weight in fmt.weights:
        assert weight.discipline in {slot.discipline for slot in fmt.games}


@pytest.mark.parametrize("fmt", FORMATS.values(), ids=list(FORMATS))
def test_every_row_is_cited_in_the_leagues_document(fmt: MeetingFormat) -> None:
    text = DOCS.read_text(encoding="utf-8")
    anchor = fmt.source.split("#")[1]
    assert fmt.source.startswith("leagues.md#")
    assert f'<a id="{anchor}"></a>' in text
    assert f"`{fmt.id}`" in text


def test_the_bundesliga_plays_boards_three_and_four_first() -> None:
    fmt = meeting_format("dbu-3c-bundesliga-2")
    assert [(g.round, g.home, g.away, g.points, g.innings) for g in fmt.games] == [
        (1, 3, 3, 40, 50), (1, 4, 4, 40, 50), (2, 1, 1, 40, 50), (2, 2, 2, 40, 50)]
    assert meeting_format("cmbs-3c-extraliga").games[0].points == 30


def test_a_weighted_discipline_and_an_unweighted_one() -> None:
    fmt = meeting_format("dbu-mehrkampf-oberliga")
    assert fmt.weight("one-cushion") == (24, 3)
    assert fmt.weight("three-cushion") == (1, 1)
    assert fmt.games_of(0, 1) == 1 and fmt.games_of(1, 4) == 1


def test_an_unknown_format_names_the_known_ones() -> None:
    with pytest.raises(UnknownName, match="unknown league format 'x' \\(known: dbu-3c-bundesliga, "):
        meeting_format("x")


def _slot(round_: int, home: int, away: int, points: int | None = 10, innings: int | None = None) -> GameSlot:
    return GameSlot(round_, home, away, "three-cushion", points, innings)


_ROW = MeetingFormat(id="row", title="a row", source="", table="small", positions=2,
                     games=(_slot(1, 1, 1), _slot(1, 2, 2)),
                     games_per_player=1, game_points=Points(2, 1, 0), meeting_points=Points(2, 1, 0),
                     tiebreaks=(), roster=3)


@pytest.mark.parametrize(("change", "message"), [
    ({"roster": 1}, "roster: 1 players cannot fill 2 positions"),
    ({"games": ()}, "at least one of each"),
    ({"games": (_slot(1, 1, 3), _slot(1, 2, 2))},
     "games\\[1\\]: positions 1 to 2"),
    ({"games": (_slot(0, 1, 1), _slot(1, 2, 2))},
     "a round from 1"),
    ({"games": (_slot(1, 1, 1, None), _slot(1, 2, 2))},
     "games\\[1\\]: a distance or an innings limit"),
    ({"games": (_slot(1, 1, 1, 10, 0), _slot(1, 2, 2))},
     "each at least 1"),
    ({"handicap": Handicap.AVERAGE, "games": (_slot(1, 1, 1, None, 30),
                                              _slot(1, 2, 2))},
     "a handicap by average needs a distance"),
    ({"games": (_slot(1, 1, 1), _slot(1, 1, 2))},
     "every position plays"),
    ({"games": (_slot(1, 1, 1), _slot(2, 1, 2),
                _slot(2, 2, 1))},
     "more than games_per_player = 1"),
    ({"games_per_player": 2, "games": (
        _slot(1, 1, 1), _slot(1, 1, 2),
        _slot(2, 2, 1), _slot(2, 2, 2))},
     "a position plays twice in one round"),
])
def test_a_row_that_cannot_be_played_is_refused_naming_its_field(change: dict[str, object],
                                                                 message: str) -> None:
    with pytest.raises(CompetitionError, match=f"format 'row': .*{message}"):
        dataclasses.replace(_ROW, **change)  # type: ignore[arg-type]


def test_a_federation_adds_a_row_of_its_own() -> None:
    row = dataclasses.replace(_ROW, id="my-league", deadline=timedelta(hours=2))
    assert row.games_of(1, 2) == 1 and row.deadline == timedelta(hours=2)
