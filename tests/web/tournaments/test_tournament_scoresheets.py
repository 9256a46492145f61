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
    assert rows[0][:5] == ["Tournament", "Round", "Table", "Result kept", "Match"]
    assert rows[1][:4] == ["Winter cup", "Group A, round 1", "Brunswick 2", ""]


def test_a_one_off_matchs_scoresheets_name_no_tournament(client: Any, match: tuple[int, str]) -> None:
    assert 'id="sheet-place"' not in client.get(f"/m/{match[0]}/scoresheet").text
    rows = _rows(client, match[0])
    assert rows[0][0] == "Match"


@pytest.fixture
def called(organiser: Any) -> tuple[int, dict[str, Any]]:
    """A round robin of three whose first game is called to table 1 and not played."""
    created = organiser.post("/api/tournaments", json={"name": "Spring cup", "discipline": "three-cushion",
                                                      "points": 2})
    tid = created.json()["id"]
    organiser.post(f"/api/tournaments/{tid}/players",
                   json={"players": [{"name": n} for n in ("Ann", "Bob", "Cid")]})
    started = organiser.post(f"/api/tournaments/{tid}/start")
    return tid, next(g for g in started.json()["games"] if g["status"] == "playing")


def test_a_paper_results_match_says_the_result_the_tournament_keeps(
        client: Any, organiser: Any, called: tuple[int, dict[str, Any]]) -> None:
    """D10: the game's unplayed match is no longer taken for the result; each of its
    scoresheets says what the tournament keeps instead (a correction after it too, D11)."""
    tid, game = called
    path = f"/api/tournaments/{tid}/games/{game['id']}"
    assert client.get(f"/m/{game['match']}/scoresheet").text.count('id="sheet-kept"') == 0
    answer = organiser.post(f"{path}/result", json={"points": [2, 1], "innings": [3, 3], "high_run": [1, 1]})
    assert answer.status_code == 200, answer.text
    kept = "The tournament keeps the result of a paper scoresheet: 2 : 1, innings 3 : 3"
    assert f'<p id="sheet-kept">{kept}</p>' in client.get(f"/m/{game['match']}/scoresheet").text
    assert client.get(f"/m/{game['match']}/scoresheet.txt").text.split("\n")[1] == kept
    sk = client.get(f"/m/{game['match']}/scoresheet.txt", headers={"Accept-Language": "sk"}).text
    assert "papierového" in sk.split("\n")[1], sk[:200]
    _, text = pdf_text(client.get(f"/m/{game['match']}/scoresheet.pdf?lang=en").content)
    assert kept in " ".join(text.split())
    assert _rows(client, game["match"])[0][:5] == ["Tournament", "Round", "Table", "Result kept", "Match"]
    organiser.post(f"{path}/unlock", json={"reason": "the sheet says 2:0"})
    organiser.post(f"{path}/correction", json={"points": [2, 0], "innings": [2, 2], "high_run": [1, 0],
                                               "reason": "Bob made none"})
    assert client.get(f"/m/{game['match']}/scoresheet.txt").text.split("\n")[1] == \
        "The tournament keeps a corrected result: 2 : 0, innings 2 : 2"


def test_a_walkover_names_its_winner_on_the_scoresheet(client: Any, organiser: Any,
                                                       called: tuple[int, dict[str, Any]]) -> None:
    """D9: a game given by walkover to its second player, as its match's scoresheet says."""
    tid, game = called
    answer = organiser.post(f"/api/tournaments/{tid}/games/{game['id']}/walkover", json={"winner": 1})
    assert answer.status_code == 200, answer.text
    players = client.get(f"/api/matches/{game['match']}").json()["header"]["players"]
    assert client.get(f"/m/{game['match']}/scoresheet.txt").text.split("\n")[1] == \
        f"The tournament keeps a walkover won by {players[1]}"
