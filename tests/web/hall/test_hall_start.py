"""A crowd of hall channels opening while nothing changes reads the hall once."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from carom.web.hall import start as start_module
from carom.web.hall.start import HallStart
from carom.web.shared.hub import WAKE_AT_ONCE, Hub


def _counting() -> tuple[HallStart, Hub, list[str]]:
    reads: list[str] = []
    hub = Hub()

    async def read_ids() -> list[int]:
        reads.append("ids")
        await asyncio.sleep(0.01)  # a thread's database read
        return [3, 5]

    async def block(lang: str) -> str:
        reads.append(f"tables:{lang}")
        return f"<tables {lang}>"

    return HallStart(hub, read_ids, block), hub, reads


def test_channels_opened_together_share_one_read() -> None:
    start, _, reads = _counting()

    async def crowd() -> list[list[int]]:
        return await asyncio.gather(*(start.ids() for _ in range(100)))

    assert _run(crowd()) == [[3, 5]] * 100
    assert reads == ["ids"]


def test_a_change_heard_from_the_hub_makes_the_next_channel_read_again() -> None:
    start, hub, reads = _counting()

    async def run() -> None:
        await start.ids()
        assert await start.tables("de") == "<tables de>"
        await start.tables("de")
        await start.ids()
        hub.publish(3, "4.2")  # a record of match 3
        await start.ids()
        hub.tables_changed()
        await start.tables("de")

    _run(run())
    assert reads == ["ids", "tables:de", "ids", "tables:de"]


def test_what_another_process_changed_is_read_after_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    start, _, reads = _counting()
    now = [1000.0]
    monkeypatch.setattr(start_module, "_now", lambda: now[0])

    async def run() -> None:
        await start.ids()
        now[0] += start_module.FRESH_SECONDS / 2
        await start.ids()
        now[0] += start_module.FRESH_SECONDS
        await start.ids()

    _run(run())
    assert reads == ["ids", "ids"]


def _run(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own (a test before may have left a loop running in
    this one)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result(timeout=60)


def test_a_channel_told_in_the_hubs_first_turn_reads_the_change() -> None:
    """The hub tells a crowd in turns; whoever it tells first already reads afresh."""
    start, hub, reads = _counting()

    async def run() -> None:
        await start.ids()
        crowd = [hub.watch_all() for _ in range(3 * WAKE_AT_ONCE)]
        hub.publish(3, "4.2")
        assert sum(bool(c.ids) for c in crowd) < len(crowd)  # the others are told in later turns
        await start.ids()

    _run(run())
    assert reads == ["ids", "ids"]
