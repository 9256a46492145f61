"""A tracked stroke made ready for the fit: where the balls lay, the samples the
simulator is compared with, when the cue ball ran free, and what makes a stroke
impossible to read back (docs/fit.md, "What the fit compares").

The tracked file gives each ball's centre at irregular times (``carom.track``'s public
reader); a ball that never moved has a sample at the start and one at the end. The
simulator starts from the balls' first samples (the position at rest) and its clock
starts at the strike, which happened somewhere between the cue ball's last sample at
rest and its first sample in motion: the fit reads that moment too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.core.position import Position
from carom.core.table import TableSpec
from carom.notation.said import Said
from carom.track import TrackedStroke

STILL = 0.006
"""Metres: a sample this close to the ball's first one may still be at rest (the tracker's
noise is about 1 mm a coordinate, so two samples of a ball at rest lie up to 4–5 mm
apart); the first sample farther is the ball's departure."""
DEPARTED = 0.01
"""Metres: an object ball this far from where it lay has been struck."""
NEAR = 0.01
"""Metres: the cue ball this close to a cushion line, or to touching a ball, may have met it."""
SPACING = 0.03
"""Seconds: the samples compared during the fit are at least this far apart (the tracker
samples every 20–40 ms; every sample counts in the figures)."""
LOST_GAP = 0.5
"""Metres: a ball that moved this far between two samples was lost by the tracker."""
LOST_SPEED = 0.2
"""m/s: a ball whose track ends this fast before the stroke's end was lost by the tracker."""
LOST_END = 0.5
"""Seconds before the stroke's end that a track may stop (a ball at rest is not sampled)."""
TOUCH_GAP = 0.005
TOUCH_REACH = 0.05
"""Metres: a ball that left where it lay was struck by the ball nearest it then, if that
one was within these of touching it (the gap, and how far a ball runs between samples)."""


@dataclass(frozen=True)
class BallSamples:
    """One ball's tracked centres: every sample, and the thinned ones the fit compares."""

    t: np.ndarray
    xy: np.ndarray
    """len(t) × 2."""
    thinned: np.ndarray
    """Indices of the samples the fit compares (at least :data:`SPACING` apart)."""

    @property
    def moved(self) -> bool:
        """Whether the tracker saw the ball leave where it lay."""
        return bool(np.any(np.hypot(*(self.xy - self.xy[0]).T) > DEPARTED))


@dataclass(frozen=True)
class Observed:
    """What the fit knows of one tracked stroke."""

    shot: object
    cue: Ball
    position: Position
    """Where the balls lay before the strike (their first samples, on the cloth and apart)."""
    balls: tuple[Ball, ...]
    """The balls on the table, in the simulator's order (white, yellow, red)."""
    samples: dict[Ball, BallSamples]
    departure: int
    """Index of the cue ball's first sample in motion."""
    free_until: float
    """Seconds: until then the cue ball ran free (before any sign of a contact)."""
    reasons: tuple[Said, ...]
    """Why the stroke cannot be read back (a ball the tracker lost); empty when it can."""
    contacts: tuple[tuple[Ball, Ball, float], ...] = ()
    """Where two balls' tracks met: the pair and the moment (:func:`tracked_contacts`)."""

    @property
    def problems(self) -> tuple[str, ...]:
        """:attr:`reasons` in English."""
        return tuple(map(str, self.reasons))

    @property
    def duration(self) -> float:
        return max(float(s.t[-1]) for s in self.samples.values())

    def times(self) -> np.ndarray:
        """Every thinned sample time of every ball, ascending and distinct."""
        return np.unique(np.concatenate([s.t[s.thinned] for s in self.samples.values()]))


def observe(tracked: TrackedStroke, table: TableSpec) -> Observed:
    """The stroke as the fit reads it. Never raises on a stroke the tracker saw badly:
    what makes it unreadable goes into :attr:`Observed.problems`."""
    problems = [Said("%(ball)s is not tracked (it left the table or the tracker lost it)", ball=ball)
                for ball in BALLS if ball not in tracked.balls]
    samples = {ball: _samples(tracked, ball) for ball in BALLS if ball in tracked.balls}
    end = tracked.duration
    for ball, s in samples.items():
        problems.extend(Said("%(ball)s: %(why)s", ball=ball, why=why) for why in lost(s, end))
    cue = samples.get(tracked.cue)
    if cue is None:
        problems.append(Said("the cue ball %(ball)s has no samples", ball=tracked.cue))
        departure = 0
    else:
        departure = _departure(cue)
        if departure == 0:
            problems.append(Said("the cue ball %(ball)s never left where it lay", ball=tracked.cue))
    position = _at_rest(samples, table)
    balls = tuple(b for b in BALLS if b in samples)
    free = _free_until(tracked.cue, samples, position, table) if cue is not None else 0.0
    return Observed(tracked.shot, tracked.cue, position, balls, samples, departure, free, tuple(problems),
                    tracked_contacts(samples, table.ball_radius))


def _samples(tracked: TrackedStroke, ball: Ball) -> BallSamples:
    track = tracked.balls[ball]
    t = np.asarray(track.t, dtype=float)
    keep = [0]
    for i in range(1, len(t)):
        if t[i] - t[keep[-1]] >= SPACING or i == len(t) - 1:
            keep.append(i)
    return BallSamples(t, np.asarray(track.xy, dtype=float), np.array(keep))


def lost(s: BallSamples, end: float) -> list[Said]:
    """Why the tracker lost this ball, if it did: a jump between two samples too far for a
    gap in the track, or a track that stops while the ball still runs."""
    out = []
    steps = np.hypot(*np.diff(s.xy, axis=0).T)
    for i in np.flatnonzero(steps > LOST_GAP):
        out.append(Said("lost between %(t0)s s and %(t1)s s (%(apart)s m apart)", t0=format(s.t[i], ".2f"),
                        t1=format(s.t[i + 1], ".2f"), apart=format(steps[i], ".2f")))
    if len(s.t) >= 3 and s.t[-1] < end - LOST_END:
        gap = float(s.t[-1] - s.t[-2])
        speed = float(np.hypot(*(s.xy[-1] - s.xy[-2]))) / gap if gap > 0 else 0.0
        if speed > LOST_SPEED:
            out.append(Said("the track stops at %(t)s s with the ball running at %(speed)s m/s",
                            t=format(s.t[-1], ".2f"), speed=format(speed, ".2f")))
    return out


def _departure(s: BallSamples) -> int:
    """Index of the first sample away from where the ball lay (0: it never left)."""
    away = np.flatnonzero(np.hypot(*(s.xy - s.xy[0]).T) > STILL)
    return int(away[0]) if len(away) else 0


def _at_rest(samples: dict[Ball, BallSamples], table: TableSpec) -> Position:
    """The first samples, made a position the simulator takes (:func:`on_cloth_and_apart`)."""
    return on_cloth_and_apart({b: (float(s.xy[0, 0]), float(s.xy[0, 1])) for b, s in samples.items()}, table)


def on_cloth_and_apart(where: dict[Ball, tuple[float, float]], table: TableSpec) -> Position:
    """Centres moved onto the cloth where one lies a hair beyond a cushion line, and
    apart where two lie a hair into each other (the tracker's noise, or the fit's small
    moves of where the balls lay)."""
    r = table.ball_radius
    at = {b: [min(max(p[0], r), table.width - r), min(max(p[1], r), table.length - r)]
          for b, p in where.items()}
    balls = list(at)
    for i, a in enumerate(balls):
        for b in balls[i + 1:]:
            dx, dy = at[b][0] - at[a][0], at[b][1] - at[a][1]
            gap = math.hypot(dx, dy)
            if gap < 2.0 * r + 1e-6:
                push = (2.0 * r + 1e-6 - gap) / 2.0
                ux, uy = (dx / gap, dy / gap) if gap > 0 else (1.0, 0.0)
                at[a] = [at[a][0] - push * ux, at[a][1] - push * uy]
                at[b] = [at[b][0] + push * ux, at[b][1] + push * uy]
    return Position({b: (p[0], p[1]) for b, p in at.items()})


def _free_until(cue: Ball, samples: dict[Ball, BallSamples], position: Position, table: TableSpec) -> float:
    """The first time anything but the cue ball's free run may have happened: another
    ball left where it lay, or the cue ball came within :data:`NEAR` of a cushion line
    or of touching a ball (less a sample's spacing, for a contact between samples)."""
    r = table.ball_radius
    s = samples[cue]
    t, x, y = s.t, s.xy[:, 0], s.xy[:, 1]
    signs = [np.minimum.reduce([x - r, table.width - r - x, y - r, table.length - r - y]) < NEAR]
    for ball, other in samples.items():
        if ball is cue:
            continue
        px, py = position[ball]
        signs.append(np.hypot(x - px, y - py) < 2.0 * r + NEAR)
        gone = np.flatnonzero(np.hypot(*(other.xy - other.xy[0]).T) > DEPARTED)
        signs.append(np.interp(t, other.t, np.arange(len(other.t))) >= gone[0] if len(gone) else t < 0)
    after = np.flatnonzero(np.logical_or.reduce(signs) & (np.arange(len(t)) > 0))
    return float(t[after[0]]) - SPACING if len(after) else float(t[-1])


def tracked_contacts(samples: dict[Ball, BallSamples], radius: float) -> tuple[tuple[Ball, Ball, float], ...]:
    """The moments a ball at rest was struck: it left where it lay (:func:`departed`), and
    the ball that struck it is the one nearest it then, within :data:`TOUCH_GAP` plus the
    distance a ball runs between two samples of touching it."""
    out = []
    tracks = {b: departed(s) for b, s in samples.items()}
    for ball, s in samples.items():
        d = _departure(s)
        t, _ = tracks[ball]
        if d == 0 or len(t) == len(s.t):
            continue
        left = float(t[d])
        best: tuple[float, Ball] | None = None
        for other, (to, xo) in tracks.items():
            if other is ball or not to[0] <= left <= to[-1]:
                continue
            at = np.array([np.interp(left, to, xo[:, 0]), np.interp(left, to, xo[:, 1])])
            gap = float(np.hypot(*(at - s.xy[0]))) - 2.0 * radius
            if best is None or gap < best[0]:
                best = (gap, other)
        if best is not None and best[0] < TOUCH_GAP + TOUCH_REACH:
            out.append((best[1], ball, left))
    return tuple(sorted(out, key=lambda c: c[2]))


def departed(s: BallSamples) -> tuple[np.ndarray, np.ndarray]:
    """The track with the moment the ball left where it lay put in: its first sample away
    taken back along its way at the speed it then had (a ball at rest has a sample at
    the start and the next where it already runs: drawn straight, it would creep)."""
    d = _departure(s)
    if d == 0 or d + 1 >= len(s.t):
        return s.t, s.xy
    speed = float(np.hypot(*(s.xy[d + 1] - s.xy[d]))) / float(s.t[d + 1] - s.t[d])
    away = float(np.hypot(*(s.xy[d] - s.xy[0])))
    left = float(s.t[d]) - away / speed if speed > 0 else float(s.t[d - 1])
    if not s.t[d - 1] < left < s.t[d]:
        return s.t, s.xy
    return np.insert(s.t, d, left), np.insert(s.xy, d, s.xy[0], axis=0)
