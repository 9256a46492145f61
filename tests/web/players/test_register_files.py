"""The files clubs have: a register exported from Excel in Slovakia or
Germany (``;``, Windows-1250 or -1252) imports as the organiser says it is encoded, and
a file not valid in that encoding is refused naming its line; the exports open in Excel
(``;``, decimal commas, a byte order mark) and no CSV runs a name as a formula; the
register is sorted as the page's language sorts and is linked from the pages."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest

SLOVAK = "meno;klub\r\n"  # not the columns' names: refused on line 1
REGISTER = "name;club;country\r\nĽudovít Šťastný;BK Žilina;SK\r\nŽofia Čierna;BK Žilina;SK\r\n"


def _import(client: Any, data: bytes, **fields: str) -> Any:
    csrf = client.get("/api/session").json()["csrf"]
    return client.post("/players/register/import", data={"csrf": csrf, **fields},
                       files={"file": ("players.csv", data)})


def _names(client: Any, lang: str = "en") -> list[str]:
    page = client.get("/players/register", headers={"Accept-Language": lang}).text
    return re.findall(r'<tr data-player="\d+"><td>([^<]*)</td>', page)


def test_a_semicolon_windows_1250_register_imports_as_the_organiser_says(organiser: Any) -> None:
    """Such a file was refused before: a UTF-8 file with commas was all it took (bug 10)."""
    done = _import(organiser, REGISTER.encode("cp1250"), charset="windows-1250")
    assert done.status_code == 200 and "2 new players, 0 updated" in done.text
    assert _names(organiser) == ["Ľudovít Šťastný", "Žofia Čierna"]
    german = "name,club\nJürgen Größer,BC Köln\n".encode("cp1252")
    assert _import(organiser, german, charset="windows-1252", separator=",").status_code == 200
    assert "Jürgen Größer" in _names(organiser)


def test_a_file_not_valid_in_the_encoding_chosen_is_refused_naming_its_line(organiser: Any) -> None:
    refused = _import(organiser, REGISTER.encode("cp1250"))  # the form's default: UTF-8
    assert refused.status_code == 422
    assert "line 2: byte 0xBC is not utf-8 text (is the file in windows-1250, windows-1252?)" in refused.text
    assert _names(organiser) == []
    unknown = _import(organiser, b"name\nA\n", charset="ebcdic")
    assert unknown.status_code == 422 and "charset: expected one of" in unknown.text
    header = _import(organiser, SLOVAK.encode())
    assert header.status_code == 422 and "line 1" in header.text
    sk = organiser.post("/players/register/import", headers={"Accept-Language": "sk"},
                        data={"csrf": organiser.headers["X-CSRF-Token"]},
                        files={"file": ("p.csv", REGISTER.encode("cp1250"))})
    assert "riadok 2: bajt 0xBC nie je text v kódovaní utf-8" in sk.text


def test_a_register_of_names_alone_imports_again(organiser: Any) -> None:
    """A file of one column (names only) finds its players again and changes nothing (it
    was an UPDATE of no columns: a 500)."""
    assert _import(organiser, b"name\nAnna\nBoris\n").status_code == 200
    again = _import(organiser, b"name\nAnna\nBoris\n")
    assert again.status_code == 200 and "0 new players, 2 updated" in again.text


def test_the_register_is_sorted_as_the_pages_language_sorts(organiser: Any) -> None:
    """Letters with diacritics were sorted after Z before (bug 14)."""
    names = ["Zeman", "Ľudovít Lukáč", "Österreicher", "Otto", "Čech", "Cyril", "Chudý", "Hrubý", "Adam"]
    _import(organiser, ("name\n" + "\n".join(names) + "\n").encode())
    assert _names(organiser, "de") == ["Adam", "Čech", "Chudý", "Cyril", "Hrubý", "Ľudovít Lukáč",
                                       "Österreicher", "Otto", "Zeman"]
    assert _names(organiser, "sk") == ["Adam", "Cyril", "Čech", "Hrubý", "Chudý", "Ľudovít Lukáč",
                                       "Österreicher", "Otto", "Zeman"]
    exported = organiser.get("/players/register.csv", headers={"Accept-Language": "de"}).content
    column = [row[1] for row in csv.reader(io.StringIO(exported.decode("utf-8-sig")))]
    assert column[1:] == _names(organiser, "de")


def test_the_exports_open_in_excel_in_slovak_and_german(organiser: Any) -> None:
    match = organiser.post("/api/matches", json={"discipline": "three-cushion", "players": ["Anna", "Boris"],
                                                 "points": 2, "equalizing_inning": False}).json()
    for seq, record in enumerate([{"type": "opener", "player": 0}, {"type": "inning", "points": 1},
                                  {"type": "inning", "points": 0}, {"type": "inning", "points": 1}]):
        organiser.post(f"/api/matches/{match['id']}/records", json={"after": seq, "record": record},
                       headers={"X-Referee-Token": match["referee_token"]})
    excel = organiser.get("/players/register.csv?sep=;&decimal=comma")
    assert excel.content.startswith(b"\xef\xbb\xbf")
    lines = excel.content.decode("utf-8-sig").split("\r\n")
    assert lines[0] == "id;name;club;country;licence;average:three-cushion"
    assert lines[1].endswith(";Anna;;;;1,000") and lines[2].endswith(";Boris;;;;0,000")
    plain = organiser.get("/players/register.csv").content.decode("utf-8-sig").split("\r\n")
    assert plain[1].endswith(",Anna,,,,1.000")
    refused = organiser.get("/players/register.csv?sep=|")
    assert refused.status_code == 422 and "sep: expected , or ;" in refused.text


def test_the_tournaments_exports_take_the_excel_style(organiser: Any) -> None:
    tid = organiser.post("/api/tournaments", json={"name": "Cup", "discipline": "three-cushion",
                                                   "points": 1, "equalizing_inning": False}).json()["id"]
    organiser.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": "=A"}, {"name": "B"}]})
    game = organiser.post(f"/api/tournaments/{tid}/start").json()["games"][0]
    for seq, record in enumerate([{"type": "opener", "player": 0}, {"type": "inning", "points": 1}]):
        organiser.post(f"/api/matches/{game['match']}/records", json={"after": seq, "record": record},
                       headers={"X-Referee-Token": game["referee_token"]})
    results = organiser.get(f"/api/tournaments/{tid}/results.csv?sep=;&decimal=comma").content
    rows = list(csv.reader(io.StringIO(results.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][-3:] == ["general_average", "best_average", "high_run"]
    assert rows[1][2] == "'=A" and rows[1][-3:] == ["1,000", "1,000", "1"]
    games = organiser.get(f"/api/tournaments/{tid}/games.csv?decimal=comma").content.decode("utf-8-sig")
    row = next(csv.DictReader(io.StringIO(games)))
    assert row["player_a"] == "'=A" and row["average_a"] == "1,000"
    assert organiser.get(f"/api/tournaments/{tid}/games.csv?decimal=x").status_code == 422


@pytest.mark.parametrize("name", ['=HYPERLINK("http://evil.example","Anna")', "@SUM(1)", "+1+1"])
def test_the_scoresheet_csv_runs_no_name_as_a_formula(organiser: Any, name: str) -> None:
    """The match's scoresheet CSV wrote such names as they are before (M4)."""
    match = organiser.post("/api/matches", json={"discipline": "three-cushion", "players": [name, "Boris"],
                                                 "points": 5}).json()
    for seq, record in enumerate([{"type": "opener", "player": 0}, {"type": "inning", "points": 2}]):
        organiser.post(f"/api/matches/{match['id']}/records", json={"after": seq, "record": record},
                       headers={"X-Referee-Token": match["referee_token"]})
    for query, separator in (("", ","), ("?sep=;", ";")):
        data = organiser.get(f"/m/{match['id']}/scoresheet.csv{query}").content
        rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=separator))
        assert rows[1][4] == "'" + name


def test_the_register_is_linked_from_the_pages(organiser: Any, stranger: Any) -> None:
    """No page linked to the register and its import before (bug 9)."""
    for client in (organiser, stranger):
        for page in ("/players", "/tournaments"):
            assert 'href="/players/register"' in client.get(page).text, page
    tid = organiser.post("/api/tournaments", json={"name": "Cup", "discipline": "three-cushion",
                                                   "points": 5}).json()["id"]
    _import(organiser, b"name\nAnna\n")
    assert 'href="/players/register"' in organiser.get(f"/tournaments/{tid}").text
    page = organiser.get("/players/register").text
    assert 'id="register-import"' in page and 'name="charset"' in page and 'id="register-excel"' in page
