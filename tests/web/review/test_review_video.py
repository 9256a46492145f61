"""``/review`` of a video: the tests' rendered clip uploaded through the form, tracked in the
video pool, judged, and reviewed with its stills; the refusals read nothing and keep nothing."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
