"""The tournaments' pages over HTTP: the list and its form, a tournament's page and its
live part, the player register with its CSV import and export; every change needs the
organiser's session and its anti-forgery token."""

from __future__ import annotations

import csv
import io
from typing import Any

NO_TOKEN = {"X-CSRF-Token": ""}


def _csrf(client: Any) -> str:
    return str(client.get("/api/session").json()["csrf"])


def test_create_enter_start_from_the_forms(organiser: Any) -> None:
    csrf = _csrf(organiser)
    made = organiser.post("/tournaments", data={
        "csrf": csrf, "name": "Cup", "discipline": "three-cushion", "table": "large", "points": "2",
        "mode": "round_robin", "groups": "1", "tables": "2", "equalizing_inning": "on", "seeding": "average"},
        follow_redirects=False)
    assert made.status_code == 303 and made.headers["location"] == "/tournaments/1"
    names = "Anna; BC Nitra\nBoris\n\nCyril"
    entered = organiser.post("/tournaments/1/players", data={"csrf": csrf, "names": names},
                             follow_redirects=False)
    assert entered.status_code == 303
    page = organiser.get("/tournaments/1").text
    assert page.count('data-player="') == 3 and "BC Nitra" in page
    started = organiser.post("/tournaments/1/start", data={"csrf": csrf}, follow_redirects=False)
    assert started.status_code == 303
    live = organiser.get("/tournaments/1/live").text
    assert live.count('class="tablet-link"') == 1  # 3 players: one game at a time, a player rests
    assert 'hx-trigger="every 2s"' in live
    assert "Tournaments" in organiser.get("/tournaments").text


def test_forms_without_the_token_change_nothing(organiser: Any, stranger: Any) -> None:
    refused = organiser.post("/tournaments", headers=NO_TOKEN,
                             data={"name": "Cup", "discipline": "three-cushion", "points": "5"})
    assert refused.status_code == 403
    to_login = stranger.post("/tournaments", data={"name": "Cup"}, follow_redirects=False)
    assert to_login.status_code == 303 and to_login.headers["location"].startswith("/login")
    assert organiser.get("/api/tournaments").json() == []
    bad = organiser.post("/tournaments", data={"csrf": _csrf(organiser), "name": "Cup",
                                               "discipline": "three-cushion", "points": "", "innings": ""})
    assert bad.status_code == 422 and "points, innings" in bad.text
    assert 'value="Cup"' in bad.text  # the form keeps what was typed


def test_a_tournament_page_in_three_languages(organiser: Any) -> None:
    tid = organiser.post("/api/tournaments", json={"name": "Pohár", "discipline": "three-cushion",
                                                   "points": 5}).json()["id"]
    for lang, word in (("en", "Participants"), ("sk", "Účastníci"), ("de", "Teilnehmer")):
        organiser.cookies.set("carom_lang", lang)
        assert word in organiser.get(f"/tournaments/{tid}").text
    organiser.cookies.set("carom_lang", "en")
    assert organiser.get("/tournaments/77").status_code == 404


def test_register_export_and_import_round_trip(organiser: Any) -> None:
    csrf = _csrf(organiser)
    match = organiser.post("/api/matches", json={"discipline": "three-cushion", "table": "large",
                                                 "players": ["Anna", "Boris"], "points": 2}).json()
    for seq, record in enumerate([{"type": "opener", "player": 0}, {"type": "inning", "points": 2},
                                  {"type": "inning", "points": 1}]):
        organiser.post(f"/api/matches/{match['id']}/records", json={"after": seq, "record": record},
                       headers={"X-Referee-Token": match["referee_token"]})
    done = organiser.post("/players/register/import", data={"csrf": csrf}, files={"file": (
        "players.csv", "name,club,country,licence\nAnna,BC Nitra,SK,SK-001\nZoe,=HYPERLINK(1),DE,\n")})
    assert done.status_code == 200 and 'id="import-done"' in done.text
    rows = list(csv.DictReader(io.StringIO(organiser.get("/players/register.csv").text)))
    assert [(r["name"], r["club"], r["country"], r["licence"], r["average:three-cushion"]) for r in rows] == [
        ("Anna", "BC Nitra", "SK", "SK-001", "2.000"), ("Boris", "", "", "", "1.000"),
        ("Zoe", "'=HYPERLINK(1)", "DE", "", "")]
    # the export imports again unchanged
    again = organiser.post("/players/register/import", data={"csrf": csrf}, files={
        "file": ("players.csv", organiser.get("/players/register.csv").text)})
    assert again.status_code == 200 and "0 new players, 3 updated" in again.text
    assert list(csv.DictReader(io.StringIO(organiser.get("/players/register.csv").text))) == rows
    bad = organiser.post("/players/register/import", data={"csrf": csrf}, files={
        "file": ("players.csv", "name,club\nNew one,X\n,Y\n")})
    assert bad.status_code == 422 and "line 3, name: empty" in bad.text
    assert "New one" not in organiser.get("/players/register").text  # all or nothing
    forged = organiser.post("/players/register/import", headers=NO_TOKEN,
                            files={"file": ("p.csv", "name\nX\n")})
    assert forged.status_code == 403


def test_refusals_on_the_pages_are_in_the_page_language(organiser: Any) -> None:
    csrf = _csrf(organiser)
    organiser.cookies.set("carom_lang", "sk")
    bad = organiser.post("/players/register/import", data={"csrf": csrf},
                         files={"file": ("players.csv", "name,club\nNew one,X\n,Y\n")})
    assert bad.status_code == 422 and "riadok 3, name: prázdne" in bad.text
    organiser.cookies.set("carom_lang", "de")
    bad = organiser.post("/tournaments", data={"csrf": csrf, "name": "Cup", "discipline": "three-cushion",
                                               "points": "", "innings": ""})
    assert bad.status_code == 422 and "Punkte, Aufnahmen: eine Partie braucht ein Limit (E1)" in bad.text
    tid = organiser.post("/api/tournaments", json={"name": "X", "discipline": "three-cushion",
                                                   "points": 5, "groups": 2}).json()["id"]
    organiser.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": "A"}, {"name": "B"}]})
    bad = organiser.post(f"/tournaments/{tid}/start", data={"csrf": csrf})
    assert bad.status_code == 422 and "2 Gruppen brauchen mindestens 4 Spieler, es sind 2" in bad.text
    organiser.cookies.set("carom_lang", "en")
