"""Twin of ``carom.physics.roots``: event times by other means (checks 7–9). The real
roots of the quartic and of its derivative come from numpy's companion-matrix
eigenvalues, polished, and the contact by plain bisection."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np

from carom.physics import layout as L


def first_down_crossing(d0: float, d1: float, d2: float) -> float:
    """First t ≥ 0 where d0 + d1 t + d2 t² reaches 0 decreasing (0 if it starts ≤ 0 and
    falls): bisection on the pieces where d is monotone (a tangency is no crossing)."""
    if d0 <= 0.0 and (d1 < 0.0 or (d1 <= L.SPEED_EPS and d2 < 0.0)):
        return 0.0
    if d2 == 0.0:
        return -d0 / d1 if d1 < 0.0 and d0 > 0.0 else math.inf

    def d(t: float) -> float:
        return d0 + t * (d1 + d2 * t)

    vertex = -d1 / (2.0 * d2)
    knots = [0.0]
    if vertex > 0.0:
        knots.append(vertex)
    if d2 < 0.0:
        start = max(vertex, 0.0)
        knots.append(start + 2.0 * math.sqrt(max(d(start), 0.0) / -d2) + 1.0)
    for a, b in itertools.pairwise(knots):
        if d(a) > 0.0 and d(b) < 0.0:
            return _bisect(d, a, b)
    return math.inf


def _real_roots(coeffs: list[float], lo: float, hi: float) -> list[float]:
    """Real roots in (lo, hi) of the polynomial with ``coeffs`` (highest power first)."""
    size = max((abs(c) for c in coeffs), default=0.0)
    while coeffs and abs(coeffs[0]) <= 1e-13 * size:
        coeffs = coeffs[1:]  # a leading term too small to matter on any horizon we use
    if len(coeffs) < 2:
        return []
    out = []
    for z in np.roots(coeffs):
        if abs(z.imag) <= 1e-7 * max(1.0, abs(z)) and lo < z.real < hi:
            out.append(float(z.real))
    return sorted(out)


def _bisect(f: Callable[[float], float], lo: float, hi: float) -> float:
    flo = f(lo)
    for _ in range(2000):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        fm = f(mid)
        if fm == 0.0:
            return mid
        if (fm < 0.0) == (flo < 0.0):
            lo, flo = mid, fm
        else:
            hi = mid
    return 0.5 * (lo + hi)


def first_contact(e0: float, e1: float, e2: float, e3: float, e4: float, horizon: float,
                  eps: float) -> float:
    """First t in [0, horizon] where the quartic reaches 0 going down, or where it starts
    (touching) to fall; a dip not below −eps is a graze. inf if none."""
    def f(t: float) -> float:
        return e4 * t**4 + e3 * t**3 + e2 * t**2 + e1 * t + e0

    def df(t: float) -> float:
        return 4 * e4 * t**3 + 3 * e3 * t**2 + 2 * e2 * t + e1

    critical = []
    for c in _real_roots([4 * e4, 3 * e3, 2 * e2, e1], 0.0, horizon):
        # polish each eigenvalue on the sign change of f' around it
        a, b = max(0.0, c - 1e-6 * max(1.0, c)), min(horizon, c + 1e-6 * max(1.0, c))
        if df(a) * df(b) < 0.0:
            c = _bisect(df, a, b)
        critical.append(c)
    knots = [0.0, *critical, horizon]
    for k in range(len(knots) - 1):
        a, b = knots[k], knots[k + 1]
        fa, fb = f(a), f(b)
        if fa <= 0.0:
            if fb < fa or (fb == fa and df(a) < 0.0):
                return a
        elif fb < 0.0 and (b == horizon or fb < -eps):
            return _bisect(f, a, b)
    return math.inf
