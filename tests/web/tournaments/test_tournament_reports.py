"""A tournament's results as PDF: a round robin of five played through the API, its PDF
read back with pypdf, the names and figures checked against the standings (while it
runs and at the end, in three languages)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.storage.test_tournaments import NAMES
from tests.web.matches.test_reports import pdf_text
from tests.web.tournaments.test_tournaments_api import five_players, post_records, run

HAND = [(1, "Anna", 8, 20, 4, "5.000", "5.000", 5), (2, "Boris", 5, 17, 4, "4.250", "5.000", 5),
        (2, "Emil", 5, 17, 4, "4.250", "5.000", 5), (4, "Cyril", 2, 11, 4, "2.750", "5.000", 5),
        (5, "Dana", 0, 16, 4, "4.000", "4.000", 4)]
"""The standings of the round robin of tests/web/tournaments/test_tournaments_api.py, by hand:
rank, name, MP, points, innings, GD, BED, HS (each played 4 games)."""


def _tournament(organiser: Any) -> int:
    tid = int(organiser.post("/api/tournaments", json={
        "name": "Pohár Žilina", "discipline": "three-cushion", "points": 5, "tables": 2}).json()["id"])
    assert organiser.post(f"/api/tournaments/{tid}/players",
                          json={"players": [{"name": n} for n in NAMES]}).status_code == 201
    assert organiser.post(f"/api/tournaments/{tid}/start").status_code == 200
    return tid


def _row(text: str, name: str) -> str:
    found = [line for line in text.splitlines() if re.match(rf"\d+ {name} ", line)]
    assert found, (name, text)
    return found[0]


@pytest.mark.parametrize(("lang", "words", "sep"), [
    ("en", ["Final ranking", "Games", "Winner: Anna", "won by Anna", "Page 1 of"], "."),
    ("sk", ["Konečné poradie", "Víťaz: Anna", "Strana 1 z"], ","),
    ("de", ["Endstand", "Sieger: Anna", "Seite 1 von"], ","),
])
def test_the_results_pdf_has_the_ranking_and_games(organiser: Any, lang: str, words: list[str],
                                                    sep: str) -> None:
    tid = _tournament(organiser)
    run(organiser, tid, 2, five_players)
    response = organiser.get(f"/tournaments/{tid}/results.pdf?lang={lang}")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    _, text = pdf_text(response.content)
    for word in ["Pohár Žilina", *words]:
        assert word in text, (word, text)
    for rank, name, mp, points, innings, gd, bed, hs in HAND:
        cells = _row(text, name).split()
        assert cells == [str(rank), name, "4", str(mp), str(points), str(innings), gd.replace(".", sep),
                         bed.replace(".", sep), str(hs)], cells
    # every game with its score: ten games, each "5:x" or "x:5"
    assert len(re.findall(r"\b(?:5:\d|\d:5)\b", text)) == 10
    api = organiser.get(f"/api/tournaments/{tid}/results.pdf?lang={lang}")
    assert api.status_code == 200 and api.content[:5] == b"%PDF-"


def test_while_it_runs_the_pdf_shows_the_standings_so_far(client: Any, organiser: Any) -> None:
    tid = _tournament(organiser)
    game = next(g for g in organiser.get(f"/api/tournaments/{tid}/games").json() if g["status"] == "playing")
    post_records(organiser, game, 5, 2)
    winner, loser = game["names"]
    _, text = pdf_text(client.get(f"/api/tournaments/{tid}/results.pdf?lang=en").content)
    assert "Standings so far" in text and "Final ranking" not in text
    assert _row(text, winner).split()[2:] == ["1", "2", "5", "1", "5.000", "5.000", "5"]
    assert _row(text, loser).split()[2:] == ["1", "0", "2", "1", "2.000", "2.000", "2"]
    assert "playing" in text and "waiting" in text


def test_the_results_pdf_of_no_tournament_is_404(client: Any) -> None:
    assert client.get("/api/tournaments/99/results.pdf").status_code == 404
    assert client.get("/tournaments/99/results.pdf").status_code == 404


def test_the_results_pdf_is_in_the_openapi(client: Any) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    answer = paths["/api/tournaments/{tournament_id}/results.pdf"]["get"]["responses"]["200"]
    assert "application/pdf" in answer["content"]
