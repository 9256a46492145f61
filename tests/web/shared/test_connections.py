"""The HTTP protocol's own checks (:mod:`carom.web.connections`), driven without a socket:
a live channel the caps refuse is answered there, before the application is called."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import uvicorn
from uvicorn.server import ServerState

from carom.web.connections import body_cost, guarded_protocol
from carom.web.shared.limits import Limits
from carom.web.shared.live import channel_refusal
from carom.web.shared.streams import StreamGate
from carom.web.shared.tally import Tally


class Transport(asyncio.Transport):
    """What a connection's protocol writes, and whether it closed it."""

    def __init__(self, peer: str) -> None:
        super().__init__()
        self.peer, self.written, self.closed = peer, b"", False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": (self.peer, 40000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: Any) -> None:
        self.written += bytes(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def _served(gate: StreamGate, path: str, peer: str, *, behind_proxy: bool = False,
            headers: str = "") -> tuple[Transport, list[str]]:
    """One request for ``path`` from ``peer``: what was written back, and the paths the
    application was called for."""
    called: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        called.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def run() -> Transport:
        config = uvicorn.Config(app, log_level="warning")
        config.load()
        refusal = channel_refusal([(re.compile(r"/hall/events"), _never)], gate)
        protocol_class = guarded_protocol(Limits(), refusal, behind_proxy=behind_proxy)
        protocol = protocol_class(config=config, server_state=ServerState(), app_state={})
        transport = Transport(peer)
        protocol.connection_made(transport)
        protocol.data_received(f"GET {path} HTTP/1.1\r\nHost: club\r\n{headers}\r\n".encode())
        await asyncio.sleep(0.05)
        protocol.connection_lost(None)
        return transport

    return _run(run()), called


async def _never(*_: Any) -> Any:
    raise AssertionError("no feed is opened here")


@pytest.fixture
def gate() -> StreamGate:
    """Caps of one channel per client, two in all; client 10.0.0.1 holds one."""
    made = StreamGate(Limits(streams=2, streams_per_client=1), Tally(), in_process=100)
    assert made.open("10.0.0.1") is None
    return made


def test_a_channel_over_a_clients_cap_is_refused_before_the_application(gate: StreamGate) -> None:
    transport, called = _served(gate, "/hall/events", "10.0.0.1")
    assert called == []
    assert transport.written.startswith(b"HTTP/1.1 503 "), transport.written
    assert b"retry-after: 5\r\n" in transport.written and b"one address" in transport.written
    assert transport.closed
    assert gate.open_here == 1  # nothing was counted for it


@pytest.mark.parametrize(("language", "said"), [
    ("sk", "Odmietnuté: pre jednu adresu sa udrží otvorených najviac 1 živých kanálov"),
    ("de", "Abgelehnt: Für eine Adresse werden höchstens 1 Live-Kanäle offen gehalten"),
])
def test_a_refused_channel_is_told_why_in_the_pages_language(gate: StreamGate, language: str,
                                                              said: str) -> None:
    transport, _ = _served(gate, "/hall/events", "10.0.0.1", headers=f"Accept-Language: {language}\r\n")
    assert transport.written.startswith(b"HTTP/1.1 503 ")
    assert said in transport.written.decode(), transport.written


def test_a_channel_over_the_servers_cap_is_refused_before_the_application(gate: StreamGate) -> None:
    assert gate.open("10.0.0.2") is None
    transport, called = _served(gate, "/hall/events", "10.0.0.3")
    assert called == [] and transport.written.startswith(b"HTTP/1.1 503 ")


def test_an_admissible_channel_and_other_pages_reach_the_application(gate: StreamGate) -> None:
    assert _served(gate, "/hall/events", "10.0.0.2")[1] == ["/hall/events"]
    assert _served(gate, "/hall", "10.0.0.1")[1] == ["/hall"]  # not a channel: not the gate's


def test_behind_a_proxy_a_clients_cap_is_left_to_the_application(gate: StreamGate) -> None:
    """The connection's address is the proxy's; the application reads the forwarded one."""
    assert _served(gate, "/hall/events", "10.0.0.1", behind_proxy=True)[1] == ["/hall/events"]




def _run(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own (a test before may have left a loop running in
    this one)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result(timeout=60)


def test_a_request_whose_body_does_not_fit_the_budget_is_refused_before_the_application() -> None:
    """Each request announcing a body takes its own part of the bodies' budget at its
    headers: those beyond it are answered 503 with no task, scope or middleware made."""
    called: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        called.append(scope["path"])
        await receive()  # the body is still coming: the request stays in progress

    async def run() -> tuple[list[Transport], list[bool]]:
        config = uvicorn.Config(app, log_level="warning")
        config.load()
        protocol_class = guarded_protocol(Limits(body_memory=1))
        state, transports = ServerState(), []
        for n in range(fitting + 2):
            protocol = protocol_class(config=config, server_state=state, app_state={})
            transports.append(Transport(f"10.0.1.{n}"))
            protocol.connection_made(transports[-1])
            protocol.data_received(b"POST /login HTTP/1.1\r\nHost: club\r\nContent-Length: 100\r\n\r\n")
        await asyncio.sleep(0.05)
        closed = [t.closed for t in transports]
        for task in state.tasks:
            task.cancel()
        return transports, closed

    fitting = 1024 * 1024 // body_cost(0, first=True)
    transports, closed = _run(run())
    assert len(called) == fitting
    assert [t.written[:12] for t in transports[fitting:]] == [b"HTTP/1.1 503"] * 2
    assert closed == [False] * fitting + [True] * 2
