"""A finished match's result: the referee may undo until both players confirm it on the
tablet (or the organiser does); then only the organiser can reopen it, and the reopening
is kept. Statistics follow players, not names; the export keeps the players' letters."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.browser import OPENER, enter

Match = tuple[int, str]
FINISH = [OPENER, {"type": "inning", "points": 3}]  # Anna reaches 3; Boris equalizes next
LAST = {"type": "inning", "points": 0}


def _record(client: Any, match_id: int, token: str, record: dict[str, Any]) -> Any:
    seq = client.get(f"/api/matches/{match_id}").json()["seq"]
    return client.post(
        f"/api/matches/{match_id}/records",
        json={"after": seq, "record": record},
        headers={"X-Referee-Token": token},
    )


def _confirm(client: Any, match_id: int, token: str, player: int) -> Any:
    return client.post(
        f"/api/matches/{match_id}/confirm", json={"player": player}, headers={"X-Referee-Token": token}
    )


def test_both_players_confirm_then_only_the_organiser_reopens(
    organiser: Any, stranger: Any, match: Match
) -> None:
    match_id, token = match
    enter(organiser, match_id, token, [*FINISH, LAST])
    assert _confirm(stranger, match_id, token, 0).status_code == 200
    assert _record(stranger, match_id, token, {"type": "undo"}).status_code == 201  # one confirmation: undo
    assert _record(stranger, match_id, token, LAST).status_code == 201
    assert _confirm(stranger, match_id, token, 1).status_code == 200
    assert not stranger.get(f"/api/matches/{match_id}").json()["state"][
        "confirmed"
    ]  # 0's was for the old end
    assert _confirm(stranger, match_id, token, 0).status_code == 200
    assert stranger.get(f"/api/matches/{match_id}").json()["state"]["confirmed"]
    refused = _record(stranger, match_id, token, {"type": "undo"})
    assert refused.status_code == 409
    assert "only the organiser or the tournament director can reopen" in refused.json()["detail"]
    assert stranger.post(f"/api/matches/{match_id}/reopen").status_code == 401
    reopened = organiser.post(f"/api/matches/{match_id}/reopen")
    assert reopened.status_code == 200 and not reopened.json()["state"]["confirmed"]
    assert [e["kind"] for e in reopened.json()["events"]] == ["confirm", "confirm", "confirm", "reopen"]
    last = reopened.json()["events"][-1]
    assert last["by"] == "account" and last["account"]["name"] == "organiser" and last["at"]
    assert _record(stranger, match_id, token, {"type": "undo"}).status_code == 201


def test_a_match_that_goes_on_has_no_result_to_confirm(organiser: Any, match: Match) -> None:
    match_id, token = match
    enter(organiser, match_id, token, FINISH)
    response = _confirm(organiser, match_id, token, 0)
    assert response.status_code == 409 and "not finished" in response.json()["detail"]
    assert _confirm(organiser, match_id, "forged", 0).status_code == 403
    assert (
        organiser.post(
            f"/api/matches/{match_id}/confirm", json={"player": 2}, headers={"X-Referee-Token": token}
        ).status_code
        == 422
    )


def test_the_tablet_confirms_and_then_takes_nothing(organiser: Any, stranger: Any, match: Match) -> None:
    match_id, token = match
    enter(organiser, match_id, token, [*FINISH, LAST])
    headers = {"X-Referee-Token": token}
    panel = stranger.post(
        f"/m/{match_id}/tablet/confirm", data={"player": "0", "after": "3"}, headers=headers
    )
    assert panel.status_code == 200 and 'id="confirmed-0"' in panel.text and 'id="btn-undo"' in panel.text
    panel = stranger.post(
        f"/m/{match_id}/tablet/confirm", data={"player": "1", "after": "3"}, headers=headers
    )
    assert "The result is confirmed" in panel.text and 'id="btn-undo"' not in panel.text
    refused = stranger.post(f"/m/{match_id}/tablet", data={"type": "undo", "after": "3"}, headers=headers)
    assert refused.status_code == 409 and "Only the organiser can reopen" in refused.text
    assert stranger.get(f"/api/matches/{match_id}").json()["seq"] == 3


def test_the_organiser_confirms_on_the_matchs_page(organiser: Any, match: Match) -> None:
    match_id, token = match
    enter(organiser, match_id, token, [*FINISH, LAST])
    assert organiser.post(f"/organiser/matches/{match_id}/confirm", follow_redirects=False).status_code == 303
    page = organiser.get(f"/organiser/matches/{match_id}").text
    assert "confirmed by organiser." in page and "Result confirmed by organiser" in page  # its account
    assert _record(organiser, match_id, token, {"type": "undo"}).status_code == 409
    assert "confirmed" in organiser.get("/organiser").text


def test_statistics_follow_the_player_not_the_name(app: Any, organiser: Any) -> None:
    book = app.state.services.book
    from sqlalchemy import insert

    from carom.storage import schema

    with book.store.engine.begin() as connection:  # a register with two players of one name
        ids = [
            connection.execute(
                insert(schema.players)
                .values(name="Peter Horváth", name_key="peter horváth")
                .returning(schema.players.c.id)
            ).scalar_one()
            for _ in range(2)
        ]
        other = connection.execute(
            insert(schema.players).values(name="Anna", name_key="anna").returning(schema.players.c.id)
        ).scalar_one()
    header = (
        '{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": '
        '["Peter Horváth", "Anna"], "points": 2, "innings": null, "sets": null, "equalizing_inning": true}'
    )
    for peter, points in zip(ids, (2, 1), strict=True):
        match_id = book.create(header, "tok", player_ids=(peter, other))
        enter(
            organiser,
            match_id,
            "tok",
            [OPENER, {"type": "inning", "points": points}, {"type": "inning", "points": 2}],
        )
    page = organiser.get("/players").text
    lines = re.findall(r'<tr data-player="(\d+)"><td>Peter Horváth</td>', page)
    assert sorted(map(int, lines)) == sorted(ids)  # two players, two lines
    refused = organiser.post(
        "/api/matches",
        json={"discipline": "three-cushion", "points": 3, "players": ["Peter Horváth", "Boris"]},
    )
    assert refused.status_code == 422 and "2 players are called Peter Horváth" in refused.json()["detail"]


def test_the_export_keeps_the_players_letters(organiser: Any) -> None:
    created = organiser.post(
        "/api/matches",
        json={"discipline": "three-cushion", "points": 3, "players": ["Ján Horváth", "Éva Nováková"]},
    ).json()
    disposition = organiser.get(f"/m/{created['id']}/export").headers["content-disposition"]
    assert f'filename="match-{created["id"]}-Jan-Horvath-Eva-Novakova.carom.jsonl"' in disposition
    assert "filename*=UTF-8''match-" in disposition
    assert "J%C3%A1n-Horv%C3%A1th-%C3%89va-Nov%C3%A1kov%C3%A1.carom.jsonl" in disposition


@pytest.mark.rule("P1")
def test_a_match_won_on_penalties_is_no_win_in_the_statistics(organiser: Any) -> None:
    """Found on a club day: the statistics counted a shoot-out's winner as having won the match; the
    game was drawn on the table and stays a draw for the statistics (docs/clock.md, P1)."""
    body = {"discipline": "three-cushion", "table": "large", "players": ["Anna", "Boris"], "points": 3,
            "innings": 1, "tiebreak": "penalties"}
    made = organiser.post("/api/matches", json=body).json()
    penalty = [{"type": "penalty", "player": p, "result": r} for p, r in ((0, "carom"), (1, "miss"))]
    enter(organiser, made["id"], made["referee_token"],
          [OPENER, {"type": "inning", "points": 1}, {"type": "inning", "points": 1}, *penalty])
    page = organiser.get("/players").text
    row = r'<tr data-player="\d+"><td>(\w+)</td><td class="num">1</td><td class="num">(\d)</td>'
    won = re.findall(row, page)
    assert sorted(won) == [("Anna", "0"), ("Boris", "0")]


@pytest.mark.rule("F1")
def test_a_stroke_without_a_point_says_what_was_missing(organiser: Any) -> None:
    """Found on a club day: a stroke without a point listed the carom's rules ("No point · C1 …") as if
    they had applied; it says what was missing and that the inning ends."""
    from carom.web.shared.i18n import PageWords
    from carom.web.shared.views import reasons

    en, de = PageWords("en"), PageWords("de")
    assert reasons(0, (), ("C1", "F1"), en) == [("C1", "no carom"), ("F1", "the inning ends")]
    assert reasons(0, (), ("C1", "F1", "3C1"), en) == [
        ("F1", "the inning ends"), ("3C1", "too few cushions before the third ball")]
    assert reasons(1, (), ("C1", "C2", "C3"), en) == [(r, en.rule(r)) for r in ("C1", "C2", "C3")]
    assert reasons(0, (), ("C1", "F1"), de) == [("C1", "keine Karambolage"), ("F1", "die Aufnahme endet")]
    made = organiser.post("/api/matches", json={"discipline": "three-cushion", "table": "large",
                                                "players": ["Anna", "Boris"], "points": 5}).json()
    enter(organiser, made["id"], made["referee_token"], [OPENER, {"type": "call", "result": "miss"}])
    tablet = organiser.get(f"/m/{made['id']}/tablet?t={made['referee_token']}").text
    assert "no carom (C1) · the inning ends (F1)" in tablet
