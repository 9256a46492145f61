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


def test_a_tournament_game_counts_with_the_result_the_tournament_keeps(organiser: Any) -> None:
    """A tournament game's figures are the tournament's kept result: a corrected game
    counts as corrected (not as its match ended), a paper scoresheet's game counts without
    a match, and a walkover (nothing played) not at all."""
    cup = organiser.post("/api/tournaments", json={"name": "Cup", "discipline": "three-cushion",
                                                  "table": "small", "points": 3}).json()["id"]
    adam = organiser.post(f"/api/tournaments/{cup}/players", json={"players": [
        {"name": "Adam"}, {"name": "Cyril"}, {"name": "Dana"}, {"name": "Emil"}]}).json()["players"][0]
    organiser.post(f"/api/tournaments/{cup}/start")
    games = [g for g in organiser.get(f"/api/tournaments/{cup}").json()["games"] if adam in g["players"]]
    first = games[0]
    side = first["players"].index(adam)
    enter(organiser, first["match"], first["referee_token"], [
        {"type": "opener", "player": side}, {"type": "inning", "points": 3},
        {"type": "inning", "points": 0}])  # 3:0 in one inning, the equalizing inning missed
    days = organiser.app.state.tournaments
    points = [1, 3] if side == 0 else [3, 1]
    days.correct(cup, first["id"], "the referee's sheet", points=points, innings=[2, 2], high_run=points)
    paper = games[1]
    paper_side = paper["players"].index(adam)
    days.enter_result(cup, paper["id"], points=[2, 3][::1 - 2 * paper_side], innings=[4, 4],
                      high_run=[1, 2][::1 - 2 * paper_side])  # Adam 2 in 4, high run 1, lost
    days.walkover(cup, games[2]["id"], winner=games[2]["players"].index(adam))
    page = organiser.get(f"/players/{adam}").text
    now = datetime.now(UTC)
    year = now.year - (now.month < 7)
    today = f"{year}/{(year + 1) % 100:02d}"
    # corrected 1:3 in 2 (high run 1) and the paper's 2:3 in 4 (high run 1): 3 points in 6 innings
    assert _row(page, "lines-tournament") == [(today, "three-cushion", "2", "0", "0", "2", "3", "6",
                                               "0.500", "0.500", "1")]
    assert 'data-match=""' in page  # the paper game, listed without a board to link to
