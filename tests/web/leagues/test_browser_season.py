"""The hand-worked season of one division (four teams, six meetings each, format
``club-3c-two-boards``), played on a real ``carom serve`` in Chromium, and its final table,
promotion and players' averages checked against the values worked out by hand
(tests/league/hand_season.py).

What the browser does: the organiser makes the season with the form (the three sheets
pasted) and issues the captains' links of Trenčín A and Nitra on the organiser's page;
those two captains, each in a browser context of their own (a phone and a tablet),
hand in every line-up of their teams with the captain's form, the substitute Igor
Štefánik included; the other side's line-up stays hidden until both are in; the first
game of the first meeting is scored on its tablet, opened from the home captain's
meeting page, while the public meeting page follows it live; both captains sign that
meeting's report. What the API does (to keep the test short): the line-ups of Žilina and
Görlitz, the other 23 games' records (through the match API with each game's referee
token, as a tablet sends them) and the other reports. No Content-Security-Policy
violation on any page."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.league import hand_season as hand
from tests.league.play import series
from tests.web.browser import Watched, log_in, tap
from tests.web.leagues import season as api_season
from tests.web.server import Server

BROWSER_TEAMS = ("Trenčín A", "Nitra")


def _make_season(page: Page, server: Server) -> int:
    page.goto(server.url + "/leagues")
    form = page.locator("#season-form")
    for name, value in api_season.body().items():
        form.locator(f"[name={name}]").fill(value)
    form.locator("button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/leagues/\d+$"))
    expect(page.locator("#season-name")).to_have_text(f"{hand.LEAGUE} · {hand.SEASON}")
    return int(page.url.rsplit("/", 1)[1])


def _issue_links(page: Page, server: Server, season_id: int) -> dict[str, str]:
    page.goto(f"{server.url}/leagues/{season_id}/organiser")
    links = {}
    for team in BROWSER_TEAMS:
        page.get_by_role("button", name=f"Issue a link {team}").click()
        link = page.locator(".captain-url")
        expect(link).to_have_count(1)
        links[team] = str(link.get_attribute("href"))
    return links


def _hand_in(captain: Page, meeting: int, players: list[str]) -> None:
    section = captain.locator(f"#meeting-{meeting}")
    for position, name in enumerate(players, 1):
        section.locator(f"select[name=position{position}]").select_option(label=name)
    section.locator("button[type=submit]").click()
    names = ", ".join(n.split(" (")[0] for n in players)
    expect(captain.locator(f"#meeting-{meeting} .lineup-in")).to_contain_text(names)


def _score_on_the_tablet(tablet: Page, game: hand.Game) -> None:
    """The game tapped stroke by stroke: the home player opens; each player's series, then
    a miss unless it reached the distance (the tablet ends the game itself)."""
    home, _, home_points, away_points, innings, home_run, away_run = game
    tap(tablet, f"button:has-text('{home} opens')")
    totals = [0, 0]
    home_series, away_series = series(home_points, innings, home_run), series(away_points, innings, away_run)
    for a, b in zip(home_series, away_series, strict=True):
        for side, points in ((0, a), (1, b)):
            for _ in range(points):
                tap(tablet, "#btn-carom")
            totals[side] += points
            if totals[side] < 10:
                tap(tablet, "#btn-miss")
    expect(tablet.locator("#btn-confirm-0")).to_be_visible()


def _api_lineup(client: httpx.Client, meeting: dict[str, Any], side: str, token: str,
                players: list[str], ids: dict[str, int]) -> None:
    response = api_season.hand_in(client, meeting, token, [ids[p] for p in players])
    assert response.status_code == 201, (meeting["id"], side, response.text)


def test_a_season_of_one_division_played_in_the_browser_gives_the_hand_worked_values(
        sqlite_server: Server, browser: Any) -> None:
    server = sqlite_server
    office = Watched(browser, locale="en-GB", viewport={"width": 1920, "height": 1080})
    organiser = office.page()
    log_in(organiser, server)
    season_id = _make_season(organiser, server)
    links = _issue_links(organiser, server, season_id)
    client = server.organiser()
    tokens = api_season.links(client, season_id, ["Žilina", "Görlitz"])
    tokens |= {team: url.rsplit("t=", 1)[1] for team, url in links.items()}
    ids = api_season.player_ids(client, season_id)
    meetings = [m for m in client.get(f"/api/leagues/{season_id}").json()["meetings"]
                if m["division"] == hand.DIVISION]

    phone = Watched(browser, locale="en-GB", viewport={"width": 390, "height": 844}, has_touch=True)
    trencin = phone.page()
    trencin.goto(links["Trenčín A"])
    expect(trencin.locator("#captain-team")).to_have_text("Captain of Trenčín A")
    tablet_size = Watched(browser, locale="en-GB", viewport={"width": 1024, "height": 768}, has_touch=True)
    nitra = tablet_size.page()
    nitra.goto(links["Nitra"])
    captains = {"Trenčín A": trencin, "Nitra": nitra}

    for number, meeting in enumerate(meetings, 1):
        games = hand.MEETINGS[number]
        for side, index in (("home", 0), ("away", 1)):
            team = meeting[side]["name"]
            players = [g[index] for g in games]
            if team in captains:
                shown = [f"{p} (Trenčín B)" if p == "Igor Štefánik" else p for p in players]
                _hand_in(captains[team], meeting["id"], shown)
            else:
                _api_lineup(client, meeting, side, tokens[team], players, ids)
            if number == 1 and side == "home":  # Nitra's captain sees that it is in, not who
                nitra.goto(f"{server.url}/leagues/meetings/{meeting['id']}?t={tokens['Nitra']}")
                home_box = nitra.locator(f".lineup[data-team='{meeting['home']['id']}']")
                expect(home_box).to_contain_text("shown when both line-ups are in")
                expect(home_box).not_to_contain_text("Adam Kováč")
                nitra.goto(links["Nitra"])
        seen = client.get(f"/api/leagues/meetings/{meeting['id']}").json()
        for game, hand_game in zip(seen["games"], games, strict=True):
            if number == 1 and game["number"] == 1:
                continue  # scored on its tablet below
            api_season.play(client, game, hand_game)
        if number == 1:
            home_token = tokens["Trenčín A"]
            _first_game_on_the_tablet(server, organiser, trencin, home_token, browser, meeting, games[0])
            for team in ("Trenčín A", "Nitra"):
                captain = captains[team]
                captain.goto(links[team])
                captain.locator(f"#sign-{meeting['id']} button").click()
                expect(captain.locator(f"#meeting-{meeting['id']} .signed")).to_be_visible()
        else:
            for side in ("home", "away"):
                response = api_season.sign(client, meeting, tokens[meeting[side]["name"]])
                assert response.status_code == 200, response.text

    organiser.goto(f"{server.url}/leagues/{season_id}/divisions/{hand.DIVISION}")
    rows = organiser.locator("table.league-table tbody tr")
    expect(rows).to_have_count(4)
    for row, line in zip(rows.all(), hand.TABLE, strict=True):
        rank, team, played, won, drawn, lost, mp, mpa, gp, gpa = line
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        assert cells[:8] == [str(rank), team, str(played), str(won), str(drawn), str(lost), f"{mp}:{mpa}",
                             f"{gp}:{gpa}"], cells
        assert cells[8] == f"{float(hand.TEAM_AVERAGES[team]):.3f}"
    expect(organiser.locator(".moves li[data-promoted=yes]")).to_have_text("Žilina goes up to Extraliga")
    expect(organiser.locator(".moves li[data-promoted=no]")).to_have_text("Nitra goes down to 2. liga")
    seen_players: set[str] = set()
    for team in ("Trenčín A", "Žilina", "Görlitz", "Nitra"):
        organiser.locator("table.league-table a", has_text=team).click()
        expect(organiser.locator("#team-name")).to_have_text(team)
        for row in organiser.locator("#team-players tbody tr").all():
            name = row.locator("td").first.locator("a").inner_text()
            if name not in hand.PLAYERS:
                continue
            games, *_, points, innings, _best, high = hand.PLAYERS[name]
            assert row.locator(".games").inner_text() == str(games), name
            assert row.locator(".gd").inner_text() == f"{points / innings:.3f}", name
            assert row.locator(".hs").inner_text() == str(high), name
            seen_players.add(name)
        organiser.go_back()
    assert seen_players == set(hand.PLAYERS)
    client.close()
    for watched in (office, phone, tablet_size):
        watched.close()


def _first_game_on_the_tablet(server: Server, audience: Page, home_captain: Page, token: str, browser: Any,
                              meeting: dict[str, Any], game: hand.Game) -> None:
    """Game 1 of meeting 1 scored on its tablet, opened from the home captain's meeting page;
    the public meeting page, open beside it, shows the result as it comes in."""
    audience.goto(f"{server.url}/leagues/meetings/{meeting['id']}")
    score = audience.locator("#games tr[data-game='1'] .game-score")
    expect(score).to_have_text("0:0")
    home_captain.goto(f"{server.url}/leagues/meetings/{meeting['id']}?t={token}")
    link = home_captain.locator("#games tr[data-game='1'] a.tablet-link").get_attribute("href")
    assert link is not None and re.search(r"/m/\d+/tablet\?t=", link)
    table = Watched(browser, locale="en-GB", viewport={"width": 1024, "height": 768}, has_touch=True)
    tablet = table.page()
    tablet.goto(link)
    _score_on_the_tablet(tablet, game)
    expect(score).to_have_text("10:6")  # the meeting page followed the game's live channel
    expect(audience.locator("#game-points")).to_have_text("4:0")
    table.close()
