"""CSV sheets: teams and fixtures in (`;` or `,`, UTF-8 with or without a byte-order mark,
Windows-1250 or -1252 when said), the league table out; a bad sheet refused at its first
bad line, naming the line, the column and the rule."""

from __future__ import annotations

import pytest

from carom.core.errors import CaromError, InputError, UnknownName
from carom.league import LeagueError, TableLine, decode_sheet, read_fixtures, read_teams, write_table
from tests.league import hand_season as hand


def _teams(text: str):  # type: ignore[no-untyped-def]
    return read_teams(text, hand.LEAGUE, hand.SEASON, hand.DIVISIONS)


def test_the_hand_seasons_sheets_read_into_ids_in_the_order_of_the_sheet() -> None:
    sheet = _teams(hand.TEAMS_CSV)
    season = sheet.season
    assert [(t.id, t.name, t.division, t.number) for t in season.teams][:4] == [
        (1, "Trenčín A", "1-liga", 1), (2, "Žilina", "1-liga", 1), (3, "Görlitz", "1-liga", 1),
        (4, "Nitra", "1-liga", 1)]
    trencin_b = next(t for t in season.teams if t.name == "Trenčín B")
    assert (trencin_b.club, trencin_b.number) == (1, 2) and season.roster(1) == (1, 2, 3)
    assert sheet.players[16] == ("Igor Štefánik", None)
    fixtures = read_fixtures(hand.FIXTURES_CSV, season)
    assert [(f.id, f.round, f.home, f.away, f.start.isoformat()) for f in fixtures[:3]] == [
        (1, 1, 1, 4, "2025-09-13T14:00:00"), (2, 1, 2, 3, "2025-09-13T14:00:00"),
        (3, 2, 4, 3, "2025-10-04T14:00:00")]


def test_commas_quotes_a_byte_order_mark_and_windows_code_pages() -> None:
    text = hand.TEAMS_CSV.replace(";", ",")
    assert _teams(text) == _teams(hand.TEAMS_CSV)
    assert _teams(decode_sheet(b"\xef\xbb\xbf" + hand.TEAMS_CSV.encode())) == _teams(hand.TEAMS_CSV)
    central = decode_sheet(hand.TEAMS_CSV.encode("cp1250"), "windows-1250")
    assert _teams(central) == _teams(hand.TEAMS_CSV)
    western = "division,club,team,player\n1-liga,\"Billard, Görlitz\",Görlitz,Jörg Weiß\n"
    assert decode_sheet(western.encode("cp1252"), "windows-1252") == western
    quoted = _teams('division;club;team;player\n1-liga;"BK; Trenčín";"T";"A"\n1-liga;"BK; Trenčín";"T";"B"\n')
    assert [c.name for c in quoted.season.clubs] == ["BK; Trenčín"]


def test_bytes_that_are_not_the_encoding_said_name_their_line() -> None:
    with pytest.raises(InputError, match="line 2: not UTF-8 text: byte 0xe8"):
        decode_sheet("division;club\nTrenčín".encode("cp1250"))
    with pytest.raises(InputError, match="line 3: byte 0x81 is not windows-1250 text"):
        decode_sheet(b"a\nb\n\x81", "windows-1250")
    with pytest.raises(UnknownName, match="unknown encoding 'latin-9' \\(known: utf-8, windows-1250, "
                                          "windows-1252\\)"):
        decode_sheet(b"", "latin-9")


def test_a_player_listed_by_licence_is_one_player_whatever_the_spelling() -> None:
    head = "division;club;team;player;licence\n"
    sheet = _teams(head + "1-liga;A;A1;Jan Novak;SK-1\n1-liga;A;A1;Ján Novák;SK-2\n")
    assert sheet.players == {1: ("Jan Novak", "SK-1"), 2: ("Ján Novák", "SK-2")}
    with pytest.raises(LeagueError, match="line 3: player: 'Ján Novák' is twice on its roster \\(line 2\\) "
                                          "\\(LG1\\)"):
        _teams(head + "1-liga;A;A1;Jan Novak;SK-1\n1-liga;A;A1;Ján Novák;SK-1\n")


HEADER = "division;club;team;player\n"


@pytest.mark.parametrize(("text", "message"), [
    ("", "line 1: the sheet is empty"),
    ("division;club;team;name\n", "line 1: header: unknown column 'name'"),
    ("division;club;player\n", "line 1: header: no column 'team'"),
    (HEADER + "1-liga;A;A1;\n", "line 2: player: empty"),
    (HEADER + "1-liga;A;A1;P;x\n", "line 2: 5 cells, the header names 4 columns"),
    ("division;club;team;player;number\n1-liga;A;A1;P;0\n", "line 2: number: '0' is not a whole number"),
    (HEADER + "3-liga;A;A1;P\n", "line 2: division: '3-liga' is not a division of the season .* \\(LG12\\)"),
    (HEADER + "1-liga;A;A1;P\n1-liga;B;A1;Q\n", "line 3: team: 'A1' is given with another club, division or "
                                                "number on line 2 \\(LG12\\)"),
    ("division;club;team;player;number\n1-liga;A;A2;P;2\n1-liga;A;A2;Q;2\n1-liga;A;A1;R;\n2-liga;A;A3;S;2\n",
     "line 5: number: 'A' has 'A2' as its team 2 already \\(line 2\\) \\(LG12\\)"),
    (HEADER + "1-liga;A;A1;P\n1-liga;A;A1;Q\n1-liga;B;B1;P\n1-liga;B;B1;R\n",
     "line 4: player: 'P' is on the roster of 'A1' already \\(line 2\\) \\(LG1\\)"),
    (HEADER + "1-liga;A;A1;P\n1-liga;B;B1;Q\n1-liga;B;B1;R\n",
     "line 2: team 'A1': 1 players on the roster; the format 'club-3c-two-boards' needs 2 to 4 \\(LG2\\)"),
    (HEADER + "".join(f"1-liga;A;A1;M{n}\n" for n in range(5)), "line 2: team 'A1': 5 players"),
])
def test_a_bad_teams_sheet_is_refused_at_its_first_bad_line(text: str, message: str) -> None:
    with pytest.raises(CaromError, match=message):
        _teams(text)


FIX = "division;round;date;time;home;away\n"


@pytest.mark.parametrize(("text", "message"), [
    (FIX + "1-liga;1;2025-13-01;;Nitra;Žilina\n", "line 2: date: '2025-13-01' is not a date like 2025-09-13"),
    (FIX + "1-liga;1;2025-09-13;2 pm;Nitra;Žilina\n", "line 2: time: '2 pm' is not a time like 14:30"),
    (FIX + "1-liga;x;2025-09-13;;Nitra;Žilina\n", "line 2: round: 'x' is not a whole number"),
    (FIX + "1-liga;\u00b2;2025-09-13;;Nitra;Žilina\n", "line 2: round: '\u00b2' is not a whole number"),
    (FIX + "1-liga;\u0663;2025-09-13;;Nitra;Žilina\n", "line 2: round: '\u0663' is not a whole number"),
    (FIX + "1-liga;1234567;2025-09-13;;Nitra;Žilina\n", "line 2: round: '1234567' is not a whole number "
                                                       "from 1 to 999999"),
    (FIX + "1-liga;1;2025-09-13;;Nitra;Košice\n", "line 2: away: 'Košice' is not a team of division '1-liga' "
                                                  "\\(LG11\\)"),
    (FIX + "4-liga;1;2025-09-13;;Nitra;Žilina\n", "line 2: division: '4-liga' is not a division .*LG12"),
    (FIX + "1-liga;1;2025-09-13;;Nitra;Nitra\n", "line 2: meeting 1: 'Nitra' would meet itself \\(LG11\\)"),
    (FIX + "1-liga;1;2025-09-13;;Nitra;Žilina\n1-liga;2;2025-09-20;;Nitra;Žilina\n",
     "line 3: 'Nitra' receives 'Žilina' 2 times \\(LG11\\)"),
    (FIX + "1-liga;1;2025-09-13;;Nitra;Žilina\n1-liga;1;2025-09-13;;Görlitz;Nitra\n",
     "line 3: 'Nitra' plays 2 meetings on match day 1 \\(LG11\\)"),
    (hand.FIXTURES_CSV.rsplit("\n", 2)[0] + "\n", "'Trenčín A' never receives 'Görlitz' \\(LG11\\)"),
])
def test_a_bad_fixtures_sheet_is_refused_at_its_first_bad_line(text: str, message: str) -> None:
    with pytest.raises(CaromError, match=message):
        read_fixtures(text, _teams(hand.TEAMS_CSV).season)


def test_a_date_in_either_form_and_a_meeting_without_a_time() -> None:
    season = _teams(hand.TEAMS_CSV).season
    text = hand.FIXTURES_CSV.replace("13.09.2025;14:00", "2025-09-13;").replace("time;", "time;", 1)
    fixtures = read_fixtures(text, season)
    assert fixtures[0].start.isoformat() == "2025-09-13T00:00:00" and fixtures[2].start.hour == 14


def test_the_table_sheet_with_commas_and_a_name_that_looks_like_a_formula() -> None:
    line = TableLine(1, 7, 2, 1, 1, 0, 3, 1, 6, 2, 20, 30)
    assert write_table([line], {7: "=HYPERLINK(1)"}, ",").splitlines()[1] == \
        "1,'=HYPERLINK(1),2,1,1,0,3,1,6,2,0.666"
    assert write_table([line], {}).endswith("1;7;2;1;1;0;3;1;6;2;0.666\r\n")  # 2/3 cut
    with pytest.raises(InputError, match="delimiter: '\\\\t' is not ';' or ','"):
        write_table([line], {}, "\t")
