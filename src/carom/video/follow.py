"""The three balls followed from frame to frame: identities kept, occlusion bridged.

Each ball is identified by its colour (:mod:`carom.video.balls`), and among the blobs of
its colour it takes the one nearest where its motion puts it, the three balls chosen
together: never two on one blob or on blobs closer than a ball's radius (two balls
cannot overlap). A struck yellow's streak over a blue cloth, its blurred edge grey, is
measured as a yellow blob and a white one on the same place; white, turned aside by the
contact, may lie farther from its straight line than that white blob, and taken ball by
ball it followed yellow away for seconds. A ball seen a frame or two ago that is not on
its line may have met the cue, a ball or a cushion since: it is looked for all round its
last place too (a struck yellow measured once 5 cm off, merged with the cue's ferrule,
was lost for its whole stroke, and the stroke missed). The motion model is the
project's own for a ball between events: a straight line at the speed of its last two
samples (friction changes it by centimetres a second per frame at most, far less than a
gate). A ball not seen (a player, the cue, the referee over it) keeps its last motion,
and the gate widens with the time it has been gone, by the fastest a ball moves; when it
is seen again it takes the blob of its colour nearest that prediction. No sample is
invented for the frames it was covered: the auto-referee reads a gap as uncertainty.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.notation.said import Said
from carom.video.balance import Balance
from carom.video.balls import BallFinder, Blob
from carom.video.camera import Array
from carom.video.doubts import seconds
from carom.video.frames import Frame
from carom.video.overlay import Overlay
from carom.video.table import Registration

FASTEST = 12.0
"""The fastest a ball moves, m/s (a hard break; the gate for a ball just struck)."""
GATE = 0.04
"""The gate's least radius, m."""
PIXEL_SD = 0.15
"""A still, whole ball's centre is measured to this many pixels (one standard deviation)."""
STREAK_SD = 0.04
"""Each pixel of streak adds this many pixels of deviation along the track."""
UNSEEN_COST = 2.5
"""What leaving a ball unseen costs when a blob of its colour lies within its gate (more
than any blob's cost there, which is at most 2)."""
CONTACT_WITHIN = 0.1
"""A ball last seen at most this long ago (a frame or two) may have been turned by a
contact since: its blob is looked for all round its last place, not only on its line."""
STILL = 0.003
"""A ball within this of where it lay is still, m."""
STILL_OVER = 0.025
"""A ball lay still when last seen if it lay within :data:`STILL` of its place in its latest
sample at least this much earlier, s: the sample before at 25–30 frames a second, the one
two fields before at 50 or 60 fields a second (a ball rolling at 0.1 m/s moves 3 mm in a
thirtieth of a second, half that from one field to the next)."""
EQUALLY = 0.1
"""Two blobs whose costs differ by at most this (a tenth of the gate) fit a ball equally well."""
MOST_CHOICES = 4
"""Blobs weighed per ball (the nearest ones)."""
FIXTURE_AFTER = 0.5
"""A blob no ball took that has lain still this long, s, is a fixture of the picture."""
FIXTURE_GONE = 0.5
"""A fixture not seen for this long, s, is forgotten (covered, or it was a ball after all)."""


@dataclass(frozen=True, slots=True)
class Sample:
    """A ball's measured centre at a frame's time, with its uncertainty."""

    frame: int
    t: float
    x: float
    y: float
    sd: float
    """Standard deviation of each coordinate, m."""
    streak: float
    """The length of the ball's streak (its path while the shutter was open), m."""


@dataclass(slots=True)
class _Track:
    last: Sample | None = None
    torn: bool = False
    """Whether two blobs fitted the ball equally well in the last frame."""
    recent: deque[Sample] = field(default_factory=deque)
    """The last sample and those after the latest one :data:`STILL_OVER` before it (that one first)."""

    def take(self, sample: Sample) -> None:
        """The ball seen: ``sample`` is its last sample."""
        self.last = sample
        self.recent.append(sample)
        while len(self.recent) > 1 and self.recent[1].t <= sample.t - STILL_OVER:
            self.recent.popleft()

    @property
    def before(self) -> Sample | None:
        """The sample before the last (:attr:`recent` always keeps it)."""
        return self.recent[-2] if len(self.recent) > 1 else None

    def resting(self) -> bool:
        """Whether the ball lay still when last seen (where it lay :data:`STILL_OVER`
        before): then nothing but a strike or a ball running into it moves it, and how fast
        that sends it says nothing of its rest."""
        if self.last is None or not self.recent or self.recent[0].t > self.last.t - STILL_OVER:
            return False
        earlier = self.recent[0]
        return math.hypot(self.last.x - earlier.x, self.last.y - earlier.y) <= STILL

    def predict(self, t: float) -> tuple[Array | None, float]:
        """Where the ball should be at ``t`` and how far it may be from that."""
        if self.last is None:
            return None, math.inf
        p = np.array([self.last.x, self.last.y])
        gone = t - self.last.t
        if self.before is not None and self.last.t - self.before.t < 0.2:
            v = (p - np.array([self.before.x, self.before.y])) / (self.last.t - self.before.t)
            return p + v * gone, GATE + 0.5 * float(np.linalg.norm(v)) * gone + FASTEST * 0.25 * gone
        return p, GATE + FASTEST * gone


@dataclass(slots=True)
class _Fixture:
    """A still blob no ball took: where, and from when to when it was seen."""

    place: Array
    first: float
    last: float


@dataclass(slots=True)
class Follower:
    registration: Registration
    finder: BallFinder
    tracks: dict[Ball, _Track] = field(default_factory=lambda: {b: _Track() for b in BALLS})
    fixtures: list[_Fixture] = field(default_factory=list)
    """The still blobs no ball took (:meth:`_fixed`)."""
    doubts: list[Said] = field(default_factory=list)
    """What the frames followed so far left in doubt (taken by the caller)."""

    @classmethod
    def of(cls, registration: Registration, width: int, height: int,
           overlay: Overlay | None = None, balance: Balance | None = None) -> Follower:
        """A follower of the balls in frames of ``width`` × ``height`` pixels, ``overlay``
        (a half-transparent panel over the table) and ``balance`` (the camera's colour
        cast) undone in each."""
        return cls(registration, BallFinder.of(registration, width, height, overlay, balance))

    def step(self, frame: Frame) -> dict[Ball, Sample]:
        """Each ball seen in ``frame`` and where."""
        blobs = self.finder.find(frame)
        r = self.registration.table.ball_radius
        places = [self.registration.to_table(blob.centre[None, :], r)[0] if blob.place is None else blob.place
                  for blob in blobs]
        choices = {ball: self._choices(ball, frame.time, blobs, places) for ball in BALLS}
        out: dict[Ball, Sample] = {}
        taken = _likeliest(choices, places, r)
        self._weigh_doubt(frame, choices, taken, places, 2.0 * r)
        self._note_fixtures(frame.time, [p for k, p in enumerate(places) if k not in taken.values()])
        for ball, k in taken.items():
            sample = self._sample(frame, blobs[k], places[k])
            self.tracks[ball].take(sample)
            out[ball] = sample
        return out

    def _weigh_doubt(self, frame: Frame, choices: dict[Ball, list[tuple[float, int]]], taken: dict[Ball, int],
                     places: list[Array], apart: float) -> None:
        """A doubt when a ball took one of two blobs of its colour, a ball's diameter or
        more apart, that fit it equally well (their costs within :data:`EQUALLY`) and the
        other is no other ball's: which of them it is, is a guess. Said once while it lasts."""
        used = set(taken.values())
        for ball, k in taken.items():
            cost = next(c for c, j in choices[ball] if j == k)
            rival = next((j for c, j in choices[ball] if j not in used and abs(c - cost) <= EQUALLY
                          and float(np.linalg.norm(places[j] - places[k])) >= apart), None)
            track = self.tracks[ball]
            if rival is not None and not track.torn:
                far = float(np.linalg.norm(places[rival] - places[k])) * 1000.0
                self.doubts.append(Said("%(ball)s at frame %(frame)s (%(t)s s): two blobs of its colour "
                                        "%(mm)s mm apart fit it equally well; which it is, is a guess",
                                        ball=ball, frame=str(frame.index), t=seconds(frame.time),
                                        mm=format(far, ".0f")))
            track.torn = rival is not None

    def _choices(self, ball: Ball, t: float, blobs: list[Blob],
                 places: list[Array]) -> list[tuple[float, int]]:
        """The blobs ``ball`` may be, each with its cost: its distance from where the
        ball's motion puts it over the gate (0 on it, 1 at the gate's edge); a ball with
        no past yet costs by how unlike a whole ball of its colour the blob is. A ball
        seen a moment ago may also have met the cue, a ball or a cushion since, and then
        lie in any direction from its last place, as far as the fastest ball goes: such a
        blob, off its straight line, costs 1 more (taken only when none lies on it). So
        may a ball last seen lying still, however long ago, once its place shows bare
        cloth: a strike sends it off at any speed up to the fastest (a fast yellow, its
        streak too washed out to be measured for 0.4 s, outran the gate of a still ball
        and was lost: the stroke was taken as white's, which it ran into). A still ball
        whose place is not bare is covered, or merged with a ball touching it, and stays
        (white lying against red, unseen, took a white blob in a far corner of the table).
        A blob whose colour is its ball's mixed with the cloth's (a streak's) is a ball in
        motion: only a ball seen moving, or a still one whose place shows bare cloth, may be
        it, never a ball not yet seen (skin lies on the line from red to a green cloth)."""
        track = self.tracks[ball]
        where, gate = track.predict(t)
        struck: bool | None = None  # asked only for a blob off the ball's line (it reads the frame)
        fixed = self._fixed(track, t)
        out = []
        for k, blob in enumerate(blobs):
            if blob.ball is not ball or any(float(np.linalg.norm(places[k] - f)) <= STILL for f in fixed):
                continue
            if blob.mixed:
                if track.last is None:
                    continue
                if track.resting():
                    if struck is None:
                        struck = self._left(track)
                    if not struck:
                        continue
            if where is None or track.last is None:
                out.append((abs(1.0 - blob.share) + blob.colour, k))
                continue
            distance = float(np.linalg.norm(places[k] - where))
            if distance <= gate:
                out.append((distance / gate, k))
                continue
            gone = t - track.last.t
            turned = GATE + FASTEST * gone
            moved = float(np.linalg.norm(places[k] - (track.last.x, track.last.y)))
            if moved > turned:
                continue
            if gone > CONTACT_WITHIN:
                if not track.resting():
                    continue
                if struck is None:
                    struck = self._left(track)
                if not struck:
                    continue
            out.append((1.0 + moved / turned, k))
        return sorted(out)[:MOST_CHOICES]

    def _note_fixtures(self, t: float, untaken: list[Array]) -> None:
        """Each blob no ball took, kept where it lies: a fixture seen again (within
        :data:`STILL`) is seen until now; one not seen for :data:`FIXTURE_GONE` is forgotten."""
        for place in untaken:
            known = next((f for f in self.fixtures if float(np.linalg.norm(place - f.place)) <= STILL), None)
            if known is None:
                self.fixtures.append(_Fixture(place, t, t))
            else:
                known.last = t
        self.fixtures = [f for f in self.fixtures if t - f.last <= FIXTURE_GONE]

    def _fixed(self, track: _Track, t: float) -> list[Array]:
        """The places a ball cannot be: fixtures of the picture that lay still, taken by no
        ball, from before the ball was last seen somewhere else (a ball cannot be at two
        places at once). The broadcaster's score graphics drew white and yellow icons over
        the table: a struck white, its streak too washed out to be found, took the white
        icon 20 cm away and stayed on it for the rest of the clip (1,000,086)."""
        last = track.last
        if last is None:
            return []
        apart = 2.0 * self.registration.table.ball_radius
        return [f.place for f in self.fixtures
                if f.first <= last.t and t - f.first >= FIXTURE_AFTER
                and math.hypot(f.place[0] - last.x, f.place[1] - last.y) > apart]

    def _left(self, track: _Track) -> bool:
        """Whether the ball's last place shows bare cloth now: it left it."""
        assert track.last is not None
        r = self.registration.table.ball_radius
        pixel = self.registration.to_pixels(np.array([[track.last.x, track.last.y]]), r)[0]
        return self.finder.bare(pixel)

    def _sample(self, frame: Frame, blob: Blob, xy: Array) -> Sample:
        metres_per_pixel = self.registration.table.ball_radius / blob.radius
        sd_px = PIXEL_SD + STREAK_SD * blob.streak
        if blob.share < 0.8:
            sd_px *= 1.0 + 4.0 * (0.8 - blob.share)  # partly covered: its centre is off
        sd_px *= blob.noise  # under a half-transparent panel undone: the picture's noise grew by 1 / alpha
        return Sample(frame.index, frame.time, float(xy[0]), float(xy[1]), sd_px * metres_per_pixel,
                      blob.streak * metres_per_pixel)

    def forget(self) -> None:
        """After the camera moved: start again from what is seen."""
        self.tracks = {b: _Track() for b in BALLS}
        self.fixtures = []


def _likeliest(choices: dict[Ball, list[tuple[float, int]]], places: list[Array],
               radius: float) -> dict[Ball, int]:
    """The blob each ball takes, chosen for the three balls together: the least total cost,
    a ball left unseen costing :data:`UNSEEN_COST`, and never two balls on one blob or on
    two blobs closer than a ball's radius (two balls cannot overlap: such blobs are one
    ball, a coloured ball's washed-out streak or highlight measured as white beside it)."""
    best: tuple[float, dict[Ball, int]] = (math.inf, {})
    balls = list(choices)
    for picks in itertools.product(*[[None, *choices[b]] for b in balls]):
        taken = [(b, p[1]) for b, p in zip(balls, picks, strict=True) if p is not None]
        cost = sum(p[0] if p is not None else (UNSEEN_COST if choices[b] else 0.0)
                   for b, p in zip(balls, picks, strict=True))
        if cost >= best[0] or not _apart([places[k] for _, k in taken], radius):
            continue
        best = (cost, dict(taken))
    return best[1]


def _apart(points: list[Array], radius: float) -> bool:
    return all(float(np.linalg.norm(a - b)) >= radius for a, b in itertools.combinations(points, 2))
