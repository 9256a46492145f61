"""Where a review's video lives: one folder of the data folder per upload, holding the
video, its stills and the job's state (docs/review.md, "A video").

``DATA/review-videos/KEY/`` holds ``video`` (the upload as it arrived), ``status.json``
(the job's state: ``tracking``, ``done`` with the review's match, ``failed`` with what was
not found and where) and ``stills/`` (``K-N.jpg``: stroke ``K``'s ``N``-th still) with
``stills.json`` (per stroke, each still's time on the stroke's clock and what it shows).
``KEY`` is random: the review's header names it (``"video": KEY``), and only organisers
are served anything from the folder. The state is a file, not memory, so that every
server process answers the progress page alike; a job in progress writes it at least every
:data:`BEAT` seconds, and one left unwritten for :data:`STALE` seconds belongs to a server
that stopped: it is failed, and its video removed, when next looked at.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import time
from pathlib import Path
from typing import Any

FOLDER = "review-videos"
KEY = re.compile(r"[0-9a-f]{32}")
STILL = re.compile(r"(\d{1,6})-(\d{1,3})\.jpg")
BEAT = 5.0
"""Seconds between two writes of a job's state while it runs or waits."""
STALE = 60.0
"""A job in progress whose state was not written for this long has lost its server."""
LOST = "the server stopped while the video was being tracked; nothing was kept: upload it again"


def available(data: Path | None) -> bool:
    """Whether this server can take a video: the ``[video]`` extra installed, a data folder."""
    from importlib.util import find_spec

    return data is not None and find_spec("av") is not None and find_spec("cv2") is not None


def root(data: Path) -> Path:
    return data / FOLDER


def new_folder(data: Path) -> tuple[str, Path]:
    """A fresh folder for one upload (its random key and its path)."""
    key = secrets.token_hex(16)
    folder = root(data) / key
    folder.mkdir(parents=True)
    return key, folder


def folder_of(data: Path | None, key: object) -> Path | None:
    """The folder a review's header names, if the server has a data folder, the key is one
    and the folder is there."""
    if data is None or not isinstance(key, str) or KEY.fullmatch(key) is None:
        return None
    folder = root(data) / key
    return folder if folder.is_dir() else None


def write_status(folder: Path, **state: Any) -> None:
    """The job's state, replaced whole (written aside, then renamed over the old one)."""
    aside = folder / f".status.{os.getpid()}.json"
    aside.write_text(json.dumps({**state, "written": time.time()}))
    aside.replace(folder / "status.json")


def read_status(folder: Path) -> dict[str, Any]:
    """The job's state; a job in progress that lost its server is failed (its video and
    stills removed)."""
    try:
        state: dict[str, Any] = json.loads((folder / "status.json").read_text())
    except (OSError, ValueError):
        return {"state": "failed", "error": LOST}
    if state.get("state") == "tracking" and time.time() - float(state.get("written", 0)) > STALE:
        discard(folder, LOST)
        return {"state": "failed", "error": LOST}
    return state


def discard(folder: Path, error: str) -> None:
    """A failed job: its video and stills removed, the reason kept for the progress page."""
    for name in ("video", "stills"):
        path = folder / name
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    write_status(folder, state="failed", error=error)


def sweep(data: Path) -> None:
    """Fail the jobs whose server stopped (their videos removed): called before an upload."""
    folder = root(data)
    if not folder.is_dir():
        return
    for child in folder.iterdir():
        if KEY.fullmatch(child.name) and (child / "video").exists():
            read_status(child)


def stills_of(folder: Path | None, index: int) -> list[dict[str, Any]]:
    """Stroke ``index``'s stills: ``{"t", "kind", "event", "file"}`` in time order."""
    if folder is None:
        return []
    try:
        found = json.loads((folder / "stills.json").read_text())
    except (OSError, ValueError):
        return []
    stills = found.get(str(index), []) if isinstance(found, dict) else []
    return [s for s in stills if isinstance(s, dict) and STILL.fullmatch(str(s.get("file", "")))]
