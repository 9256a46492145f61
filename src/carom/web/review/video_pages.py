"""``/review`` of a video (docs/review.md, "A video"): the upload written to the data folder
as it arrives and checked to be a video, the table found and the balls tracked in the video
pool, a page that follows the work and moves on to the review, and the review's stills and
video served to organisers only.

The work runs in a pool of its own (:func:`video_pool`: one process, :data:`QUEUE` jobs
waiting at most; beyond, 503 with ``Retry-After``), apart from the event loop, the writer
and the simulation pool. A place is taken before any of the body is read and given back
when the review is made or the work failed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import pickle
import shutil
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response

from carom.core.errors import RecordError
from carom.notation.words import N_
from carom.storage.book import Snapshot
from carom.storage.players import AmbiguousName, SamePlayer
from carom.storage.roles import Account
from carom.web.review import video_files, video_work
from carom.web.review.pages import PLAYERS, _list_page, _review, organisers_only, played_on
from carom.web.review.video_upload import Forged, receive_video
from carom.web.shared import auth
from carom.web.shared.deps import (
    Services,
    account_of,
    allowed,
    client_of,
    refuse,
    render,
    services,
    session_of,
    words,
)
from carom.web.shared.forms import FormError, check_names, say
from carom.web.shared.pool import Busy, Gone, JobFailed, Pool

router = APIRouter(include_in_schema=False)
log = logging.getLogger(__name__)
QUEUE = 2
"""Videos that may wait while one is tracked."""
TRACK_SECONDS = 3 * video_work.MAX_SECONDS
"""A video's tracking: about half its length on an idle core; three times its longest."""
FULL = N_("Every video process is busy and %(queue)s videos wait; try again in %(seconds)s seconds. "
          "Nothing was read.")
NOT_HERE = N_("Video is not available on this server (the video extra is not installed, or the server "
              "has no data folder); upload a tracked recording instead.")
FIELDS = ("discipline", "table", "player0", "player1")
_running: set[asyncio.Task[None]] = set()


def video_pool(request: Request) -> Pool:
    """The application's video pool (made on first use; closed with the application)."""
    found: Pool | None = getattr(request.app.state, "video_pool", None)
    if found is None:
        limits = dataclasses.replace(services(request).limits, workers=1, queue=QUEUE, jobs_per_client=1)
        found = request.app.state.video_pool = Pool(limits)
        request.app.router.add_event_handler("shutdown", found.close)
    return found


def _token_ok(request: Request, given: str | None) -> bool:
    """The session's anti-forgery token came (its header, else the form's field before the file)."""
    session = session_of(request)
    given = request.headers.get(auth.CSRF_HEADER) or given
    return session is not None and auth.same_token(given, session.csrf)


@router.post("/review/video", response_class=HTMLResponse)
async def upload_video(request: Request) -> Response:
    """The video's form: the session checked before anything is read, a place in the pool
    taken, the file written as it arrives and checked to be a video; then the work goes on
    while the answer shows its progress."""
    refused = allowed(request, "/review")
    if refused is not None:
        return refused
    t, svc = words(request), services(request)
    if not video_files.available(svc.data):
        return _list_page(request, 422, error=t.gettext(NOT_HERE), video_form=True)
    assert svc.data is not None
    pool, client = video_pool(request), client_of(request)
    try:
        pool.admit(client)
    except Busy as busy:
        if busy.hold:
            await asyncio.sleep(busy.hold)
        response = _list_page(request, 503, error=t.gettext(FULL, queue=QUEUE, seconds=busy.retry_after),
                              video_form=True)
        response.headers["Retry-After"] = str(busy.retry_after)
        response.headers["Connection"] = "close"  # the body is not read
        return response
    handed_on = False
    try:
        video_files.sweep(svc.data)
        key, folder = video_files.new_folder(svc.data)
        try:
            made = await _received(request, key, folder)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        if isinstance(made, Response):
            shutil.rmtree(folder, ignore_errors=True)
            return made
        task = asyncio.create_task(_track(svc, pool, client, key, folder, made, account_of(request)))
        _running.add(task)
        task.add_done_callback(_running.discard)
        handed_on = True
        return RedirectResponse(f"/review/video/{key}", status_code=303)
    finally:
        if not handed_on:
            pool.release(client)


async def _received(request: Request, key: str, folder: Path) -> dict[str, Any] | Response:
    """The form read and its file found to be a video: the job's arguments, or the refusal."""
    t = words(request)
    fields: dict[str, str] = {}
    try:
        received = await receive_video(request, folder / "video", lambda token: _token_ok(request, token))
        fields = {k: received.get(k, "").strip()[:100] for k in FIELDS}
        discipline = fields["discipline"] or "three-cushion"
        played_on(discipline, fields["table"])
        name = received.get("filename") or "video"
        seconds = await run_in_threadpool(video_work.readable, str(folder / "video"), name)
    except Forged:
        return refuse(request, 403, "forged", {})
    except FormError as error:
        return _list_page(request, 422, error=say(error, t), form=fields, video_form=True)
    except video_work.Unreadable as error:
        return _list_page(request, 422, error=str(error), form=fields, video_form=True)
    players = (fields["player0"] or PLAYERS[0], fields["player1"] or PLAYERS[1])
    video_files.write_status(folder, state="tracking", done=0.0, seconds=round(seconds, 1), name=name)
    return {"key": key, "name": name, "discipline": discipline, "table": fields["table"], "players": players,
            "seconds": seconds}


async def _track(svc: Services, pool: Pool, client: str, key: str, folder: Path, job: dict[str, Any],
                 by: Account | None) -> None:
    """The video tracked, judged and stored as a review (in the background); its state
    written for the progress page."""
    beat = asyncio.create_task(_keep_alive(folder))
    match_id, failure = None, ""
    try:
        made = await pool.run(client, video_work.track, (
            str(folder / "video"), str(folder), job["name"], job["discipline"], job["table"], job["players"],
            key, job["seconds"]), TRACK_SECONDS)
        header, lines = pickle.loads(made)
        check_names(header)
        match_id = await run_in_threadpool(svc.book.create, header, auth.new_token(), lines, by=by)
    except (JobFailed, RecordError, FormError, SamePlayer, AmbiguousName) as error:
        failure = str(error)
    except Gone as gone:
        failure = gone.message % gone.values
    except Exception:
        log.exception("a review's video could not be tracked")
        failure = "the video could not be tracked: the server failed (see its log)"
    finally:
        beat.cancel()  # before the last state, which it must not overwrite
        pool.release(client)
    if match_id is not None:
        video_files.write_status(folder, state="done", match=match_id, name=job["name"])
    else:
        video_files.discard(folder, failure)


async def _keep_alive(folder: Path) -> None:
    """Write the job's state again every few seconds while it waits or runs (the pool's
    process writes the progress itself; this keeps a waiting job from looking lost). It is
    cancelled before the job's last state is written."""
    while True:
        await asyncio.sleep(video_files.BEAT)
        state = video_files.read_status(folder)
        if state.get("state") != "tracking":
            return
        _write_again(folder, state)  # a small file, written at once: no write of it is left pending


def _write_again(folder: Path, state: dict[str, Any]) -> None:
    video_files.write_status(folder, **{k: v for k, v in state.items() if k != "written"})


def _job(request: Request, key: str) -> tuple[Path, dict[str, Any]] | Response:
    folder = video_files.folder_of(services(request).data, key)
    if folder is None:
        return render(request, "error.html", 404, status_code=404, message=words(request).gettext(
            "No video is being tracked under this address."))
    return folder, video_files.read_status(folder)


@router.get("/review/video/{key}", response_class=HTMLResponse)
def video_job(request: Request, key: str) -> Response:
    """The work on one video: its progress (the page asks again every two seconds), what
    was not found, or, done, the review."""
    refused = allowed(request, f"/review/video/{key}")
    if refused is not None:
        return refused
    found = _job(request, key)
    if isinstance(found, Response):
        return found
    _, state = found
    if state.get("state") == "done":
        return RedirectResponse(f"/review/{state['match']}", status_code=303)
    return render(request, "review_video.html", state=state, key=key, fragment=False)


@router.get("/review/video/{key}/progress", response_class=HTMLResponse)
def video_progress(request: Request, key: str) -> Response:
    """The progress alone (htmx); done: the review, by ``HX-Redirect``."""
    refused = organisers_only(request)
    if refused is not None:
        return refused
    found = _job(request, key)
    if isinstance(found, Response):
        return found
    _, state = found
    if state.get("state") == "done":
        return Response(status_code=204, headers={"HX-Redirect": f"/review/{state['match']}"})
    return render(request, "_review_video_progress.html", state=state, key=key)


def _review_folder(request: Request, match_id: int) -> tuple[Snapshot, Path] | Response:
    """The review and the folder of its video (organisers only)."""
    refused = organisers_only(request)
    if refused is not None:
        return refused
    found = _review(request, match_id)
    if isinstance(found, Response):
        return found
    snap = found[0]
    folder = video_files.folder_of(services(request).data, snap.header.extra.get("video"))
    if folder is None:
        return JSONResponse({"detail": f"match {match_id}: no video is kept with this review"},
                            status_code=404)
    return snap, folder


@router.get("/review/{match_id}/stills/{name}")
def still(request: Request, match_id: int, name: str) -> Response:
    """One still of the review's video (organisers only)."""
    found = _review_folder(request, match_id)
    if isinstance(found, Response):
        return found
    path = found[1] / "stills" / name
    if video_files.STILL.fullmatch(name) is None or not path.is_file():
        return JSONResponse({"detail": f"{name[:40]}: no such still"}, status_code=404)
    return FileResponse(path, media_type="image/jpeg")


@router.get("/review/{match_id}/video")
def kept_video(request: Request, match_id: int) -> Response:
    """The review's video as it was uploaded (organisers only)."""
    found = _review_folder(request, match_id)
    if isinstance(found, Response):
        return found
    snap, folder = found
    name = str(snap.header.extra.get("tracked", "video"))
    return FileResponse(folder / "video", media_type="application/octet-stream", filename=name)
