"""A stroke its source doubts (a camera's, docs/format.md "A stroke in doubt"): the tablet
shows the doubt in the page's language and the referee upholds it (a match event, the record
unchanged) or overrules it (undo, then the call); the doubt never changes a ruling."""

from __future__ import annotations

import json
from typing import Any

import pytest

from carom.core.balls import Ball, Cushion
from carom.notation.said import Said

Match = tuple[int, str]

START = {"white": [0.5, 0.7], "yellow": [0.9, 0.7], "red": [0.71, 2.13]}
SAID = Said("no %(event)s", event=Said("%(ball)s on the %(cushion)s cushion at %(t)s s",
                                      ball=Ball.WHITE, cushion=Cushion.TOP, t="0.50"))
DOUBT = {"confidence": 0.8125, "reasons": [
    {"what": "yellow not seen after frame 120 (4.000 s): its last place is used"},
    {"what": str(SAID), "said": SAID.as_json()}]}


def _stroke(doubt: Any = None, points: bool = False) -> dict[str, Any]:
    events = [{"kind": "cushion", "ball": "white", "cushion": c} for c in ("top", "left", "bottom")]
    if points:
        events = [{"kind": "ball", "ball": "white", "other": "red"}, *events,
                  {"kind": "ball", "ball": "white", "other": "yellow"}]
    record: dict[str, Any] = {"type": "stroke", "ball": "white", "start": START, "events": events}
    if doubt is not None:
        record["doubt"] = doubt
    return record


def _post(client: Any, match_id: int, after: int, record: Any, token: str) -> Any:
    return client.post(f"/api/matches/{match_id}/records", json={"after": after, "record": record},
                       headers={"X-Referee-Token": token})


def _panel(client: Any, match_id: int, token: str, lang: str = "en") -> str:
    response = client.get(f"/m/{match_id}/tablet/panel?lang={lang}", headers={"X-Referee-Token": token})
    assert response.status_code == 200
    return str(response.text)


def _opened(client: Any, match: Match) -> None:
    match_id, token = match
    assert _post(client, match_id, 0, {"type": "opener", "player": 0}, token).status_code == 201


def test_the_doubt_travels_with_the_stroke_and_changes_no_ruling(client: Any, match: Match) -> None:
    match_id, token = match
    _opened(client, match)
    doubted = _post(client, match_id, 1, _stroke(DOUBT, points=True), token)
    assert doubted.status_code == 201, doubted.text
    assert doubted.json()["ruling"]["points"] == 1
    kept = client.get(f"/api/matches/{match_id}/file").text.splitlines()[-1]
    assert json.loads(kept)["doubt"] == DOUBT


def test_the_tablet_shows_the_doubt_in_its_language_until_upheld(client: Any, match: Match) -> None:
    match_id, token = match
    _opened(client, match)
    assert _post(client, match_id, 1, _stroke(DOUBT), token).status_code == 201
    english = _panel(client, match_id, token)
    assert 'id="doubt"' in english and "confidence 0.812" in english
    assert "no white on the top cushion at 0.50 s" in english
    assert "yellow not seen after frame 120" in english  # a camera's words, kept as written
    slovak = _panel(client, match_id, token, "sk")
    assert "0,812" in slovak and "0,50" in slovak and "biela" in slovak
    assert "no white on the top" not in slovak
    german = _panel(client, match_id, token, "de")
    assert "0,812" in german and "weiß" in german and "no white on the top" not in german

    response = client.post(f"/m/{match_id}/tablet/uphold", data={"line": "3", "after": "2"},
                           headers={"X-Referee-Token": token})
    assert response.status_code == 200
    assert 'id="doubt"' not in response.text
    assert 'id="doubt"' not in _panel(client, match_id, token)
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 2  # no record: an event
    again = client.post(f"/m/{match_id}/tablet/uphold", data={"line": "3", "after": "2"},
                        headers={"X-Referee-Token": token})
    assert again.status_code == 409 and "no longer the last one in doubt" in again.text


COVERED = Said("%(ball)s not seen after frame %(frame)s (%(t)s s): it left the picture or was covered",
               ball=Ball.YELLOW, frame="120", t="4.000")
"""The video's doubt of a ball covered at the end, as ``carom video --live`` passes it on."""


def test_the_videos_own_doubt_is_said_in_the_tablets_language(client: Any, match: Match) -> None:
    match_id, token = match
    _opened(client, match)
    doubt = {"confidence": 0.9, "reasons": [{"what": str(COVERED), "said": COVERED.as_json()}]}
    assert _post(client, match_id, 1, _stroke(doubt), token).status_code == 201
    assert "yellow not seen after frame 120 (4.000 s): it left the picture or was covered" in _panel(
        client, match_id, token)
    slovak = _panel(client, match_id, token, "sk")
    assert "žltá nebola viditeľná po snímke 120 (4,000 s): opustila obraz alebo bola zakrytá" in slovak
    assert "not seen after frame" not in slovak
    german = _panel(client, match_id, token, "de")
    assert "gelb nach Bild 120 (4,000 s) nicht mehr gesehen" in german and "not seen after" not in german

def test_overruled_by_undo_and_the_call(client: Any, match: Match) -> None:
    match_id, token = match
    _opened(client, match)
    assert _post(client, match_id, 1, _stroke(DOUBT), token).status_code == 201
    assert _post(client, match_id, 2, {"type": "undo"}, token).status_code == 201
    assert 'id="doubt"' not in _panel(client, match_id, token)
    refused = client.post(f"/m/{match_id}/tablet/uphold", data={"line": "3", "after": "3"},
                          headers={"X-Referee-Token": token})
    assert refused.status_code == 409
    call = _post(client, match_id, 3, {"type": "call", "result": "carom"}, token)
    assert call.status_code == 201 and call.json()["ruling"]["points"] == 1
    assert 'id="doubt"' not in _panel(client, match_id, token)


def test_a_later_stroke_leaves_the_earlier_doubt_behind(client: Any, match: Match) -> None:
    match_id, token = match
    _opened(client, match)
    assert _post(client, match_id, 1, _stroke(DOUBT), token).status_code == 201
    assert _post(client, match_id, 2, _stroke(), token).status_code == 201
    assert 'id="doubt"' not in _panel(client, match_id, token)
    late = client.post(f"/m/{match_id}/tablet/uphold", data={"line": "3", "after": "3"},
                       headers={"X-Referee-Token": token})
    assert late.status_code == 409


def test_upholding_needs_the_referee_and_a_line(client: Any, stranger: Any, match: Match) -> None:
    match_id, token = match
    _opened(client, match)
    assert _post(client, match_id, 1, _stroke(DOUBT), token).status_code == 201
    assert stranger.post(f"/m/{match_id}/tablet/uphold", data={"line": "3"}).status_code == 403
    for odd in ("three", "\u0663", "+3", " 3", "3" * 19, ""):  # an Arabic-Indic three, which int() reads
        bad = client.post(f"/m/{match_id}/tablet/uphold", data={"line": odd},
                          headers={"X-Referee-Token": token})
        assert bad.status_code == 422 and "line" in bad.text, odd
    assert 'id="doubt"' in _panel(client, match_id, token)


def test_the_upholding_is_in_the_matchs_history(organiser: Any, match: Match) -> None:
    match_id, token = match
    _opened(organiser, match)
    assert _post(organiser, match_id, 1, _stroke(DOUBT), token).status_code == 201
    assert organiser.post(f"/m/{match_id}/tablet/uphold", data={"line": "3"},
                          headers={"X-Referee-Token": token}).status_code == 200
    page = organiser.get(f"/organiser/matches/{match_id}")
    assert page.status_code == 200 and "Stroke in doubt upheld by" in page.text


@pytest.mark.parametrize(("doubt", "message"), [
    ({"confidence": 1.5}, "doubt.confidence"),
    ({"confidence": "high"}, "doubt.confidence"),
    ({"reasons": [{"what": ""}]}, "doubt.reasons[0].what"),
    ({"reasons": [{"what": "x", "why": 1}]}, "doubt.reasons[0]"),
    ({"reasons": [{"what": "x"}] * 17}, "doubt.reasons"),
    ({"reasons": [{"what": "x" * 501}]}, "doubt.reasons[0].what"),
    ({"sure": False}, "doubt"),
    ([1], "doubt"),
])
def test_a_doubt_that_is_wrong_is_refused_naming_its_field(client: Any, match: Match, doubt: Any,
                                                           message: str) -> None:
    match_id, token = match
    _opened(client, match)
    response = _post(client, match_id, 1, _stroke(doubt), token)
    assert response.status_code == 422
    assert message in response.json()["detail"]
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 1


def test_the_api_says_which_stroke_is_in_doubt_and_upholds_it(client: Any, stranger: Any,
                                                               match: Match) -> None:
    match_id, token = match
    _opened(client, match)
    assert client.get(f"/api/matches/{match_id}").json()["in_doubt"] is None
    assert _post(client, match_id, 1, _stroke(DOUBT), token).status_code == 201
    assert client.get(f"/api/matches/{match_id}").json()["in_doubt"] == {"line": 3, "doubt": DOUBT}
    headers = {"X-Referee-Token": token}
    assert stranger.post(f"/api/matches/{match_id}/uphold", json={"line": 3}).status_code in (401, 403)
    bad = client.post(f"/api/matches/{match_id}/uphold", json={"line": True}, headers=headers)
    assert bad.status_code == 422 and "line" in bad.json()["detail"]
    wrong = client.post(f"/api/matches/{match_id}/uphold", json={"line": 2}, headers=headers)
    assert wrong.status_code == 409 and "line 2 is not the last one in doubt" in wrong.json()["detail"]
    upheld = client.post(f"/api/matches/{match_id}/uphold", json={"line": 3}, headers=headers)
    assert upheld.status_code == 200 and upheld.json()["in_doubt"] is None
    assert [e["kind"] for e in upheld.json()["events"]][-1] == "upheld"
