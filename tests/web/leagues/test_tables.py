"""A meeting's games on the hall's tables: the organiser or the home captain puts them
there (the API and the meeting page's form), round by round, each table in turn (again,
the games left, when a table is retired); a table's
paired tablet then enters its game with its device token alone, and the table moves on
to the meeting's next game once the one before is confirmed. Refusals change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.league import hand_season as hand
from tests.league.play import records
from tests.web.leagues import season as play_season
from tests.web.tables.helpers import add_table, pair, write

TEAMS = ["Trenčín A", "Žilina", "Görlitz", "Nitra"]


@pytest.fixture
def season(organiser: Any) -> dict[str, Any]:
    """The hand-worked season, the captains' links, the hall's tables 1 and 2, the
    division's meetings."""
    add_table(organiser, "1", 1)
    add_table(organiser, "2", 2)
    season_id = play_season.create(organiser)
    meetings = [m for m in organiser.get(f"/api/leagues/{season_id}").json()["meetings"]
                if m["division"] == hand.DIVISION]
    return {"id": season_id, "tokens": play_season.links(organiser, season_id, TEAMS),
            "ids": play_season.player_ids(organiser, season_id), "meetings": meetings}


def _put(client: Any, meeting: dict[str, Any], tables: Any, token: str | None = None) -> Any:
    headers = {"X-Captain-Token": token} if token else {}
    return client.post(f"/api/leagues/meetings/{meeting['id']}/tables", json={"tables": tables},
                       headers=headers)


def _hall_log(client: Any) -> list[Any]:
    return [(t["name"], t["now"], t["next"]) for t in client.get("/api/tables").json()]


def test_the_organiser_puts_a_meeting_on_one_table_and_it_plays_its_games_in_turn(
        organiser: Any, stranger: Any, season: dict[str, Any]) -> None:
    meeting = season["meetings"][0]
    before = _hall_log(organiser)
    refused = _put(organiser, meeting, ["1"])
    assert refused.status_code == 409 and "both line-ups" in refused.json()["detail"]
    seen = play_season.lineups(organiser, meeting, 1, season["tokens"], season["ids"])
    for wrong, status in ((["9"], 404), (["1", "1"], 422), ([], 422), ("1", 422), (["1", "9"], 404)):
        assert _put(organiser, meeting, wrong).status_code == status, wrong
    assert _hall_log(organiser) == before  # nothing was put anywhere
    put = _put(organiser, meeting, ["1"])
    assert put.status_code == 200, put.text
    first, second = (g["match"] for g in seen["games"])
    assert [(g["number"], g["match"], g["table"]) for g in put.json()["games"]] == [
        (1, first, "1"), (2, second, "1")]
    assert [g["table"] for g in organiser.get(f"/api/leagues/meetings/{meeting['id']}").json()["games"]] == [
        "1", "1"]
    again = _put(organiser, meeting, ["2"])
    assert again.status_code == 409 and "on a table or finished already" in again.json()["detail"]

    pair(organiser, stranger, "1")  # the table's tablet: its device token and nothing else
    table = organiser.get("/api/tables/1").json()
    assert (table["now"]["match"], table["next"]["players"]) == (first, ["Peter Horváth", "Marek Čierny"])
    assert write(stranger, second, 0, records(hand.MEETINGS[1][1])[0]).status_code == 403
    for seq, record in enumerate(records(hand.MEETINGS[1][0])):
        assert write(stranger, first, seq, record).status_code == 201
    assert organiser.get("/api/tables/1").json()["now"]["match"] == first  # until it is confirmed
    for player in (0, 1):
        assert stranger.post(f"/m/{first}/tablet/confirm", data={"player": str(player)}).status_code == 200
    assert organiser.get("/api/tables/1").json()["now"]["match"] == second
    assert write(stranger, second, 0, records(hand.MEETINGS[1][1])[0]).status_code == 201
    page = stranger.get(f"/leagues/meetings/{meeting['id']}")
    assert '<a href="/tables/1/screen"' in page.text and 'id="tables-form"' not in page.text


def test_the_home_captain_puts_the_games_on_two_tables_the_away_captain_may_not(
        organiser: Any, stranger: Any, season: dict[str, Any]) -> None:
    meeting, tokens = season["meetings"][0], season["tokens"]  # Trenčín A – Nitra
    play_season.lineups(organiser, meeting, 1, tokens, season["ids"])
    away = _put(stranger, meeting, ["1", "2"], tokens["Nitra"])
    assert away.status_code == 403 and "home team's captain" in away.json()["detail"]
    assert _put(stranger, meeting, ["1", "2"]).status_code == 401
    assert _put(stranger, meeting, ["1", "2"], "not-a-link").status_code == 403
    put = _put(stranger, meeting, ["2", "1"], tokens["Trenčín A"])
    assert put.status_code == 200, put.text
    assert [(g["number"], g["table"]) for g in put.json()["games"]] == [(1, "2"), (2, "1")]
    log = organiser.get("/api/tables/2").json()["now"]
    assert log["players"] == ["Adam Kováč", "Róbert Novák"]
    assert organiser.post("/api/tables/2/retire").status_code == 200  # its game leaves it (TD3)
    again = _put(stranger, meeting, ["1"], tokens["Trenčín A"])
    assert again.status_code == 200, again.text
    assert [(g["number"], g["table"]) for g in again.json()["games"]] == [(1, "1")]


def test_the_meeting_pages_form_puts_the_games_on_the_ticked_tables(
        organiser: Any, stranger: Any, season: dict[str, Any]) -> None:
    meeting, tokens = season["meetings"][0], season["tokens"]
    play_season.lineups(organiser, meeting, 1, tokens, season["ids"])
    url = f"/leagues/meetings/{meeting['id']}"
    assert 'id="tables-form"' not in stranger.get(url).text
    assert 'id="tables-form"' not in stranger.get(f"{url}?t={tokens['Nitra']}").text
    home = stranger.get(f"{url}?t={tokens['Trenčín A']}")
    assert 'id="tables-form"' in home.text and 'value="2"' in home.text
    refused = stranger.post(f"{url}/tables", data={"captain": tokens["Trenčín A"]})
    assert refused.status_code == 422 and "tables: expected a list" in refused.text
    away = stranger.post(f"{url}/tables", data={"captain": tokens["Nitra"], "table": ["1"]})
    assert away.status_code == 403
    assert stranger.post(f"{url}/tables", data={"table": ["1"]}, follow_redirects=False).status_code == 303
    assert all(t["now"] is None for t in organiser.get("/api/tables").json())  # the login, not the tables
    page = organiser.get(url)
    assert 'id="tables-form"' in page.text
    csrf = organiser.headers["X-CSRF-Token"]
    done = organiser.post(f"{url}/tables", data={"csrf": csrf, "table": ["1", "2"]}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == f"{url}#games"
    games = organiser.get(f"/api/leagues/meetings/{meeting['id']}").json()["games"]
    assert [g["table"] for g in games] == ["1", "2"]
    assert 'id="tables-form"' not in organiser.get(url).text  # every game is on a table
    twice = organiser.post(f"{url}/tables", data={"csrf": csrf, "table": ["1"]})
    assert twice.status_code == 422 and 'id="tables-error"' in twice.text and "finished already" in twice.text
