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


@dataclass(frozen=True, slots=True)
class Fit:
    """A fitted motion over ``[t0, t1]``; ``tm`` is the centre of the time axis."""

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


def _inverse(m: list[list[float]]) -> list[list[float]]:
    """Inverse of a symmetric positive-definite matrix of size 1, 2 or 3 (closed form)."""
    n = len(m)
    if n == 1:
        return [[1.0 / m[0][0]]]
    if n == 2:
        a, b, d = m[0][0], m[0][1], m[1][1]
        det = a * d - b * b
        return [[d / det, -b / det], [-b / det, a / det]]
    a, b, c = m[0]
    _, d, e = m[1]
    f = m[2][2]
    c00 = d * f - e * e
    c01 = c * e - b * f
    c02 = b * e - c * d
    c11 = a * f - c * c
    c12 = b * c - a * e
    c22 = a * d - b * b
    det = a * c00 + b * c01 + c * c02
    return [[c00 / det, c01 / det, c02 / det], [c01 / det, c11 / det, c12 / det],
            [c02 / det, c12 / det, c22 / det]]


SMALL = 16
"""Up to this many samples a fit is summed in plain floats (faster than arrays)."""


def fit_motion(t: FloatArray, xy: FloatArray, degree: int | None = None) -> Fit:
    """Fit samples ``(t, xy)``: degree 0 for one sample, 1 for two to four, else 2
    (or ``degree``, lowered when there are too few samples)."""
    n = int(t.shape[0])
    if degree is None:
        degree = 0 if n == 1 else 1 if n <= 4 else 2
    degree = min(degree, n - 1)
    t0, t1 = float(t[0]), float(t[-1])
    tm = 0.5 * (t0 + t1)
    size = degree + 1
    if n <= SMALL:
        s0 = float(n)
        s1 = s2 = s3 = s4 = x0 = x1 = x2 = y0 = y1 = y2 = 0.0
        for tv, x, y in zip(t.tolist(), xy[:, 0].tolist(), xy[:, 1].tolist(), strict=True):
            tau = tv - tm
            tau2 = tau * tau
            s1 += tau
            s2 += tau2
            s3 += tau2 * tau
            s4 += tau2 * tau2
            x0 += x
            x1 += tau * x
            x2 += tau2 * x
            y0 += y
            y1 += tau * y
            y2 += tau2 * y
        sums = [s0, s1, s2, s3, s4][: 2 * degree + 1]
        rx = [x0, x1, x2][:size]
        ry = [y0, y1, y2][:size]
    else:
        tau_arr = t - tm
        sums = [float(n)]
        power_arr = np.ones(n)
        for _ in range(2 * degree):
            power_arr = power_arr * tau_arr
            sums.append(float(power_arr.sum()))
        powers = [np.ones(n), tau_arr, tau_arr * tau_arr][:size]
        rx = [float(powers[k] @ xy[:, 0]) for k in range(size)]
        ry = [float(powers[k] @ xy[:, 1]) for k in range(size)]
    inverse = _inverse([[sums[i + j] for j in range(size)] for i in range(size)])
    coef = [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]
    cov = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    for i in range(size):
        row = inverse[i]
        cx = cy = 0.0
        for k in range(size):
            cx += row[k] * rx[k]
            cy += row[k] * ry[k]
        coef[i][0], coef[i][1] = cx, cy
        cov[i][:size] = row
    flat = (coef[0][0], coef[0][1], coef[1][0], coef[1][1], coef[2][0], coef[2][1])
    rows = ((cov[0][0], cov[0][1], cov[0][2]), (cov[1][0], cov[1][1], cov[1][2]),
            (cov[2][0], cov[2][1], cov[2][2]))
    return Fit(t0, t1, tm, degree, flat, rows)
