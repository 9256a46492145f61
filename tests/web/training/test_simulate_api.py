"""``POST /api/simulate`` and ``POST /api/solve``: the same stroke and ruling as ``carom play
--json``, refusals that name the field (422), bodies refused unread (413), in the OpenAPI."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from typing import Any

import pytest

from carom.core.balls import BALLS, Ball
from carom.core.position import starting_position
from carom.core.table import TABLES

START = starting_position(TABLES["large"], Ball.WHITE)
BALLS_JSON = {b.value: {"r": list(START[b])} for b in BALLS}
SCORING = {"ball": "white", "speed": 3.12, "direction": 163.35, "side": 0.025, "height": 0.377}
"""A three-cushion point from the starting position (found by ``carom solve``)."""


def spec(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"discipline": "three-cushion", "balls": BALLS_JSON, "strike": SCORING}
    body.update(changes)
    return {k: v for k, v in body.items() if v is not None}


def test_a_stroke_is_what_carom_play_prints(client: Any) -> None:
    response = client.post("/api/simulate", json=spec())
    assert response.status_code == 200, response.text
    got = response.json()
    played = json.loads(subprocess.run(
        [sys.executable, "-m", "carom.cli.main", "play", "--direction", "163.35", "--speed", "3.12",
         "--side", "0.025", "--height", "0.377", "--json"],
        capture_output=True, text=True, check=True, timeout=120).stdout)
    assert got["ruling"]["points"] == played["ruling"]["points"] == 1
    assert got["ruling"]["cites"] == played["ruling"]["cites"]
    assert got["stroke"]["events"] == played["stroke"]["events"]
    assert got["stroke"]["end"] == played["stroke"]["end"]
    assert set(got["ruling"]["titles"]) == set(got["ruling"]["cites"])
    paths = got["stroke"]["paths"]
    white = paths["white"]
    assert white[0][0] == 0.0 and len(white) > 50
    steps = [b[0] - a[0] for a, b in itertools.pairwise(white)]
    assert max(steps) <= 0.01 + 1e-9  # every 10 ms (and at every event)
    kinds = [c["kind"] for c in got["contacts"]]
    balls = [c for c in got["contacts"] if c["kind"] == "ball"]
    assert [c["n"] for c in balls][:2] == [2, 3]
    cushions = [c["n"] for c in got["contacts"] if c["kind"] == "cushion"]
    assert cushions == list(range(1, len(cushions) + 1)) and len(cushions) >= 3
    assert "cushion" in kinds


def test_the_ruling_titles_speak_the_language(client: Any) -> None:
    got = client.post("/api/simulate", json=spec(), headers={"Accept-Language": "de"}).json()
    english = client.post("/api/simulate", json=spec(), headers={"Accept-Language": "en"}).json()
    assert got["ruling"]["cites"] == english["ruling"]["cites"]
    assert got["ruling"]["titles"] != english["ruling"]["titles"]


def test_a_miss_and_a_fault(client: Any) -> None:
    slow = {"ball": "white", "speed": 0.5, "direction": 270}
    miss = client.post("/api/simulate", json=spec(strike=slow)).json()
    assert miss["ruling"]["points"] == 0 and miss["ruling"]["fouls"] == []
    opening = client.post("/api/simulate", json=spec(opening=True)).json()  # O3: red first
    assert opening["ruling"]["points"] == 0 and "O3" in opening["ruling"]["fouls"]


@pytest.mark.parametrize(("body", "field"), [
    (spec(strike={"ball": "white", "speed": 99, "direction": 0}), "strike.speed"),
    (spec(strike={"ball": "red", "speed": 3, "direction": 0}), "strike.ball"),
    (spec(strike={"ball": "white", "speed": 3, "direction": 0, "side": 0.5, "height": 0.4}), "strike"),
    (spec(strike=None), "strike"),
    (spec(discipline="snooker"), "discipline"),
    (spec(discipline="balkline-47/2", table="small"), "table"),
    (spec(table="tiny"), "table"),
    (spec(opening="yes"), "opening"),
    (spec(sample=0.001), "sample"),
    (spec(sample="often"), "sample"),
    (spec(colour="blue"), "unknown field"),
    (spec(balls={"white": {"r": [0.5, 0.5]}}), "balls"),
    (spec(balls={**BALLS_JSON, "yellow": {"r": [9.0, 0.5]}}), "balls.yellow"),
    (spec(balls={**BALLS_JSON, "yellow": {"r": list(START[Ball.WHITE])}}), "overlap"),
    (spec(params={"mu_roll": -1}), "params"),
])
def test_a_bad_spec_is_refused_naming_the_field(client: Any, body: dict[str, Any], field: str) -> None:
    response = client.post("/api/simulate", json=body)
    assert response.status_code == 422, response.text
    assert field in response.json()["detail"]


@pytest.mark.parametrize("raw", [b"", b"{", b"[1, 2]", b"\xff\xfe", b'{"balls": NaN}', b"1e999"])
def test_a_body_that_is_no_json_object_is_refused(client: Any, raw: bytes) -> None:
    for path in ("/api/simulate", "/api/solve"):
        response = client.post(path, content=raw, headers={"Content-Type": "application/json"})
        assert response.status_code == 422, (path, raw, response.text)
        assert response.json()["detail"].startswith("body:")


def test_a_large_body_is_refused_unread(client: Any) -> None:
    for path in ("/api/simulate", "/api/solve"):
        response = client.post(path, content=b"{" + b" " * 20_000 + b"}",
                               headers={"Content-Type": "application/json"})
        assert response.status_code == 413, response.text
        response = client.post(path, content=b"{}", headers={"Content-Length": "100000"})
        assert response.status_code == 413


def test_another_site_cannot_make_the_server_work(client: Any) -> None:
    response = client.post("/api/simulate", json=spec(), headers={"Origin": "http://evil.example"})
    assert response.status_code == 403


def position(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"discipline": "three-cushion", "table": "large", "ball": "white",
                            "start": {b.value: list(START[b]) for b in BALLS}, "count": 2}
    body.update(changes)
    return body


def test_suggestions_score_when_played(client: Any) -> None:
    response = client.post("/api/solve", json=position())
    assert response.status_code == 200, response.text
    shots = response.json()["shots"]
    assert 1 <= len(shots) <= 2
    assert all(0.0 <= s["chance"] <= 1.0 for s in shots)
    assert [s["chance"] for s in shots] == sorted((s["chance"] for s in shots), reverse=True)
    for shot in shots:
        assert shot["ruling"]["points"] == 1
        played = client.post("/api/simulate", json=spec(strike=shot["strike"])).json()
        assert played["ruling"]["points"] == 1  # the suggestion plays as it was found


@pytest.mark.parametrize(("body", "field"), [
    (position(count=0), "count"),
    (position(count=50), "count"),
    (position(seed=-1), "seed"),
    (position(discipline="balkline-47/2"), "discipline"),
    (position(ball="red"), "ball"),
    (position(start={"white": [0.5, 0.5]}), "start"),
    (position(sigma={"direction": 50}), "sigma"),
    (position(sigma={"wobble": 1}), "sigma"),
    (position(elevation=1), "elevation"),
    (position(colour="blue"), "colour"),
])
def test_a_bad_position_is_refused_naming_the_field(client: Any, body: dict[str, Any], field: str) -> None:
    response = client.post("/api/solve", json=body)
    assert response.status_code == 422, response.text
    assert field in response.json()["detail"]


def test_both_are_documented(client: Any) -> None:
    schema = client.get("/openapi.json").json()
    for path in ("/api/simulate", "/api/solve"):
        post = schema["paths"][path]["post"]
        assert "application/json" in post["requestBody"]["content"]
        assert {"413", "422", "503"} <= set(post["responses"])
