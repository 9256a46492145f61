"""The simulation pool's refusals (the security review's H3, and what its first part left): said in the
page's language, and held for a client that comes back before its ``Retry-After`` is
over, so that a flood of clients ignoring it cannot keep the event loop refusing."""

from __future__ import annotations

import time
from typing import Any

import pytest

from carom.web.shared import pool as pools
from carom.web.shared.limits import Limits
from carom.web.shared.pool import Busy, Pool

SLOVAK = {"Accept-Language": "sk"}
GERMAN = {"Accept-Language": "de"}
STROKE = {"balls": {"white": {"r": [0.892, 0.71]}, "yellow": {"r": [0.71, 0.71]}, "red": {"r": [0.71, 2.13]}},
          "strike": {"ball": "white", "speed": 3.0, "direction": 80.0}}


class Clock:
    """``time.monotonic`` for the pool, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    made = Clock()
    monkeypatch.setattr(pools.time, "monotonic", made)
    return made


def _refusal(pool: Pool, client: str) -> Busy:
    with pytest.raises(Busy) as refused:
        pool.admit(client)
    return refused.value


def test_a_client_refused_at_once_the_first_time_is_held_when_it_comes_back_too_soon(clock: Clock) -> None:
    pool = Pool(Limits(workers=1, queue=0))
    pool.admit("someone")  # the one place
    first = _refusal(pool, "flooder")
    assert (first.status, first.retry_after, first.hold) == (503, 2, 0.0)
    clock.now += 0.5
    assert _refusal(pool, "flooder").hold == pytest.approx(1.5)  # what is left of its two seconds
    assert _refusal(pool, "flooder").hold == pytest.approx(3.5)  # and each one more after it
    assert _refusal(pool, "another").hold == 0.0  # another client is answered at once
    clock.now += 10.0
    assert _refusal(pool, "polite").hold == 0.0
    clock.now += 2.0  # the polite one waited what it was told
    assert _refusal(pool, "polite").hold == 0.0


def test_a_hold_is_never_longer_than_its_bound(clock: Clock) -> None:
    pool = Pool(Limits(workers=1, queue=0))
    pool.admit("someone")
    holds = [_refusal(pool, "flooder").hold for _ in range(100)]
    assert max(holds) == pools.LONGEST_HOLD


def test_a_client_over_its_share_is_held_too(clock: Clock) -> None:
    pool = Pool(Limits(jobs_per_client=1))
    pool.admit("greedy")
    assert (_refusal(pool, "greedy").status, _refusal(pool, "greedy").hold) == (429, 1.0)


def test_a_full_pool_is_said_in_the_pages_language(client: Any, match: tuple[int, str]) -> None:
    pool = client.app.state.services.jobs()
    limits = pool.limits
    for n in range(limits.workers + limits.queue):
        pool.admit(f"10.0.0.{n}")
    page = client.get(f"/m/{match[0]}/scoresheet.pdf", headers=SLOVAK)
    assert page.status_code == 503 and page.headers["retry-after"] == "2"
    assert "Všetky simulačné procesy sú obsadené" in page.text
    api = client.post("/api/simulate", json=STROKE, headers=GERMAN)
    assert api.status_code == 503
    assert api.json()["detail"].startswith("Alle Simulationsprozesse sind belegt")
    assert "queue is full" in client.post("/api/solve", json={}).json()["detail"]  # English by default


def test_a_clients_share_is_said_in_the_pages_language_and_held_when_it_comes_back(
        client: Any, match: tuple[int, str]) -> None:
    pool = client.app.state.services.jobs()
    for _ in range(pool.limits.jobs_per_client):
        pool.admit("testclient")  # the test client's address: its share taken
    page = client.get(f"/m/{match[0]}/scoresheet.pdf", headers=GERMAN)
    assert page.status_code == 429 and page.headers["retry-after"] == "1"
    assert f"höchstens {pool.limits.jobs_per_client}" in page.text
    started = time.monotonic()
    again = client.get(f"/m/{match[0]}/scoresheet.pdf", headers=SLOVAK)  # at once, not a second later
    assert again.status_code == 429 and "Simulácie naraz z jedného zariadenia" in again.text
    assert time.monotonic() - started >= 0.9  # held for what was left of its Retry-After
