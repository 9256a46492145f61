"""``/api/leagues``: the hand-worked season made from its sheets, line-ups handed in by the
captains, games entered through the match API, reports signed; the table, promotion and
the players' figures as worked out by hand; every refusal names its league rule (422),
changes nothing, and line-ups stay hidden from the other side until both are in."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from pypdf import PdfReader

from carom.league import league_table, meeting_format, write_table
from tests.league import hand_season as hand
from tests.web.jobs import counted_jobs
from tests.web.leagues import season as play_season

TEAMS = ["Trenčín A", "Žilina", "Görlitz", "Nitra"]


def _meetings(client: Any, season_id: int) -> list[dict[str, Any]]:
    return list(client.get(f"/api/leagues/{season_id}").json()["meetings"])


def test_two_meetings_through_the_api_give_the_package_s_table_csv_and_figures(organiser: Any) -> None:
    season_id = play_season.create(organiser)
    tokens = play_season.links(organiser, season_id, TEAMS)
    ids = play_season.player_ids(organiser, season_id)
    meetings = [m for m in _meetings(organiser, season_id) if m["division"] == hand.DIVISION]
    for number, meeting in enumerate(meetings[:2], 1):
        seen = play_season.lineups(organiser, meeting, number, tokens, ids)
        for game, hand_game in zip(seen["games"], hand.MEETINGS[number], strict=True):
            play_season.play(organiser, game, hand_game)
        for side in ("home", "away"):
            assert play_season.sign(organiser, meeting, tokens[meeting[side]["name"]]).status_code == 200
    sheet, _, reports = hand.played()  # the package's own reading of the same two meetings
    names = {t.id: t.name for t in sheet.season.teams}
    two = [m for m in reports.meetings if m.fixture in (1, 2)]
    expected = league_table(meeting_format("club-3c-two-boards"), sheet.season.teams_in(hand.DIVISION), two)
    season = organiser.get(f"/api/leagues/{season_id}").json()
    division = next(d for d in season["divisions"] if d["id"] == hand.DIVISION)
    got = [(x["rank"], x["name"], x["played"], *x["meeting_points"], *x["game_points"])
           for x in division["table"]]
    assert got == [(x.rank, names[x.team], x.played, x.meeting_points, x.meeting_points_against,
                    x.game_points, x.game_points_against) for x in expected]
    assert not division["complete"] and division["moves"] == []
    assert [m["status"] for m in season["meetings"] if m["division"] == hand.DIVISION][:3] == [
        "reported", "reported", "lineups"]
    players = {x["name"]: x for x in organiser.get(f"/api/leagues/{season_id}/players").json()}
    kovac = players["Adam Kováč"]
    assert (kovac["games"], kovac["points"], kovac["innings"]) == (1, 10, 15)
    csv = organiser.get(f"/api/leagues/{season_id}/divisions/{hand.DIVISION}/table.csv")
    assert csv.status_code == 200 and csv.text == write_table(expected, names)
    pdf = organiser.get(f"/api/leagues/meetings/{meetings[0]['id']}/report.pdf?lang=sk")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Adam Kováč" in text and "Róbert Novák" in text and "Zápis o stretnutí" in text


def test_line_ups_are_hidden_from_the_other_side_until_both_are_in(organiser: Any, stranger: Any) -> None:
    season_id = play_season.create(organiser)
    tokens = play_season.links(organiser, season_id, ["Trenčín A", "Nitra"])
    ids = play_season.player_ids(organiser, season_id)
    meeting = _meetings(organiser, season_id)[0]  # Trenčín A – Nitra
    assert play_season.hand_in(stranger, meeting, tokens["Trenčín A"],
                               [ids["Adam Kováč"], ids["Peter Horváth"]]).status_code == 201
    url = f"/api/leagues/meetings/{meeting['id']}"
    mine = stranger.get(url, headers={"X-Captain-Token": tokens["Trenčín A"]}).json()
    theirs = stranger.get(url, headers={"X-Captain-Token": tokens["Nitra"]}).json()
    public = stranger.get(url).json()
    assert list(mine["lineups"]) == [str(meeting["home"]["id"])]
    assert theirs["lineups"] == public["lineups"] == {}
    assert theirs["handed_in"] == [meeting["home"]["id"]]
    assert play_season.hand_in(stranger, meeting, tokens["Nitra"],
                               [ids["Róbert Novák"], ids["Marek Čierny"]]).status_code == 201
    public = stranger.get(url).json()
    assert len(public["lineups"]) == 2 and len(public["games"]) == 2
    assert "referee_token" not in public["games"][0]
    home = stranger.get(url, headers={"X-Captain-Token": tokens["Trenčín A"]}).json()
    away = stranger.get(url, headers={"X-Captain-Token": tokens["Nitra"]}).json()
    assert "referee_token" in home["games"][0] and "referee_token" not in away["games"][0]


def test_refusals_name_their_rule_and_change_nothing(organiser: Any, stranger: Any) -> None:
    season_id = play_season.create(organiser)
    tokens = play_season.links(organiser, season_id, ["Trenčín A", "Nitra", "Žilina"])
    ids = play_season.player_ids(organiser, season_id)
    meeting = _meetings(organiser, season_id)[0]  # Trenčín A – Nitra
    before = stranger.get(f"/api/leagues/{season_id}").json()

    def refused(response: Any, status: int, rule: str | None, words: str) -> None:
        assert response.status_code == status, response.text
        assert response.json().get("rule") == rule and words in response.json()["detail"], response.json()

    trencin, hand_in = tokens["Trenčín A"], play_season.hand_in
    kovac, novak = ids["Adam Kováč"], ids["Róbert Novák"]
    simko, durica = ids["Martin Šimko"], ids["Lukáš Ďurica"]
    refused(hand_in(stranger, meeting, trencin, [kovac, novak]), 422, "LG3", "roster of 'Nitra'")
    refused(hand_in(stranger, meeting, trencin, [kovac, kovac]), 422, "LG7", "would play 2 games")
    refused(hand_in(stranger, meeting, tokens["Žilina"], [simko, durica]), 422, "LG6", "does not play")
    refused(play_season.sign(stranger, meeting, trencin), 422, "LG10", "before both line-ups are in")
    refused(play_season.hand_in(stranger, meeting, "not-a-link", [1, 2]), 403, None, "captain token")
    refused(play_season.hand_in(stranger, meeting, "", [1, 2]), 401, None, "X-Captain-Token")
    refused(stranger.post("/api/leagues", json=play_season.body()), 401, None, "login needed")
    teams = hand.TEAMS_CSV.replace("Žilina;1;Martin Šimko", "Žilina;1;Adam Kováč")
    bad = play_season.body() | {"teams": teams}
    refused(organiser.post("/api/leagues", json=bad), 422, "LG1", "line 5: player: 'Adam Kováč'")
    refused(organiser.post("/api/leagues", json=play_season.body()), 409, None, "has a season")
    assert stranger.get(f"/api/leagues/{season_id}").json() == before
    seen = play_season.lineups(stranger, meeting, 1, tokens, ids)
    for game, hand_game in zip(seen["games"], hand.MEETINGS[1], strict=True):
        play_season.play(stranger, game, hand_game)
    assert play_season.sign(stranger, meeting, trencin).status_code == 200
    refused(play_season.sign(stranger, meeting, trencin), 422, "LG9", "signed its report already")
    assert play_season.sign(stranger, meeting, tokens["Nitra"]).status_code == 200
    refused(play_season.sign(stranger, meeting, tokens["Nitra"]), 422, "LG9", "reported already")
    assert stranger.get(f"/api/leagues/meetings/{meeting['id']}").json()["signed"] == sorted(
        [meeting["home"]["id"], meeting["away"]["id"]])
    assert len(stranger.get("/api/leagues").json()) == 1


def test_a_line_up_after_the_deadline_is_refused(organiser: Any, stranger: Any) -> None:
    body = play_season.body() | {"fixtures": hand.FIXTURES_CSV}  # the season as worked out: all of it past
    season_id = organiser.post("/api/leagues", json=body).json()["id"]
    tokens = play_season.links(organiser, season_id, ["Trenčín A"])
    ids = play_season.player_ids(organiser, season_id)
    meeting = _meetings(organiser, season_id)[0]
    players = [ids["Adam Kováč"], ids["Peter Horváth"]]
    response = play_season.hand_in(stranger, meeting, tokens["Trenčín A"], players)
    assert response.status_code == 422 and response.json()["rule"] == "LG5", response.text
    assert "the deadline was 2025-09-13 14:00" in response.json()["detail"]
    assert stranger.get(f"/api/leagues/meetings/{meeting['id']}").json()["handed_in"] == []


def test_unknown_seasons_and_meetings_are_404(stranger: Any) -> None:
    assert stranger.get("/api/leagues/5").status_code == 404
    assert stranger.get("/api/leagues/meetings/5").status_code == 404
    assert "/api/leagues" in stranger.get("/openapi.json").json()["paths"]


def test_a_sheets_names_are_names_a_person_can_read(organiser: Any) -> None:
    """A player's, team's or club's name with a control or text-direction character, or a
    player's name longer than the boards show, is refused naming its line and column, as
    every name the scoreboard takes (forms.check_name); nothing is made."""
    reversed_name = hand.TEAMS_CSV.replace("Adam Kováč", "Adam \u202eKováč")
    long_name = hand.TEAMS_CSV.replace("Adam Kováč", "Adam " + "K" * 60)
    bell_team = hand.TEAMS_CSV.replace(";Nitra;", ";Nit\x07ra;")
    for teams, where in ((reversed_name, "player"), (long_name, "player"), (bell_team, "team")):
        refused = organiser.post("/api/leagues", json=play_season.body() | {"teams": teams})
        assert refused.status_code == 422, refused.text
        assert re.match(rf"teams: line \d+, {where}: ", refused.json()["detail"]), refused.json()
    csrf = organiser.get("/api/session").json()["csrf"]
    page = organiser.post("/leagues", data=play_season.body() | {"csrf": csrf, "teams": reversed_name},
                          headers={"Accept-Language": "de"})
    assert page.status_code == 422 and "U+202E" in page.text, page.text
    assert organiser.get("/api/leagues").json() == []


def test_a_body_is_json_as_the_match_api_reads_it(organiser: Any) -> None:
    """UTF-8 JSON nested at most 64 deep (core.inputs.parse_json), refused with the reason."""
    deep = organiser.post("/api/leagues", content="[" * 70 + "]" * 70,
                          headers={"Content-Type": "application/json"})
    assert deep.status_code == 422 and "nested deeper than 64" in deep.json()["detail"], deep.text
    wide = organiser.post("/api/leagues", content=json.dumps(play_season.body()).encode("utf-16"),
                          headers={"Content-Type": "application/json"})
    assert wide.status_code == 422 and "not UTF-8" in wide.json()["detail"], wide.text
    assert organiser.get("/api/leagues").json() == []


def test_the_meeting_report_is_printed_in_the_pool(organiser: Any, app: Any) -> None:
    """Like every PDF since web36: composed by the server, printed by the pool's process."""
    season_id = play_season.create(organiser)
    meeting = organiser.get(f"/api/leagues/{season_id}").json()["meetings"][0]
    jobs = counted_jobs(app)
    pdf = organiser.get(f"/api/leagues/meetings/{meeting['id']}/report.pdf?lang=de")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF"), pdf.text
    assert [task.__name__ for task in jobs] == ["meeting_pdf"]
