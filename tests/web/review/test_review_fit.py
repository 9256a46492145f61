"""The review page's "Play what was played" and "What if": a stroke of the real match read
back in the simulation pool, kept for the next click, played again with one field of its
strike changed; the training table's link plays the same stroke; every refusal names
what is wrong and changes nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest

from carom.core.balls import Ball
from carom.physics.strike import Strike
from carom.web.review.log import parsed, tracked_strokes

DATA = Path(__file__).parents[2] / "data" / "real-3c-match-part1.jsonl"
PLAYED_SHOT = 545683
"""Read back as played by ``carom fit`` (every ball within about 2 cm)."""
FIELDS = ("speed", "direction", "side", "height", "elevation")
NOT_PLAYED_SHOT = 545651
"""Fitted, but white and red end more than 5 cm from their tracks: not what was played."""


@pytest.fixture
def review(organiser: Any) -> int:
    upload = {"file": ("real.jsonl", DATA.read_bytes(), "application/x-ndjson")}
    response = organiser.post("/review", files=upload, data={"discipline": "three-cushion"},
                              follow_redirects=False)
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def _index(client: Any, match_id: int, shot: int) -> int:
    page = client.get(f"/review/{match_id}").text
    found = re.search(r'data-index="(\d+)" data-shot="' + str(shot) + '"', page)
    assert found
    return int(found.group(1))


def _fit(client: Any, match_id: int, shot: int) -> Any:
    return client.post(f"/review/{match_id}/strokes/{_index(client, match_id, shot)}/fit")


def _samples(text: str) -> list[list[float]]:
    return [[float(v) for v in s.split(" ")] for s in text.split(";")]


def test_a_stroke_is_read_back_drawn_kept_and_played_in_the_training_table(
        organiser: Any, review: int, monkeypatch: pytest.MonkeyPatch) -> None:
    page = organiser.get(f"/review/{review}?stroke={_index(organiser, review, PLAYED_SHOT)}").text
    assert 'id="fit-play"' in page and 'id="what-if-field"' in page
    response = _fit(organiser, review, PLAYED_SHOT)
    assert response.status_code == 200, response.text
    fit = response.json()
    assert fit["played"] and fit["problems"] == []
    assert set(fit["strike"]) == set(fit["uncertainty"]) == set(FIELDS)
    assert all(v >= 0 for v in fit["uncertainty"].values())
    assert set(fit["rmse"]) == {"white", "yellow", "red"} and max(fit["rmse"].values()) < 0.05
    assert fit["first_contact"]["same"] and fit["cushions"]["same"] and fit["ruling"]["same"]
    assert fit["simulations"] <= 3000
    # the re-simulated paths, on the tracked clock: the cue ball leaves where it lay at the strike
    paths = {ball: _samples(text) for ball, text in fit["paths"].items()}
    assert set(paths) == {"white", "yellow", "red"}
    assert all(path[0][0] == pytest.approx(fit["strike_time"], abs=1e-4) for path in paths.values())
    assert "Read back as played." in fit["html"] and 'id="fit-agree"' in fit["html"]
    assert re.search(r'data-field="speed">\d\.\d\d ± \d\.\d{3} m/s', fit["html"])

    # the second click is answered from what was kept: the pool is not asked again
    async def no_pool(*args: Any) -> Any:
        raise AssertionError("the fit was run again")

    monkeypatch.setattr("carom.web.review.fit_pages.pooled", no_pool)
    again = _fit(organiser, review, PLAYED_SHOT)
    assert again.status_code == 200 and again.json()["strike"] == fit["strike"]
    monkeypatch.undo()

    # the training table's address holds the position and the strike exactly, and plays the same stroke
    query = dict(parse_qsl(urlsplit(fit["table"]).query))
    assert urlsplit(fit["table"]).path == "/table" and fit["table_moved"] == []
    table_page = organiser.get(fit["table"]).text
    assert "cannot be played" not in table_page
    strike = {name: float(query[key]) for key, name in (("s", "speed"), ("a", "direction"), ("sd", "side"),
                                                        ("h", "height"), ("e", "elevation"))}
    assert strike == fit["strike"]
    played = organiser.post("/api/simulate", json={
        "discipline": query["d"], "table": query["t"], "sample": 0.01,
        "balls": {b: {"r": [float(v) for v in query[b[0]].split(",")]} for b in ("white", "yellow", "red")},
        "strike": {"ball": query["b"], **strike}})
    assert played.status_code == 200, played.text
    for ball, path in played.json()["stroke"]["paths"].items():
        shifted = [[t + fit["strike_time"], x, y] for t, x, y in path]
        np.testing.assert_allclose(shifted, paths[ball], rtol=0, atol=1e-4)


def test_what_if_plays_the_stroke_read_back_with_one_field_changed(organiser: Any, review: int) -> None:
    index = _index(organiser, review, PLAYED_SHOT)
    played = organiser.post(f"/review/{review}/strokes/{index}/fit").json()
    side = -0.3 if played["strike"]["side"] > 0 else 0.3
    response = organiser.post(f"/review/{review}/strokes/{index}/what-if",
                              json={"field": "side", "value": side})
    assert response.status_code == 200, response.text
    got = response.json()
    assert got["field"] == "side" and got["value"] == side
    assert got["paths"] != played["paths"]
    assert set(got["ruling"]) == {"points", "fouls", "cites"} and got["contacts"]
    assert "What if Side (tip) were" in got["html"]
    # the speed changed instead: a slower stroke runs a shorter way
    slow = organiser.post(f"/review/{review}/strokes/{index}/what-if",
                          json={"field": "speed", "value": 0.5}).json()
    assert _travelled(slow["paths"]) < _travelled(played["paths"]) / 2


def _travelled(paths: dict[str, str]) -> float:
    """Metres run by all the balls together."""
    xy = [np.array(_samples(text))[:, 1:] for text in paths.values()]
    return float(sum(np.hypot(*np.diff(p, axis=0).T).sum() for p in xy))


@pytest.mark.parametrize(("body", "status", "named"), [
    ({"field": "spin", "value": 0.1}, 422, '"field": \'spin\' is not one of speed, direction'),
    ({"field": "side", "value": 0.7}, 422, '"value": side must be a number from -0.5 to 0.5'),
    ({"field": "speed", "value": "fast"}, 422, '"value": speed must be a number'),
    ({"field": "elevation", "value": -1}, 422, '"value": elevation must be a number from 0 to 89'),
    ({"field": "height"}, 422, '"value": height must be a number'),
])
def test_a_what_if_that_cannot_be_played_is_refused_naming_it(
        organiser: Any, review: int, body: dict[str, Any], status: int, named: str) -> None:
    before = organiser.get(f"/m/{review}/export").text
    response = organiser.post(f"/review/{review}/strokes/{_index(organiser, review, PLAYED_SHOT)}/what-if",
                              json=body)
    assert response.status_code == status
    assert named in response.json()["detail"]
    assert organiser.get(f"/m/{review}/export").text == before


def test_a_tip_beyond_the_miscue_limit_is_refused(organiser: Any, review: int) -> None:
    index = _index(organiser, review, PLAYED_SHOT)
    height = organiser.post(f"/review/{review}/strokes/{index}/fit").json()["strike"]["height"]
    assert abs(height) > 0.1  # with the side at 0.5 R, the tip is off the ball
    response = organiser.post(f"/review/{review}/strokes/{index}/what-if",
                              json={"field": "side", "value": 0.5})
    assert response.status_code == 422 and "miscue limit" in response.json()["detail"]


def test_refusals_name_what_is_wrong(organiser: Any, stranger: Any, review: int) -> None:
    index = _index(organiser, review, PLAYED_SHOT)
    missing = organiser.post(f"/review/{review}/strokes/999/fit")
    assert missing.status_code == 404 and "stroke 999: no such stroke (the recording has 91" in missing.text
    assert organiser.post(f"/review/{review}/strokes/999/what-if",
                          json={"field": "side", "value": 0.1}).status_code == 404
    assert organiser.post(f"/review/{review + 1}/strokes/0/fit").status_code == 404
    assert stranger.post(f"/review/{review}/strokes/{index}/fit").status_code == 403
    token = organiser.headers.pop("X-CSRF-Token")
    try:
        forged = organiser.post(f"/review/{review}/strokes/{index}/fit")
    finally:
        organiser.headers["X-CSRF-Token"] = token
    assert forged.status_code == 403 and "X-CSRF-Token" in forged.json()["detail"]


def test_a_stroke_not_read_back_as_played_says_why_and_offers_no_what_if(organiser: Any, review: int) -> None:
    index = _index(organiser, review, NOT_PLAYED_SHOT)
    fit = organiser.post(f"/review/{review}/strokes/{index}/fit").json()
    assert fit["fitted"] and not fit["played"] and "paths" not in fit
    assert any("beyond 5 cm" in problem for problem in fit["problems"])
    assert "Not what was played." in fit["html"] and "Read back as played" not in fit["html"]
    refused = organiser.post(f"/review/{review}/strokes/{index}/what-if",
                             json={"field": "side", "value": 0.1})
    assert refused.status_code == 409 and "not read back as what was played" in refused.json()["detail"]


def test_the_recorded_ruling_the_fit_compares_with_is_the_auto_referees(organiser: Any, review: int) -> None:
    from carom.web.review.fitting import recorded_verdict

    snap = organiser.app.state.services.book.snapshot(review)
    for record in tracked_strokes(parsed(snap.lines)):
        verdict = recorded_verdict(record, snap.header)
        assert (verdict.points, list(verdict.fouls)) == (record["tracked_ruling"]["points"],
                                                         record["tracked_ruling"]["fouls"]), record["shot"]


def test_the_fit_is_the_same_each_time(organiser: Any, review: int) -> None:
    from carom.web.review.fitting import fit_record

    snap = organiser.app.state.services.book.snapshot(review)
    record = tracked_strokes(parsed(snap.lines))[_index(organiser, review, PLAYED_SHOT)]
    first, second = (fit_record(record, snap.header)[0] for _ in range(2))
    assert first.pop("seconds") > 0 and second.pop("seconds") > 0
    assert first == second


def test_the_training_table_gets_the_strike_within_its_ranges() -> None:
    from carom.web.review.fitting import table_values

    inside = Strike(Ball.WHITE, speed=2.0, direction=-170.0, side=0.3, height=-0.2, elevation=5.0)
    assert table_values(inside) == ({"speed": 2.0, "direction": -170.0, "side": 0.3, "height": -0.2,
                                     "elevation": 5.0}, [])
    values, moved = table_values(Strike(Ball.WHITE, speed=0.05, direction=10.0))
    assert values["speed"] == 0.1 and moved == ["speed"]


def test_a_client_over_its_share_of_the_pool_is_answered_in_json(organiser: Any, review: int,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from carom.web.shared.pool import SHARE, Busy

    def over(client: str) -> None:
        raise Busy(429, 3, 0.0, SHARE, most=2)

    monkeypatch.setattr(organiser.app.state.services.jobs(), "admit", over)
    response = _fit(organiser, review, PLAYED_SHOT)
    assert response.status_code == 429 and response.headers["Retry-After"] == "3"
    assert response.json() == {"detail": "Simulations per client at once: at most 2; try again in a moment."}


def test_a_stroke_with_nothing_to_fit_says_so(organiser: Any, review: int) -> None:
    from carom.web.review.fit_pages import fit_view
    from carom.web.review.fitting import fit_record
    from carom.web.shared.deps import templates
    from carom.web.shared.i18n import PageWords

    snap = organiser.app.state.services.book.snapshot(review)
    record = tracked_strokes(parsed(snap.lines))[_index(organiser, review, PLAYED_SHOT)]
    cue = record["ball"]
    _, x, y = record["samples"][cue].split(";")[0].split(" ")
    still = {**record, "samples": {**record["samples"], cue: f"0.0 {x} {y};5.0 {x} {y}"}}
    data, fitted = fit_record(still, snap.header)
    assert fitted is None and data["fitted"] is False and data["played"] is False
    assert "nothing to fit" in data["problems"][0]
    t = PageWords("en")
    html = templates.get_template("_review_fit.html").render(t=t, lang="en", fit=fit_view(data, t))
    assert "This stroke cannot be read back." in html and "nothing to fit" in html
    assert "fit-strike" not in html


def test_the_refusals_are_said_in_the_pages_language(organiser: Any, review: int) -> None:
    played = _index(organiser, review, PLAYED_SHOT)
    asked = f"/review/{review}/strokes/{played}/what-if"
    wrong = organiser.post(f"{asked}?lang=de", json={"field": "side", "value": 0.7})
    assert wrong.status_code == 422
    assert '"value": side muss eine Zahl von -0.5 bis 0.5 sein' in wrong.json()["detail"]
    miscue = organiser.post(f"{asked}?lang=sk", json={"field": "side", "value": 0.5})
    assert miscue.status_code == 422 and "je za hranicou šmyku 0,5 R" in miscue.json()["detail"]
    missing = organiser.post(f"/review/{review}/strokes/999/fit?lang=sk")
    assert missing.status_code == 404 and "úder 999: taký úder neexistuje (záznam ich má 91" in missing.text
    not_played = _index(organiser, review, NOT_PLAYED_SHOT)
    refused = organiser.post(f"/review/{review}/strokes/{not_played}/what-if?lang=de",
                             json={"field": "side", "value": 0.1})
    assert refused.status_code == 409
    assert "wurde nicht als das Gespielte zurückgelesen" in refused.json()["detail"]
    assert "beyond 5 cm" not in refused.json()["detail"]  # the fit's own reasons, in German too


@pytest.mark.parametrize(("given", "seconds"), [(None, 1.0), ("5", 5.0), ("0.5", 0.5), ("abc", 1.0),
                                                ("-1", 1.0), ("0", 1.0), ("inf", 1.0), ("nan", 1.0)])
def test_the_fits_guard_is_a_processor_second_unless_the_deployment_says(
        monkeypatch: pytest.MonkeyPatch, given: str | None, seconds: float) -> None:
    from carom.web.review.fitting import GUARD_VARIABLE, budget

    if given is None:
        monkeypatch.delenv(GUARD_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(GUARD_VARIABLE, given)
    assert budget().seconds == seconds and budget().simulations == 3000
