"""Where a ball was at any time: its reconstructed motion, read back."""

from __future__ import annotations

from math import hypot

import numpy as np

from carom.track import laws
from carom.track.reconstruct.ballmotion import REST_RUN_OUT, BallMotion, Join
from carom.track.reconstruct.numeric import clip, interp_at
from carom.track.samples import FloatArray


def box_distance(box: tuple[float, float, float, float], x: float, y: float) -> float:
    """How far the point ``(x, y)`` lies from the rectangle ``box`` ``(x0, y0, x1, y1)``: a
    cheap lower bound of its distance from any path inside the rectangle."""
    x0, y0, x1, y1 = box
    return hypot(max(x0 - x, x - x1, 0.0), max(y0 - y, y - y1, 0.0))


class BallPath:
    """A ball's reconstructed centre as a function of time."""

    def __init__(self, motion: BallMotion) -> None:
        self.motion = motion
        self.times, self.points = motion.path()
        low, high = self.points.min(axis=0).tolist(), self.points.max(axis=0).tolist()
        self.box = (low[0], low[1], high[0], high[1])
        """The smallest rectangle ``(x0, y0, x1, y1)`` that holds the whole path."""
        x, y = self.points[0].tolist()
        self.still = high[0] - x < 1e-9 and x - low[0] < 1e-9 and high[1] - y < 1e-9 and y - low[1] < 1e-9
        """The ball never moved (as far as its path shows): every point within 1e-9 of the first."""
        self._lines: tuple[FloatArray, FloatArray, FloatArray] | None = None
        self._lists: tuple[list[float], list[float], list[float]] | None = None
        self._segments: tuple[FloatArray, FloatArray] | None = None
        self._rest_joins = [j for j in motion.joins if j.kind in ("start", "stop", "restart")]

    def times_points(self) -> tuple[FloatArray, FloatArray]:
        return self.times, self.points

    @property
    def joins(self) -> list[Join]:
        return self.motion.joins

    def at(self, t: float) -> FloatArray:
        """Centre at time ``t`` (clamped to the stroke), as an array (:meth:`point_at`)."""
        return np.array(self.point_at(t))

    def point_at(self, t: float) -> tuple[float, float]:
        """Centre at time ``t`` (clamped to the stroke), in plain floats: linear between
        samples, interpolated to the last bit as ``np.interp`` does."""
        if self._lists is None:
            self._lists = (self.times.tolist(), self.points[:, 0].tolist(), self.points[:, 1].tolist())
        times, xs, ys = self._lists
        return interp_at(times, xs, t), interp_at(times, ys, t)

    def centres(self, t: FloatArray) -> FloatArray:
        """Centres at the times ``t`` (clamped to the stroke), one row each."""
        x, y = np.interp(t, self.times, self.points[:, 0]), np.interp(t, self.times, self.points[:, 1])
        return np.column_stack((x, y))

    def intervals(self, grid: FloatArray) -> np.ndarray:
        """For each time of ``grid``, the sample interval ``k`` (between samples ``k`` and
        ``k+1``) that holds it, clamped to the first and the last interval."""
        t = self.motion.t
        return clip(t.searchsorted(grid, side="right") - 1, 0, t.shape[0] - 2)

    def extended(self, grid: FloatArray, *, forward: bool) -> tuple[FloatArray, FloatArray]:
        """Centres and velocities at the times ``grid``, between two samples carried on
        straight from the samples before them (``forward``) or come straight to the
        samples after them (not ``forward``). Where the ball turned between two samples
        (a contact), the line through the samples would cut the corner; the motion
        before the turn is the straight continuation of what came before, the motion
        after it the straight extension back of what came after. A ball resting
        between two samples stays put."""
        pos, vel = self.readings(grid, (forward,))
        return pos[0], vel[0]

    def readings(self, grid: FloatArray, directions: tuple[bool, ...] = (True, False),
                 ) -> tuple[FloatArray, FloatArray]:
        """:meth:`extended` for each of ``directions`` (``forward`` or not) at once:
        centres and velocities of shape ``(len(directions), len(grid), 2)``."""
        t, xy = self.motion.t, self.motion.xy
        shape = (len(directions), grid.shape[0], 2)
        if t.shape[0] < 2:
            return np.broadcast_to(xy[0], shape).copy(), np.zeros(shape)
        origin, start, velocity = self._interval_lines()
        rows = [0 if forward else 1 for forward in directions]
        k = self.intervals(grid)
        # each reading is a straight line in each sample interval: from a sample, at a velocity
        which: slice | list[int] = slice(None) if rows == [0, 1] else rows  # both rows: no copy first
        vel = velocity[which][:, k]
        pos = origin[which][:, k] + (grid - start[which][:, k])[..., None] * vel
        first, last = float(grid[0]), float(grid[-1])
        for join in self._rest_joins:
            if join.t_hi > first and join.t_lo < last:
                self._through_rest(join, grid, pos, vel)
        return pos, vel

    def reading_segments(self, k0: int, k1: int) -> tuple[FloatArray, FloatArray]:
        """Where each reading of :meth:`readings` begins in the sample intervals ``k0`` to
        ``k1 - 1``, and the step to where it ends: two arrays of shape ``(2, k1 - k0, 2)``
        (row 0 carried on from before, row 1 come straight to after). Between two
        samples far apart in time the ball may have turned, and a reading may pass
        where the chord between the samples does not. Made once per path."""
        if self._segments is None:
            origin, _, velocity = self._interval_lines()
            t = self.motion.t
            span = (t[1:] - t[:-1])[:, None]
            forward, backward = origin[0], origin[1]
            first = np.array((forward, backward - span * velocity[1]))
            last = np.array((forward + span * velocity[0], backward))
            self._segments = (first, last - first)
        first, step = self._segments
        return first[:, k0:k1], step[:, k0:k1]

    def _interval_lines(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """The two readings of :meth:`extended` as straight lines, one per sample interval
        ``k``: row 0 carried on from the samples before (forward), row 1 come straight to
        the samples after. Each line passes through a sample (``origin`` at time
        ``start``: sample ``k`` forward, ``k+1`` backward) with the chord velocity of the
        interval before (after) it, unless there is none or it holds a rest, then of its
        own; a ball resting in the interval stays at the sample (velocity zero). Made
        once per path."""
        if self._lines is None:
            t, xy = self.motion.t, self.motion.xy
            n = t.shape[0]
            k = np.arange(n - 1)
            chord = (xy[1:] - xy[:-1]) / (t[1:] - t[:-1])[:, None]
            resting = self._resting_intervals()
            before, after = np.maximum(k - 1, 0), np.minimum(k + 1, n - 2)
            forward = np.where(((k > 0) & ~resting[before])[:, None], chord[before], chord)
            backward = np.where(((k < n - 2) & ~resting[after])[:, None], chord[after], chord)
            velocity = np.array((forward, backward))
            velocity[:, resting] = 0.0
            self._lines = (np.array((xy[:-1], xy[1:])), np.array((t[:-1], t[1:])), velocity)
        return self._lines

    def _through_rest(self, join: Join, grid: FloatArray, pos: FloatArray, vel: FloatArray) -> None:
        """Inside the sample interval that holds a rest: the ball carried on straight at
        its speed until it stopped, lay still, then left straight at the speed it is next
        seen with (lone samples inside a join are samples like any other). ``pos`` and
        ``vel``: one row per reading of the path (the same in every row here)."""
        t, xy = self.motion.t, self.motion.xy
        n = t.shape[0]
        if join.kind == "start":
            k_next = join.via[0] if join.via else join.after.i0
            lo, hi = float(t[k_next - 1]), float(t[k_next])
            rest = join.before.position(join.before.t1)
            if join.via and k_next + 1 < n:
                speed = float(np.hypot(*(xy[k_next + 1] - xy[k_next]))) / float(t[k_next + 1] - t[k_next])
            else:
                speed = float(np.hypot(*join.v_out))
            dist = float(np.hypot(*(xy[k_next] - rest)))
            leave = max(hi - dist / max(speed, laws.REST_SPEED), lo)
            u = (xy[k_next] - rest) / max(dist, 1e-9)
            self._fill(grid, pos, vel, lo, hi, rest, leave, hi, rest, u * max(speed, 0.0))
        elif join.kind == "stop":
            k_prev = join.via[-1] if join.via else join.before.i1
            lo, hi = float(t[k_prev]), float(t[k_prev + 1])
            rest = join.after.position(join.after.t0)
            v = join.v_in
            if join.via:
                v = (xy[k_prev] - xy[k_prev - 1]) / float(t[k_prev] - t[k_prev - 1])
            speed = float(np.hypot(*v))
            dist = float(np.hypot(*(rest - xy[k_prev])))
            arrive = min(lo + dist / max(speed, laws.REST_SPEED), hi)
            u = (rest - xy[k_prev]) / max(dist, 1e-9)
            self._fill(grid, pos, vel, lo, hi, xy[k_prev], lo, arrive, rest, u * speed, moving_first=True)
        elif join.kind == "restart" and join.rest_point is not None:
            lo, hi = join.t_lo, join.t_hi
            speed_in = max(float(np.hypot(*join.v_in)), laws.REST_SPEED)
            # where exactly it stopped, no sample says: up to a rolling ball's run-out
            stop = min(max(join.t_stop, lo + REST_RUN_OUT / speed_in), join.t)
            self._fill(grid, pos, vel, lo, hi, join.before.position(lo), lo, stop, None, join.v_in,
                       moving_first=True)
            late = (grid > lo) & (grid < hi) & (grid >= join.t)
            pos[:, late] = join.after.position(hi) + (grid[late] - hi)[:, None] * join.v_out
            vel[:, late] = join.v_out

    @staticmethod
    def _fill(grid: FloatArray, pos: FloatArray, vel: FloatArray, lo: float, hi: float, p0: FloatArray,
              a: float, b: float, rest: FloatArray | None, v: FloatArray, *,
              moving_first: bool = False) -> None:
        """Fill ``(lo, hi)``: still at ``p0`` before ``a`` then moving at ``v`` from ``p0`` at ``a``
        (a start), or moving at ``v`` from ``p0`` at ``a`` until ``b`` and still after it (a stop)."""
        inside = (grid > lo) & (grid < hi)
        if not inside.any():
            return
        times = grid[inside]
        if moving_first:
            moving = times < b
            end = p0 + (b - a) * v if rest is None else rest
            p = np.where(moving[:, None], p0 + (times - a)[:, None] * v, end)
        else:
            moving = times >= a
            p = np.where(moving[:, None], p0 + (times - a)[:, None] * v, p0)
        pos[:, inside] = p
        vel[:, inside] = np.where(moving[:, None], v, 0.0)

    def _resting_intervals(self) -> np.ndarray:
        """Per sample interval: does it hold a rest (its samples belong to rest pieces, or
        the ball starts or stops in it)?"""
        n = self.motion.t.shape[0]
        out = np.zeros(max(n - 1, 0), dtype=bool)
        for piece in self.motion.pieces:
            if piece.rest:
                out[max(piece.i0 - 1, 0):min(piece.i1 + 1, n - 1)] = True
        for join in self.motion.joins:
            if join.kind == "restart":
                out[join.before.i1] = True
        return out

    def moving_at(self, t: float) -> bool:
        """Whether the ball is in motion at ``t`` (between the start and the stop of a move)."""
        motion = self.motion
        for piece in motion.pieces:
            if piece.t0 <= t <= piece.t1:
                return not piece.rest
        for join in motion.joins:
            if join.t_lo <= t <= join.t_hi:
                if join.kind == "turn":
                    return True
                if join.kind == "restart":
                    return not (join.t_stop <= t <= join.t)
                if join.kind == "start":
                    return t >= join.t
                if join.kind == "stop":
                    return t <= join.t
                return False
        return False

    def joins_near(self, t: float, slack: float) -> list[Join]:
        """Joins whose bracket, widened by ``slack``, holds ``t``."""
        return [j for j in self.motion.joins if j.t_lo - slack <= t <= j.t_hi + slack]
