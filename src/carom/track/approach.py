"""Where two balls come close: the exact closest approach of their reconstructed paths.

Each ball's centre is a polyline in time (samples plus the estimated point of every
join, :meth:`~carom.track.motion.BallMotion.path`). Between two consecutive times of
either polyline both balls move in straight lines, so their distance is smallest at a
point found in closed form; no grid is searched.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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
    point_a: FloatArray
    point_b: FloatArray


def closest_approaches(path_a: tuple[FloatArray, FloatArray], path_b: tuple[FloatArray, FloatArray],
                       reach: float) -> list[Approach]:
    """Episodes in which the two paths come closer than ``reach``, each with its minimum."""
    ta, pa = path_a
    tb, pb = path_b
    if not np.any(np.abs(pb - pb[0]) > 1e-9):
        return _to_point(ta, pa, pb[0], reach)
    if not np.any(np.abs(pa - pa[0]) > 1e-9):
        return [Approach(a.t, a.t_from, a.t_to, a.distance, a.point_b, a.point_a)
                for a in _to_point(tb, pb, pa[0], reach)]
    start = max(float(ta[0]), float(tb[0]))
    stop = min(float(ta[-1]), float(tb[-1]))
    times = np.sort(np.concatenate((ta, tb)))
    times = times[(times >= start) & (times <= stop)]
    if times.shape[0] < 2:
        return []
    a = np.column_stack((np.interp(times, ta, pa[:, 0]), np.interp(times, ta, pa[:, 1])))
    b = np.column_stack((np.interp(times, tb, pb[:, 0]), np.interp(times, tb, pb[:, 1])))
    r = a - b
    r0, dr = r[:-1], np.diff(r, axis=0)
    dd = np.einsum("ij,ij->i", dr, dr)
    s = np.where(dd > 0.0, -np.einsum("ij,ij->i", r0, dr) / np.where(dd > 0.0, dd, 1.0), 0.0)
    s = np.clip(s, 0.0, 1.0)
    closest = r0 + s[:, None] * dr
    dist = np.hypot(closest[:, 0], closest[:, 1])
    near = dist < reach
    if not near.any():
        return []
    out: list[Approach] = []
    idx = np.nonzero(near)[0]
    groups = np.split(idx, np.nonzero(np.diff(idx) > 1)[0] + 1)
    for group in groups:
        k = int(group[np.argmin(dist[group])])
        t = float(times[k] + s[k] * (times[k + 1] - times[k]))
        point_a = a[k] + s[k] * (a[k + 1] - a[k])
        point_b = b[k] + s[k] * (b[k + 1] - b[k])
        out.append(Approach(t, float(times[group[0]]), float(times[group[-1] + 1]), float(dist[k]),
                            point_a, point_b))
    return out


def _to_point(times: FloatArray, points: FloatArray, q: FloatArray, reach: float) -> list[Approach]:
    """:func:`closest_approaches` of a path and a ball that never moves."""
    if times.shape[0] < 2:
        return []
    r0, dr = points[:-1] - q, np.diff(points, axis=0)
    dd = np.einsum("ij,ij->i", dr, dr)
    along = -np.einsum("ij,ij->i", r0, dr) / np.where(dd > 0.0, dd, 1.0)
    s = np.clip(np.where(dd > 0.0, along, 0.0), 0.0, 1.0)
    closest = r0 + s[:, None] * dr
    dist = np.hypot(closest[:, 0], closest[:, 1])
    near = dist < reach
    if not near.any():
        return []
    out: list[Approach] = []
    idx = np.nonzero(near)[0]
    for group in np.split(idx, np.nonzero(np.diff(idx) > 1)[0] + 1):
        k = int(group[np.argmin(dist[group])])
        t = float(times[k] + s[k] * (times[k + 1] - times[k]))
        point = points[k] + s[k] * dr[k]
        out.append(Approach(t, float(times[group[0]]), float(times[group[-1] + 1]), float(dist[k]), point, q))
    return out
