"""Live: a recorded clip served as an HTTP stream on loopback, read as a camera, each
judged stroke written to a real scoreboard's match through its JSON API."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import av
import httpx
import pytest

from carom.video.render.clip import Truth
from tests.cli_helpers import run
from tests.web.server import Server
from tests.web.tables.helpers import OPENER, add_table, new_match, pairing_code, put, write

CHUNK = 64 * 1024


def _as_transport_stream(clip: Path, target: Path) -> None:
    """The clip's packets, unchanged, in an MPEG transport stream (what a camera streams)."""
    with av.open(str(clip)) as source, av.open(str(target), "w", format="mpegts") as out:
        stream = out.add_stream_from_template(source.streams.video[0])
        for packet in source.demux(source.streams.video[0]):
            if packet.dts is None:
                continue
            packet.stream = stream
            out.mux(packet)


@pytest.fixture
def stream_url(clip: tuple[Path, Truth], tmp_path: Path) -> Iterator[str]:
    ts = tmp_path / "camera.ts"
    _as_transport_stream(clip[0], ts)
    body = ts.read_bytes()

    class Camera(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "video/mp2t")
            self.end_headers()
            for start in range(0, len(body), CHUNK):
                self.wfile.write(body[start:start + CHUNK])

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Camera)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/camera.ts"
    server.shutdown()
    server.server_close()


@pytest.fixture
def scoreboard(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "data").start()
    yield running
    running.stop()


def test_each_judged_stroke_is_written_to_the_scoreboard_match(stream_url: str, scoreboard: Server) -> None:
    organiser = scoreboard.organiser()
    match_id, token = scoreboard.create(organiser)
    opened = organiser.post(f"/api/matches/{match_id}/records", json={"after": 0, "record": {
        "type": "opener", "player": 0}}, headers={"X-Referee-Token": token})
    assert opened.status_code == 201, opened.text
    result = run("video", "--live", stream_url, "--server", scoreboard.url, "--match", str(match_id),
                 "--token", token)
    # the served file ends: a stream that stops, said with its frame and time (exit status 1)
    assert result.exit_code == 1, result.output
    assert "stroke 1 (white)" in result.stderr and "record 2 written" in result.stderr, result.stderr
    assert "camera.ts: frame " in result.stderr and "1 stroke(s) before it kept" in result.stderr
    state = httpx.get(f"{scoreboard.url}/api/matches/{match_id}", timeout=10).json()
    assert state["seq"] == 2


def test_a_camera_paired_as_a_tables_device_writes_to_the_match_the_table_plays(
        stream_url: str, scoreboard: Server, tmp_path: Path) -> None:
    organiser = scoreboard.organiser()
    add_table(organiser, "Stôl 1")
    match = new_match(organiser, "Anna", "Boris")
    put(organiser, "Stôl 1", match)
    kept = tmp_path / "device.token"
    paired = run("video", "--server", scoreboard.url, "--table", "Stôl 1", "--pair",
                 pairing_code(organiser, "Stôl 1"), "--device-token-file", kept)
    assert paired.exit_code == 0, paired.output
    token = kept.read_text().strip()
    assert write(organiser, match, 0, OPENER, **{"X-Device-Token": token}).status_code == 201
    result = run("video", "--live", stream_url, "--server", scoreboard.url, "--table", "Stôl 1",
                 "--device-token-file", kept)
    assert result.exit_code == 1, result.output  # the served file ends, as above
    assert f"table Stôl 1 plays match {match} (Anna – Boris); match {match} record 2 written" in result.stderr
    assert "carom: 1 stroke(s) written, none kept out" in result.stderr, result.stderr
    assert httpx.get(f"{scoreboard.url}/api/matches/{match}", timeout=10).json()["seq"] == 2
