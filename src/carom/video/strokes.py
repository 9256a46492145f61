"""The followed balls cut into strokes, in the format ``carom track`` reads.

A stroke **starts** when, all balls having lain still, white or yellow leaves its rest
(the cue's contact: the cue ball is the first ball to move), and **ends** when every ball
has lain still again for :data:`SETTLE` seconds. Its samples run from :data:`BEFORE`
seconds before the start (the balls' rests, measured) to :data:`AFTER` after the end,
their times from the frames' own time stamps, ``t = 0`` at the first. The cue ball gives
the player (three-cushion: white is the first player's, yellow the second's) and a new
inning whenever it changes.

A ball is still when its samples stay within :data:`STILL` of where it lay (or three
times its measured noise, if larger). The streak a moving ball leaves is not used for
this: a still ball's image, stretched by perspective and lit from one side, measures as a
streak of up to a centimetre at low resolution. It leaves its rest when its samples lie
off it for :data:`DEPARTED_FOR` seconds, and lies still again at a new place when its
samples of the last :data:`SETTLED_FOR` seconds stay together: durations, read from the
samples' own times, so that a video of 50 or 60 pictures a second (an interlaced one read
field by field) is cut as one of 25 or 30 is; :data:`DEPARTURE` and :data:`SETTLED` samples
at least, however fast the pictures come.

Each stroke is one JSON line of the ``balls-jsonl`` format, every sample with its
uncertainty (``sd``, m, beside ``t``, ``x``, ``y``), and the video's own fields: where in
the video it lies (``video``: first and last frame, their times), ``inning``, ``player``
and ``doubts``: what the video could not show (a ball covered at the end, a camera that
moved, a ball lost in the frame in which it met another), naming frame and time, each kept
as a phrase of the catalogues beside its English (:mod:`carom.video.doubts`).
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.core.table import BALL_RADIUS
from carom.notation.said import Said
from carom.video.doubts import entry, seconds
from carom.video.follow import FASTEST, STILL, Sample

SETTLE = 0.8
"""Seconds every ball must lie still for a stroke to end."""
BEFORE = 0.3
AFTER = 0.3
"""Seconds of rest kept before a stroke starts and after it ends."""
DEPARTURE = 2
"""Samples in a row beyond :data:`STILL`, at least, that make a ball's departure ..."""
DEPARTED_FOR = 0.025
"""... from the first to the last at least this long apart, s: two samples a frame apart at
25–30 frames a second, three fields at 50 or 60 fields a second (0.04 s, 0.033 s), so that
a ball measured off its rest for a thirtieth of a second, a hand over it, starts no stroke
at either rate."""
SETTLED = 5
"""Samples, at least, that show a ball lying still again after it moved ..."""
SETTLED_FOR = 0.125
"""... from the first to the last at least this long apart, s: five samples at 25–30 frames
a second (0.16 s, 0.133 s), eight or nine fields at 50 or 60 fields a second (0.14 s,
0.133 s)."""
KEEP = 4.0
"""Seconds of samples kept while the balls lie still (the rest before a stroke)."""
HIDDEN_MOVE = 0.01
"""A ball unseen for a frame or more while it moved this far (m) and passed another ball
within a diameter (:data:`CONTACT_SLACK` more) hid a contact."""
CONTACT_SLACK = 0.005
LONGEST = 120.0
"""A stroke running longer than this is cut (balls never settled: a camera that sees
people moving balls by hand, or a game not of carom)."""

PLAYER = {Ball.WHITE: 1, Ball.YELLOW: 2}


@dataclass(slots=True)
class _Rest:
    """Where a ball lies, from its still samples; a ball that moved lies still again once
    its samples of the last :data:`SETTLED_FOR` seconds (:data:`SETTLED` at least) stay
    together."""

    xy: np.ndarray | None = None
    count: int = 0
    away: int = 0
    """Samples in a row off the rest."""
    away_since: float = 0.0
    """The time of the first of them."""
    recent: deque[tuple[float, np.ndarray]] = field(default_factory=deque)
    """The latest samples' times and places: the fewest, :data:`SETTLED` at least, that span
    :data:`SETTLED_FOR` (all of them, while they do not yet)."""

    def update(self, sample: Sample) -> bool:
        """Take a sample; whether the ball is moving."""
        p = np.array([sample.x, sample.y])
        self._remember(sample.t, p)
        if self.xy is None:
            self.xy, self.count = p, 1
            return False
        reach = max(STILL, 3.0 * sample.sd)
        if np.linalg.norm(p - self.xy) <= reach:
            self.count += 1
            self.xy = self.xy + (p - self.xy) / min(self.count, 25)
            self.away = 0
            return False
        if self.away == 0:
            self.away_since = sample.t
        self.away += 1
        if self.away > len(self.recent) and self._spanned():
            pts = np.array([place for _, place in self.recent])
            if float(np.max(np.linalg.norm(pts - pts.mean(axis=0), axis=1))) <= reach:
                self.xy, self.count, self.away = pts.mean(axis=0), len(pts), 0
                return False
        return self.away >= DEPARTURE and sample.t - self.away_since >= DEPARTED_FOR

    def _remember(self, t: float, place: np.ndarray) -> None:
        self.recent.append((t, place))
        while len(self.recent) > SETTLED and t - self.recent[1][0] >= SETTLED_FOR:
            self.recent.popleft()

    def _spanned(self) -> bool:
        """Whether the samples kept span :data:`SETTLED_FOR`, :data:`SETTLED` at least."""
        return len(self.recent) >= SETTLED and self.recent[-1][0] - self.recent[0][0] >= SETTLED_FOR


@dataclass(slots=True)
class Cutter:
    """Takes each frame's samples in order and gives each stroke as soon as it ended."""

    source: str
    radius: float = BALL_RADIUS
    """The balls' radius, m."""
    samples: dict[Ball, deque[Sample]] = field(default_factory=lambda: {b: deque() for b in BALLS})
    rests: dict[Ball, _Rest] = field(default_factory=lambda: {b: _Rest() for b in BALLS})
    moving_since: float | None = None
    cue: Ball | None = None
    first_mover: Ball | None = None
    last_motion: float = 0.0
    number: int = 0
    inning: int = 0
    last_cue: Ball | None = None
    doubts: list[Said] = field(default_factory=list)
    start_rests: dict[Ball, np.ndarray | None] = field(default_factory=dict)
    """Where the other balls lay when the first mover left its rest."""
    mover_rest: np.ndarray | None = None
    """Where the first mover lay."""
    now: float = 0.0
    frame: int = 0

    def push(self, frame: int, t: float, seen: dict[Ball, Sample]) -> Iterator[dict[str, Any]]:
        self.now, self.frame = t, frame
        for ball, sample in seen.items():
            self.samples[ball].append(sample)
            moving = self.rests[ball].update(sample)
            if moving:
                self.last_motion = t
                if self.moving_since is None:
                    self.moving_since = self._departure(ball)
                    self.first_mover = ball
                    self.mover_rest = self.rests[ball].xy
                    self.start_rests = {b: r.xy for b, r in self.rests.items() if b is not ball}
        if self.moving_since is None:
            self._trim(t - KEEP)
            return
        if t - self.last_motion >= SETTLE and self._all_still():
            yield self._stroke(self.last_motion + AFTER)
        elif t - self.moving_since > LONGEST:
            self.doubts.append(Said("the balls did not come to rest within %(most)s s: the stroke is cut at "
                                    "frame %(frame)s (%(t)s s)", most=format(LONGEST, ".0f"),
                                    frame=str(frame), t=seconds(t)))
            yield self._stroke(t)

    def _departure(self, ball: Ball) -> float:
        """When ``ball`` left its rest: the time of its last still sample before the samples
        off it that made its departure (the cue may hide it at the contact)."""
        rest = self.rests[ball].xy
        away = max(self.rests[ball].away, 1)
        queue = list(self.samples[ball])
        moving = [k for k, s in enumerate(queue)
                  if rest is None or not _at(s, rest)]
        first = moving[-away] if len(moving) >= away else moving[-1]
        return queue[first - 1].t if first > 0 else queue[first].t

    def _all_still(self) -> bool:
        for ball in BALLS:
            rest = self.rests[ball]
            if rest.away > 0:
                return False
            recent = [s for s in self.samples[ball] if s.t >= self.now - SETTLE]
            if not recent:
                continue
            pts = np.array([[s.x, s.y] for s in recent])
            if float(np.max(np.linalg.norm(pts - pts.mean(axis=0), axis=1))) > 2.0 * STILL:
                return False
        return True

    def _trim(self, before: float) -> None:
        for queue in self.samples.values():
            while queue and queue[0].t < before:
                queue.popleft()

    def _stroke(self, end: float) -> dict[str, Any]:
        assert self.moving_since is not None
        doubts = list(self.doubts)
        doubts.extend(self._struck_unseen())
        start = self.moving_since - BEFORE
        cue = self.first_mover if self.first_mover in PLAYER else None
        if cue is None:
            assert self.first_mover is not None
            cue = Ball.WHITE
            doubts.append(Said("%(ball)s moved first (frame %(frame)s): no cue ball set it moving; "
                               "%(cue)s taken as the cue ball", ball=self.first_mover, frame=str(self.frame),
                               cue=cue))
        if cue is not self.last_cue:
            self.inning += 1
        self.last_cue = cue
        self.number += 1
        balls: dict[str, Any] = {}
        first_frame, last_frame = None, None
        for ball in BALLS:
            kept = [s for s in self.samples[ball] if start <= s.t <= end]
            if not kept:
                before = [s for s in self.samples[ball] if s.t < start]
                if before:
                    kept = [before[-1]]
                    doubts.append(Said("%(ball)s not seen during the stroke: its last place before it is "
                                       "used", ball=ball))
                else:
                    doubts.append(Said("%(ball)s never seen: the stroke cannot be judged", ball=ball))
                    continue
            elif end - kept[-1].t > SETTLE:
                doubts.append(Said("%(ball)s not seen after frame %(frame)s (%(t)s s): it left the picture "
                                   "or was covered", ball=ball, frame=str(kept[-1].frame),
                                   t=seconds(kept[-1].t)))
            balls[ball.value] = kept
            first_frame = kept[0].frame if first_frame is None else min(first_frame, kept[0].frame)
            last_frame = kept[-1].frame if last_frame is None else max(last_frame, kept[-1].frame)
        doubts.extend(self._hidden_contacts(balls))
        t0 = min(s[0].t for s in balls.values())
        line: dict[str, Any] = {
            "shot": self.number, "cue": cue.value,
            "balls": {name: _columns(kept, t0) for name, kept in balls.items()},
            "inning": self.inning, "player": PLAYER[cue],
            "video": {"source": self.source, "first_frame": first_frame, "last_frame": last_frame,
                      "time": round(t0, 6)},
            "doubts": [entry(doubt) for doubt in doubts],
        }
        self._reset(end)
        return line

    def _unseen_departures(self) -> list[tuple[Ball, Sample, Sample]]:
        """Each ball other than the first mover that was last seen at its rest (sample
        ``a``) before the first mover left its own, or in the frame of the first mover's own
        last still sample, and next seen away from it (``b``): it left its rest unseen and
        may have moved first. (Two balls last seen still in the same frame and next seen
        away in the same later one, both of them unseen at the contact between them, depart
        together: the first mover is then only the first in the balls' order, and a yellow
        cue ball that struck white 10 cm away was taken for white's stroke.) A ball seen
        lying at its rest again later never left it: its samples away were the ball partly
        covered and measured off (a player's arm over a still yellow moved its centre 59 mm)."""
        assert self.moving_since is not None
        out = []
        for ball, rest in self.start_rests.items():
            if rest is None:
                continue
            queue = list(self.samples[ball])
            for k, (a, b) in enumerate(itertools.pairwise(queue)):
                if a.t > self.moving_since:
                    break
                if b.frame - a.frame < 2 or not _at(a, rest) or _at(b, rest):
                    continue
                if not any(_at(s, rest) for s in queue[k + 2:]):
                    out.append((ball, a, b))
                break
        return out

    def _struck_unseen(self) -> list[Said]:
        """Which ball the cue struck when a ball left its rest unseen before the first ball
        seen to move (the cue, a hand or its own streak hid it): the doubts it leaves.

        A ball at rest moves only when the cue or a moving ball strikes it. The ball that
        left unseen was set going by another when a ball in motion came within contact of
        the place it lay before it was seen away; it set the first mover going when it
        could have been in contact with it as that one left: behind it on the line along
        which it left (a struck ball leaves along the line of centres, away from the ball
        that struck it), reached from its rest and left again for where it was next seen
        at no more than the fastest a ball goes, and next seen more than a diameter from
        its rest (nearer, it may be the ball partly covered where it lay, measured off).
        One of the two alone decides the cue ball
        (the stroke then starts when that ball was last seen lying still); both or neither
        leave it a guess, said in the doubt (a fast yellow unseen for its first 4 frames
        ran into white, and white, the first seen to move, was taken as the cue ball)."""
        assert self.moving_since is not None and self.first_mover is not None
        out = []
        decided = False
        for ball, a, b in self._unseen_departures():
            rest = self.start_rests[ball]
            assert rest is not None
            moved = self._moved_by_another(ball, rest, b.t)
            struck = self._could_have_struck(rest, a, b) and _away(b, rest, 2.0 * self.radius)
            if struck and not moved and not decided:
                self.first_mover, self.moving_since, self.mover_rest = ball, a.t, rest
                decided = True
                continue
            if moved and not struck:
                continue
            out.append(Said("%(ball)s left its rest unseen between frame %(frame)s (%(t)s s) and frame "
                            "%(next_frame)s (%(next_t)s s): it may have moved before %(first)s, the cue ball "
                            "is a guess (the balls' paths do not tell which was struck first)",
                            ball=ball, frame=str(a.frame), t=seconds(a.t), next_frame=str(b.frame),
                            next_t=seconds(b.t), first=self.first_mover))
        return out

    def _moved_by_another(self, ball: Ball, rest: np.ndarray, until: float) -> bool:
        """Whether a ball in motion came within contact of ``rest``, where ``ball`` lay,
        from the first mover's departure until ``until``."""
        assert self.moving_since is not None
        reach = 2.0 * self.radius + CONTACT_SLACK
        for other in BALLS:
            if other is ball:
                continue
            path = [s for s in self.samples[other] if self.moving_since <= s.t <= until]
            for a, b in itertools.pairwise(path):
                chord = np.array([b.x - a.x, b.y - a.y])
                if float(np.linalg.norm(chord)) > STILL and _off_chord(rest, a, chord) < reach:
                    return True
        return False

    def _could_have_struck(self, rest: np.ndarray, a: Sample, b: Sample) -> bool:
        """Whether a ball last seen lying at ``rest`` (sample ``a``) and next seen at ``b``
        could have struck the first mover as it left its rest."""
        assert self.moving_since is not None and self.first_mover is not None
        if self.mover_rest is None:
            return False
        away = [s for s in self.samples[self.first_mover] if s.t > self.moving_since
                and float(np.linalg.norm(np.array([s.x, s.y]) - self.mover_rest)) > self.radius]
        if not away:
            return False
        left = np.array([away[0].x, away[0].y]) - self.mover_rest
        along = left / float(np.linalg.norm(left))
        contact = self.mover_rest - 2.0 * self.radius * along  # where the striker's centre was
        run = contact - rest
        if float(run @ along) <= 0.0:
            return False  # it would have come from the side the first mover left towards
        reached = float(np.linalg.norm(run)) <= FASTEST * (away[0].t - a.t)
        gone = max(b.t - self.moving_since, 0.0)
        return reached and float(np.linalg.norm(np.array([b.x, b.y]) - contact)) <= FASTEST * gone

    def _hidden_contacts(self, balls: dict[str, list[Sample]]) -> list[Said]:
        """A ball that was not seen in the frames in which it met another ball: its samples
        on either side show one turn, but what it met there (a cushion as well, at a
        corner or a ball lying near one) and in which order cannot be read from them, and
        the auto-referee, which takes a lost frame or two for a tracker's usual loss,
        would judge it as sure."""
        out = []
        for name, kept in balls.items():
            for a, b in itertools.pairwise(kept):
                chord = np.array([b.x - a.x, b.y - a.y])
                if b.frame - a.frame < 2 or float(np.linalg.norm(chord)) < HIDDEN_MOVE:
                    continue
                middle = 0.5 * (a.t + b.t)
                for other, theirs in balls.items():
                    place = _place(theirs, middle) if other != name else None
                    if place is not None and _off_chord(place, a, chord) < 2.0 * self.radius + CONTACT_SLACK:
                        out.append(Said("%(ball)s not seen at frame %(frame)s (%(t)s s) as it met %(other)s: "
                                        "what it met there, and in which order, is a guess", ball=Ball(name),
                                        frame=str(a.frame + 1), t=seconds(middle), other=Ball(other)))
                        break
        return out

    def _reset(self, end: float) -> None:
        self.moving_since, self.first_mover, self.doubts, self.start_rests = None, None, [], {}
        self.mover_rest = None
        for ball in BALLS:
            queue = self.samples[ball]
            if queue and self.rests[ball].away:
                self.rests[ball] = _Rest(np.array([queue[-1].x, queue[-1].y]), 1)
        self._trim(end - BEFORE)

    def close(self, reason: Said | None = None) -> Iterator[dict[str, Any]]:
        """The stroke under way when the video ended, if any (doubtful: it was cut)."""
        if self.moving_since is None:
            return
        self.doubts.append(reason or Said("the video ended at frame %(frame)s (%(t)s s) before the balls "
                                          "came to rest", frame=str(self.frame), t=seconds(self.now)))
        yield self._stroke(self.now)

    def note(self, doubt: Said) -> None:
        """A doubt for the stroke under way, if any (a camera that moved)."""
        if self.moving_since is not None:
            self.doubts.append(doubt)


def _columns(samples: list[Sample], t0: float) -> dict[str, list[float]]:
    return {"t": [round(s.t - t0, 6) for s in samples], "x": [round(s.x, 5) for s in samples],
            "y": [round(s.y, 5) for s in samples], "sd": [round(s.sd, 5) for s in samples]}


def _at(sample: Sample, rest: np.ndarray) -> bool:
    """Whether ``sample`` lies at ``rest`` (within :data:`STILL`, or three times its noise)."""
    return float(np.linalg.norm(np.array([sample.x, sample.y]) - rest)) <= max(STILL, 3.0 * sample.sd)


def _away(sample: Sample, rest: np.ndarray, far: float) -> bool:
    """Whether ``sample`` lies more than ``far`` from ``rest`` (a ball partly covered where
    it lies is measured off by up to about its diameter, never more)."""
    return float(np.linalg.norm(np.array([sample.x, sample.y]) - rest)) > far


def _place(samples: list[Sample], t: float) -> np.ndarray | None:
    """Where a ball was at ``t``, between its samples (``None``: not seen around then)."""
    times = [s.t for s in samples]
    if not times or not times[0] <= t <= times[-1]:
        return None
    return np.array([np.interp(t, times, [s.x for s in samples]),
                     np.interp(t, times, [s.y for s in samples])])


def _off_chord(point: np.ndarray, a: Sample, chord: np.ndarray) -> float:
    """How far ``point`` lies from the straight path from sample ``a`` along ``chord``."""
    start = np.array([a.x, a.y])
    along = float(np.clip((point - start) @ chord / float(chord @ chord), 0.0, 1.0))
    return float(np.linalg.norm(point - (start + along * chord)))
