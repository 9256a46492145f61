"""The hand-worked season through ``/api/leagues``, for the web tests: its sheets with the
dates moved ten years on (line-ups are checked against the server's clock, LG5), the
captains' links, line-ups and games entered as a captain and a tablet enter them."""

from __future__ import annotations

from typing import Any

from tests.league import hand_season as hand
from tests.league.play import records

FIXTURES_CSV = hand.FIXTURES_CSV.replace(".2025;", ".2035;").replace(".2026;", ".2036;")
"""The fixtures ten years on: every meeting is still to come, whenever the test runs."""


def body() -> dict[str, str]:
    return {"league": hand.LEAGUE, "season": hand.SEASON, "divisions": hand.DIVISIONS_CSV,
            "teams": hand.TEAMS_CSV, "fixtures": FIXTURES_CSV}


def create(organiser: Any) -> int:
    response = organiser.post("/api/leagues", json=body())
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def links(organiser: Any, season_id: int, teams: list[str]) -> dict[str, str]:
    """A captain link's token for each team named."""
    season = organiser.get(f"/api/leagues/{season_id}").json()
    ids = {t["name"]: t["id"] for t in season["teams"]}
    out = {}
    for name in teams:
        response = organiser.post(f"/api/leagues/{season_id}/teams/{ids[name]}/captain-link")
        assert response.status_code == 201, response.text
        out[name] = response.json()["token"]
    return out


def player_ids(client: Any, season_id: int) -> dict[str, int]:
    season = client.get(f"/api/leagues/{season_id}").json()
    return {p["name"]: p["player"] for t in season["teams"] for p in t["roster"]}


def hand_in(client: Any, meeting: dict[str, Any], token: str, players: list[int]) -> Any:
    return client.post(f"/api/leagues/meetings/{meeting['id']}/lineup", json={"players": players},
                       headers={"X-Captain-Token": token})


def lineups(client: Any, meeting: dict[str, Any], number: int, tokens: dict[str, str],
            ids: dict[str, int]) -> dict[str, Any]:
    """Both captains hand in the fixture's line-ups; the meeting as the home captain sees it."""
    games = hand.MEETINGS[number]
    response = hand_in(client, meeting, tokens[meeting["home"]["name"]], [ids[g[0]] for g in games])
    assert response.status_code == 201, response.text
    response = hand_in(client, meeting, tokens[meeting["away"]["name"]], [ids[g[1]] for g in games])
    assert response.status_code == 201, response.text
    return dict(client.get(f"/api/leagues/meetings/{meeting['id']}",
                           headers={"X-Captain-Token": tokens[meeting["home"]["name"]]}).json())


def play(client: Any, game: dict[str, Any], hand_game: hand.Game) -> None:
    """A game's records through the match API with its referee token, as a tablet sends them."""
    for seq, record in enumerate(records(hand_game)):
        response = client.post(f"/api/matches/{game['match']}/records", json={"after": seq, "record": record},
                               headers={"X-Referee-Token": game["referee_token"]})
        assert response.status_code == 201, response.text


def sign(client: Any, meeting: dict[str, Any], token: str) -> Any:
    return client.post(f"/api/leagues/meetings/{meeting['id']}/report", headers={"X-Captain-Token": token})
