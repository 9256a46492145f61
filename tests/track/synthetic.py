"""Synthetic tracked strokes for the detector's tests: a small kinematic table and a
tracker that samples it the way real ones do.

The table is deliberately simple and independent of the detector: balls roll in
straight lines with constant deceleration; a cushion reverses the normal velocity and
keeps a fraction of it; two balls that meet exchange the normal components of their
velocities (equal masses, elastic, no spin). The tracker samples a moving ball every
20–40 ms with jitter, adds Gaussian noise, drops samples on request, and keeps only the
first and last positions of a ball at rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from carom.core.balls import Ball
from carom.core.table import TABLES, TableSpec
from carom.track.samples import BallTrack, TrackedStroke

LARGE = TABLES["large"]
R = LARGE.ball_radius
ROLL = 0.045
"""Rolling deceleration, m/s²."""


@dataclass
class Truth:
    """What really happened: ``(t, kind, ball, other)``, kind ``cushion`` or ``ball``."""

    events: list[tuple[float, str, Ball, object]] = field(default_factory=list)


def simulate(start: dict[Ball, tuple[float, float]], velocity: dict[Ball, tuple[float, float]],
             *, duration: float = 6.0, dt: float = 0.002, cushion_keep: float = 0.7,
             table: TableSpec = LARGE, remove: dict[Ball, float] | None = None,
             ) -> tuple[dict[Ball, np.ndarray], Truth]:
    """Positions of every ball every ``dt`` seconds: rows ``(t, x, y)``. Cushion
    reflections are exact (mirrored within the step); a collision found at the end of a
    step is moved back to the moment of contact. ``remove``: balls lifted off the table
    (a jump) at the given time."""
    balls = list(start)
    pos = {b: np.array(start[b], dtype=float) for b in balls}
    vel = {b: np.array(velocity.get(b, (0.0, 0.0)), dtype=float) for b in balls}
    gone: set[Ball] = set()
    truth = Truth()
    rows: dict[Ball, list[tuple[float, float, float]]] = {b: [] for b in balls}
    lo = (R, R)
    hi = (table.width - R, table.length - R)
    names = (("left", "right"), ("bottom", "top"))
    steps = int(duration / dt)
    for step in range(steps + 1):
        t = step * dt
        for b in balls:
            if b not in gone:
                rows[b].append((t, float(pos[b][0]), float(pos[b][1])))
        if remove:
            gone.update(b for b, when in remove.items() if t >= when)
        live = [b for b in balls if b not in gone]
        for b in live:
            speed = float(np.hypot(*vel[b]))
            if speed > 0.0:
                vel[b] *= max(speed - ROLL * dt, 0.0) / speed
            pos[b] += vel[b] * dt
            for axis in (0, 1):
                if pos[b][axis] < lo[axis] and vel[b][axis] < 0:
                    pos[b][axis] = 2 * lo[axis] - pos[b][axis]
                    vel[b][axis] *= -cushion_keep
                    truth.events.append((t, "cushion", b, names[axis][0]))
                elif pos[b][axis] > hi[axis] and vel[b][axis] > 0:
                    pos[b][axis] = 2 * hi[axis] - pos[b][axis]
                    vel[b][axis] *= -cushion_keep
                    truth.events.append((t, "cushion", b, names[axis][1]))
        for i, a in enumerate(live):
            for c in live[i + 1:]:
                d = pos[c] - pos[a]
                if float(np.hypot(*d)) >= 2 * R:
                    continue
                rel = vel[c] - vel[a]
                # back to the moment of contact: |d - rel τ| = 2R
                qa, qb, qc = float(rel @ rel), -2.0 * float(d @ rel), float(d @ d) - 4 * R * R
                back = 0.0
                if qa > 0:
                    back = min(max((-qb - np.sqrt(max(qb * qb - 4 * qa * qc, 0.0))) / (2 * qa), 0.0), dt)
                pos[a] -= vel[a] * back
                pos[c] -= vel[c] * back
                n = (pos[c] - pos[a]) / float(np.hypot(*(pos[c] - pos[a])))
                approach = float((vel[a] - vel[c]) @ n)
                if approach > 0:
                    fast_a = float(np.hypot(*vel[a])) >= float(np.hypot(*vel[c]))
                    vel[a] -= approach * n
                    vel[c] += approach * n
                    mover, other = (a, c) if fast_a else (c, a)
                    truth.events.append((t - back, "ball", mover, other))
                pos[a] += vel[a] * back
                pos[c] += vel[c] * back
    return {b: np.array(r) for b, r in rows.items()}, truth


def sample(paths: dict[Ball, np.ndarray], *, seed: int = 0, noise: float = 0.0005, period: float = 0.02,
           drop: float = 0.0, drop_near: Sequence[float] = (),
           end: float | None = None, decimate: float = 0.0) -> dict[Ball, BallTrack]:
    """A tracker's view of ``paths``: a sample every ``period`` (±10 %) while a ball
    moves (with ``decimate``, only once it moved that far since the last sample, as the
    real match's tracker does), Gaussian noise, a fraction ``drop`` of samples lost and
    every sample within 25 ms of the times ``drop_near`` lost; a resting ball shows its
    first and last positions only."""
    rng = np.random.default_rng(seed)
    out: dict[Ball, BallTrack] = {}
    for b, rows in paths.items():
        t, xy = rows[:, 0], rows[:, 1:]
        stop = float(t[-1]) if end is None else end
        moving = np.r_[False, np.hypot(*np.diff(xy, axis=0).T) > 1e-7]
        times = [0.0]
        clock = 0.0
        while clock < float(t[-1]) - period:
            clock += period * (0.9 + 0.2 * rng.random())
            k = min(int(np.searchsorted(t, clock)), t.shape[0] - 1)
            if not moving[k]:
                continue
            if drop and rng.random() < drop:
                continue
            if any(abs(clock - when) < 0.025 for when in drop_near):
                continue
            if decimate:
                # like the real match's tracker: a new sample once the ball moved far enough
                last = np.interp(times[-1], t, xy[:, 0]), np.interp(times[-1], t, xy[:, 1])
                if np.hypot(xy[k, 0] - last[0], xy[k, 1] - last[1]) < decimate:
                    continue
            times.append(clock)
        # a ball that left the table has no final rest sample
        ts = np.array(times) if float(t[-1]) < stop - 1e-9 else np.array([*times, stop])
        x = np.interp(ts, t, xy[:, 0]) + rng.normal(0.0, noise, ts.shape[0])
        y = np.interp(ts, t, xy[:, 1]) + rng.normal(0.0, noise, ts.shape[0])
        out[b] = BallTrack(ts, np.column_stack((x, y)))
    return out


def stroke(start: dict[Ball, tuple[float, float]], velocity: dict[Ball, tuple[float, float]], cue: Ball,
           *, duration: float = 6.0, seed: int = 0, noise: float = 0.0005, drop: float = 0.0,
           drop_at_events: bool = False, remove: dict[Ball, float] | None = None,
           decimate: float = 0.0) -> tuple[TrackedStroke, Truth]:
    """A simulated, tracked stroke and what really happened in it."""
    paths, truth = simulate(start, velocity, duration=duration, remove=remove)
    near = [e[0] for e in truth.events] if drop_at_events else []
    tracks = sample(paths, seed=seed, noise=noise, drop=drop, drop_near=near, end=duration,
                    decimate=decimate)
    return TrackedStroke(f"synthetic-{seed}", cue, tracks), truth


def to_jsonl(strokes: Sequence[TrackedStroke], points: Sequence[bool | None] | None = None) -> str:
    """Strokes in the ``balls-jsonl`` format of the real match file."""
    import json

    lines = []
    for k, s in enumerate(strokes):
        obj: dict[str, object] = {
            "shot": k + 1, "cue": s.cue.value,
            "balls": {b.value: {"t": tr.t.tolist(), "x": tr.xy[:, 0].tolist(), "y": tr.xy[:, 1].tolist()}
                      for b, tr in s.balls.items()},
        }
        if points is not None:
            obj["point"] = points[k]
        lines.append(json.dumps(obj))
    return "\n".join(lines) + "\n"
