"""The organiser's desk as pages: plain forms posted with the session's token, answered by a
redirect back to the desk that says what was recorded, or by the desk again with the
refusal (its field and rule) and nothing changed; the audit view names the account, the
time, what and why. Only the accounts that run the day see it."""

from __future__ import annotations

import re
from typing import Any

from tests.web.tournaments.test_desk_api import ACTOR, _game, _log, _tournament


def _csrf(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def _post(organiser: Any, tid: int, action: str, **fields: Any) -> Any:
    page = organiser.get(f"/tournaments/{tid}/desk")
    assert page.status_code == 200, page.text
    return organiser.post(f"/tournaments/{tid}/desk/{action}", data={"csrf": _csrf(page.text), **fields},
                          follow_redirects=False)


def _done(organiser: Any, tid: int, action: str, **fields: Any) -> str:
    """The form is taken: back to the desk, which says so; the desk's page."""
    answer = _post(organiser, tid, action, **fields)
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == f"/tournaments/{tid}/desk?done={action}#desk-done"
    page = organiser.get(answer.headers["location"]).text
    assert 'id="desk-done"' in page
    return str(page)


def test_a_paper_result_unlock_and_correction_through_the_forms_end_in_the_audit_view(organiser: Any) -> None:
    tid = _tournament(organiser)
    assert f'href="/tournaments/{tid}/desk"' in organiser.get(f"/tournaments/{tid}").text
    game = _game(organiser, tid, "playing")["id"]
    page = _done(organiser, tid, "result", game=game, series_0="0 1 1", series_1="1 0 0")
    assert "Recorded: Result entered from a paper scoresheet." in page
    refused = _post(organiser, tid, "correct", game=game, points_0="2", points_1="0", innings_0="3",
                    innings_1="3", high_run_0="1", high_run_1="0", reason="typo")
    assert refused.status_code == 422 and "unlock it first (D12)" in refused.text
    _done(organiser, tid, "unlock", game=game, reason="the sheet says 2:0")
    page = _done(organiser, tid, "correct", game=game, points_0="2", points_1="0", innings_0="3",
                 innings_1="3", high_run_0="1", high_run_1="0", reason="Boris made none")
    audit = page[page.index('id="desk-audit"'):]
    rows = re.findall(r'data-kind="(corrected|unlocked|paper-result)".*?class="a-who">([^<]*)<.*?'
                      r'class="a-reason">([^<]*)<', audit, re.S)
    assert rows == [("corrected", ACTOR, "Boris made none"), ("unlocked", ACTOR, "the sheet says 2:0"),
                    ("paper-result", ACTOR, "")]
    assert "2:0" in audit


def test_withdrawal_walkover_move_postpone_and_start_time_forms(organiser: Any) -> None:
    tid = _tournament(organiser)
    ids = {p["name"]: p["player"] for p in organiser.get(f"/api/tournaments/{tid}").json()["participants"]}
    playing = _game(organiser, tid, "playing")
    _done(organiser, tid, "move", game=playing["id"], table="3")
    assert _game(organiser, tid, "playing")["table"] in (1, 2, 3)
    waiting = _game(organiser, tid, "waiting")
    _done(organiser, tid, "schedule", game=waiting["id"], table="", start="2026-12-06T18:30")
    assert _log(organiser, tid)[-1]["start"].startswith("2026-12-06T18:30:00")
    _done(organiser, tid, "postpone", game=waiting["id"])
    _done(organiser, tid, "walkover", game=_game(organiser, tid, "waiting")["id"], winner="1", reason="ill")
    page = _done(organiser, tid, "withdraw", player=str(ids["Dana"]), no_show="on", reason="did not come")
    assert "Player did not come" in page and "did not come" in page
    assert re.search(rf'data-player="{ids["Dana"]}">.*?class="p-state">withdrawn<', page, re.S)
    public = organiser.get(f"/tournaments/{tid}").text
    assert re.search(rf'data-player="{ids["Dana"]}">Dana.*?class="pill p-withdrawn">withdrawn<', public, re.S)
    assert public.count("p-withdrawn") == 1
    kinds = [x["type"] for x in _log(organiser, tid)]
    assert {"moved", "scheduled", "postponed", "walkover", "withdrew"} <= set(kinds)


def test_a_refused_form_says_why_in_the_pages_language_and_changes_nothing(organiser: Any) -> None:
    tid = _tournament(organiser)
    before = _log(organiser, tid)
    playing = _game(organiser, tid, "playing")
    organiser.cookies.set("carom_lang", "de")
    answer = _post(organiser, tid, "postpone", game=playing["id"])
    organiser.cookies.delete("carom_lang")
    assert answer.status_code == 422
    error = re.search(r'id="desk-error">([^<]*)<', answer.text)
    assert error is not None and "(D6)" in error.group(1) and "Partie" in error.group(1), error
    assert _log(organiser, tid) == before
    assert _post(organiser, tid, "nothing").status_code == 404


def test_seeding_and_a_ranking_list_before_the_start_and_a_late_entry_after(organiser: Any) -> None:
    tid = _tournament(organiser, start=False, tables=1, players=("Anna", "Boris", "Cyril"))
    ids = {p["name"]: p["player"] for p in organiser.get(f"/api/tournaments/{tid}").json()["participants"]}
    _done(organiser, tid, "seeding", **{f"seed_{ids['Cyril']}": "1", f"seed_{ids['Anna']}": ""})
    seeds = {p["name"]: p["seed"] for p in organiser.get(f"/api/tournaments/{tid}").json()["participants"]}
    assert seeds["Cyril"] == 1
    page = organiser.get(f"/tournaments/{tid}/desk").text
    listed = organiser.post(f"/tournaments/{tid}/desk/ranking",
                            data={"csrf": _csrf(page), "charset": "windows-1252"},
                            files={"file": ("list.csv", "rank;name\n1;Boris\n2;Jürgen\n".encode("cp1252"))},
                            follow_redirects=False)
    assert listed.status_code == 200 and "3: Jürgen" in listed.text, listed.text[-2000:]
    seeds = {p["name"]: p["seed"] for p in organiser.get(f"/api/tournaments/{tid}").json()["participants"]}
    assert seeds["Boris"] == 1
    assert organiser.post(f"/api/tournaments/{tid}/start").status_code == 200
    page = _done(organiser, tid, "enter", name="Dana", club="BC Nitra")
    assert re.search(r'<td>Dana</td>.*?class="p-state">late entry<', page, re.S)


def test_referees_and_visitors_have_no_desk(organiser: Any, stranger: Any) -> None:
    tid = _tournament(organiser, start=False)
    gone = stranger.get(f"/tournaments/{tid}/desk", follow_redirects=False)
    assert gone.status_code == 303 and gone.headers["location"].startswith("/login")
    assert 'id="desk-link"' not in stranger.get(f"/tournaments/{tid}").text
    posted = stranger.post(f"/tournaments/{tid}/desk/postpone", data={"game": "1.A.1.0"},
                           follow_redirects=False)
    assert posted.status_code == 303 and posted.headers["location"].startswith("/login")


def test_the_desk_names_the_halls_tables(organiser: Any) -> None:
    for order, name in enumerate(("Left", "Right"), start=1):
        made = organiser.post("/api/tables", json={"name": name, "size": "large", "order": order})
        assert made.status_code == 201
    tid = _tournament(organiser, start=False, tables=2)
    chosen = organiser.post(f"/api/tournaments/{tid}/tables", json={"tables": ["Right", "Left"]})
    assert chosen.status_code == 200
    assert organiser.post(f"/api/tournaments/{tid}/start").status_code == 200
    page = organiser.get(f"/tournaments/{tid}/desk").text
    assert re.search(r'class="num g-table">Right<', page) and '<option value="2">Left</option>' in page
    busy = _post(organiser, tid, "call", game=_game(organiser, tid, "waiting")["id"], table="2")
    assert busy.status_code == 422 and "(D5)" in busy.text  # both tables play
