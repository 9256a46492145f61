"""Results out: the scoresheet as PDF (read back with pypdf: names, totals, averages,
the result, the signature lines, in three languages, the font embedded), the innings
as CSV (read back with the csv module), the generic table of results as PDF."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from pypdf import PdfReader

from carom.web.shared.reports import scoresheet_rows, table_pdf
from tests.web.browser import enter

OPENER = {"type": "opener", "player": 0}
CAROM = {"type": "call", "result": "carom"}
MISS = {"type": "call", "result": "miss"}
F4 = {"type": "call", "result": "foul", "rule": "F4"}
ANNA, BORIS = "Ján Šťastný", "Jürgen Größer"
GAME = [OPENER, CAROM, CAROM, MISS, CAROM, MISS, CAROM, CAROM, CAROM, F4]
"""Ján 2, Jürgen 1, Ján 3 (5: the target), Jürgen's equalizing inning ends in a foul."""


@pytest.fixture
def game(organiser: Any) -> int:
    response = organiser.post("/api/matches", json={
        "discipline": "three-cushion", "table": "large", "players": [ANNA, BORIS], "points": 5})
    match_id, token = int(response.json()["id"]), str(response.json()["referee_token"])
    enter(organiser, match_id, token, GAME)
    return match_id


def pdf_text(data: bytes) -> tuple[PdfReader, str]:
    assert data.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(data))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Scoresheet", "Referee", "Signature", "High run", "Average", "2.500", "Ján Šťastný wins",
            "Match points", "three-cushion"]),
    ("sk", ["Rozhodca", "Podpis", "Priemer", "2,500", "Strana 1 z 1", "trojband"]),
    ("de", ["Spielbericht", "Schiedsrichter", "Unterschrift", "Höchstserie", "Durchschnitt", "2,500",
            "Seite 1 von 1", "Dreiband", "gewonnen", "verloren"]),
])
def test_the_scoresheet_pdf_has_the_names_totals_result_and_signature_lines(
        client: Any, game: int, lang: str, words: list[str]) -> None:
    response = client.get(f"/m/{game}/scoresheet.pdf?lang={lang}")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    assert "inline" in response.headers["content-disposition"]
    assert "match-1-J" in response.headers["content-disposition"]
    reader, text = pdf_text(response.content)
    for word in [ANNA, BORIS, *words]:
        assert word in text, (word, text)
    assert "F4" in text  # the fault that ended the inning
    fonts = reader.pages[0]["/Resources"]["/Font"]
    embedded = [f.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
                for f in fonts.values()]
    assert all("/FontFile2" in d and "DejaVu" in str(d["/FontName"]) for d in embedded)


def test_the_scoresheet_takes_the_pages_language_without_a_query(client: Any, game: int) -> None:
    _, text = pdf_text(client.get(f"/m/{game}/scoresheet.pdf", headers={"Accept-Language": "de"}).content)
    assert "Schiedsrichter" in text


def test_a_long_game_goes_over_pages_with_its_totals(organiser: Any) -> None:
    response = organiser.post("/api/matches", json={
        "discipline": "three-cushion", "table": "large", "players": [ANNA, BORIS], "points": 40})
    match_id, token = int(response.json()["id"]), str(response.json()["referee_token"])
    enter(organiser, match_id, token, [OPENER, *[MISS] * 120])
    reader, text = pdf_text(organiser.get(f"/m/{match_id}/scoresheet.pdf").content)
    assert len(reader.pages) >= 2
    assert f"Page {len(reader.pages)} of {len(reader.pages)}" in text
    assert "The match is not finished." in text and "playing" in text


def test_the_scoresheet_csv_reads_back_as_the_innings(client: Any, game: int) -> None:
    response = client.get(f"/m/{game}/scoresheet.csv?lang=sk")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert "attachment" in response.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Zápas", "Set", "Nábeh", "Hráč", "Meno", "Séria", "Spolu", "Chyby"]
    assert rows[1:] == [
        [str(game), "1", "1", "1", ANNA, "2", "2", ""],
        [str(game), "1", "1", "2", BORIS, "1", "1", ""],
        [str(game), "1", "2", "1", ANNA, "3", "5", ""],
        [str(game), "1", "2", "2", BORIS, "0", "1", "F4"],
    ]
    last = {row[3]: int(row[6]) for row in rows[1:]}
    assert [last["1"], last["2"]] == [5, 1]  # the running totals end at the score


def test_the_scoresheet_page_links_pdf_csv_and_the_carom_file(client: Any, game: int) -> None:
    page = client.get(f"/m/{game}/scoresheet").text
    for link in (f"/m/{game}/scoresheet.pdf", f"/m/{game}/scoresheet.csv", f"/m/{game}/export"):
        assert f'href="{link}"' in page
        assert client.get(link).status_code == 200
    assert client.get(f"/m/{game}/export").text.startswith('{"format": "carom/1"')


def test_no_match_no_results(client: Any) -> None:
    for suffix in ("pdf", "csv"):
        assert client.get(f"/m/99/scoresheet.{suffix}").status_code == 404


def test_a_match_in_sets_prints_each_set(organiser: Any) -> None:
    response = organiser.post("/api/matches", json={
        "discipline": "three-cushion", "table": "large", "players": [ANNA, BORIS], "points": 2,
        "sets": {"to_win": 2}})
    assert response.status_code == 201, response.text
    match_id, token = int(response.json()["id"]), str(response.json()["referee_token"])
    enter(organiser, match_id, token, [OPENER, CAROM, CAROM, MISS, MISS])
    _, text = pdf_text(organiser.get(f"/m/{match_id}/scoresheet.pdf?lang=de").content)
    assert "Satz 1" in text and "Satz 2" in text and "Sätze" in text
    rows = list(csv.reader(io.StringIO(organiser.get(f"/m/{match_id}/scoresheet.csv").content
                                       .decode("utf-8-sig"))))
    assert {row[1] for row in rows[1:]} == {"1", "2"}


def test_table_pdf_prints_any_table_of_results() -> None:
    rows = [[1, "Ján Šťastný", "BK Žilina", 4, "1,250", 7],
            [2, "Jürgen Größer", "BC Köln-Süd", 2, "0,875", 3]]
    reader, text = pdf_text(table_pdf("Turnaj Žilina – poradie", ["#", "Hráč", "Klub", "Body", "GD", "HS"],
                                      rows, "sk", subtitle="Skupina A"))
    for word in ("Turnaj Žilina – poradie", "Skupina A", "Hráč", "BK Žilina", "Jürgen Größer", "BC Köln-Süd",
                 "0,875", "Strana 1 z 1"):
        assert word in text
    page = reader.pages[0].mediabox
    assert page.height > page.width  # portrait for a few columns
    wide = table_pdf("Results", [f"c{i}" for i in range(10)], [list(range(10))] * 80, "en")
    reader, text = pdf_text(wide)
    assert reader.pages[0].mediabox.width > reader.pages[0].mediabox.height and len(reader.pages) >= 2
    assert text.count("c9") == len(reader.pages)  # the headings on every page
    with pytest.raises(ValueError, match="rows"):
        table_pdf("x", ["a", "b"], [[1]], "en")


def test_the_csv_rows_add_up_to_the_score(app: Any, client: Any, game: int) -> None:
    snap = app.state.services.book.snapshot(game)
    rows = scoresheet_rows(snap)
    for p in (0, 1):
        assert sum(r[3] for r in rows if r[2] == p + 1) == snap.state.score[p]


def test_column_headings_never_break_inside_a_word() -> None:
    """Found on a club day: with long names the results PDF broke its headings ("Tisc/h",
    "Inning/s"): a column keeps at least its longest word, the names column wraps."""
    headers = ["#", "Runde", "Partie", "Tisch", "Ergebnis", "Aufnahmen", "Stand"]
    name = "Jean-Christophe Roudet-Delacroix de la Fontaine – Maximilian Alexander von Stuckenberg"
    rows = [[n, "Gruppe A, Runde 3", name, 12, "30:28", "40:40", "gewonnen von Maximilian von Stuckenberg"]
            for n in range(1, 4)]
    reader, _ = pdf_text(table_pdf("Ergebnisse", headers, rows, "de", landscape=False))
    lines = [line.strip() for line in reader.pages[0].extract_text().splitlines()]
    for heading in ("Tisch", "Ergebnis", "Aufnahmen", "Stand"):
        assert any(heading in line.split() for line in lines), (heading, lines)
    for piece in ("Tisc", "Aufnahme", "Ergebni"):
        assert piece not in (word for line in lines for word in line.split()), (piece, lines)
