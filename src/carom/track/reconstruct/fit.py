"""Least-squares fits of a ball's position against time: ``p(t) = c0 + c1 τ + c2 τ²``.

Between events every ball moves on a polynomial of degree ≤ 2 in time (PHYSICS.md:
sliding on a parabola, rolling in a straight line with constant deceleration), so a
stretch of samples with no event inside fits one quadratic to within the noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

import numpy as np

from carom.track.samples import FloatArray


@dataclass(slots=True)
class Fit:
    """A fitted motion over ``[t0, t1]``; ``tm`` is the centre of the time axis."""
    # Not frozen, though never changed once made: the detector makes thousands of these
    # per match, and a frozen dataclass takes several times longer to construct.

    t0: float
    t1: float
    tm: float
    degree: int
    c: tuple[float, float, float, float, float, float]
    """The coefficients ``c0x, c0y, c1x, c1y, c2x, c2y``."""
    cov: tuple[tuple[float, float, float], ...]
    """``(XᵀX)⁻¹`` of the fit (3 × 3, zero beyond ``degree``): the covariance of the
    coefficients of one coordinate per unit noise variance."""

    def position(self, t: float) -> FloatArray:
        return np.array(self.point(t))

    def velocity(self, t: float) -> FloatArray:
        return np.array(self.speed_vector(t))

    def point(self, t: float) -> tuple[float, float]:
        tau = t - self.tm
        c = self.c
        return (c[0] + tau * (c[2] + tau * c[4]), c[1] + tau * (c[3] + tau * c[5]))

    def speed_vector(self, t: float) -> tuple[float, float]:
        tau2 = 2.0 * (t - self.tm)
        c = self.c
        return (c[2] + tau2 * c[4], c[3] + tau2 * c[5])

    @property
    def acceleration(self) -> FloatArray:
        return np.array((2.0 * self.c[4], 2.0 * self.c[5]))

    def position_sd(self, t: float, sigma: float) -> float:
        """Standard deviation of one coordinate of :meth:`position` for noise ``sigma``."""
        tau = t - self.tm
        return sigma * sqrt(max(_form(self.cov, (1.0, tau, tau * tau)), 0.0))

    def velocity_sd(self, t: float, sigma: float) -> float:
        """Standard deviation of one coordinate of :meth:`velocity` for noise ``sigma``
        (infinite for a single sample, whose velocity is unknown)."""
        if self.degree == 0:
            return float("inf")
        return sigma * sqrt(max(_form(self.cov, (0.0, 1.0, 2.0 * (t - self.tm))), 0.0))


def _form(m: tuple[tuple[float, float, float], ...], g: tuple[float, float, float]) -> float:
    """``gᵀ m g`` for a symmetric ``m``."""
    a, b, c = g
    return (a * a * m[0][0] + b * b * m[1][1] + c * c * m[2][2]
            + 2.0 * (a * b * m[0][1] + a * c * m[0][2] + b * c * m[1][2]))


SMALL = 16
"""Up to this many samples a fit is summed in plain floats (faster than arrays)."""


def fit_degree(n: int, degree: int | None = None) -> int:
    """The degree of a fit to ``n`` samples: 0 for one sample, 1 for two to four, else 2
    (or ``degree``, lowered when there are too few samples)."""
    if degree is None:
        degree = 0 if n == 1 else 1 if n <= 4 else 2
    return min(degree, n - 1)


def fit_motion(t: FloatArray, xy: FloatArray, degree: int | None = None) -> Fit:
    """Fit samples ``(t, xy)`` with a polynomial of :func:`fit_degree`."""
    return TrackFitter(t, xy).fit(0, int(t.shape[0]) - 1, degree)


class TrackFitter:
    """Fits of stretches of one ball's track; the samples are turned into plain floats
    once, for all the fits (or given so: ``lists``, the times, x and y)."""

    def __init__(self, t: FloatArray, xy: FloatArray,
                 lists: tuple[list[float], list[float], list[float]] | None = None) -> None:
        self.t, self.xy = t, xy
        made: tuple[list[float], list[float], list[float]] = lists or (t.tolist(), xy[:, 0].tolist(),
                                                                      xy[:, 1].tolist())
        self.times, self.xs, self.ys = made

    def fit(self, a: int, b: int, degree: int | None = None) -> Fit:
        """The fit of samples ``a … b`` (inclusive) with a polynomial of :func:`fit_degree`."""
        n = b - a + 1
        if n == 1:
            # one sample: the fit is the sample (what the sums below come to)
            t0 = self.times[a]
            return Fit(t0, t0, t0, 0, (self.xs[a], self.ys[a], 0.0, 0.0, 0.0, 0.0), _SINGLE)
        degree = fit_degree(n, degree)
        t0, t1 = self.times[a], self.times[b]
        tm = 0.5 * (t0 + t1)
        if n <= SMALL:
            sums = _sums_small(self.times[a:b + 1], self.xs[a:b + 1], self.ys[a:b + 1], tm)
        else:
            sums = _sums_large(self.t[a:b + 1], self.xy[a:b + 1], tm, degree)
        return _solve(t0, t1, tm, degree, sums)


_SINGLE = ((1.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
"""``(XᵀX)⁻¹`` of a fit to one sample."""

Sums = tuple[float, float, float, float, float, float, float, float, float, float, float]
"""``Σ τᵏ`` (k = 0 … 4), ``Σ τᵏ x`` and ``Σ τᵏ y`` (k = 0 … 2), with ``τ = t - tm``."""


def _sums_small(t: list[float], x: list[float], y: list[float], tm: float) -> Sums:
    """The sums of a few samples, in plain floats (faster than arrays)."""
    s1 = s2 = s3 = s4 = x0 = x1 = x2 = y0 = y1 = y2 = 0.0
    for tv, xv, yv in zip(t, x, y, strict=True):
        tau = tv - tm
        tau2 = tau * tau
        s1 += tau
        s2 += tau2
        s3 += tau2 * tau
        s4 += tau2 * tau2
        x0 += xv
        x1 += tau * xv
        x2 += tau2 * xv
        y0 += yv
        y1 += tau * yv
        y2 += tau2 * yv
    return float(len(t)), s1, s2, s3, s4, x0, x1, x2, y0, y1, y2


def _sums_large(t: FloatArray, xy: FloatArray, tm: float, degree: int) -> Sums:
    """The sums of many samples, with arrays (those a fit of ``degree`` does not use are
    left zero)."""
    n = int(t.shape[0])
    tau = t - tm
    s = [float(n), 0.0, 0.0, 0.0, 0.0]
    power = np.ones(n)
    for k in range(1, 2 * degree + 1):
        power = power * tau
        s[k] = float(power.sum())
    weights = (np.ones(n), tau, tau * tau)
    rx = [float(weights[k] @ xy[:, 0]) if k <= degree else 0.0 for k in range(3)]
    ry = [float(weights[k] @ xy[:, 1]) if k <= degree else 0.0 for k in range(3)]
    return s[0], s[1], s[2], s[3], s[4], rx[0], rx[1], rx[2], ry[0], ry[1], ry[2]


def _solve(t0: float, t1: float, tm: float, degree: int, sums: Sums) -> Fit:
    """The least-squares fit from its sums: the normal equations ``(XᵀX) c = Xᵀp`` of
    size ``degree + 1``, solved with the closed-form inverse of the symmetric ``XᵀX``."""
    s0, s1, s2, s3, s4, x0, x1, x2, y0, y1, y2 = sums
    zero = (0.0, 0.0, 0.0)
    if degree == 0:
        i00 = 1.0 / s0
        return Fit(t0, t1, tm, 0, (i00 * x0, i00 * y0, 0.0, 0.0, 0.0, 0.0), ((i00, 0.0, 0.0), zero, zero))
    if degree == 1:
        # inverse of [[s0, s1], [s1, s2]]
        det = s0 * s2 - s1 * s1
        i00, i01, i11 = s2 / det, -s1 / det, s0 / det
        return Fit(t0, t1, tm, 1, (i00 * x0 + i01 * x1, i00 * y0 + i01 * y1, i01 * x0 + i11 * x1,
                                   i01 * y0 + i11 * y1, 0.0, 0.0), ((i00, i01, 0.0), (i01, i11, 0.0), zero))
    # inverse of [[s0, s1, s2], [s1, s2, s3], [s2, s3, s4]] by cofactors
    c00 = s2 * s4 - s3 * s3
    c01 = s2 * s3 - s1 * s4
    c02 = s1 * s3 - s2 * s2
    c11 = s0 * s4 - s2 * s2
    c12 = s1 * s2 - s0 * s3
    c22 = s0 * s2 - s1 * s1
    det = s0 * c00 + s1 * c01 + s2 * c02
    i00, i01, i02, i11, i12, i22 = c00 / det, c01 / det, c02 / det, c11 / det, c12 / det, c22 / det
    return Fit(t0, t1, tm, 2,
               (i00 * x0 + i01 * x1 + i02 * x2, i00 * y0 + i01 * y1 + i02 * y2,
                i01 * x0 + i11 * x1 + i12 * x2, i01 * y0 + i11 * y1 + i12 * y2,
                i02 * x0 + i12 * x1 + i22 * x2, i02 * y0 + i12 * y1 + i22 * y2),
               ((i00, i01, i02), (i01, i11, i12), (i02, i12, i22)))
