"""Fuzzing the organiser's desk from the app's OpenAPI (schemathesis, valid and invalid
bodies and path values): every answer is 200 or a 4xx that says why, never a 500, and a
refused decision leaves the tournament's log as it was."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from tests.web.tournaments.test_desk_api import _log, _tournament

warnings.filterwarnings("ignore", category=DeprecationWarning)
schemathesis = pytest.importorskip("schemathesis")

DECISIONS = ("/players/{player}/withdraw", "/games/{game}/walkover", "/games/{game}/result",
             "/games/{game}/correction", "/games/{game}/unlock", "/games/{game}/call", "/games/{game}/move",
             "/games/{game}/postpone", "/games/{game}/schedule", "/swap", "/rounds/schedule", "/seeding")

NO_BODY = {"/games/{game}/postpone"}


@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_no_decision_of_the_desk_fails_or_half_changes_the_tournament(app: Any, organiser: Any,
                                                                       mode: str) -> None:
    tid = _tournament(organiser)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    for decision in DECISIONS:
        if mode == "negative" and decision in NO_BODY:
            continue  # nothing of it can be made invalid: a body is ignored, any text is a game's key to try
        operation = schema[f"/api/tournaments/{{tournament_id}}{decision}"]["POST"]
        strategy = operation.as_strategy(generation_mode=schemathesis.GenerationMode(mode),
                                         path_parameters={"tournament_id": tid},
                                         headers={"X-CSRF-Token": organiser.headers["X-CSRF-Token"]})

        @settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
        @given(case=strategy)
        def run(case: Any) -> None:
            before = _log(organiser, tid)
            response = case.call(session=organiser)
            assert response.status_code < 500, (case.path, response.text)
            if response.status_code != 200:
                assert response.json()["detail"], (case.path, response.text)
                assert _log(organiser, tid) == before

        run()
