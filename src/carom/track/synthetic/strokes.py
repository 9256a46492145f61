"""Labelled strokes for testing the auto-referee: played by the simulator, seen by a camera.

Each stroke is played by :func:`carom.physics.simulate` from a random position with a
random strike, judged by the referee on the events as they happened (the label), and
sent through a simulated camera tracker (:mod:`carom.track.synthetic.camera`, or the harsh
cameras of :mod:`carom.track.synthetic.harsh`), on a table whose physics the camera's
family may vary (:attr:`~carom.track.synthetic.camera.Family.physics`). Random
strokes alone seldom test what decides a ruling, so most strokes are built around one
hard contact: ball 1's path is played first without the ball it is to meet, and that
ball is then placed beside the path, at a chosen distance from it, before the stroke
is played again with every ball:

``open``
    a random strike at ball 2 (full to thin), nothing placed;
``thin``
    ball 3 grazed: the paths overlap by 1 µm to 3 mm (the object ball moves from a
    fraction of a millimetre to several centimetres);
``miss``
    ball 3 missed by 1–20 mm;
``slow``
    ball 3 placed where ball 1 rolls slower than 0.3 m/s, anywhere from a full hit to a
    10 mm miss (a slow final contact);
``first``
    ball 2 grazed or missed by ball 1's first motion;
``frozen``
    two balls touching before the stroke (ball 1 and ball 2, or the two object balls);
``kiss``
    ball 3 placed on ball 2's path: the object balls meet.

Every stroke is fixed by its seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from carom.core.balls import Ball, object_balls
from carom.core.errors import CaromError, UnknownName
from carom.core.records import Stroke
from carom.core.table import TableSpec
from carom.physics import DEFAULT_PARAMS, Params, Strike, simulate
from carom.rules.disciplines import Discipline
from carom.rules.referee import StrokeContext, Verdict, judge
from carom.track.samples import FloatArray, TrackedStroke
from carom.track.synthetic.camera import REAL, Camera, Family
from carom.track.synthetic.harsh import HarshCamera, HarshRanges

Cameras = Family | HarshRanges
"""What a stroke's camera is drawn from: a family, or the harsh ranges of the first rounds."""

KINDS: dict[str, float] = {"open": 0.25, "thin": 0.2, "miss": 0.2, "slow": 0.1, "first": 0.12,
                           "frozen": 0.03, "kiss": 0.1}
"""Each kind of stroke and its share."""

SAMPLE = 0.005
"""The simulator's paths are sampled this often (and at every event), s."""


@dataclass(frozen=True, slots=True)
class LabelledStroke:
    """A simulated stroke as a camera saw it, and what really happened."""

    tracked: TrackedStroke
    truth: Stroke
    """The simulator's record: the events as they happened, with their times."""
    verdict: Verdict
    """The referee's ruling on :attr:`truth`."""
    kind: str
    camera: Camera | HarshCamera
    params: Params
    """The simulator's parameters the stroke was played with."""


Paths = dict[Ball, tuple[FloatArray, FloatArray]]


class _Rejected(Exception):
    """The drawn stroke cannot be built (a placed ball off the table or on another)."""


def labelled_stroke(seed: int, discipline: Discipline, table: TableSpec, kind: str | None = None,
                    ranges: Cameras = REAL, camera: Camera | HarshCamera | None = None,
                    params: Params | None = None) -> LabelledStroke:
    """The stroke of ``seed`` (of ``kind``, else drawn by :data:`KINDS`), seen by a camera
    drawn from ``ranges`` or, given, by ``camera`` (the strike and the position are the same
    either way), played with the simulator's ``params`` (by default drawn from the family's
    :attr:`~carom.track.synthetic.camera.Family.physics` by a generator of their own,
    seeded ``(seed, PHYSICS_STREAM)``)."""
    rng = np.random.default_rng(seed)
    if params is None:
        params = draw_params(np.random.default_rng((seed, PHYSICS_STREAM)), ranges)
    if kind is None:
        names = list(KINDS)
        kind = names[int(rng.choice(len(names), p=np.array(list(KINDS.values())) / sum(KINDS.values())))]
    for _ in range(200):
        try:
            position, strike, grazed = _build(kind, rng, table, params)
            truth = simulate(position, strike, table, params, sample=SAMPLE)
        except (_Rejected, ValueError):
            continue
        paths = _arrays(truth)
        if grazed is not None and not _thin_enough(paths[grazed]):
            continue
        stopped = max(float(t[-1]) for t, _ in paths.values())
        drawn = draw_camera(rng, ranges)  # drawn either way: the seed's stroke stays the same
        seen_by = camera or drawn
        cue = strike.ball
        verdict = judge(StrokeContext.of(discipline, table, cue_ball=cue, position=truth.start), truth)
        tracks = seen_by.view(paths, stopped, table.ball_radius, rng)
        tracked = TrackedStroke(seed, cue, tracks, verdict.points > 0, 0, {"kind": kind})
        return LabelledStroke(tracked, truth, verdict, kind, seen_by, params)
    raise CaromError(f"no {kind} stroke could be built from seed {seed}")


def draw_camera(rng: np.random.Generator, ranges: Cameras) -> Camera | HarshCamera:
    """A camera drawn from ``ranges``."""
    if isinstance(ranges, HarshRanges):
        return HarshCamera.draw(rng, ranges)
    return Camera.draw(rng, ranges)


def draw_params(rng: np.random.Generator, ranges: Cameras) -> Params:
    """The simulator's parameters of a table drawn from the family's ranges (the defaults
    for a family that keeps them)."""
    if isinstance(ranges, HarshRanges) or not ranges.physics:
        return DEFAULT_PARAMS
    drawn = {name: float(rng.uniform(low, high)) for name, low, high in ranges.physics}
    return DEFAULT_PARAMS.replace(**drawn)


def labelled_strokes(count: int, first_seed: int, discipline: Discipline, table: TableSpec,
                     ranges: Cameras = REAL) -> Iterator[LabelledStroke]:
    """``count`` strokes, seeds ``first_seed``, ``first_seed + 1``, …"""
    for seed in range(first_seed, first_seed + count):
        yield labelled_stroke(seed, discipline, table, None, ranges)


def labelled_recording(count: int, first_seed: int, discipline: Discipline, table: TableSpec,
                       ranges: Cameras = REAL) -> list[LabelledStroke]:
    """``count`` strokes (seeds ``first_seed`` on, as :func:`labelled_strokes`) seen by one
    camera on one table, as a recording is: the camera and the table's physics drawn from
    ``ranges`` by a generator of their own, seeded ``(first_seed, RECORDING_STREAM)``."""
    rng = np.random.default_rng((first_seed, RECORDING_STREAM))
    camera = draw_camera(rng, ranges)
    params = draw_params(rng, ranges)
    return [labelled_stroke(seed, discipline, table, None, ranges, camera, params)
            for seed in range(first_seed, first_seed + count)]


RECORDING_STREAM = 1
"""Seeds a recording's camera apart from the strokes' own generators."""

PHYSICS_STREAM = 2
"""Seeds a stroke's table physics apart from its own generator."""


def labelled_recordings(count: int, first_seed: int, size: int, discipline: Discipline, table: TableSpec,
                        ranges: Cameras = REAL) -> Iterator[list[LabelledStroke]]:
    """``count`` strokes (seeds ``first_seed`` on) in recordings of ``size`` consecutive
    seeds (:func:`labelled_recording`; the last may be shorter)."""
    last = first_seed + count
    for first in range(first_seed, last, size):
        yield labelled_recording(min(size, last - first), first, discipline, table, ranges)


def _thin_enough(path: tuple[FloatArray, FloatArray]) -> bool:
    """Whether a ball placed for a thin contact travelled a distance within
    :data:`THIN_TRAVEL` (a thinner contact moves it less than a tracker shows; a fuller
    one is no thin cut)."""
    _, xy = path
    travel = float(np.hypot(*np.diff(xy, axis=0).T).sum())
    return THIN_TRAVEL[0] <= travel <= THIN_TRAVEL[1]


def _arrays(stroke: Stroke) -> Paths:
    assert stroke.paths is not None
    out: Paths = {}
    for ball, rows in stroke.paths.items():
        a = np.array(rows, dtype=float)
        out[ball] = (a[:, 0], a[:, 1:])
    return out


def _random_position(rng: np.random.Generator, table: TableSpec) -> dict[Ball, tuple[float, float]]:
    """Three balls anywhere on the surface, apart; now and then one against a cushion."""
    r = table.ball_radius
    out: dict[Ball, tuple[float, float]] = {}
    for ball in (Ball.WHITE, Ball.YELLOW, Ball.RED):
        for _ in range(100):
            x = float(rng.uniform(r, table.width - r))
            y = float(rng.uniform(r, table.length - r))
            if rng.random() < 0.08:  # frozen to a cushion
                if rng.random() < 0.5:
                    x = r if rng.random() < 0.5 else table.width - r
                else:
                    y = r if rng.random() < 0.5 else table.length - r
            if all(math.hypot(x - p[0], y - p[1]) >= 2.0 * r + 0.001 for p in out.values()):
                out[ball] = (x, y)
                break
        else:
            raise _Rejected
    return out


def _strike_at(rng: np.random.Generator, cue: Ball, position: dict[Ball, tuple[float, float]], target: Ball,
               table: TableSpec, speed: tuple[float, float] = (1.0, 5.0)) -> Strike:
    """A strike of ``cue`` aimed at ``target`` with a random cut, speed and spin."""
    (x0, y0), (x1, y1) = position[cue], position[target]
    d = math.hypot(x1 - x0, y1 - y0)
    cut = float(rng.uniform(-0.95, 0.95))
    angle = math.atan2(y1 - y0, x1 - x0) + math.asin(max(-1.0, min(1.0, cut * 2.0 * table.ball_radius / d)))
    side, height = float(rng.uniform(-0.4, 0.4)), float(rng.uniform(-0.35, 0.4))
    scale = min(1.0, 0.49 / max(math.hypot(side, height), 1e-9))
    return Strike(cue, float(rng.uniform(*speed)), math.degrees(angle), side * scale, height * scale)


def _place_beside(path: tuple[FloatArray, FloatArray], rng: np.random.Generator,
                  offset: Callable[[float], float], speeds: tuple[float, float],
                  after: float = 0.0) -> tuple[float, float]:
    """A point ``offset(speed)`` from a ball's centre across its motion, at a random
    moment at which it moves at a ``speed`` within ``speeds`` (after ``after``)."""
    t, xy = path
    v = np.gradient(xy, t, axis=0)
    speed = np.hypot(v[:, 0], v[:, 1])
    ok = np.nonzero((speed >= speeds[0]) & (speed <= speeds[1]) & (t > after))[0]
    if not ok.size:
        raise _Rejected
    k = int(rng.choice(ok))
    ux, uy = v[k] / speed[k]
    side = 1.0 if rng.random() < 0.5 else -1.0
    across = offset(float(speed[k]))
    return float(xy[k, 0] - side * uy * across), float(xy[k, 1] + side * ux * across)


def _check(position: dict[Ball, tuple[float, float]], ball: Ball, table: TableSpec,
           apart: float = 0.0005) -> None:
    """Refuse a placed ball off the surface or nearer than ``apart`` to another."""
    r = table.ball_radius
    x, y = position[ball]
    if not (r <= x <= table.width - r and r <= y <= table.length - r):
        raise _Rejected
    for other, (ox, oy) in position.items():
        if other is not ball and math.hypot(x - ox, y - oy) < 2.0 * r + apart:
            raise _Rejected


def _without(position: dict[Ball, tuple[float, float]], ball: Ball) -> dict[Ball, tuple[float, float]]:
    return {b: p for b, p in position.items() if b is not ball}


Built = tuple[dict[Ball, tuple[float, float]], Strike, Ball | None]
"""A position, a strike, and the ball placed for a thin contact (if any)."""


def _build(kind: str, rng: np.random.Generator, table: TableSpec, params: Params) -> Built:
    """A position and a strike of ``kind`` (see the module)."""
    r = table.ball_radius
    position = _random_position(rng, table)
    cue = Ball.WHITE if rng.random() < 0.5 else Ball.YELLOW
    two, three = object_balls(cue)
    if rng.random() < 0.5:
        two, three = three, two
    if kind == "frozen":
        a, b = (cue, two) if rng.random() < 0.6 else (two, three)
        angle = float(rng.uniform(0.0, 2.0 * math.pi))
        gap = 2.0 * r + float(rng.uniform(0.0, 0.0003))
        position[b] = (position[a][0] + gap * math.cos(angle), position[a][1] + gap * math.sin(angle))
        _check(position, b, table, apart=-1e-9)
        target = two if rng.random() < 0.7 else three
        return position, _strike_at(rng, cue, position, target, table), None
    strike = _strike_at(rng, cue, position, two, table)
    if kind == "open":
        return position, strike, None
    if kind == "first":
        alone = simulate(_without(position, two), strike, table, params, sample=0.01)
        thin = rng.random() < 0.5
        position[two] = _place_beside(_arrays(alone)[cue], rng, _thin(rng, r) if thin else _miss(rng, r),
                                      (0.3, 20.0))
        _check(position, two, table)
        return position, strike, two if thin else None
    if kind == "kiss":
        played = simulate(_without(position, three), strike, table, params, sample=0.01)
        paths = _arrays(played)
        hit = next((e.t for e in played.events if getattr(e, "other", None) is two), None)
        if hit is None:
            raise _Rejected
        position[three] = _place_beside(paths[two], rng, _anywhere(rng, 2.0 * r), (0.1, 20.0),
                                        after=float(hit) + 0.05)
        _check(position, three, table)
        return position, strike, None
    played = simulate(_without(position, three), strike, table, params, sample=0.01)
    path = _arrays(played)[cue]
    if kind == "thin":
        position[three] = _place_beside(path, rng, _thin(rng, r), (0.3, 20.0))
    elif kind == "miss":
        position[three] = _place_beside(path, rng, _miss(rng, r), (0.3, 20.0))
    elif kind == "slow":
        position[three] = _place_beside(path, rng, _anywhere(rng, 2.0 * r + 0.01), (0.02, 0.3))
    else:
        raise UnknownName("kind of stroke", kind, KINDS)
    _check(position, three, table)
    return position, strike, three if kind == "thin" else None


THIN_TRAVEL = (0.005, 0.05)
"""How far, m, a thinly hit object ball rolls in the ``thin`` strokes (as the issue
defines a thin cut); thinner contacts move it less than a tracker shows."""

STUN_ROLL = 5.8
"""A resting ball given speed ``v`` by a thin hit rolls about ``STUN_ROLL v²`` metres."""


def _thin(rng: np.random.Generator, r: float) -> Callable[[float], float]:
    """A centre offset just inside ``2R`` that sends the object ball a distance drawn
    (evenly in its logarithm) from :data:`THIN_TRAVEL`, for a ball passing at ``speed``:
    it leaves at about ``speed √(δ/R)`` for an overlap ``δ`` and rolls
    ``STUN_ROLL`` times the square of that."""
    travel = float(np.exp(rng.uniform(*np.log(THIN_TRAVEL))))

    def offset(speed: float) -> float:
        overlap = r * travel / (STUN_ROLL * speed * speed)
        return 2.0 * r - min(overlap, 0.003)

    return offset


def _miss(rng: np.random.Generator, r: float) -> Callable[[float], float]:
    """A centre offset that misses by 1–20 mm."""
    gap = float(rng.uniform(0.001, 0.02))
    return lambda speed: 2.0 * r + gap


def _anywhere(rng: np.random.Generator, widest: float) -> Callable[[float], float]:
    """A centre offset anywhere from 0 (full) to ``widest``."""
    across = float(rng.uniform(0.0, widest))
    return lambda speed: across
