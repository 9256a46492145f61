"""Values an attacker sends that the pages took badly (the security review's M1-M5, L2, L3 and the
"Also" list): digits that are not ASCII, long legal names in a PDF, formulas in a CSV,
names the match API refuses given to a tournament or the register, a re-imported register
of names only, JSON nested 30,000 deep, an origin of the other scheme, an alert text in an
address. Each is answered with a 4xx that names what is wrong, or taken as it should be;
none is a 500."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

Match = tuple[int, str]
SUPERSCRIPT_TWO = "\u00b2"  # "²".isdigit() is true, int("²") raises


def _csrf(client: Any) -> str:
    return str(client.headers["X-CSRF-Token"])


# --- M1: digits that are not ASCII ----------------------------------------------------


@pytest.mark.parametrize("path", [
    f"/hall?m={SUPERSCRIPT_TWO}",
    f"/hall/events?m=1,{SUPERSCRIPT_TWO}",
    f"/kiosk?every={SUPERSCRIPT_TWO}",
    f"/kiosk?m={SUPERSCRIPT_TWO}&every=20",
    f"/table?match={SUPERSCRIPT_TWO}",
])
def test_a_superscript_digit_in_a_query_is_refused_or_ignored(client: Any, path: str) -> None:
    response = client.get(path)
    assert response.status_code in (200, 422), (path, response.status_code, response.text[:200])


def test_a_superscript_digit_in_a_match_line_is_no_line(client: Any, match: Match) -> None:
    response = client.get(f"/table?match={match[0]}&line={SUPERSCRIPT_TWO}")
    assert response.status_code == 200 and "has no known position" in response.text


def _asgi_get(app: Any, path: str, headers: list[tuple[bytes, bytes]]) -> int:
    """The status of a GET sent to ``app`` with these raw header bytes (a test client
    would re-encode a byte such as 0xB2 as UTF-8 on the way)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    statuses: list[int] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver"), *headers], "client": ("127.0.0.1", 50000),
             "server": ("testserver", 80)}
    try:  # in a thread of its own: a browser test before may have left this one an event loop
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, app(scope, receive, send)).result()
    except Exception:
        return 500
    return statuses[0]


def test_a_session_cookie_with_a_superscript_digit_is_no_session(client: Any, app: Any) -> None:
    cookie = (b"cookie", b"carom_session=0.\xb2.nonce.signature")  # latin-1, as a header is read
    for path in ("/", "/organiser", "/api/session", "/hall"):
        assert _asgi_get(app, path, [cookie]) in (200, 303), path


def test_a_superscript_digit_in_a_form_number_is_refused(organiser: Any) -> None:
    form = {"discipline": "three-cushion", "table": "large", "player0": "Anna", "player1": "Boris",
            "points": SUPERSCRIPT_TWO, "innings": "", "sets_to_win": "", "equalizing_inning": "on",
            "csrf": _csrf(organiser)}
    response = organiser.post("/organiser/matches", data=form)
    assert response.status_code == 422 and "not a whole number" in response.text


def test_superscript_digits_in_the_tournament_forms_are_refused(organiser: Any) -> None:
    csrf = _csrf(organiser)
    created = organiser.post("/tournaments", data={"csrf": csrf, "name": "Cup", "discipline": "three-cushion",
                                                   "points": SUPERSCRIPT_TWO, "innings": ""})
    assert created.status_code == 422
    tid = organiser.post("/api/tournaments", json={"name": "Cup", "discipline": "three-cushion",
                                                   "points": 5}).json()["id"]
    form = {"csrf": csrf, "names": f"Anna;;{SUPERSCRIPT_TWO}", "player": SUPERSCRIPT_TWO}
    entered = organiser.post(f"/tournaments/{tid}/players", data=form)
    assert entered.status_code in (303, 422), entered.text[:300]


def test_a_superscript_digit_as_a_register_id_is_refused(organiser: Any) -> None:
    response = organiser.post("/players/register/import", data={"csrf": _csrf(organiser)},
                              files={"file": ("players.csv", f"id,name\n{SUPERSCRIPT_TWO},Anna\n")})
    assert response.status_code == 422 and "line 2, id" in response.text


# --- M2: a legal name of 60 characters in a PDF -----------------------------------------


@pytest.mark.parametrize("letter", ["@", "Щ", "—", "W"])
def test_the_scoresheet_pdf_prints_sixty_wide_letters(organiser: Any, letter: str) -> None:
    response = organiser.post("/api/matches", json={"discipline": "three-cushion", "table": "large",
                                                    "players": [letter * 60, "Boris"], "points": 3})
    assert response.status_code == 201, response.text
    match_id = response.json()["id"]
    pdf = organiser.get(f"/m/{match_id}/scoresheet.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_tournament_results_pdf_prints_sixty_wide_letters(organiser: Any) -> None:
    tid = organiser.post("/api/tournaments", json={"name": "@" * 60, "discipline": "three-cushion",
                                                   "points": 5}).json()["id"]
    entered = organiser.post(f"/api/tournaments/{tid}/players",
                             json={"players": [{"name": "@" * 60}, {"name": "Щ" * 60}, {"name": "—" * 60}]})
    assert entered.status_code == 201, entered.text
    assert organiser.post(f"/api/tournaments/{tid}/start").status_code == 200
    pdf = organiser.get(f"/tournaments/{tid}/results.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


# --- M4: formulas in the scoresheet CSV ---------------------------------------------------


def test_the_scoresheet_csv_writes_a_formula_name_as_text(organiser: Any) -> None:
    created = organiser.post("/api/matches", json={"discipline": "three-cushion", "table": "large",
                                                   "players": ['=HYPERLINK("http://x")', "@SUM(1)"],
                                                   "points": 3}).json()
    for seq, record in enumerate([{"type": "opener", "player": 0}, {"type": "call", "result": "carom"},
                                  {"type": "call", "result": "miss"}, {"type": "call", "result": "carom"}]):
        organiser.post(f"/api/matches/{created['id']}/records", json={"after": seq, "record": record},
                       headers={"X-Referee-Token": created["referee_token"]})
    text = organiser.get(f"/m/{created['id']}/scoresheet.csv").content.decode("utf-8-sig")
    names = {row[4] for row in list(csv.reader(io.StringIO(text)))[1:]}
    assert names == {"'=HYPERLINK(\"http://x\")", "'@SUM(1)"}


# --- M5: one name type, validated once ---------------------------------------------------


BAD_NAMES = [("A" * 61, "61 characters"), ("Anna\u0000", "U+0000"), ("Anna\u0007", "U+0007"),
             ("Anna\u001b[31m", "U+001B"), ("\u202eevil", "U+202E")]


@pytest.mark.parametrize(("name", "reason"), BAD_NAMES)
def test_a_tournament_entry_takes_only_a_name_a_match_takes(organiser: Any, name: str, reason: str) -> None:
    tid = organiser.post("/api/tournaments", json={"name": "Cup", "discipline": "three-cushion",
                                                   "points": 5}).json()["id"]
    response = organiser.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": name}]})
    assert response.status_code == 422 and reason in response.json()["detail"], response.text
    page = organiser.post(f"/tournaments/{tid}/players", data={"csrf": _csrf(organiser), "names": name})
    assert page.status_code == 422 and reason in page.text
    assert organiser.get(f"/api/tournaments/{tid}").json()["participants"] == []


@pytest.mark.parametrize(("name", "reason"), BAD_NAMES)
def test_the_register_import_takes_only_a_name_a_match_takes(organiser: Any, name: str, reason: str) -> None:
    text = "name,club\nAnna,X\n" + f'"{name}",Y\n'
    response = organiser.post("/players/register/import", data={"csrf": _csrf(organiser)},
                              files={"file": ("players.csv", text)})
    assert response.status_code == 422 and "line 3" in response.text and reason in response.text
    assert organiser.get("/api/players").json() == []


# --- L2: a register of names only, imported twice -------------------------------------------


def test_a_register_of_names_only_imports_twice(organiser: Any) -> None:
    for _ in range(2):
        response = organiser.post("/players/register/import", data={"csrf": _csrf(organiser)},
                                  files={"file": ("players.csv", "name\nAnna\nBoris\n")})
        assert response.status_code == 200, response.text[:300]
    assert sorted(p["name"] for p in organiser.get("/api/players").json()) == ["Anna", "Boris"]


# --- L3: JSON nested too deep -------------------------------------------------------------------


def test_a_confirmation_nested_thirty_thousand_deep_is_refused(client: Any, match: Match) -> None:
    match_id, token = match
    body = b"[" * 30_000 + b"]" * 30_000
    response = client.post(f"/api/matches/{match_id}/confirm", content=body,
                           headers={"X-Referee-Token": token, "Content-Type": "application/json"})
    assert response.status_code == 422, response.text[:200]


# --- the origin's scheme ----------------------------------------------------------------------


def test_a_page_of_the_other_scheme_is_another_origin(organiser: Any) -> None:
    form = {"discipline": "three-cushion", "table": "large", "player0": "Anna", "player1": "Boris",
            "points": "30", "innings": "", "sets_to_win": "", "equalizing_inning": "on"}
    response = organiser.post("/organiser/matches", data=form, headers={"Origin": "https://testserver"})
    assert response.status_code == 403 and "another site" in response.text
    assert organiser.get("/api/matches").json() == []


# --- an alert written by whoever wrote the address -------------------------------------------


def test_the_review_page_shows_no_alert_from_its_address(organiser: Any) -> None:
    from tests.web.review.test_review import DATA

    recording = b"".join(DATA.read_bytes().splitlines(keepends=True)[:3])
    uploaded = organiser.post("/review", files={"file": ("r.jsonl", recording, "application/x-ndjson")},
                              data={"discipline": "three-cushion"}, follow_redirects=False)
    assert uploaded.status_code == 303, uploaded.text[:300]
    match_id = int(uploaded.headers["location"].rsplit("/", 1)[1])
    page = organiser.get(f"/review/{match_id}?error=Your+account+is+suspended%2C+call+0900")
    assert page.status_code == 200 and "Your account is suspended" not in page.text


# --- no script from another site; https as the proxy says -----------------------------------


def test_no_page_loads_a_script_from_another_site(client: Any) -> None:
    assert client.get("/docs").status_code == 404 and client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").json()["info"]["title"] == "carom scoreboard"
    assert "cdn" not in client.get("/").headers["content-security-policy"]


def test_a_request_is_over_https_only_when_it_came_so() -> None:
    from starlette.requests import Request

    from carom.web.shared.guard import over_https

    def request(scheme: str) -> Request:
        return Request({"type": "http", "scheme": scheme, "headers": [], "path": "/"})

    assert over_https(request("https")) and not over_https(request("http"))
