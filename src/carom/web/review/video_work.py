"""What a review's video costs: the file checked to be a video before the upload is answered
(:func:`readable`, a first picture decoded), then, in the video pool's process
(:mod:`carom.web.shared.pool`), the table found, the balls tracked, the strokes judged as
``/review`` judges a tracked recording, and each stroke's stills cut (:func:`track`).

Each task takes plain values and returns bytes; a video that cannot be read, shows no
table, breaks off or is too long raises :class:`Unreadable` naming what was not found and
where (the uploaded file's name, the frame and its time), as ``carom video`` says it.
"""

from __future__ import annotations

import json
import pickle
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from carom.core.errors import CaromError
from carom.core.records import Header
from carom.web.review import video_files

MAX_SECONDS = 600.0
"""The longest video ``/review`` takes: ten minutes, about five of tracking on one core."""
STILL_WIDTH = 960
"""Stills wider than this are shrunk to it (a 1080p still keeps about 100 KB)."""
JPEG_QUALITY = 80


class Unreadable(CaromError):
    """A file that is not a video ``/review`` takes: the message names it and says why."""


def readable(path: str, name: str) -> float:
    """The video's length, s, once its first picture was decoded (cheap: the server does
    it before answering); :class:`Unreadable` when it is not a video, too large or too long."""
    import av

    from carom.video.errors import VideoError
    from carom.video.frames import read_frames

    try:
        frames = read_frames(path, threads=1)
        try:
            if next(frames, None) is None:
                raise VideoError("holds no picture that could be decoded", path)
        finally:
            frames.close()
        with av.open(path) as container:
            seconds = (container.duration or 0) / 1_000_000
    except VideoError as error:
        raise _named(error, name) from None
    if seconds > MAX_SECONDS:
        raise Unreadable(f"{name}: {seconds / 60:.1f} minutes long: /review takes videos of at most "
                         f"{MAX_SECONDS / 60:.0f} minutes")
    return seconds


def track(path: str, folder: str, name: str, discipline: str, table: str, players: tuple[str, str],
          key: str, seconds: float) -> bytes:
    """The review of the video at ``path``: its header and records (pickled), the stills
    written into ``folder``; the state written every few seconds meanwhile."""
    from carom.video.errors import VideoError
    from carom.video.frames import read_frames
    from carom.video.pipeline import Progress, Settings, track_video
    from carom.web.review.pages import played_on

    _, spec = played_on(discipline, table)
    progress = Progress()
    beating = _Beat(Path(folder), progress, seconds, name)
    try:
        strokes = list(track_video(path, Settings(spec, threads=1), progress,
                                   frames=lambda: _within(read_frames(path, threads=1), path)))
    except VideoError as error:
        raise _named(error, name) from None
    finally:
        beating.set()
    if not strokes:
        raise Unreadable(f"{name}: no stroke found in the video (the balls never moved from rest to rest)")
    header, lines, judged = video_match(strokes, name, discipline, table, players, key)
    cut_stills(path, Path(folder), judged, lines)
    return pickle.dumps((header, lines))


def video_match(strokes: list[dict[str, Any]], name: str, discipline: str, table: str,
                players: tuple[str, str], key: str) -> tuple[Header, tuple[str, ...], list[dict[str, Any]]]:
    """The review of a video's stroke lines: its header and records, and the lines judged.

    The strokes are judged as ``carom video --judge`` judges them: a stroke the auto-referee
    cannot read (a ball the video never saw in it) is left out of the match and named in the
    header's ``not_judged`` (its shot, the reader's refusal and the video's doubts, which say
    why in the page's language); the others are judged as one recording, and the match
    bridges the gap as it bridges any stroke missing from a recording. :class:`Unreadable`
    when no stroke can be judged."""
    from carom.video.doubts import read_doubts
    from carom.video.judged import apart, judge_strokes
    from carom.web.review.pages import played_on, review_records

    rules, spec = played_on(discipline, table)
    rulings, not_judged = apart(judge_strokes(strokes, rules, spec))
    left = [{"shot": entry.shot, "line": number, "why": entry.why,
             "doubts": read_doubts(strokes[number - 1].get("doubts"), number)}
            for number, entry in not_judged]
    if not rulings:
        raise Unreadable(f"{name}: no stroke could be judged ({left[0]['why']}; {len(left)} stroke(s))")
    extra: dict[str, Any] = {"video": key}
    if left:
        extra["not_judged"] = left
    header, lines = review_records(rulings, name, rules, spec, players, extra)
    skipped = {number for number, _ in not_judged}
    judged = [line for number, line in enumerate(strokes, start=1) if number not in skipped]
    return header, lines, judged


def _within(frames: Iterator[Any], source: str) -> Iterator[Any]:
    """The frames, refused past :data:`MAX_SECONDS` (a length the container did not say)."""
    from carom.video.errors import VideoError

    for frame in frames:
        if frame.time > MAX_SECONDS:
            frames.close()  # type: ignore[attr-defined]
            raise VideoError(f"longer than {MAX_SECONDS / 60:.0f} minutes, the most /review takes", source,
                             frame.index, frame.time)
        yield frame


def _named(error: Any, name: str) -> Unreadable:
    """The video's error with the uploaded file's name in place of the server's path."""
    from carom.video.errors import VideoError

    return Unreadable(VideoError(error.reason, name, error.frame, error.time).describe())


class _Beat:
    """Writes the job's state every :data:`video_files.BEAT` seconds until stopped (and,
    stopped, has written its last: the state the server writes next stays)."""

    def __init__(self, folder: Path, progress: Any, seconds: float, name: str) -> None:
        self.stop = threading.Event()

        def run() -> None:
            while not self.stop.wait(video_files.BEAT):
                video_files.write_status(folder, state="tracking", done=round(progress.seconds, 1),
                                         seconds=round(seconds, 1), name=name)

        self.thread = threading.Thread(target=run, daemon=True, name="carom-video-beat")
        self.thread.start()

    def set(self) -> None:
        self.stop.set()
        self.thread.join()


def wanted_stills(strokes: list[dict[str, Any]], lines: tuple[str, ...]) -> list[dict[str, Any]]:
    """Per stroke of the review, the moments to show: its start, each contact the
    auto-referee saw, its end; each with its time in the video (``at``)."""
    from carom.web.review.log import parsed, tracked_strokes

    wanted = []
    for record, line in zip(tracked_strokes(parsed(lines)), strokes, strict=True):
        offset = float(line["video"]["time"])
        times = [t for ball in line["balls"].values() for t in ball["t"]]
        moments = [("start", None, min(times))]
        moments += [("contact", n, float(e["t"])) for n, e in enumerate(record.get("events") or [], start=1)]
        moments.append(("end", None, max(times)))
        for number, (kind, event, t) in enumerate(moments):
            wanted.append({"index": record["index"], "kind": kind, "event": event, "t": round(t, 4),
                           "at": offset + t, "file": f"{record['index']}-{number}.jpg"})
    return wanted


def cut_stills(path: str, folder: Path, strokes: list[dict[str, Any]], lines: tuple[str, ...]) -> None:
    """Each wanted moment's nearest frame as a JPEG in ``folder/stills``, and ``stills.json``."""
    import cv2

    from carom.video.frames import read_frames

    wanted = sorted(wanted_stills(strokes, lines), key=lambda w: w["at"])
    out = folder / "stills"
    out.mkdir(exist_ok=True)
    before: Any = None
    pending = iter(wanted)
    still = next(pending, None)
    for frame in read_frames(path, threads=1):
        while still is not None and frame.time >= still["at"]:
            closer = before is not None and still["at"] - before.time < frame.time - still["at"]
            near = before if closer else frame
            _write_jpeg(cv2, near.bgr(), out / still["file"])
            still = next(pending, None)
        if still is None:
            break
        before = frame
    while still is not None and before is not None:  # moments after the last frame: the last frame
        _write_jpeg(cv2, before.bgr(), out / still["file"])
        still = next(pending, None)
    index: dict[str, list[dict[str, Any]]] = {}
    for w in wanted:
        index.setdefault(str(w["index"]), []).append({k: w[k] for k in ("t", "kind", "event", "file")})
    for stills in index.values():
        stills.sort(key=lambda s: s["t"])
    (folder / "stills.json").write_text(json.dumps(index))


def _write_jpeg(cv2: Any, picture: Any, path: Path) -> None:
    height, width = picture.shape[:2]
    if width > STILL_WIDTH:
        picture = cv2.resize(picture, (STILL_WIDTH, round(height * STILL_WIDTH / width)),
                             interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise CaromError(f"{path.name}: the still could not be encoded")
    path.write_bytes(encoded.tobytes())
