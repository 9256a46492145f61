"""The captains' pages carry a secret link (``?t=``): every answer of their routes, and of
the routes that issue a captain link, is kept by no cache (``Cache-Control: no-store``),
its refusals and redirects too, and no page sends its address to another site
(``Referrer-Policy: same-origin``)."""

from __future__ import annotations

from typing import Any

from tests.web.leagues import season as play_season


def _private(response: Any) -> bool:
    return (response.headers.get("cache-control") == "no-store"
            and response.headers.get("referrer-policy") == "same-origin")


def test_every_answer_of_the_captains_and_captain_link_routes_is_kept_by_no_cache(
        organiser: Any, stranger: Any) -> None:
    season_id = play_season.create(organiser)
    token = play_season.links(organiser, season_id, ["Trenčín A"])["Trenčín A"]
    meeting = organiser.get(f"/api/leagues/{season_id}").json()["meetings"][0]
    team = meeting["home"]["id"]
    answers = {
        "page": stranger.get(f"/leagues/{season_id}/captain?t={token}"),
        "wrong link": stranger.get(f"/leagues/{season_id}/captain?t=guessed"),
        "line-up refused": stranger.post(f"/leagues/{season_id}/captain/lineup",
                                         data={"captain": token, "fixture": str(meeting["id"])}),
        "line-up, wrong link": stranger.post(f"/leagues/{season_id}/captain/lineup", data={"captain": "x"}),
        "report refused": stranger.post(f"/leagues/{season_id}/captain/report",
                                        data={"captain": token, "fixture": str(meeting["id"])}),
        "link issued (API)": organiser.post(f"/api/leagues/{season_id}/teams/{team}/captain-link"),
        "link issued (page)": organiser.post(f"/leagues/{season_id}/captain-links", data={"team": str(team)}),
        "organiser's page": organiser.get(f"/leagues/{season_id}/organiser"),
        "tables refused": stranger.post(f"/leagues/meetings/{meeting['id']}/tables", data={"captain": token}),
        "API tables refused": stranger.post(f"/api/leagues/meetings/{meeting['id']}/tables", json={},
                                            headers={"X-Captain-Token": token}),
    }
    for what, response in answers.items():
        assert response.status_code < 500, what
        assert _private(response), (what, response.status_code, response.headers.get("cache-control"))
    assert stranger.get(f"/leagues/{season_id}").headers.get("cache-control") != "no-store"  # public
