"""``benchmarks/web_processes.py`` times a board's updates only: the first event of a
board's stream shows the match as it stood when the board opened, a record sent maybe
seconds before, and counted as an update it once made a board look seconds late."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from types import ModuleType

from tests.helpers import run_apart, script_module

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"


def _benchmark() -> ModuleType:
    return script_module(BENCHMARKS / "web_processes.py", "web_processes")


class _Box:
    """What a multiprocessing queue is to the watcher: ``put`` only."""

    def __init__(self) -> None:
        self.items: list[object] = []

    def put(self, item: object) -> None:
        self.items.append(item)


async def _stream_server(sent: threading.Event) -> tuple[asyncio.Server, int]:
    """A board's event stream: record 7 when it opens, record 8 a moment later."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n")
        for seq in (7, 8):
            body = f"event: board\nid: {seq}\ndata: <p>{seq}</p>\n\n".encode()
            writer.write(f"{len(body):x}\r\n".encode() + body + b"\r\n")
            await writer.drain()
            await asyncio.sleep(0.2)
        sent.set()
        await asyncio.sleep(5)

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def test_a_boards_first_event_is_not_counted_as_an_update() -> None:
    benchmark = _benchmark()
    sent = threading.Event()
    opened, seen = _Box(), _Box()

    async def run() -> None:
        server, port = await _stream_server(sent)
        async with server:
            await benchmark._watch(port, [(3, "127.0.0.1")], opened, sent, seen)

    run_apart(run())
    assert len(opened.items) == 1 and len(opened.items[0]) == 1  # type: ignore[arg-type]
    (arrivals,) = seen.items
    assert [(match, seq) for match, seq, _, _ in arrivals] == [(3, 8)]  # type: ignore[attr-defined]
