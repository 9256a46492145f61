"""A tournament game's scoresheets name the tournament, the round and the table: the match's
scoresheet page, its text, its PDF and its CSV (a one-off match's have none of it)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests.web.matches.test_reports import pdf_text
from tests.web.tables.helpers import add_table
from tests.web.tournaments.test_tournaments_api import post_records


@pytest.fixture
def game(organiser: Any) -> dict[str, Any]:
    """The first game of a round robin of three on the hall's table "Brunswick 2", played
    (2 : 1 in one inning each)."""
    add_table(organiser, "Brunswick 2")
    created = organiser.post("/api/tournaments", json={"name": "Winter cup", "discipline": "three-cushion",
                                                      "points": 2})
    tid = created.json()["id"]
    chosen = organiser.post(f"/api/tournaments/{tid}/tables", json={"tables": ["Brunswick 2"]})
    assert chosen.status_code == 200
    organiser.post(f"/api/tournaments/{tid}/players",
                   json={"players": [{"name": n} for n in ("Ann", "Bob", "Cid")]})
    started = organiser.post(f"/api/tournaments/{tid}/start")
    playing = next(g for g in started.json()["games"] if g["status"] == "playing")
    post_records(organiser, playing, 2, 1)
    return dict(playing)


def _rows(client: Any, match: int) -> list[list[str]]:
    return list(csv.reader(io.StringIO(client.get(f"/m/{match}/scoresheet.csv").content.decode("utf-8-sig"))))


PLACE = "Winter cup · Group A, round 1 · Table Brunswick 2"


def test_the_page_and_the_text_name_the_tournament_round_and_table(client: Any, game: dict[str, Any]) -> None:
    page = client.get(f"/m/{game['match']}/scoresheet")
    assert f'<p id="sheet-place"><strong>{PLACE}</strong></p>' in page.text
    assert client.get(f"/m/{game['match']}/scoresheet.txt").text.startswith(PLACE + "\n\n")
    sk = client.get(f"/m/{game['match']}/scoresheet.txt", headers={"Accept-Language": "sk"}).text
    assert sk.startswith("Winter cup · Skupina A, 1. kolo · Stôl Brunswick 2"), sk[:80]


def test_the_pdf_and_the_csv_name_them_too(client: Any, game: dict[str, Any]) -> None:
    _, text = pdf_text(client.get(f"/m/{game['match']}/scoresheet.pdf?lang=en").content)
    assert PLACE in text
    rows = _rows(client, game["match"])
    assert rows[0][:4] == ["Tournament", "Round", "Table", "Match"]
    assert rows[1][:3] == ["Winter cup", "Group A, round 1", "Brunswick 2"]


def test_a_one_off_matchs_scoresheets_name_no_tournament(client: Any, match: tuple[int, str]) -> None:
    assert 'id="sheet-place"' not in client.get(f"/m/{match[0]}/scoresheet").text
    rows = _rows(client, match[0])
    assert rows[0][0] == "Match"
