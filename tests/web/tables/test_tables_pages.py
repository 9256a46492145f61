"""The organiser's tables (/tables) and the JSON API (/api/tables): tables added, moved and
retired with refusals that name their field and rule and change nothing; a pairing shown
once as a link and a QR code; one-off matches put on a table and taken off; a tournament's
tables; what each table plays now and next; the screen page, public and without a link."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.tables.helpers import OPENER, add_table, new_match, pair, play_out, put, write


def form(organiser: Any, path: str, **fields: str) -> Any:
    return organiser.post(path, data={"csrf": organiser.headers["X-CSRF-Token"], **fields},
                          follow_redirects=False)


def test_the_organiser_adds_moves_and_retires_tables_on_the_page(organiser: Any) -> None:
    assert form(organiser, "/tables", name="1", size="large", order="2").status_code == 303
    assert form(organiser, "/tables", name="Stôl 2", size="small", order="1").status_code == 303
    page = organiser.get("/tables")
    assert page.status_code == 200
    assert page.text.index("Stôl 2") < page.text.index('table-row-name">1<')
    refused = form(organiser, "/tables", name="stôl 2", size="large", order="3")
    assert refused.status_code == 422 and "the hall has a table" in refused.text and "(TD1)" in refused.text
    assert form(organiser, "/tables", name="3", size="large", order="x").status_code == 422
    assert form(organiser, "/tables/1/order", order="1").status_code == 303
    assert form(organiser, "/tables/Stôl 2/retire").status_code == 303
    names = [t["name"] for t in organiser.get("/api/tables").json()]
    assert names == ["1"]
    assert form(organiser, "/tables/9/retire").status_code == 422


def test_a_form_without_its_token_or_login_changes_nothing(organiser: Any, stranger: Any) -> None:
    assert organiser.post("/tables", data={"name": "1", "size": "large", "order": "1"},
                          headers={"X-CSRF-Token": ""}).status_code == 403
    away = stranger.get("/tables", follow_redirects=False)
    assert away.status_code == 303 and away.headers["location"].startswith("/login")
    assert stranger.post("/tables", data={"name": "1", "size": "large", "order": "1"},
                         follow_redirects=False).status_code == 303
    assert stranger.post("/api/tables", json={"name": "1", "size": "large", "order": 1}).status_code == 401
    assert organiser.get("/api/tables").json() == []


def test_pairing_shows_a_link_and_qr_codes_once_and_keeps_only_a_hash(organiser: Any) -> None:
    add_table(organiser, "1")
    page = form(organiser, "/tables/1/pairing")
    assert page.status_code == 200
    link = re.search(r'id="pairing-url">([^<]+)<', page.text)
    assert link is not None
    assert re.fullmatch(r"http://testserver/tables/1/pair\?code=[\w-]{16}", link.group(1))
    assert page.text.count('class="qr-code"') == 2 and "/tables/1/screen" in page.text
    code = link.group(1).split("=")[1]
    assert code not in organiser.get("/tables").text  # shown once


def test_one_off_matches_are_put_on_a_table_and_taken_off(organiser: Any, stranger: Any) -> None:
    add_table(organiser, "1")
    add_table(organiser, "2", 2)
    first, second = new_match(organiser, "Anna", "Boris"), new_match(organiser, "Cyril", "Dana")
    page = organiser.get("/tables")
    assert f'<option value="{first}">{first}: Anna – Boris</option>' in page.text
    assert form(organiser, "/tables/1/matches", match=str(first)).status_code == 303
    assert form(organiser, "/tables/1/matches", match=str(second)).status_code == 303
    twice = form(organiser, "/tables/2/matches", match=str(first))
    assert twice.status_code == 422 and "was put on table" in twice.text
    assert form(organiser, "/tables/2/matches", match="999").status_code == 422
    table = organiser.get("/api/tables/1").json()
    assert (table["now"]["match"], table["next"]["match"]) == (first, second)
    assert table["now"]["players"] == ["Anna", "Boris"]
    assert (table["now"]["started"], table["now"]["finished"]) == (False, False)
    assert "devices" not in stranger.get("/api/tables/1").json()  # anyone may read what is on
    assert f'<option value="{first}">' not in organiser.get("/tables").text  # on a table: no more offered
    assert form(organiser, f"/tables/1/matches/{first}/take").status_code == 303
    assert organiser.get("/api/tables/1").json()["now"]["match"] == second
    assert organiser.get("/api/tables/9").status_code == 404


def test_the_screen_is_public_has_no_link_and_says_what_is_next(organiser: Any, stranger: Any) -> None:
    add_table(organiser, "1")
    empty = stranger.get("/tables/1/screen?lang=de")
    assert empty.status_code == 200 and "<a " not in empty.text
    assert "Auf diesem Tisch ist keine Partie geplant." in empty.text or "No game is planned" in empty.text
    assert 'data-events="/tables/1/events?view=screen&amp;lang=de"' in empty.text
    match = new_match(organiser, "Anna", "Boris")
    put(organiser, "1", match)
    waiting = stranger.get("/tables/1/screen")
    assert "Next: Anna – Boris" in waiting.text and 'class="scoreboard' not in waiting.text
    pair(organiser, stranger, "1")
    write(stranger, match, 0, OPENER)
    playing = stranger.get("/tables/1/screen")
    assert 'class="scoreboard' in playing.text and 'data-version="1.0"' in playing.text


def test_a_tournament_plays_on_the_tables_named_in_order(organiser: Any) -> None:
    for n, name in enumerate(("1", "2", "3"), start=1):
        add_table(organiser, name, n)
    tid = organiser.post("/api/tournaments", json={"name": "Club cup", "discipline": "three-cushion",
                                                   "points": 2, "tables": 2}).json()["id"]
    assert organiser.post(f"/api/tournaments/{tid}/tables", json={"tables": ["3", "1"]}).status_code == 200
    assert organiser.get(f"/api/tournaments/{tid}/tables").json()["tables"] == ["3", "1"]
    three = organiser.post(f"/api/tournaments/{tid}/tables", json={"tables": ["1", "2", "3"]})
    assert three.status_code == 422 and "plays on 2 tables" in three.json()["detail"]
    assert organiser.post(f"/api/tournaments/{tid}/tables", json={"tables": "1"}).status_code == 422
    assert organiser.post("/api/tournaments/999/tables", json={"tables": ["1"]}).status_code == 422
    page = organiser.get("/tables")
    assert 'value="3, 1"' in page.text
    assert form(organiser, f"/tables/tournaments/{tid}", tables="2, 1").status_code == 303
    assert organiser.get(f"/api/tournaments/{tid}/tables").json()["tables"] == ["2", "1"]


@pytest.mark.parametrize("body", [
    {"name": "", "size": "large", "order": 1}, {"name": "a/b", "size": "large", "order": 1},
    {"name": "1", "size": "pool", "order": 1}, {"name": "1", "size": "large"},
    {"name": "1", "size": "large", "order": True}, [1]])
def test_the_api_refuses_a_table_naming_its_field(organiser: Any, body: Any) -> None:
    refused = organiser.post("/api/tables", json=body)
    assert refused.status_code == 422 and ":" in refused.json()["detail"]
    assert organiser.get("/api/tables").json() == []


def test_a_finished_one_off_match_waits_for_its_confirmation_on_the_table(organiser: Any,
                                                                          stranger: Any) -> None:
    add_table(organiser, "1")
    pair(organiser, stranger, "1")
    match, after = new_match(organiser, "Anna", "Boris"), new_match(organiser, "Cyril", "Dana")
    put(organiser, "1", match)
    put(organiser, "1", after)
    play_out(stranger, match)
    table = organiser.get("/api/tables/1").json()
    assert table["now"]["match"] == match and table["now"]["finished"] and not table["now"]["confirmed"]
    assert organiser.post(f"/api/matches/{match}/confirm").status_code == 200
    assert organiser.get("/api/tables/1").json()["now"]["match"] == after


def test_the_hall_log_names_the_account_that_made_each_change(app: Any, organiser: Any) -> None:
    """A tournament director runs the hall too (the permission to run the day); each record
    of the hall's log names the logged-in account (``name #id``), as a tournament's log does."""
    from carom.storage.accounts import Accounts
    from carom.storage.roles import Role
    from carom.web.shared.auth import hash_password
    from carom.web.tables.service import app_games
    from tests.web.accounts.accounts import log_in
    from tests.web.server import ORGANISER, PASSWORD

    accounts = Accounts(app.state.services.book.store)
    made = accounts.create("Dora", Role.DIRECTOR, hash_password(PASSWORD), by=None)
    director = log_in(app, "Dora")
    add_table(organiser, "1")
    assert form(director, "/tables", name="2", size="large", order="2").status_code == 303
    assert director.post("/api/tables/2/retire").status_code == 200
    director.close()
    actors = [(type(logged.record).__name__, logged.record.actor) for logged in app_games(app).hall.records()]
    assert actors == [("Registered", f"{ORGANISER} #1"), ("Registered", f"Dora #{made.id}"),
                      ("Retired", f"Dora #{made.id}")]
