"""Where two balls come close: the exact closest approach of their reconstructed paths.

Each ball's centre is a polyline in time (samples plus the estimated point of every
join, :meth:`~carom.track.reconstruct.ballmotion.BallMotion.path`). Between two consecutive times of
either polyline both balls move in straight lines, so their distance is smallest at a
point found in closed form; no grid is searched.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from carom.track.reconstruct.numeric import clip, runs
from carom.track.samples import FloatArray


@dataclass(frozen=True, slots=True)
class Approach:
    """One episode in which two balls' centres came within reach of each other."""

    t: float
    """Time of the closest approach."""
    t_from: float
    t_to: float
    """The episode: from the last time both were farther than the reach to the next."""
    distance: float
    """Smallest distance of the centres, metres."""


def closest_approaches(path_a: tuple[FloatArray, FloatArray], path_b: tuple[FloatArray, FloatArray],
                       reach: float, *, still_a: bool | None = None,
                       still_b: bool | None = None) -> list[Approach]:
    """Episodes in which the two paths come closer than ``reach``, each with its minimum.
    ``still_a``, ``still_b``: whether a path never moves (every point within 1e-9 of its
    first), if already known."""
    ta, pa = path_a
    tb, pb = path_b
    if still_b is None:
        still_b = not np.any(np.abs(pb - pb[0]) > 1e-9)
    if still_b:
        return _to_point(ta, pa, pb[0], reach)
    if still_a is None:
        still_a = not np.any(np.abs(pa - pa[0]) > 1e-9)
    if still_a:
        return _to_point(tb, pb, pa[0], reach)
    start = max(float(ta[0]), float(tb[0]))
    stop = min(float(ta[-1]), float(tb[-1]))
    times = np.sort(np.concatenate((ta, tb)))
    times = times[times.searchsorted(start, side="left"):times.searchsorted(stop, side="right")]
    if times.shape[0] < 2:
        return []
    ax, ay = np.interp(times, ta, pa[:, 0]), np.interp(times, ta, pa[:, 1])
    bx, by = np.interp(times, tb, pb[:, 0]), np.interp(times, tb, pb[:, 1])
    s, dist = _closest_on_segments(ax - bx, ay - by)
    out: list[Approach] = []
    for first, last, k in _episodes(dist, reach):
        t = float(times[k] + float(s[k]) * (times[k + 1] - times[k]))
        out.append(Approach(t, float(times[first]), float(times[last + 1]), float(dist[k])))
    return out


def _to_point(times: FloatArray, points: FloatArray, q: FloatArray, reach: float) -> list[Approach]:
    """:func:`closest_approaches` of a path and a ball that never moves."""
    if times.shape[0] < 2:
        return []
    s, dist = _closest_on_segments(points[:, 0] - q[0], points[:, 1] - q[1])
    out: list[Approach] = []
    for first, last, k in _episodes(dist, reach):
        t = float(times[k] + s[k] * (times[k + 1] - times[k]))
        out.append(Approach(t, float(times[first]), float(times[last + 1]), float(dist[k])))
    return out


def _closest_on_segments(x: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray]:
    """For the polyline ``(x, y)`` (a difference of two positions, at common times), on
    each segment the fraction ``s`` (0 to 1) of the way at which it passes nearest the
    origin, and that distance."""
    return nearest_on_segments(x[:-1], y[:-1], x[1:] - x[:-1], y[1:] - y[:-1])


def nearest_on_segments(x0: FloatArray, y0: FloatArray, dx: FloatArray,
                        dy: FloatArray) -> tuple[FloatArray, FloatArray]:
    """For each segment from ``(x0, y0)`` along ``(dx, dy)``, the fraction ``s`` (0 to 1)
    of the way at which it passes nearest the origin, and that distance."""
    dd = dx * dx + dy * dy
    # a segment of length zero (dd = 0) has dx = dy = 0: s comes out 0, the nearest point its start
    s = clip(-(x0 * dx + y0 * dy) / np.where(dd > 0.0, dd, 1.0), 0.0, 1.0)
    return s, np.hypot(x0 + s * dx, y0 + s * dy)


def _episodes(dist: FloatArray, reach: float) -> list[tuple[int, int, int]]:
    """Runs of consecutive segments nearer than ``reach``: first and last segment, and
    the nearest one."""
    near = (dist < reach).nonzero()[0]
    if not near.size:
        return []
    return [(first, last, first + int(dist[first:last + 1].argmin())) for first, last in runs(near)]
