"""The hand-worked season of one division (four teams, six meetings each, format
``club-3c-two-boards``), played on a real ``carom serve`` in Chromium, every game on a
table of the hall, and its final table, promotion and players' averages checked against
the values worked out by hand (tests/league/hand_season.py).

What the browser does: the organiser makes the season with the form (the three sheets
pasted) and issues the captains' links of Trenčín A and Nitra on the organiser's page;
those two captains, each in a browser context of their own (a phone and a tablet),
hand in every line-up of their teams with the captain's form, the substitute Igor
Štefánik included; the other side's line-up stays hidden until both are in. The hall has
two tables, each with its tablet paired once through its pairing link (a browser context
each, never given another link) and table 1 its screen. Trenčín A's captain puts the first
meeting's games on both tables with the meeting page's form; table 1's tablet taps its
game stroke by stroke while the screen beside it and the public meeting page follow it
live, table 2's tablet plays the other, and the players confirm both on the tablets;
both captains sign that meeting's report. Every later meeting's games are put on the
tables through the API (by the home captain, or the organiser), each tablet moves on to
its next game by itself and enters it with its device token alone (its cookie: the
records and the players' confirmations through the match API, as the tablet sends them),
both tables at the same time.
What the API does besides (to keep the test short): the line-ups of Žilina and Görlitz
and the other reports. No Content-Security-Policy violation on any page."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from carom.web.tables.devices import COOKIE as DEVICE_COOKIE
from tests.league import hand_season as hand
from tests.league.play import records, series
from tests.web.browser import Watched, log_in, tap
from tests.web.leagues import season as api_season
from tests.web.server import SESSION_COOKIE, Server
from tests.web.tables.helpers import add_table

BROWSER_TEAMS = ("Trenčín A", "Nitra")
TABLES = ("1", "2")


class HallTable:
    """A table of the hall and its tablet, paired once through its pairing link (a browser
    context of its own: its cookie is the device token). The games it plays through the
    API are sent with that context's cookies and user agent, from an HTTP client of its
    own, so that the hall's two tables can play at once, as they do in a hall."""

    def __init__(self, browser: Any, server: Server, organiser: httpx.Client, name: str) -> None:
        self.name, self.url = name, server.url
        link = organiser.post(f"/api/tables/{name}/pairing").json()["pair"]
        self.device = Watched(browser, locale="en-GB", viewport={"width": 1024, "height": 768},
                              has_touch=True)
        self.tablet = self.device.page()
        self.tablet.goto(server.url + link)
        self.tablet.locator("#pair-button").click()
        expect(self.tablet).to_have_url(f"{server.url}/tables/{name}/tablet")
        self.tablet.evaluate("window.notReloaded = true")
        self.api = self._as_the_tablet()

    def _as_the_tablet(self) -> httpx.Client:
        """An HTTP client carrying what the tablet's browser context sends: its cookies (the
        device token the pairing gave it, and nothing that logs anyone in) and its user agent."""
        cookies = {c["name"]: c["value"] for c in self.device.context.cookies(self.url)}
        assert DEVICE_COOKIE in cookies and SESSION_COOKIE not in cookies, sorted(cookies)
        agent = str(self.tablet.evaluate("navigator.userAgent"))
        return httpx.Client(base_url=self.url, cookies=cookies, headers={"User-Agent": agent}, timeout=30)

    def takes_up(self, match: int) -> None:
        """The tablet shows the game by itself, live."""
        expect(self.tablet.locator("#tablet")).to_have_attribute("data-match", str(match))

    def play(self, match: int, game: hand.Game) -> None:
        """The tablet takes up the game by itself, then enters it (:meth:`enter`)."""
        self.takes_up(match)
        self.enter(match, game)

    def enter(self, match: int, game: hand.Game) -> None:
        """The game's records and both players' confirmations, sent as the tablet sends
        them: with its device token alone (no game's link, no referee token). Touches no
        page: it may run beside the other table's."""
        for seq, record in enumerate(records(game)):
            answer = self.api.post(f"/api/matches/{match}/records", json={"after": seq, "record": record})
            assert answer.status_code == 201, answer.text
        for player in (0, 1):
            answer = self.api.post(f"/api/matches/{match}/confirm", json={"player": player})
            assert answer.status_code == 200, answer.text

    def close(self) -> None:
        assert self.tablet.evaluate("window.notReloaded") is True  # moved on live, never reloaded
        self.api.close()
        self.device.close()


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

    for order, name in enumerate(TABLES, 1):
        add_table(client, name, order)
    tables = {name: HallTable(browser, server, client, name) for name in TABLES}
    screen_device = Watched(browser, locale="en-GB", viewport={"width": 1920, "height": 1080})
    screen = screen_device.page()
    screen.goto(f"{server.url}/tables/1/screen")

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
        if number == 1:
            _first_meeting_on_the_tables(server, organiser, trencin, tokens["Trenčín A"], tables, screen,
                                         meeting, games)
            for team in ("Trenčín A", "Nitra"):
                captain = captains[team]
                captain.goto(links[team])
                captain.locator(f"#sign-{meeting['id']} button").click()
                expect(captain.locator(f"#meeting-{meeting['id']} .signed")).to_be_visible()
            continue
        home = meeting["home"]["name"]
        put = client.post(f"/api/leagues/meetings/{meeting['id']}/tables", json={"tables": list(TABLES)},
                          headers={"X-Captain-Token": tokens[home]} if number % 2 else {})
        assert put.status_code == 200, put.text
        _play_at_once(tables, put.json()["games"], games)
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
    for table in tables.values():
        expect(table.tablet.locator("#table-next-game")).to_have_text("No game is planned on this table.")
        table.close()
    for watched in (office, phone, tablet_size, screen_device):
        watched.close()


def _play_at_once(tables: dict[str, HallTable], on_tables: list[dict[str, Any]],
                  games: tuple[hand.Game, hand.Game]) -> None:
    """A meeting's games, one on each table: each tablet takes up its game by itself, then
    both tables play at the same time (their records interleave on the server)."""
    assert sorted(g["table"] for g in on_tables) == sorted(TABLES), on_tables
    for game in on_tables:
        tables[game["table"]].takes_up(game["match"])
    with ThreadPoolExecutor(len(on_tables)) as hall:
        played = [hall.submit(tables[game["table"]].enter, game["match"], games[game["number"] - 1])
                  for game in on_tables]
        for each in played:
            each.result()


def _first_meeting_on_the_tables(server: Server, audience: Page, home_captain: Page, token: str,
                                 tables: dict[str, HallTable], screen: Page, meeting: dict[str, Any],
                                 games: tuple[hand.Game, hand.Game]) -> None:
    """The home captain puts meeting 1's games on tables 1 and 2 with the meeting page's
    form; table 1's tablet takes up game 1 by itself and taps it stroke by stroke, while
    its screen and the public meeting page, open beside it, follow it live; table 2's
    tablet plays game 2; the players confirm both results on the tablets."""
    audience.goto(f"{server.url}/leagues/meetings/{meeting['id']}")
    score = audience.locator("#games tr[data-game='1'] .game-score")
    expect(score).to_have_text("0:0")
    home_captain.goto(f"{server.url}/leagues/meetings/{meeting['id']}?t={token}")
    form = home_captain.locator("#tables-form")
    for name in TABLES:
        form.get_by_label(f"Table {name}", exact=True).check()
    form.locator("button[type=submit]").click()
    expect(home_captain.locator("#games tr[data-game='1'] .game-table")).to_have_text("1")
    expect(home_captain.locator("#games tr[data-game='2'] .game-table")).to_have_text("2")
    expect(home_captain.locator("#tables-form")).to_have_count(0)  # every game is on a table
    first, second = (int(str(home_captain.locator(f"#games tr[data-game='{n}']").get_attribute("data-match")))
                     for n in (1, 2))
    expect(screen.locator("#board")).to_contain_text(games[0][0])
    table = tables["1"]
    table.takes_up(first)
    _score_on_the_tablet(table.tablet, games[0])
    expect(score).to_have_text("10:6")  # the meeting page followed the game's live channel
    expect(screen.locator("#status")).to_contain_text(f"{games[0][0]} wins")
    table.tablet.locator("#btn-confirm-0").click()
    expect(table.tablet.locator("#confirmed-0")).to_be_visible()
    table.tablet.locator("#btn-confirm-1").click()
    expect(table.tablet.locator("#table-next-game")).to_have_text("No game is planned on this table.")
    tables["2"].play(second, games[1])
    expect(audience.locator("#game-points")).to_have_text("4:0")
