"""Fuzzing the record endpoint: schemathesis from the app's OpenAPI (valid and invalid
bodies), and hypothesis playing random record sequences. Every answer is 201, 409 or a
4xx that says why; never a 500; a refused record never changes the match; and the
match shown is always the replay of the stored file."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carom.notation.matchfile import lines_of, replay_file
from carom.notation.rulings_json import replay_json

warnings.filterwarnings("ignore", category=DeprecationWarning)
schemathesis = pytest.importorskip("schemathesis")

FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


def _state(client: Any, match_id: int) -> tuple[int, str]:
    return client.get(f"/api/matches/{match_id}").json()["seq"], client.get(f"/m/{match_id}/export").text


def _check(response: Any, client: Any, match_id: int, before: tuple[int, str]) -> None:
    assert response.status_code < 500, response.text
    if response.status_code == 201:
        return
    assert 400 <= response.status_code < 500
    assert response.json()["detail"]
    assert _state(client, match_id) == before


@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_openapi_fuzz_of_the_record_endpoint(app: Any, client: Any, match: tuple[int, str],
                                             mode: str) -> None:
    match_id, token = match
    opener = {"after": 0, "record": {"type": "opener", "player": 0}}
    client.post(f"/api/matches/{match_id}/records", json=opener, headers={"X-Referee-Token": token})
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operation = schema["/api/matches/{match_id}/records"]["POST"]
    strategy = operation.as_strategy(generation_mode=schemathesis.GenerationMode(mode),
                                     path_parameters={"match_id": match_id},
                                     headers={"X-Referee-Token": token})

    @FUZZ
    @given(case=strategy)
    def run(case: Any) -> None:
        before = _state(client, match_id)
        if mode == "positive" and isinstance(case.body, dict) and case.body.get("after", 1) % 2 == 0:
            case.body["after"] = before[0]  # aim at the live record half the time, not only at stale ones
        _check(case.call(), client, match_id, before)

    run()


def test_openapi_fuzz_of_every_read(app: Any, client: Any, match: tuple[int, str]) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    for path in ("/api/matches/{match_id}", "/api/matches/{match_id}/file"):
        operation = schema[path]["GET"]

        @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(generation_mode=schemathesis.GenerationMode.NEGATIVE))
        def run(case: Any) -> None:
            assert case.call().status_code < 500

        run()


_CALLS = st.sampled_from([
    {"type": "call", "result": "carom"}, {"type": "call", "result": "miss"},
    {"type": "call", "result": "foul", "rule": "F4"}, {"type": "call", "result": "foul", "rule": "Z7"},
    {"type": "call", "result": "foul", "rule": "F1"}, {"type": "undo"}, {"type": "respot"},
    {"type": "opener", "player": 0}, {"type": "opener", "player": 1}, {"type": "opener"},
])
_RECORDS = st.one_of(
    _CALLS,
    st.builds(lambda p, f: {"type": "inning", "points": p, **({"foul": f} if f else {})},
              st.integers(-2, 12), st.sampled_from([None, "F2", "F7", "X1"])),
    st.dictionaries(st.sampled_from(["type", "result", "rule", "points", "player", "ball", "events"]),
                    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=6),
                              st.sampled_from(["call", "stroke", "lag", "carom", "white"])), max_size=4),
)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(steps=st.lists(st.tuples(_RECORDS, st.integers(-2, 1)), min_size=1, max_size=30))
def test_random_play_the_match_is_always_the_replay_of_its_file(client: Any, match: tuple[int, str],
                                                                steps: list[Any]) -> None:
    created = client.post("/api/matches", json={
        "discipline": "balkline-47/2", "players": ["Anna", "Boris"], "points": 6, "innings": 3}).json()
    match_id, token = created["id"], created["referee_token"]
    for record, skew in steps:
        before = _state(client, match_id)
        after = before[0] + (skew if skew < 0 else 0)
        response = client.post(f"/api/matches/{match_id}/records", json={"after": after, "record": record},
                               headers={"X-Referee-Token": token})
        assert response.status_code in (201, 409, 422), response.text
        _check(response, client, match_id, before)
    text = client.get(f"/m/{match_id}/export").text
    rulings: list[Any] = []
    path = _write(text)
    state = replay_file(path, rulings.append)
    assert client.get(f"/api/matches/{match_id}").json()["replay"] == json.loads(
        json.dumps(replay_json(state, rulings)))
    assert len(lines_of(text)) == client.get(f"/api/matches/{match_id}").json()["seq"] + 1


def _write(text: str) -> str:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".carom.jsonl", delete=False, encoding="utf-8") as handle:
        handle.write(text)
        return handle.name
