"""Every route of the pages and of the JSON API against every role: what the table below
says each may do, and nothing more. A route the table does not list fails the test, so a
new route cannot go without its decision.

Each request is one the route would refuse for its content once past the role check (an
empty form, a match that is not over, an account that does not exist): a role that may
use the route gets that answer (2xx, 3xx elsewhere than the login, 404, 409, 422), a role
that may not gets 401, 403 or the way to the login, and nothing changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.accounts.accounts import REFEREE as REFEREE_NAME
from tests.web.accounts.accounts import Clients, clients_of_every_role
from tests.web.server import PASSWORD

ANONYMOUS, REFEREE, OTHER_REFEREE, DIRECTOR, ORGANISER = ROLES = (
    "anonymous", "referee", "other referee", "director", "organiser")
EVERYONE = frozenset(ROLES)
ACCOUNTS_ = frozenset({REFEREE, OTHER_REFEREE, DIRECTOR, ORGANISER})
RUN = frozenset({DIRECTOR, ORGANISER})
OWN_REFEREE = frozenset({REFEREE, DIRECTOR, ORGANISER})
"""Who may referee match 1: the referee it is given to, and those who run the day."""
ORGANISERS = frozenset({ORGANISER})
TOKEN_ONLY: frozenset[str] = frozenset()
"""The tablet's requests: the page sends the match's token, whoever holds the session."""
CAPTAIN_ONLY: frozenset[str] = frozenset()
"""A league team's captain: the captain link's token, whoever holds the session. Checked in
tests/web/leagues (a season with its captains' links), not here (request ``None``)."""
CODE_ONLY: frozenset[str] = frozenset()
"""A table's pairing page takes the organiser's one-time code, whoever holds the session: a
wrong code is refused (403) to every role."""
DEVICE_ONLY: frozenset[str] = frozenset()
"""A table's own tablet: only a device paired with the table (its device token), whoever
holds the session."""

SHORT = {"password": "short", "again": "short"}
M, T, A = 1, 999, 99999
"""Match 1 (given to the referee), a tournament that does not exist, an account that does not."""

TABLE: dict[tuple[str, str], tuple[frozenset[str], dict[str, Any] | None]] = {
    # the JSON API of matches
    ("POST", "/api/matches/{match_id}/records"): (OWN_REFEREE, {"json": {"after": 0, "record": {}}}),
    ("GET", "/api/session"): (EVERYONE, {}),
    ("GET", "/api/matches"): (EVERYONE, {}),
    ("GET", "/api/players"): (EVERYONE, {}),
    ("POST", "/api/matches"): (RUN, {"json": {"discipline": "nothing"}}),
    ("GET", "/api/matches/{match_id}"): (EVERYONE, {}),
    ("GET", "/api/matches/{match_id}/file"): (EVERYONE, {}),
    ("POST", "/api/matches/{match_id}/referee-token"): (RUN, {}),
    ("POST", "/api/matches/{match_id}/confirm"): (OWN_REFEREE, {}),
    ("POST", "/api/matches/{match_id}/reopen"): (RUN, {}),
    ("POST", "/api/matches/{match_id}/referee"): (RUN, {"json": {"account": A}}),
    ("POST", "/api/matches/{match_id}/clock"): (TOKEN_ONLY, {"json": {"paused": "x"}}),
    ("POST", "/api/matches/{match_id}/uphold"): (TOKEN_ONLY, {"json": {"line": "x"}}),
    # the tablet
    ("GET", "/m/{match_id}/tablet"): (OWN_REFEREE, {}),
    ("GET", "/m/{match_id}/tablet/panel"): (TOKEN_ONLY, {}),
    ("POST", "/m/{match_id}/tablet"): (TOKEN_ONLY, {"data": {"type": "undo", "after": "0"}}),
    ("POST", "/m/{match_id}/tablet/confirm"): (TOKEN_ONLY, {"data": {"player": "0"}}),
    ("POST", "/m/{match_id}/tablet/clock"): (TOKEN_ONLY, {"data": {"paused": "x"}}),
    ("POST", "/m/{match_id}/tablet/uphold"): (TOKEN_ONLY, {"data": {"line": "x"}}),
    # public pages of matches
    ("GET", "/"): (EVERYONE, {}),
    ("GET", "/m/{match_id}"): (EVERYONE, {}),
    ("GET", "/m/{match_id}/scoresheet"): (EVERYONE, {}),
    ("GET", "/m/{match_id}/scoresheet.txt"): (EVERYONE, {}),
    ("GET", "/m/{match_id}/export"): (EVERYONE, {}),
    ("GET", "/m/{match_id}/scoresheet.pdf"): (EVERYONE, {}),
    ("GET", "/m/{match_id}/scoresheet.csv"): (EVERYONE, {}),
    # the organiser's pages of matches
    ("GET", "/organiser"): (RUN, {}),
    ("POST", "/organiser/matches"): (RUN, {"data": {}}),
    ("POST", "/organiser/import"): (RUN, {"data": {}}),
    ("GET", "/organiser/matches/{match_id}"): (RUN, {}),
    ("POST", "/organiser/matches/{match_id}/tablet-link"): (RUN, {"data": {}}),
    ("POST", "/organiser/matches/{match_id}/confirm"): (RUN, {"data": {}}),
    ("POST", "/organiser/matches/{match_id}/reopen"): (RUN, {"data": {}}),
    ("POST", "/organiser/matches/{match_id}/referee"): (RUN, {"data": {"referee": str(A)}}),
    # a referee's matches
    ("GET", "/referee"): (ACCOUNTS_, {}),
    ("POST", "/referee/matches/{match_id}/confirm"): (OWN_REFEREE, {"data": {}}),
    # logging in, the accounts
    ("GET", "/setup"): (EVERYONE, {}),
    ("POST", "/setup"): (EVERYONE, {"data": {}}),
    ("GET", "/login"): (EVERYONE, {}),
    ("POST", "/login"): (EVERYONE, {"data": {"name": REFEREE_NAME, "password": PASSWORD}}),
    ("POST", "/logout"): (EVERYONE, None),  # test_accounts: it ends the sessions it is sent with
    ("GET", "/account"): (ACCOUNTS_, {}),
    ("POST", "/account/password"): (ACCOUNTS_, {"data": {"current": PASSWORD, **SHORT}}),
    ("GET", "/accounts"): (ORGANISERS, {}),
    ("POST", "/accounts"): (ORGANISERS, {"data": {"name": "new", "role": "referee", **SHORT}}),
    ("POST", "/accounts/{account_id}/password"): (ORGANISERS, {"data": SHORT}),
    ("POST", "/accounts/{account_id}/remove"): (ORGANISERS, {"data": {}}),
    ("GET", "/api/accounts"): (ORGANISERS, {}),
    ("POST", "/api/accounts"): (ORGANISERS, {"json": {"name": "new", "role": "referee", "password": "x"}}),
    ("POST", "/api/accounts/{account_id}/password"): (ORGANISERS, {"json": {"password": "long enough"}}),
    ("DELETE", "/api/accounts/{account_id}"): (ORGANISERS, {}),
    # players and the register
    ("GET", "/players"): (EVERYONE, {}),
    ("GET", "/players/register"): (EVERYONE, {}),
    ("GET", "/players/register.csv"): (EVERYONE, {}),
    ("POST", "/players/register/import"): (RUN, {"data": {}}),
    # tournaments
    ("GET", "/api/tournaments"): (EVERYONE, {}),
    ("POST", "/api/tournaments"): (RUN, {"json": {}}),
    ("POST", "/api/tournaments/{tournament_id}/players"): (RUN, {"json": {"players": []}}),
    ("POST", "/api/tournaments/{tournament_id}/start"): (RUN, {}),
    ("GET", "/api/tournaments/{tournament_id}"): (EVERYONE, {}),
    ("GET", "/api/tournaments/{tournament_id}/games"): (EVERYONE, {}),
    ("GET", "/api/tournaments/{tournament_id}/standings"): (EVERYONE, {}),
    ("GET", "/api/tournaments/{tournament_id}/results.csv"): (EVERYONE, {}),
    ("GET", "/api/tournaments/{tournament_id}/games.csv"): (EVERYONE, {}),
    ("GET", "/api/tournaments/{tournament_id}/results.pdf"): (EVERYONE, {}),
    # the organiser's desk (a tournament that does not exist: 404 for those who may)
    ("POST", "/api/tournaments/{tournament_id}/players/{player}/withdraw"): (RUN, {"json": {}}),
    ("POST", "/api/tournaments/{tournament_id}/games/{game}/walkover"): (RUN, {"json": {"winner": 0}}),
    ("POST", "/api/tournaments/{tournament_id}/games/{game}/result"): (RUN, {"json": {}}),
    ("POST", "/api/tournaments/{tournament_id}/games/{game}/correction"): (RUN, {"json": {"reason": "x"}}),
    ("POST", "/api/tournaments/{tournament_id}/games/{game}/unlock"): (RUN, {"json": {"reason": "x"}}),
    ("POST", "/api/tournaments/{tournament_id}/games/{game}/call"): (RUN, {"json": {"table": 1}}),
    ("POST", "/api/tournaments/{tournament_id}/games/{game}/move"): (RUN, {"json": {"table": 1}}),
    ("POST", "/api/tournaments/{tournament_id}/games/{game}/postpone"): (RUN, {"json": {}}),
    ("POST", "/api/tournaments/{tournament_id}/games/{game}/schedule"): (RUN, {"json": {}}),
    ("POST", "/api/tournaments/{tournament_id}/swap"): (RUN, {"json": {}}),
    ("POST", "/api/tournaments/{tournament_id}/rounds/schedule"): (RUN, {"json": {}}),
    ("POST", "/api/tournaments/{tournament_id}/seeding"): (RUN, {"json": {"seeds": []}}),
    ("POST", "/api/tournaments/{tournament_id}/seeding/ranking"): (RUN, {"content": b"rank,name\n"}),
    ("GET", "/api/tournaments/{tournament_id}/audit"): (RUN, {}),
    ("GET", "/tournaments/{tournament_id}/desk"): (RUN, {}),
    ("POST", "/tournaments/{tournament_id}/desk/ranking"): (RUN, {"data": {}}),
    ("POST", "/tournaments/{tournament_id}/desk/{action}"): (RUN, {"data": {}}),
    ("GET", "/tournaments"): (EVERYONE, {}),
    ("POST", "/tournaments"): (RUN, {"data": {}}),
    ("GET", "/tournaments/{tournament_id}"): (EVERYONE, {}),
    ("GET", "/tournaments/{tournament_id}/live"): (EVERYONE, {}),
    ("GET", "/tournaments/{tournament_id}/results.pdf"): (EVERYONE, {}),
    ("POST", "/tournaments/{tournament_id}/players"): (RUN, {"data": {}}),
    ("POST", "/tournaments/{tournament_id}/start"): (RUN, {"data": {}}),
    # the hall
    ("GET", "/hall"): (EVERYONE, {}),
    ("GET", "/kiosk/{match_id}"): (EVERYONE, {}),
    ("GET", "/kiosk"): (EVERYONE, {}),
    # the training table
    ("POST", "/api/simulate"): (EVERYONE, {"json": {}}),
    ("POST", "/api/solve"): (EVERYONE, {"json": {}}),
    ("GET", "/table"): (EVERYONE, {}),
    # the review of tracked recordings
    ("GET", "/review"): (RUN, {}),
    ("POST", "/review"): (RUN, {"data": {}}),
    ("GET", "/review/{match_id}"): (RUN, {}),
    ("GET", "/review/{match_id}/strokes/{index}.json"): (RUN, {}),
    ("POST", "/review/{match_id}/strokes/{index}"): (RUN, {"data": {}}),
    ("POST", "/review/{match_id}/strokes/{index}/fit"): (RUN, {}),
    ("POST", "/review/{match_id}/strokes/{index}/what-if"): (RUN, {"json": {}}),
    ("POST", "/review/video"): (RUN, {"data": {}}),
    ("GET", "/review/video/{key}"): (RUN, {}),
    ("GET", "/review/video/{key}/progress"): (RUN, {}),
    ("GET", "/review/{match_id}/stills/{name}"): (RUN, {}),
    ("GET", "/review/{match_id}/video"): (RUN, {}),
    # the player's own page
    ("GET", "/players/{player_id}"): (EVERYONE, {}),
    # the leagues: public reading, the organiser's seasons and links, the captains'
    ("GET", "/api/leagues"): (EVERYONE, {}),
    ("POST", "/api/leagues"): (RUN, {"json": {}}),
    ("GET", "/api/leagues/{season_id}"): (EVERYONE, {}),
    ("GET", "/api/leagues/{season_id}/divisions/{division}/table.csv"): (EVERYONE, {}),
    ("GET", "/api/leagues/{season_id}/players"): (EVERYONE, {}),
    ("POST", "/api/leagues/{season_id}/teams/{team_id}/captain-link"): (RUN, {}),
    ("GET", "/api/leagues/meetings/{fixture_id}"): (EVERYONE, {}),
    ("GET", "/api/leagues/meetings/{fixture_id}/report.pdf"): (EVERYONE, {}),
    ("POST", "/api/leagues/meetings/{fixture_id}/lineup"): (CAPTAIN_ONLY, None),
    ("POST", "/api/leagues/meetings/{fixture_id}/report"): (CAPTAIN_ONLY, None),
    ("POST", "/api/leagues/meetings/{fixture_id}/tables"): (RUN, {"json": {}}),  # and the home captain
    ("GET", "/leagues"): (EVERYONE, {}),
    ("POST", "/leagues"): (RUN, {"data": {}}),
    ("GET", "/leagues/{season_id}"): (EVERYONE, {}),
    ("GET", "/leagues/{season_id}/divisions/{division}"): (EVERYONE, {}),
    ("GET", "/leagues/{season_id}/teams/{team_id}"): (EVERYONE, {}),
    ("GET", "/leagues/{season_id}/organiser"): (RUN, {}),
    ("POST", "/leagues/{season_id}/captain-links"): (RUN, {"data": {}}),
    ("GET", "/leagues/meetings/{fixture_id}"): (EVERYONE, {}),
    ("GET", "/leagues/meetings/{fixture_id}/live"): (EVERYONE, {}),
    ("POST", "/leagues/meetings/{fixture_id}/tables"): (RUN, {"data": {}}),  # and the home captain
    ("GET", "/leagues/{season_id}/captain"): (CAPTAIN_ONLY, None),
    ("POST", "/leagues/{season_id}/captain/lineup"): (CAPTAIN_ONLY, None),
    ("POST", "/leagues/{season_id}/captain/report"): (CAPTAIN_ONLY, None),
    # the club's tables: the organiser's list, the JSON API, each table's devices
    ("GET", "/tables"): (RUN, {}),
    ("POST", "/tables"): (RUN, {"data": {}}),
    ("POST", "/tables/{name}/order"): (RUN, {"data": {}}),
    ("POST", "/tables/{name}/retire"): (RUN, {"data": {}}),
    ("POST", "/tables/{name}/devices/{device}/revoke"): (RUN, {"data": {}}),
    ("POST", "/tables/{name}/matches"): (RUN, {"data": {}}),
    ("POST", "/tables/{name}/matches/{match}/take"): (RUN, {"data": {}}),
    ("POST", "/tables/tournaments/{tid}"): (RUN, {"data": {}}),
    ("POST", "/tables/{name}/pairing"): (RUN, {"data": {}}),
    ("GET", "/api/tables"): (EVERYONE, {}),
    ("GET", "/api/tables/{name}"): (EVERYONE, {}),
    ("POST", "/api/tables"): (RUN, {"json": {}}),
    ("POST", "/api/tables/{name}/order"): (RUN, {"json": {}}),
    ("POST", "/api/tables/{name}/retire"): (RUN, {"json": {}}),
    ("POST", "/api/tables/{name}/pairing"): (RUN, {"json": {}}),
    ("POST", "/api/tables/{name}/pair"): (EVERYONE, {"json": {"code": "wrong"}}),
    ("POST", "/api/tables/{name}/devices/{device}/revoke"): (RUN, {"json": {}}),
    ("POST", "/api/tables/{name}/matches"): (RUN, {"json": {}}),
    ("POST", "/api/tables/{name}/matches/{match}/take"): (RUN, {"json": {}}),
    ("GET", "/api/tournaments/{tid}/tables"): (EVERYONE, {}),
    ("POST", "/api/tournaments/{tid}/tables"): (RUN, {"json": {}}),
    ("GET", "/tables/{name}/tablet"): (DEVICE_ONLY, {}),
    ("GET", "/tables/{name}/tablet/now"): (DEVICE_ONLY, {}),
    ("GET", "/tables/{name}/screen"): (EVERYONE, {}),
    ("GET", "/tables/{name}/pair"): (EVERYONE, {}),
    ("POST", "/tables/{name}/pair"): (CODE_ONLY, {"data": {"code": "wrong"}}),
    # shared
    ("GET", "/lang/{code}"): (EVERYONE, {}),
    ("GET", "/healthz"): (EVERYONE, {}),
    ("GET", "/openapi.json"): (EVERYONE, {}),
}
"""Every route. The live channels (``/m/{id}/events``, ``/hall/events``: public, read-only)
are answered before the routes, by carom.web.shared.live."""
VALUES = {"match_id": str(M), "tournament_id": str(T), "account_id": str(A), "index": "0", "code": "en",
          "name": "T1", "device": str(A), "match": str(A), "tid": str(T), "player_id": str(A),
          "season_id": str(T), "division": "A", "team_id": str(A), "fixture_id": str(A),
          "player": str(A), "game": "1.A.1.0", "action": "postpone", "key": "0123456789abcdef"}
"""The values a route's path is made with: table T1 is in the hall (the fixture registers it)."""
GONE = {("POST", "/tables/{name}/retire"), ("POST", "/tables/{name}/pairing"),
        ("POST", "/api/tables/{name}/retire"), ("POST", "/api/tables/{name}/pairing")}
"""Routes that take no body to refuse: they are asked about a table the hall does not have
(404 or its refusal page), so that T1 stays as it is."""


def app_routes(app: Any) -> set[tuple[str, str]]:
    """Every (method, path) the application answers, the routers' included ones too."""
    found: set[tuple[str, str]] = set()
    for route in app.router.routes:
        inner = getattr(route, "original_router", None)
        routes = [(route.include_context.prefix, r) for r in inner.routes] if inner else [("", route)]
        for prefix, r in routes:
            for method in getattr(r, "methods", None) or ():
                if method != "HEAD":
                    found.add((method, prefix + r.path))
    return found


@pytest.fixture(scope="module")
def clients(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Clients]:
    with clients_of_every_role(Path(tmp_path_factory.mktemp("roles"))) as made:
        registered = made["organiser"].post("/api/tables", json={"name": "T1", "size": "large", "order": 1})
        assert registered.status_code == 201, registered.text
        yield made


def test_the_table_names_every_route(clients: Clients) -> None:
    routes = app_routes(clients.app)
    assert routes - set(TABLE) == set(), "routes without a decision in the table"
    assert set(TABLE) - routes == set(), "decisions for routes that do not exist"


def refused(response: Any) -> bool:
    if response.status_code in (401, 403):
        return True
    where = response.headers.get("location", "")
    return response.status_code == 303 and (where.startswith("/login?next=") or where == "/setup")


@pytest.mark.parametrize("route", sorted(r for r, (_, request) in TABLE.items() if request is not None),
                         ids=lambda r: f"{r[0]} {r[1]}")
def test_each_role_may_do_what_the_table_says(clients: Clients, route: tuple[str, str]) -> None:
    allowed, request = TABLE[route]
    assert request is not None
    method, template = route
    path = template.format(**{**VALUES, "name": "nowhere"} if route in GONE else VALUES)
    seq = clients.seq()
    for role in ROLES:
        client = clients[role]
        kept = dict(client.cookies)  # a login or a language switch sets cookies: they go again
        response = client.request(method, path, follow_redirects=False, **request)
        client.cookies.clear()
        client.cookies.update(kept)
        assert response.status_code < 500, (role, response.text[:300])
        assert refused(response) is (role not in allowed), (role, response.status_code, response.text[:300])
    assert clients.seq() == seq  # nothing was entered into match 1
