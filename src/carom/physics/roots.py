"""Exact event times: the first moment a distance polynomial reaches zero going down
(PHYSICS.md, "Event times"; checks 7, 8 and 9).

A ball–cushion contact is a root of a quadratic; a ball–ball contact a root of the
quartic f(t) = |d(t)|² − (2R)². The quartic is not solved by formula (Ferrari loses
every digit near repeated roots): its real roots on [0, H] are isolated instead. The
roots of f'' split [0, H] into pieces where f' is monotone, the roots of f' found in
them split it into pieces where f is monotone, and a monotone piece whose ends have
opposite signs holds exactly one root, found by bracketed Newton iteration. Grazing
(a local minimum of f within ``eps`` of zero) is no contact.
"""

from __future__ import annotations

import math

from carom.physics import layout as L
from carom.physics.build.jit import kernel

NEWTON_STEPS = 100


@kernel
def quadratic_roots(a: float, b: float, c: float) -> tuple[int, float, float]:
    """Real roots of a t² + b t + c, ascending, by the cancellation-free formula.

    Coefficients far from 1 are first scaled by a power of two (exactly), so that b²
    and 4ac neither underflow nor overflow: a ball creeping off a cushion line at
    1e-254 m/s still comes back to it when it should."""
    size = max(abs(a), abs(b), abs(c))
    if size != 0.0 and (size < 1e-100 or size > 1e100):
        shift = -math.frexp(size)[1]
        a = math.ldexp(a, shift)
        b = math.ldexp(b, shift)
        c = math.ldexp(c, shift)
    if a == 0.0:
        if b == 0.0:
            return 0, math.nan, math.nan
        r = -c / b
        return 1, r, r
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return 0, math.nan, math.nan
    q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
    if q == 0.0:
        return 2, 0.0, 0.0
    r1 = q / a
    r2 = c / q
    if r1 > r2:
        r1, r2 = r2, r1
    return 2, r1, r2


@kernel
def first_down_crossing(d0: float, d1: float, d2: float) -> float:
    """The first t ≥ 0 at which d(t) = d0 + d1 t + d2 t² reaches 0 while decreasing: 0 when
    d(0) ≤ 0 and d is decreasing at once; inf when it never does. ``d`` is the distance
    of a ball's centre from the line at R from a cushion nose (checks 7 and 9). A normal
    speed below ``SPEED_EPS`` is no speed: a ball on the line creeping off it that slowly
    while the cloth pulls it in meets the cushion at once."""
    if d0 <= 0.0 and (d1 < 0.0 or (d1 <= L.SPEED_EPS and d2 < 0.0)):
        return 0.0
    n, r1, r2 = quadratic_roots(d2, d1, d0)
    if n >= 1 and r1 > 0.0 and 2.0 * d2 * r1 + d1 < 0.0:
        return r1
    if n == 2 and r2 > 0.0 and 2.0 * d2 * r2 + d1 < 0.0:
        return r2
    return math.inf


@kernel
def _quartic(e0: float, e1: float, e2: float, e3: float, e4: float, t: float) -> float:
    return (((e4 * t + e3) * t + e2) * t + e1) * t + e0


@kernel
def _cubic(e1: float, e2: float, e3: float, e4: float, t: float) -> float:
    """f'(t) of the quartic with coefficients e0..e4."""
    return ((4.0 * e4 * t + 3.0 * e3) * t + 2.0 * e2) * t + e1


@kernel
def _square(e2: float, e3: float, e4: float, t: float) -> float:
    """f''(t) of the quartic."""
    return (12.0 * e4 * t + 6.0 * e3) * t + 2.0 * e2


@kernel
def _bracketed_root(which: int, e0: float, e1: float, e2: float, e3: float, e4: float,
                    lo: float, hi: float, flo: float) -> float:
    """The root in [lo, hi] of the quartic (``which`` 0) or of its derivative (1), whose
    values at the two ends have opposite signs (``flo`` at ``lo``): Newton steps kept
    inside the bracket, bisection when a step would leave it or stalls."""
    t = 0.5 * (lo + hi)
    width = hi - lo
    for _ in range(NEWTON_STEPS):
        if which == 0:
            f = _quartic(e0, e1, e2, e3, e4, t)
            df = _cubic(e1, e2, e3, e4, t)
        else:
            f = _cubic(e1, e2, e3, e4, t)
            df = _square(e2, e3, e4, t)
        if f == 0.0:
            return t
        if (f < 0.0) == (flo < 0.0):
            lo = t
        else:
            hi = t
        step_ok = False
        if df != 0.0:
            tn = t - f / df
            if lo < tn < hi and abs(tn - t) < 0.5 * width:
                step_ok = True
        width = hi - lo
        if step_ok:
            if abs(tn - t) <= 1e-16 * max(1.0, abs(t)):
                return tn
            t = tn
        else:
            t = 0.5 * (lo + hi)
            if t <= lo or t >= hi:
                return t
    return t


@kernel
def first_contact(e0: float, e1: float, e2: float, e3: float, e4: float, horizon: float,
                  eps: float) -> float:
    """The first t in [0, horizon] at which f(t) = e4 t⁴ + … + e0 (the squared distance of
    two centres minus (2R)²) reaches 0 going down, or at which the balls, touching or
    overlapping, start to approach: the contact time (checks 8 and 9). A dip that never
    goes below −``eps`` is a graze, no contact. inf when there is none."""
    # the pieces where f' is monotone: split at the roots of f''
    n2, q1, q2 = quadratic_roots(12.0 * e4, 6.0 * e3, 2.0 * e2)
    cuts1_0 = 0.0
    cuts1_1 = horizon
    cuts1_2 = horizon
    cuts1_3 = horizon
    k = 1
    if n2 >= 1 and 0.0 < q1 < horizon:
        cuts1_1 = q1
        k = 2
    if n2 == 2 and q2 > q1 and 0.0 < q2 < horizon:
        if k == 2:
            cuts1_2 = q2
        else:
            cuts1_1 = q2
        k += 1
    # the critical points of f: roots of f' in each of those pieces
    crit0 = horizon
    crit1 = horizon
    crit2 = horizon
    nc = 0
    for piece in range(k):
        if piece == 0:
            a = cuts1_0
            b = cuts1_1
        elif piece == 1:
            a = cuts1_1
            b = cuts1_2
        else:
            a = cuts1_2
            b = cuts1_3
        fa = _cubic(e1, e2, e3, e4, a)
        fb = _cubic(e1, e2, e3, e4, b)
        if (fa < 0.0 < fb) or (fb < 0.0 < fa):
            r = _bracketed_root(1, e0, e1, e2, e3, e4, a, b, fa)
            if nc == 0:
                crit0 = r
            elif nc == 1:
                crit1 = r
            else:
                crit2 = r
            nc += 1
    # walk the pieces where f is monotone, in time order
    a = 0.0
    fa = e0
    for piece in range(nc + 1):
        if piece == 0:
            b = crit0
        elif piece == 1:
            b = crit1
        elif piece == 2:
            b = crit2
        else:
            b = horizon
        if piece == nc:
            b = horizon
        at_critical = piece < nc
        fb = _quartic(e0, e1, e2, e3, e4, b)
        if fa <= 0.0:
            if fb < fa or (fb == fa and _cubic(e1, e2, e3, e4, a) < 0.0):
                return a
        elif fb < 0.0 and not (at_critical and fb >= -eps):
            return _bracketed_root(0, e0, e1, e2, e3, e4, a, b, fa)
        a = b
        fa = fb
        if a >= horizon:
            break
    return math.inf
