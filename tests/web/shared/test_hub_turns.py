"""The hub tells a crowd of watchers in turns of the event loop, not all in one."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from carom.web.shared.hub import WAKE_AT_ONCE, Hub


def test_a_crowd_of_watchers_is_told_in_turns_and_every_one_is_told() -> None:
    hub = Hub()

    async def run() -> list[int]:
        boards = [hub.subscribe(7) for _ in range(3 * WAKE_AT_ONCE)]
        hall = [hub.watch_all() for _ in range(WAKE_AT_ONCE)]
        told = []
        hub.publish(7, "3.1")
        for _ in range(6):
            told.append(sum(q.full() for q in boards) + sum(bool(c.ids) for c in hall))
            await asyncio.sleep(0)
        return told

    with ThreadPoolExecutor(1) as thread:
        told = thread.submit(asyncio.run, run()).result(timeout=30)
    assert told[0] == WAKE_AT_ONCE  # the others wait for the loop's next turns
    assert told == sorted(told) and told[-1] == 4 * WAKE_AT_ONCE


def test_without_a_running_loop_everyone_is_told_at_once() -> None:
    hub = Hub()

    def outside_a_loop() -> bool:  # a thread of its own: no test's loop is running in it
        boards = [hub.subscribe(7) for _ in range(2 * WAKE_AT_ONCE)]
        hub.publish(7, "3.1")
        return all(q.full() for q in boards)

    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(outside_a_loop).result(timeout=30)
