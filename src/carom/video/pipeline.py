"""A video, end to end: frames in, tracked strokes out, as each ends.

The table is found on frames spread over the first :data:`REGISTER_SPAN` seconds (a
file is then read again from its start; a live stream's first seconds are kept and
followed first). Every
:data:`CHECK_EVERY` seconds the picture is compared with the one the table was found in
(:func:`carom.video.table.camera_shift`): when it moved farther than
:data:`MOVED_BEYOND` pixels for :data:`MOVED_CHECKS` checks in a row, the camera moved; the
table is searched for again and, found, tracking goes on (the stroke under way made
doubtful); a camera that keeps moving (:data:`MOST_MOVES` times in
:data:`MOVES_WITHIN` seconds) is refused, as is a table not found again. A score box
over the table is checked as often (:class:`PanelWatch`): undone while it is drawn, left
while it is not, and looked for again every :data:`SEARCH_EVERY` seconds while none is
known. Any error after the first stroke keeps every stroke before it: the caller gets
them first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from carom.core.table import TableSpec
from carom.notation.said import Said
from carom.video.balance import Balance, find_balance
from carom.video.balls import BallFinder
from carom.video.camera import Array
from carom.video.colours import REFERENCE, Coding
from carom.video.doubts import seconds
from carom.video.errors import VideoError
from carom.video.follow import Follower
from carom.video.frames import Frame, describe, read_frames
from carom.video.overlay import Overlay, find_overlay
from carom.video.strokes import Cutter
from carom.video.table import HEIGHT_PRIOR, Registration, camera_shift, find_table, picture_shift, shrunk

REGISTER_SPAN = 2.0
"""Seconds of video the table is first searched in."""
REGISTER_FRAMES = 5
CHECK_EVERY = 1.0
MOVED_BEYOND = 3.0
"""A check fails when the picture moved farther than this since the table was found, pixels."""
MOVED_CHECKS = 2
SEARCH_EVERY = 30.0
"""Seconds between searches for score graphics over the table while none is known: each
costs about 0.6 s of processor time at 1080p, a second of tracking (every 10 s it was 13 %
more on a clip without graphics over its table; every 30 s it is 4 %)."""
MOST_MOVES = 3
MOVES_WITHIN = 60.0
UNFOUND_FOR = 5.0
"""Seconds the table may stay unfound in a picture unlike the one it was found in (a player
or the referee leaning over a cushion, a board held up) before the video is refused; the
strokes meanwhile are tracked with the table where it was and marked doubtful."""


@dataclass(frozen=True, slots=True)
class Settings:
    table: TableSpec
    corners: Array | None = None
    height_prior: float = HEIGHT_PRIOR
    live: bool = False
    threads: int | None = None


@dataclass(slots=True)
class Progress:
    """What a run has done so far (for messages and the caller's summary)."""

    frames: int = 0
    seconds: float = 0.0
    registration: Registration | None = None
    moves: int = 0
    overlay: Overlay | None = None
    """The half-transparent panel over the table, undone in every frame while it is drawn
    (graphics stay where they are in the picture when the camera moves), if one was found."""
    balance: Balance | None = None
    """The camera's colour cast undone in every frame, if it shows one."""
    coding: Coding = REFERENCE
    """How the stream codes colour, as its first frames say (:mod:`carom.video.colours`)."""


def track_video(source: str, settings: Settings, progress: Progress | None = None,
                frames: Callable[[], Iterator[Frame]] | None = None) -> Iterator[dict[str, Any]]:
    """The strokes of ``source`` in the ``balls-jsonl`` format, each as soon as it ended.

    ``frames`` replaces the reader (tests). Raises :class:`VideoError` (file, frame,
    time) after yielding every stroke judged before the problem.
    """
    progress = progress if progress is not None else Progress()
    name = describe(source)
    read = frames or (lambda: read_frames(source, settings.live, settings.threads))
    stream = read()
    first, seen = _registration_frames(stream, name)
    first = [frame.whole() for frame in first]
    registration = _register(first, settings, name)
    progress.registration = registration
    progress.coding = first[0].coding
    progress.overlay = find_overlay(first, registration.outline)
    progress.balance = find_balance(first, BallFinder.of(registration, first[0].width, first[0].height,
                                                         progress.overlay), progress.overlay)
    if settings.live or frames is not None:
        stream = _chain(seen, stream)  # a stream cannot be read again: its first seconds were kept
    else:
        stream.close()
        stream = read()
    yield from _follow(stream, registration, settings, name, progress)


def _chain(first: list[Frame], rest: Iterator[Frame]) -> Iterator[Frame]:
    yield from first
    yield from rest


def _registration_frames(stream: Iterator[Frame], name: str) -> tuple[list[Frame], list[Frame]]:
    """Frames spread over the first seconds (all of them, for a shorter video), and every
    frame read meanwhile (at most :data:`REGISTER_SPAN` seconds of them)."""
    picked: list[Frame] = []
    seen: list[Frame] = []
    step = REGISTER_SPAN / (REGISTER_FRAMES - 1)
    for frame in stream:
        seen.append(frame)
        if not picked or frame.time >= picked[-1].time + step - 1e-6:
            picked.append(frame)
        if len(picked) == REGISTER_FRAMES or frame.time > REGISTER_SPAN + step:
            break
    if not picked:
        raise VideoError("holds no picture that could be decoded", name)
    return picked, seen


def _register(frames: list[Frame], settings: Settings, name: str) -> Registration:
    try:
        return find_table(frames, settings.table, settings.height_prior, settings.corners)
    except VideoError as error:
        raise VideoError(error.reason, name, frames[0].index, frames[0].time) from None


def _follow(stream: Iterator[Frame], registration: Registration, settings: Settings, name: str,
            progress: Progress) -> Iterator[dict[str, Any]]:
    cutter = Cutter(name, registration.table.ball_radius)
    watch = CameraWatch(registration, settings, name)
    panel = PanelWatch(progress.overlay)
    follower: Follower | None = None
    next_check = 0.0
    frame: Frame | None = None
    try:
        for frame in stream:
            if frame.time >= next_check:
                next_check = frame.time + CHECK_EVERY
                whole = frame.whole()
                note = watch.check(whole)
                if note is not None:
                    cutter.note(note)
                if panel.check(whole, watch.registration.outline):
                    progress.overlay = panel.overlay
                    if follower is not None:
                        follower.finder.show(panel.shown)
            if follower is None or follower.registration is not watch.registration:
                follower = Follower.of(watch.registration, frame.width, frame.height, panel.shown,
                                       progress.balance)
                progress.registration, progress.moves = watch.registration, len(watch.moves)
            seen = follower.step(frame)
            for doubt in follower.doubts:
                cutter.note(doubt)
            follower.doubts.clear()
            progress.frames, progress.seconds = frame.index + 1, frame.time
            yield from cutter.push(frame.index, frame.time, seen)
    except VideoError as error:
        broke = Said("the video broke off at frame %(frame)s (%(t)s s)", frame=str(error.frame),
                     t=seconds(error.time or 0.0))
        yield from cutter.close(broke)
        raise
    yield from cutter.close()


class PanelWatch:
    """Whether a panel is drawn over the table, checked every :data:`CHECK_EVERY` seconds
    (a broadcaster's score box comes and goes): the one found at the start, its going or
    its coming back believed after :data:`MOVED_CHECKS` checks in a row (a player passing
    over its edge is not its going; undoing a panel that is not drawn would blind the ball
    finder under it); with none found yet, one is looked for every :data:`SEARCH_EVERY`
    seconds on the median of the last :data:`REGISTER_FRAMES` checked frames (people
    walking past drop out), as at the start."""

    def __init__(self, overlay: Overlay | None) -> None:
        self.overlay = overlay
        self.drawn = True
        self.against = 0
        """Checks in a row that disagreed with :attr:`drawn`."""
        self.recent: list[Frame] = []
        """The last frames checked while no panel is known."""
        self.next_search = SEARCH_EVERY

    @property
    def shown(self) -> Overlay | None:
        """The panel to undo now, if any."""
        return self.overlay if self.drawn else None

    def check(self, frame: Frame, outline: Array) -> bool:
        """Check ``frame`` (``outline``: the table's, full-resolution pixels); whether the
        panel has just gone, come back or been found."""
        if self.overlay is None:
            return self._search(frame, outline)
        self.against = self.against + 1 if self.overlay.shown_in(frame) != self.drawn else 0
        if self.against < MOVED_CHECKS:
            return False
        self.drawn, self.against = not self.drawn, 0
        return True

    def _search(self, frame: Frame, outline: Array) -> bool:
        self.recent = [*self.recent[1 - REGISTER_FRAMES:], frame]
        if frame.time < self.next_search or len(self.recent) < REGISTER_FRAMES:
            return False
        self.next_search = frame.time + SEARCH_EVERY
        self.overlay = find_overlay(self.recent, outline)
        if self.overlay is None:
            return False
        self.recent, self.drawn = [], True
        return True


class CameraWatch:
    """Whether the camera still sees the table where it was found, checked every
    :data:`CHECK_EVERY` seconds: a picture unlike the first that :data:`MOVED_CHECKS` checks
    in a row is searched for the table again (found where it was: people in front of the
    camera; elsewhere: the camera moved and the table is taken from there; not found: tried
    again at the next check, for at most :data:`UNFOUND_FOR` seconds). The last picture in
    which the table was found where it was is kept beside the first: a later picture
    like it (the same people still in front of the camera, a referee standing by the
    table) shows the table where it was without a search."""

    def __init__(self, registration: Registration, settings: Settings, name: str) -> None:
        self.registration, self.settings, self.name = registration, settings, name
        self.failed = 0
        self.moves: list[float] = []
        self.unfound_since: float | None = None
        self.confirmed: Array | None = None
        """The last picture (shrunk) in which the table was found where it was."""

    def check(self, frame: Frame) -> Said | None:
        """Check ``frame``; the doubt it gives the stroke under way, if any."""
        self.failed = self.failed + 1 if self._shift(frame) > MOVED_BEYOND else 0
        if self.failed == 0:
            self.unfound_since = None
        if self.failed < MOVED_CHECKS:
            return None
        found = _found_again(frame, self.registration, self.settings, self.name, self.unfound_since)
        if found is None:
            self.unfound_since = frame.time if self.unfound_since is None else self.unfound_since
            return Said("the picture changed near frame %(frame)s (%(t)s s) and the table was not found in "
                        "it again: the camera may have moved", frame=str(frame.index), t=seconds(frame.time))
        self.failed, self.unfound_since = 0, None
        if found is self.registration:
            self.confirmed = shrunk(frame)
            return None
        self.moves.append(frame.time)
        recent = [t for t in self.moves if t >= frame.time - MOVES_WITHIN]
        if len(recent) >= MOST_MOVES:
            raise VideoError(f"the camera moves ({len(recent)} times in {MOVES_WITHIN:.0f} s): a fixed "
                             "camera is needed; everything before is kept", self.name, frame.index,
                             frame.time)
        self.registration, self.confirmed = found, None
        return Said("the camera moved near frame %(frame)s (%(t)s s); the table was found again",
                    frame=str(frame.index), t=seconds(frame.time))

    def _shift(self, frame: Frame) -> float:
        """How far the picture moved: from the one the table was found in or, nearer, the
        last one it was found again in where it was."""
        shift = camera_shift(self.registration, frame)
        if shift > MOVED_BEYOND and self.confirmed is not None:
            shift = min(shift, picture_shift(self.confirmed, shrunk(frame)))
        return shift


def _found_again(frame: Frame, registration: Registration, settings: Settings, name: str,
                 unfound_since: float | None) -> Registration | None:
    """The table in a picture unlike the one it was found in: ``registration`` when it is
    where it was (people in front of the camera changed the picture), a new registration
    when the camera moved, ``None`` when it is not found in this picture. Refused when it
    has not been found for :data:`UNFOUND_FOR` seconds, or when ``--corners`` fixed it."""
    if settings.corners is not None:
        raise VideoError("the camera moved away from the --corners given; everything before is kept", name,
                         frame.index, frame.time)
    try:
        found = find_table([frame], settings.table, settings.height_prior)
    except VideoError as error:
        if unfound_since is not None and frame.time - unfound_since >= UNFOUND_FOR:
            raise VideoError(f"the camera moved and the table is not found again for {UNFOUND_FOR:.0f} s "
                             f"({error.reason}); everything before is kept", name, frame.index,
                             frame.time) from None
        return None
    return registration if _shift(registration, found) < 1.0 else found


def _shift(before: Registration, after: Registration) -> float:
    """How far the table's farthest-moved corner is from where it was, pixels."""
    return float(np.max(np.linalg.norm(after.corners - before.corners, axis=1)))
