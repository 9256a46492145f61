"""The pages in the reader's language: Slovak says "Bez bodu" for a stroke without a
point (a "chyba" is a fault in the rulebook), plural forms follow the number, numbers
use the language's separator, refusals of the engine and of the forms are translated;
one heading per thing; the organiser logs out from the top bar."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import OPENER, calls, enter

Match = tuple[int, str]
SK = {"Accept-Language": "sk-SK,sk;q=0.9"}
DE = {"Accept-Language": "de-DE"}


def test_the_slovak_tablet_says_bez_bodu_and_the_board_too(client: Any, match: Match) -> None:
    match_id, token = match
    enter(client, match_id, token, [OPENER, *calls("miss")])
    tablet = client.get(f"/m/{match_id}/tablet?t={token}", headers=SK).text
    assert ">Bez bodu<" in tablet and ">Chyba …<" in tablet and "Aká chyba?" in tablet
    assert "Anna: bez bodu" in tablet
    assert "Chyba" not in tablet.split('id="btn-miss"')[1].split("</button>")[0]
    assert "Anna: bez bodu" in client.get(f"/m/{match_id}", headers=SK).text


@pytest.mark.parametrize(("points", "innings", "text"), [
    (1, 1, "1 bod, 1 nábeh"), (2, 3, "2 body, 3 nábehy"), (5, 22, "5 bodov, 22 nábehov")])
def test_slovak_limits_take_the_plural_form_of_their_number(organiser: Any, points: int, innings: int,
                                                            text: str) -> None:
    created = organiser.post("/api/matches", json={"discipline": "three-cushion", "players": ["A", "B"],
                                                   "points": points, "innings": innings}).json()
    assert text in organiser.get(f"/m/{created['id']}", headers=SK).text


def test_averages_use_the_languages_separator(client: Any, match: Match) -> None:
    match_id, token = match
    enter(client, match_id, token, [OPENER, *calls("carom", "carom", "miss", "miss", "miss")])
    assert ">1,000<" in client.get(f"/m/{match_id}", headers=SK).text  # 2 points in 2 innings
    assert ">1,000<" in client.get(f"/m/{match_id}", headers=DE).text
    assert ">1.000<" in client.get(f"/m/{match_id}").text


def test_engine_refusals_and_form_errors_are_translated(organiser: Any, match: Match) -> None:
    match_id, token = match
    refused = organiser.post(f"/m/{match_id}/tablet", data={"type": "call", "result": "carom", "after": "0"},
                             headers={"X-Referee-Token": token, **SK})
    assert refused.status_code == 422
    assert "Odmietnuté: riadok 2: záznam call pred určením zahajujúceho" in refused.text
    form = {"discipline": "balkline-47/2", "table": "small", "player0": "Anna", "player1": "Boris",
            "points": "30", "innings": "", "sets_to_win": "", "equalizing_inning": "on"}
    page = organiser.post("/organiser/matches", data=form, headers=SK).text
    assert "hlavička: stôl: balkline-47/2 sa hrá na stole large, nie small (K1)" in page
    page = organiser.post("/organiser/matches", data={**form, "table": "large", "points": "x"},
                          headers=DE).text
    assert "Punktziel: &#39;x&#39; ist keine ganze Zahl" in page  # the field's name in German too


def test_one_heading_per_thing(client: Any, match: Match) -> None:
    match_id, token = match
    tablet = client.get(f"/m/{match_id}/tablet?t={token}").text
    assert tablet.count("The lag decides who opens") == 1
    assert "<h2>The lag</h2>" not in tablet


def test_the_organiser_logs_out_from_the_top_bar(organiser: Any) -> None:
    page = organiser.get("/organiser").text
    top, main = page.split("<main>", 1)
    assert 'action="/logout"' in top and 'action="/logout"' not in main


def test_a_stranger_is_refused_before_the_body_is_read(stranger: Any, match: Match) -> None:
    match_id, _ = match
    response = stranger.post(f"/api/matches/{match_id}/records", content=b"{ not json",
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 401  # the token first: the body was never parsed
    response = stranger.post(f"/api/matches/{match_id}/records", content=b"{ not json",
                           headers={"X-Referee-Token": "forged"})
    assert response.status_code == 403
