"""The leagues' pages through HTTP: the organiser makes a season with the form and issues
captain links; a captain hands in a line-up and signs a report with the forms; every page
answers in en, sk and de; a refused form says why, with its league rule, and keeps nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.league import hand_season as hand
from tests.web.leagues import season as play_season


def _season(organiser: Any) -> tuple[int, dict[str, str], dict[str, int], list[dict[str, Any]]]:
    season_id = play_season.create(organiser)
    tokens = play_season.links(organiser, season_id, ["Trenčín A", "Nitra"])
    ids = play_season.player_ids(organiser, season_id)
    meetings = organiser.get(f"/api/leagues/{season_id}").json()["meetings"]
    return season_id, tokens, ids, meetings


def test_the_organiser_makes_a_season_with_the_form(organiser: Any) -> None:
    page = organiser.get("/leagues")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    form = play_season.body() | {"csrf": csrf}
    twice = form["fixtures"].replace("Žilina;Görlitz\n", "Trenčín A;Nitra\n", 1)
    bad = organiser.post("/leagues", data=form | {"fixtures": twice}, headers={"Accept-Language": "sk"},
                         follow_redirects=False)
    assert bad.status_code == 422 and "(LG11: " in bad.text and "riadok 3" in bad.text, bad.text
    assert organiser.get("/api/leagues").json() == []
    made = organiser.post("/leagues", data=form, follow_redirects=False)
    assert made.status_code == 303 and made.headers["location"] == "/leagues/1"
    issued = organiser.post("/leagues/1/captain-links", data={"csrf": csrf, "team": "1"})
    url = re.search(r'class="captain-url" href="([^"]+)"', issued.text).group(1)  # type: ignore[union-attr]
    assert re.fullmatch(r"http://testserver/leagues/1/captain\?t=[\w-]{20,}", url)


def test_a_form_without_the_organiser_is_sent_to_the_login(stranger: Any) -> None:
    response = stranger.post("/leagues", data=play_season.body(), follow_redirects=False)
    assert response.status_code == 303 and "/login" in response.headers["location"]
    assert stranger.get("/leagues/1/organiser", follow_redirects=False).status_code == 303


def test_the_captain_hands_in_a_line_up_and_signs_with_the_forms(organiser: Any, stranger: Any) -> None:
    season_id, tokens, ids, meetings = _season(organiser)
    first = meetings[0]
    token = tokens["Trenčín A"]
    page = stranger.get(f"/leagues/{season_id}/captain?t={token}")
    assert page.status_code == 200
    assert "Igor Štefánik (Trenčín B)" in page.text  # a substitute the format allows
    form = {"captain": token, "fixture": str(first["id"])}
    kovac, novak, horvath = (str(ids[n]) for n in ("Adam Kováč", "Róbert Novák", "Peter Horváth"))
    refused = stranger.post(f"/leagues/{season_id}/captain/lineup", headers={"Accept-Language": "de"},
                            data=form | {"position1": kovac, "position2": novak})
    assert refused.status_code == 422 and "(LG3: " in refused.text, refused.text
    twice = stranger.post(f"/leagues/{season_id}/captain/lineup",
                          data=form | {"position1": kovac, "position2": kovac})
    assert twice.status_code == 422 and "(LG7: " in twice.text
    done = stranger.post(f"/leagues/{season_id}/captain/lineup", follow_redirects=False,
                         data=form | {"position1": kovac, "position2": horvath})
    assert done.status_code == 303
    meeting = stranger.get(f"/leagues/meetings/{first['id']}")
    assert "Adam Kováč" not in meeting.text  # hidden until both are in
    assert "Adam Kováč" in stranger.get(f"/leagues/meetings/{first['id']}?t={token}").text
    play_season.hand_in(stranger, first, tokens["Nitra"], [ids["Róbert Novák"], ids["Marek Čierny"]])
    seen = stranger.get(f"/api/leagues/meetings/{first['id']}", headers={"X-Captain-Token": token}).json()
    for game, hand_game in zip(seen["games"], hand.MEETINGS[1], strict=True):
        play_season.play(stranger, game, hand_game)
    signed = stranger.post(f"/leagues/{season_id}/captain/report", data=form, follow_redirects=False)
    assert signed.status_code == 303
    again = stranger.post(f"/leagues/{season_id}/captain/report", data=form,
                          headers={"Accept-Language": "sk"})
    assert again.status_code == 422 and "(LG9: " in again.text
    assert stranger.get(f"/leagues/{season_id}/captain?t=wrong").status_code == 403


@pytest.mark.parametrize("lang", ["en", "sk", "de"])
def test_every_page_answers_in_every_language(organiser: Any, stranger: Any, lang: str) -> None:
    season_id, tokens, ids, meetings = _season(organiser)
    seen = play_season.lineups(organiser, meetings[0], 1, tokens, ids)
    play_season.play(organiser, seen["games"][0], hand.MEETINGS[1][0])
    headers = {"Accept-Language": lang}
    first, home = meetings[0]["id"], meetings[0]["home"]["id"]
    pages = ["/leagues", f"/leagues/{season_id}", f"/leagues/{season_id}/divisions/{hand.DIVISION}",
             f"/leagues/{season_id}/teams/{home}", f"/leagues/meetings/{first}",
             f"/leagues/meetings/{first}/live",
             f"/leagues/{season_id}/captain?t={tokens['Nitra']}", f"/players/{ids['Adam Kováč']}"]
    for path in pages:
        response = stranger.get(path, headers=headers)
        assert response.status_code == 200, (path, response.text)
        assert f'<html lang="{lang}">' in response.text or path.endswith("/live"), path
    assert organiser.get(f"/leagues/{season_id}/organiser", headers=headers).status_code == 200
    for path in ("/leagues/9", "/leagues/meetings/99", f"/leagues/{season_id}/teams/999",
                 f"/leagues/{season_id}/divisions/nowhere"):
        assert stranger.get(path, headers=headers).status_code == 404, path


def test_bad_input_through_the_pages_names_its_rule_and_keeps_nothing(organiser: Any, stranger: Any) -> None:
    csrf = organiser.get("/api/session").json()["csrf"]
    teams = hand.TEAMS_CSV.replace("Žilina;1;Martin Šimko", "Žilina;1;Adam Kováč")  # on two rosters
    refused = organiser.post("/leagues", data=play_season.body() | {"csrf": csrf, "teams": teams},
                             headers={"Accept-Language": "de"})
    assert refused.status_code == 422, refused.text
    assert "Zeile 5: " in refused.text and "(LG1: " in refused.text
    past = play_season.body() | {"fixtures": hand.FIXTURES_CSV}  # the season as worked out: every start past
    season_id = organiser.post("/api/leagues", json=past).json()["id"]
    token = play_season.links(organiser, season_id, ["Trenčín A"])["Trenčín A"]
    ids = play_season.player_ids(organiser, season_id)
    first = organiser.get(f"/api/leagues/{season_id}").json()["meetings"][0]
    form = {"captain": token, "fixture": str(first["id"]), "position1": str(ids["Adam Kováč"])}
    late = stranger.post(f"/leagues/{season_id}/captain/lineup", headers={"Accept-Language": "sk"},
                         data=form | {"position2": str(ids["Peter Horváth"])})
    assert late.status_code == 422 and "(LG5: " in late.text and "termín bol 2025-09-13 14:00" in late.text
    assert stranger.get(f"/api/leagues/meetings/{first['id']}").json()["handed_in"] == []


def test_numbers_in_forms_are_ascii_digits_only(organiser: Any, stranger: Any) -> None:
    """A superscript two (which str.isdigit takes and int refuses: a 500) and an
    Arabic-Indic digit (which int reads) are no team, meeting or player number."""
    season_id, tokens, ids, meetings = _season(organiser)
    csrf = organiser.get("/api/session").json()["csrf"]
    for team in ("\u00b2", "\u0661"):
        issued = organiser.post(f"/leagues/{season_id}/captain-links", data={"csrf": csrf, "team": team})
        assert issued.status_code == 422 and 'class="captain-url"' not in issued.text, issued.text
    arabic = "".join(chr(0x0660 + int(d)) for d in str(ids["Adam Kováč"]))
    form = {"captain": tokens["Trenčín A"], "fixture": str(meetings[0]["id"])}
    for players in ({"position1": "\u00b2", "position2": "\u00b3"},
                    {"position1": arabic, "position2": arabic}):
        refused = stranger.post(f"/leagues/{season_id}/captain/lineup", data=form | players)
        assert refused.status_code == 422, refused.text
    lineup = form | {"position1": str(ids["Adam Kováč"]), "position2": str(ids["Róbert Novák"])}
    hostile = stranger.post(f"/leagues/{season_id}/captain/lineup", data=lineup | {"fixture": "\u00b2"})
    assert hostile.status_code in (404, 422), hostile.text
    assert stranger.get(f"/api/leagues/meetings/{meetings[0]['id']}").json()["handed_in"] == []


def test_the_sheets_may_come_as_files_in_a_windows_code_page(organiser: Any) -> None:
    csrf = organiser.get("/api/session").json()["csrf"]
    form = play_season.body() | {"csrf": csrf, "teams": "", "encoding": "windows-1250"}
    teams = ("teams.csv", hand.TEAMS_CSV.encode("cp1250"), "text/csv")
    utf8 = organiser.post("/leagues", data=form | {"encoding": "utf-8"}, files={"teams_file": teams})
    assert utf8.status_code == 422 and "not utf-8" in utf8.text.lower(), utf8.text  # the wrong code page
    made = organiser.post("/leagues", data=form, files={"teams_file": teams}, follow_redirects=False)
    assert made.status_code == 303, made.text
    season = organiser.get(made.headers["location"].replace("/leagues/", "/api/leagues/")).json()
    assert [t["name"] for t in season["teams"]][:4] == ["Trenčín A", "Žilina", "Görlitz", "Nitra"]
