"""A player's page sums their games over single matches, tournaments and league games, per
discipline and season (a league game in its league's season, any other match in the
season of the day it was made): each competition's line and the lines of every
competition together, as the package's statistics give them."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from tests.league import hand_season as hand
from tests.web.browser import enter
from tests.web.leagues import season as play_season

MATCH = {"discipline": "three-cushion", "table": "small", "points": 3, "innings": None, "sets": None,
         "equalizing_inning": True}


def _row(page: str, section: str) -> list[tuple[str, ...]]:
    """(season, discipline, games, won, drawn, lost, points, innings, GD, BED, HS) of each line."""
    part = page.split(f'id="{section}"', 1)[1].split("</section>", 1)[0]
    rows = re.findall(r'<tr data-discipline="([^"]+)" data-season="([^"]*)">(.*?)</tr>', part, re.S)
    return [(season, discipline, *re.findall(r'<td class="num[^"]*">([^<]*)</td>', cells))
            for discipline, season, cells in rows]


def test_a_players_page_sums_matches_tournaments_and_league_games(organiser: Any) -> None:
    season_id = play_season.create(organiser)
    ids = play_season.player_ids(organiser, season_id)
    adam = ids["Adam Kováč"]
    made = organiser.post("/api/matches", json=MATCH | {"players": ["Adam Kováč", "Boris"]}).json()
    enter(organiser, made["id"], made["referee_token"], [
        {"type": "opener", "player": 0}, {"type": "inning", "points": 1}, {"type": "inning", "points": 0},
        {"type": "inning", "points": 2}, {"type": "inning", "points": 1}])  # 3:1 in 2 innings, high run 2
    cup = organiser.post("/api/tournaments", json={"name": "Cup", "discipline": "three-cushion",
                                                  "table": "small", "points": 3}).json()["id"]
    organiser.post(f"/api/tournaments/{cup}/players", json={"players": [{"player": adam}, {"name": "Cyril"}]})
    organiser.post(f"/api/tournaments/{cup}/start")
    game = organiser.get(f"/api/tournaments/{cup}").json()["games"][0]
    first = 0 if game["players"][0] == adam else 1
    enter(organiser, game["match"], game["referee_token"], [
        {"type": "opener", "player": first}, {"type": "inning", "points": 0},
        {"type": "inning", "points": 3}])  # Adam opens and misses, Cyril makes 3 in one inning: 0:3 in 1
    tokens = play_season.links(organiser, season_id, ["Trenčín A", "Nitra"])
    meeting = organiser.get(f"/api/leagues/{season_id}").json()["meetings"][0]
    seen = play_season.lineups(organiser, meeting, 1, tokens, ids)
    play_season.play(organiser, seen["games"][0], hand.MEETINGS[1][0])  # 10:6 in 15 innings, high run 3
    page = organiser.get(f"/players/{adam}").text
    now = datetime.now(UTC)
    first = now.year - (now.month < 7)
    today = f"{first}/{(first + 1) % 100:02d}"

    def line(season: str, *figures: object) -> tuple[str, ...]:
        return (season, "three-cushion", *(str(x) for x in figures))

    league = line("2025/26", 1, 1, 0, 0, 10, 15, "0.667", "0.667", 3)
    assert _row(page, "lines-league") == [league]
    assert _row(page, "lines-match") == [line(today, 1, 1, 0, 0, 3, 2, "1.500", "1.500", 2)]
    assert _row(page, "lines-tournament") == [line(today, 1, 0, 0, 1, 0, 1, "0.000", "0.000", 0)]
    assert _row(page, "lines-all") == [league, line(today, 2, 1, 0, 1, 3, 3, "1.000", "1.500", 2)]
    assert _row(page, "career") == [line("", 3, 2, 0, 1, 13, 18, "0.722", "1.500", 3)]
    assert organiser.get("/players/99999").status_code == 404
