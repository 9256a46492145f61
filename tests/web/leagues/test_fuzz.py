"""Fuzzing /api/leagues from its OpenAPI (valid and invalid bodies and parameters, as the
organiser and as a captain): every answer is a success or a 4xx that says why, never a
500, and a refused request changes nothing in the season."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from tests.web.leagues import season as play_season

warnings.filterwarnings("ignore", category=DeprecationWarning)
schemathesis = pytest.importorskip("schemathesis")

FUZZ = settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
OPERATIONS = [("/api/leagues", "POST"), ("/api/leagues/meetings/{fixture_id}/lineup", "POST"),
              ("/api/leagues/meetings/{fixture_id}/report", "POST"),
              ("/api/leagues/meetings/{fixture_id}", "GET")]


@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_openapi_fuzz_of_the_league_api(app: Any, organiser: Any, mode: str) -> None:
    season_id = play_season.create(organiser)
    token = play_season.links(organiser, season_id, ["Trenčín A"])["Trenčín A"]
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    cookie = "; ".join(f"{k}={v}" for k, v in organiser.cookies.items())
    headers = {"X-Captain-Token": token, "X-CSRF-Token": organiser.headers["X-CSRF-Token"], "Cookie": cookie}

    def check(path: str, case: Any) -> None:
        before = organiser.get(f"/api/leagues/{season_id}").json()
        response = case.call()
        assert response.status_code < 500, (path, response.text)
        if response.status_code >= 400:
            assert response.json()["detail"], (path, response.text)
            assert organiser.get(f"/api/leagues/{season_id}").json() == before, (path, case)

    for path, method in OPERATIONS:
        fixed = {"fixture_id": 1} if "{fixture_id}" in path and mode == "positive" else {}
        strategy = schema[path][method].as_strategy(generation_mode=schemathesis.GenerationMode(mode),
                                                    headers=headers, path_parameters=fixed)
        run(path, strategy, check)


def run(path: str, strategy: Any, check: Any) -> None:
    @FUZZ
    @given(case=strategy)
    def each(case: Any) -> None:
        check(path, case)

    each()
