"""``/review`` of a video: the tests' rendered clip uploaded through the form, tracked in the
video pool, judged, and reviewed with its stills; the refusals read nothing and keep nothing."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_apart
from tests.video.conftest import clip  # noqa: F401 (the rendered clip, a fixture)
from tests.web.server import ORGANISER, PASSWORD

WAIT = 240.0


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def video_app(data: Path) -> Iterator[Any]:
    """The application with a data folder (where reviews keep their videos)."""
    from carom.storage import open_store
    from carom.storage.accounts import Accounts
    from carom.storage.book import MatchBook
    from carom.storage.roles import Role
    from carom.web.app import create_app
    from carom.web.shared.auth import hash_password

    store = open_store(data)
    Accounts(store).create(ORGANISER, Role.ORGANISER, hash_password(PASSWORD), by=None)
    yield create_app(MatchBook(store), setup_code="let-me-in", data=data)
    store.close()


@pytest.fixture
def organiser_v(video_app: Any) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    with TestClient(video_app) as client:
        assert client.post("/login", data={"name": ORGANISER, "password": PASSWORD},
                           follow_redirects=False).status_code == 303
        client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
        yield client


def upload(client: Any, content: bytes, name: str = "stroke.mp4", **fields: str) -> Any:
    return client.post("/review/video", files={"file": (name, content, "video/mp4")},
                       data={"discipline": "three-cushion", **fields}, follow_redirects=False)


def kept(data: Path) -> list[Path]:
    """Every file the reviews' videos left in the data folder."""
    folder = data / "review-videos"
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def wait_for_review(client: Any, where: str) -> int:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        page = client.get(where, follow_redirects=False)
        if page.status_code == 303:
            found = re.fullmatch(r"/review/(\d+)", page.headers["location"])
            assert found, page.headers["location"]
            return int(found.group(1))
        assert page.status_code == 200, page.text
        assert 'data-state="failed"' not in page.text, page.text
        time.sleep(0.5)
    raise AssertionError(f"{where}: not reviewed within {WAIT} s")


def test_a_video_becomes_a_review_with_stills(organiser_v: Any, clip: Any, data: Path) -> None:  # noqa: F811
    path, _ = clip
    response = upload(organiser_v, path.read_bytes(), player0="Anna", player1="Boris")
    assert response.status_code == 303, response.text
    where = response.headers["location"]
    assert re.fullmatch(r"/review/video/[0-9a-f]{32}", where)
    progress = organiser_v.get(where + "/progress")
    assert progress.status_code in (200, 204)
    match_id = wait_for_review(organiser_v, where)
    page = organiser_v.get(f"/review/{match_id}")
    assert page.status_code == 200
    assert 'id="video-still"' in page.text
    stills = re.findall(r'<li data-t="([^"]+)" data-src="(/review/\d+/stills/[^"]+)" data-alt="([^"]+)"',
                        page.text)
    kinds = page.text
    assert len(stills) >= 3, page.text[:3000]  # the start, at least one contact, the end
    assert "the stroke&#39;s start" in kinds and "the balls at rest" in kinds and "contact 1:" in kinds
    assert all(alt.startswith("Video frame at ") for _, _, alt in stills)
    times = [float(t) for t, _, _ in stills]
    assert times == sorted(times)
    image = organiser_v.get(stills[0][1])
    assert image.status_code == 200 and image.headers["content-type"] == "image/jpeg"
    assert image.content[:2] == b"\xff\xd8"
    data_json = organiser_v.get(f"/review/{match_id}/strokes/0.json").json()
    assert [s["src"] for s in data_json["stills"]] == [src for _, src, _ in stills]
    video = organiser_v.get(f"/review/{match_id}/video")
    assert video.status_code == 200 and video.content == path.read_bytes()
    export = organiser_v.get(f"/m/{match_id}/export").text
    assert '"tracked":"stroke.mp4"' in export.replace(" ", "")
    # private: a stranger gets neither the stills nor the video
    organiser_v.cookies.clear()
    assert organiser_v.get(stills[0][1]).status_code == 403
    assert organiser_v.get(f"/review/{match_id}/video").status_code == 403


def grey_video(path: Path) -> Path:
    """Two seconds of a grey picture: a video, with no table in it."""
    import av
    import numpy as np

    with av.open(str(path), "w") as container:
        stream = container.add_stream("mpeg4", rate=10)
        stream.width, stream.height, stream.pix_fmt = 320, 240, "yuv420p"
        for _ in range(20):
            frame = av.VideoFrame.from_ndarray(np.full((240, 320, 3), 128, np.uint8), format="rgb24")
            container.mux(stream.encode(frame))
        container.mux(stream.encode())
    return path


def test_a_file_that_is_not_a_video_is_refused_and_nothing_kept(organiser_v: Any, data: Path) -> None:
    response = upload(organiser_v, b"shot,cue\n1,white\n" * 100, name="notes.txt")
    assert response.status_code == 422
    assert "notes.txt: cannot be read as a video" in response.text
    assert 'id="review-video-error"' in response.text
    assert kept(data) == []
    assert 'id="reviews"' not in organiser_v.get("/review").text  # no review was made


def test_a_video_without_a_table_says_so_with_frame_and_time(organiser_v: Any, data: Path,
                                                             tmp_path: Path) -> None:
    grey = grey_video(tmp_path / "grey.mp4")
    response = upload(organiser_v, grey.read_bytes(), name="grey.mp4")
    assert response.status_code == 303, response.text[:500]
    page = failed_page(organiser_v, response.headers["location"])
    assert re.search(r"grey\.mp4: frame 0 \(0\.000 s\): no table found", page), page[-3000:]
    assert [p.name for p in kept(data)] == ["status.json"]  # the video removed, the reason kept
    assert 'id="reviews"' not in organiser_v.get("/review").text  # no review was made


def failed_page(client: Any, where: str) -> str:
    """The progress page once the job failed."""
    deadline = time.monotonic() + WAIT
    while 'data-state="failed"' not in (page := client.get(where, follow_redirects=False)).text:
        assert page.status_code == 200 and time.monotonic() < deadline, page.text[:500]
        time.sleep(0.3)
    return str(page.text)


def test_a_truncated_video_is_refused_and_nothing_kept(organiser_v: Any, clip: Any, data: Path) -> None:  # noqa: F811
    path, _ = clip
    whole = path.read_bytes()
    response = upload(organiser_v, whole[: len(whole) * 2 // 3], name="cut.mp4")
    assert response.status_code == 422, response.text[:500]  # an MP4 cut short lost its index
    assert "cut.mp4: cannot be read as a video" in response.text
    assert kept(data) == []
    assert 'id="reviews"' not in organiser_v.get("/review").text


def test_a_video_too_large_is_refused_and_nothing_kept(organiser_v: Any, data: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from carom.web.review import video_upload

    monkeypatch.setattr(video_upload, "MAX_VIDEO", 4096)
    response = upload(organiser_v, b"\0" * 10_000, name="big.mp4")
    assert response.status_code == 422
    assert "file: larger than" in response.text
    assert kept(data) == []
    # over the route's own limit, declared: refused before anything is read
    from carom.web.shared.guard import limit_for

    assert limit_for("/review/video") == 513 * 1024 * 1024


def _post_raw(app: Any, headers: list[tuple[bytes, bytes]]) -> tuple[int, int, dict[str, str]]:
    """POST /review/video straight to the application: its status, how many pieces of the
    body it asked for, its headers."""
    import asyncio

    body = [b"--b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nx\r\n", b"\0" * 65536]
    asked = 0
    answer: dict[str, Any] = {}

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if asked < len(body):
            asked += 1
            return {"type": "http.request", "body": body[asked - 1], "more_body": True}
        await asyncio.sleep(30)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = {k.decode().lower(): v.decode() for k, v in message["headers"]}

    form = (b"content-type", b"multipart/form-data; boundary=b")
    scope = {"type": "http", "method": "POST", "path": "/review/video", "raw_path": b"/review/video",
             "query_string": b"", "headers": [(b"host", b"testserver"), form, *headers],
             "client": ("127.0.0.1", 5000), "server": ("testserver", 80), "scheme": "http",
             "http_version": "1.1", "root_path": "", "app": app}
    run_apart(asyncio.wait_for(app(scope, receive, send), 20))
    return answer["status"], asked, answer["headers"]


def test_without_a_session_nothing_is_read(video_app: Any, data: Path) -> None:
    status, asked, headers = _post_raw(video_app, [])
    assert status == 303 and headers["location"].startswith(("/login", "/setup"))
    assert asked == 0
    assert kept(data) == []


def test_a_forged_form_writes_nothing(organiser_v: Any, data: Path, clip: Any) -> None:  # noqa: F811
    path, _ = clip
    del organiser_v.headers["X-CSRF-Token"]
    files = {"file": ("stroke.mp4", path.read_bytes(), "video/mp4")}
    response = organiser_v.post("/review/video", files=files,
                                data={"csrf": "not-the-token"}, follow_redirects=False)
    assert response.status_code == 403
    assert kept(data) == []


def test_a_full_queue_answers_503_with_retry_after_in_the_page_language(organiser_v: Any, video_app: Any,
                                                                       data: Path) -> None:
    from carom.web.review import video_pages

    class Request:
        app = video_app

    pool = video_pages.video_pool(Request())  # type: ignore[arg-type]
    for n in range(pool.limits.workers + pool.limits.queue):
        pool.admit(f"elsewhere-{n}")
    response = organiser_v.post("/review/video", files={"file": ("stroke.mp4", b"\0" * 1000, "video/mp4")},
                                headers={"Accept-Language": "sk"}, follow_redirects=False)
    assert response.status_code == 503
    assert response.headers["retry-after"] == "2"
    assert "Nič sa neprečítalo" in response.text, response.text[-2000:]
    assert kept(data) == []


def test_without_the_data_folder_the_form_says_video_is_not_here(organiser: Any) -> None:
    page = organiser.get("/review")
    assert 'id="video-not-here"' in page.text and 'id="video-upload"' not in page.text
    response = organiser.post("/review/video", files={"file": ("a.mp4", b"\0" * 100, "video/mp4")},
                              follow_redirects=False)
    assert response.status_code == 422 and "Video is not available on this server" in response.text


def test_a_video_larger_than_the_bodies_memory_is_taken(tmp_path: Path) -> None:
    """The bodies' budget counts what a process holds in memory: a video is written to disk
    as it arrives, so 4 MiB pass ``--limit body-memory=1``, which refuses the same bytes
    sent as a tracked recording (held whole by its route)."""
    from tests.web.server import Server

    server = Server(tmp_path / "data", options=("--limit", "body-memory=1")).start()
    try:
        client = server.organiser()
        big = b"\0" * (4 * 1024 * 1024)
        answer = client.post("/review/video", files={"file": ("big.mp4", big, "video/mp4")},
                             data={"discipline": "three-cushion"}, follow_redirects=False)
        assert answer.status_code == 422, answer.text[:300]
        assert "big.mp4: cannot be read as a video" in answer.text
        assert kept(tmp_path / "data") == []
        held = client.post("/review", files={"file": ("big.jsonl", big, "application/x-ndjson")},
                           data={"discipline": "three-cushion"}, follow_redirects=False)
        assert held.status_code == 503, held.text[:300]
    finally:
        server.stop()


def test_without_the_video_extra_the_form_says_video_is_not_here(organiser_v: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "av" else found(name, *a))
    page = organiser_v.get("/review")
    assert 'id="video-not-here"' in page.text and "carom[video]" in page.text
    assert 'id="video-upload"' not in page.text


def test_a_job_whose_server_stopped_is_failed_and_its_video_removed(organiser_v: Any, data: Path) -> None:
    """A restart loses the job in progress: its state, no longer written, goes stale; the
    progress page then says so, and the video is removed."""
    import json

    from carom.web.review import video_files

    folder = data / "review-videos" / ("d" * 32)
    folder.mkdir(parents=True)
    (folder / "video").write_bytes(b"\0" * 100)
    (folder / "status.json").write_text(json.dumps({"state": "tracking", "done": 3.0, "seconds": 40.0,
                                                    "written": time.time() - video_files.STALE - 1}))
    page = organiser_v.get(f"/review/video/{'d' * 32}")
    assert 'data-state="failed"' in page.text and "the server stopped" in page.text
    assert not (folder / "video").exists()
    assert organiser_v.get(f"/review/video/{'e' * 32}").status_code == 404
