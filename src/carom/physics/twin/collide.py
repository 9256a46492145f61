"""Twins of ``carom.physics.collide`` and ``carom.physics.cushion``, written in the
table's frame with vectors (checks 4–7, 10, 13, 14)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from carom.physics import layout as L
from carom.physics.twin.motion import contact_slip, parts, row
from carom.physics.twin.vector import Vec, Z, add, cross, dot, flat, norm, scale, sub, unit

NORMALS: dict[int, Vec] = {L.BOTTOM: (0.0, -1.0, 0.0), L.TOP: (0.0, 1.0, 0.0),
                           L.LEFT: (-1.0, 0.0, 0.0), L.RIGHT: (1.0, 0.0, 0.0)}


def ball_ball(a: Sequence[float], b: Sequence[float],
              p: Sequence[float]) -> tuple[list[float], list[float]] | None:
    """Two balls after their collision with throw; None when they neither approach nor
    are pressed together."""
    ra, va, wa = parts(a)
    rb, vb, wb = parts(b)
    n = unit(sub(rb, ra))
    va, wa, vb, wb, gripped = _grip(va, wa, vb, wb, n, p)
    done = _impulse(va, wa, vb, wb, n, p)
    if done is not None:
        va, wa, vb, wb = done
        va, wa, vb, wb, again = _grip(va, wa, vb, wb, n, p)
        if again:
            va, wa, vb, wb = _impulse(va, wa, vb, wb, n, p) or (va, wa, vb, wb)
    pressing = dot(sub(_cloth_acceleration(va, wa, p), _cloth_acceleration(vb, wb, p)), n)
    if (pressing > 0.0 and abs(dot(sub(va, vb), n)) <= pressing * L.PRESS_TIME
            and norm(va) < L.CRAWL and norm(vb) < L.CRAWL):
        rest: Vec = (0.0, 0.0, 0.0)
        return row(ra, rest, (0.0, 0.0, wa[2])), row(rb, rest, (0.0, 0.0, wb[2]))
    if done is None and not gripped:
        return None
    return row(ra, va, wa), row(rb, vb, wb)


def _grip(va: Vec, wa: Vec, vb: Vec, wb: Vec, n: Vec,
          p: Sequence[float]) -> tuple[Vec, Vec, Vec, Vec, bool]:
    relative = sub(va, vb)
    approach = dot(relative, n)
    across = norm(sub(relative, scale(approach, n)))
    pressing = dot(sub(_sliding_acceleration(va, wa, p), _sliding_acceleration(vb, wb, p)), n)
    reach = pressing * L.PRESS_TIME
    if pressing > 0.0 and abs(approach) <= reach and (approach >= 0.0 or across <= reach):
        va, wa = _cloth_grip(va, wa, n, p)
        vb, wb = _cloth_grip(vb, wb, scale(-1.0, n), p)
        return va, wa, vb, wb, True
    return va, wa, vb, wb, False


def _impulse(va: Vec, wa: Vec, vb: Vec, wb: Vec, n: Vec,
             p: Sequence[float]) -> tuple[Vec, Vec, Vec, Vec] | None:
    m, radius = p[L.P_MASS], p[L.P_RADIUS]
    approach = dot(sub(va, vb), n)
    if approach <= 0.0:
        return None
    normal = 0.5 * (1.0 + p[L.P_E_BALL]) * m * approach
    surface_a = add(va, cross(wa, scale(radius, n)))
    surface_b = add(vb, cross(wb, scale(-radius, n)))
    slip = sub(surface_a, surface_b)
    slip = sub(slip, scale(dot(slip, n), n))
    size = norm(slip)
    friction: Vec = (0.0, 0.0, 0.0)
    if size > 0.0:
        mu = p[L.P_THROW_A] + p[L.P_THROW_B] * math.exp(-p[L.P_THROW_C] * size)
        friction = scale(-min(mu * normal, m * size / 7.0) / size, slip)
    impulse_a = add(scale(-normal, n), friction)
    spin = scale(1.0 / (0.4 * m * radius**2), cross(scale(radius, n), impulse_a))
    return (add(va, scale(1.0 / m, flat(impulse_a))), add(wa, spin),
            sub(vb, scale(1.0 / m, flat(impulse_a))), add(wb, spin))


def _cloth_acceleration(v: Vec, w: Vec, p: Sequence[float]) -> Vec:
    """The cloth's pull on a ball, sliding or rolling."""
    if norm(contact_slip(v, w, p[L.P_RADIUS])) > L.SPEED_EPS:
        return _sliding_acceleration(v, w, p)
    if norm(v) > L.SPEED_EPS:
        return scale(-p[L.P_MU_ROLL] * p[L.P_GRAVITY], unit(v))
    return (0.0, 0.0, 0.0)


def _sliding_acceleration(v: Vec, w: Vec, p: Sequence[float]) -> Vec:
    slip = contact_slip(v, w, p[L.P_RADIUS])
    if norm(slip) <= L.SPEED_EPS:
        return (0.0, 0.0, 0.0)
    return scale(-p[L.P_MU_SLIDE] * p[L.P_GRAVITY], unit(slip))


def _cloth_grip(v: Vec, w: Vec, towards: Vec, p: Sequence[float]) -> tuple[Vec, Vec]:
    """The cloth's friction impulse that stops the part of the slip driving the ball along
    ``towards`` (a pushing ball pressed against another)."""
    m, radius = p[L.P_MASS], p[L.P_RADIUS]
    along = dot(contact_slip(v, w, radius), towards)
    if along >= 0.0:
        return v, w
    impulse = scale(-2.0 * m * along / 7.0, towards)
    spin = scale(1.0 / (0.4 * m * radius**2), cross(scale(-radius, Z), impulse))
    return add(v, scale(1.0 / m, impulse)), add(w, spin)


def _cushion_geometry(cushion: int, p: Sequence[float]) -> tuple[Vec, Vec, Vec]:
    """The normal into the cushion, the contact point I from the centre and I's normal."""
    n = NORMALS[cushion]
    s = p[L.P_CUSHION_SIN]
    c = math.sqrt(1.0 - s * s)
    n_i = add(scale(c, n), scale(s, Z))
    return n, scale(p[L.P_RADIUS], n_i), n_i


def _han(v: Vec, w: Vec, cushion: int, p: Sequence[float]) -> tuple[Vec, Vec]:
    m = p[L.P_MASS]
    _, r_i, n_i = _cushion_geometry(cushion, p)
    v_i = add(v, cross(w, r_i))
    approach = dot(v_i, n_i)
    slip = sub(v_i, scale(approach, n_i))
    normal = (1.0 + p[L.P_E_CUSHION]) * m * approach
    # the impulse that stops the slip, its horizontal part along the cushion sprung back
    along = cross(Z, NORMALS[cushion])
    springy = add(slip, scale(p[L.P_CUSHION_GRIP] * dot(slip, along), along))
    tangential = scale(-2.0 * m / 7.0, springy)
    if norm(tangential) > p[L.P_MU_CUSHION] * normal:
        tangential = scale(p[L.P_MU_CUSHION] * normal, unit(tangential))
    impulse = add(scale(-normal, n_i), tangential)
    inertia = 0.4 * m * p[L.P_RADIUS] ** 2
    return add(v, scale(1.0 / m, flat(impulse))), add(w, scale(1.0 / inertia, cross(r_i, impulse)))


def _mathavan(v: Vec, w: Vec, cushion: int, p: Sequence[float]) -> tuple[Vec, Vec]:
    m, radius = p[L.P_MASS], p[L.P_RADIUS]
    mu, mu_cloth, e = p[L.P_MU_CUSHION], p[L.P_MU_SLIDE], p[L.P_E_CUSHION]
    n, r_i, n_i = _cushion_geometry(cushion, p)
    r_c = scale(-radius, Z)
    inertia = 0.4 * m * radius**2
    steps = int(p[L.P_CUSHION_STEPS])
    cos_theta = n_i[0] * n[0] + n_i[1] * n[1]
    dp = (1.0 + e) * m * dot(v, n) / cos_theta / steps
    stored = released = 0.0
    compressing = True
    for _ in range(50 * steps):
        v_i = add(v, cross(w, r_i))
        slip_i = sub(v_i, scale(dot(v_i, n_i), n_i))
        slip_i = scale(min(1.0, norm(slip_i) / (mu * dp * 3.5 / m)) if mu > 0 else 0.0, unit(slip_i))
        at_i = add(scale(-1.0, n_i), scale(-mu, slip_i))          # per unit of normal impulse
        dn = max(0.0, -at_i[2])
        slip_c = flat(add(v, cross(w, r_c)))
        slip_c = scale(min(1.0, norm(slip_c) / (mu_cloth * dn * dp * 3.5 / m)) if mu_cloth * dn > 0 else 0.0,
                       unit(slip_c))
        at_c = add(scale(dn, Z), scale(-mu_cloth * dn, slip_c))
        dv = scale(1.0 / m, flat(add(at_i, at_c)))
        dw = scale(1.0 / inertia, add(cross(r_i, at_i), cross(r_c, at_c)))
        power = dot(v, n_i)
        h, last = dp, False
        if compressing:
            if dot(dv, n) < 0.0 and dot(add(v, scale(h, dv)), n) <= 0.0:
                h, last = -dot(v, n) / dot(dv, n), True
            stored += power * h
        else:
            left = e * e * stored - released
            if -power * h >= left:
                h, last = (left / -power if power < 0.0 else 0.0), True
            released -= power * h
        v, w = add(v, scale(h, dv)), add(w, scale(h, dw))
        if compressing:
            if last:
                v = sub(v, scale(dot(v, n), n))
                compressing = False
                if e == 0.0:
                    break
        elif last:
            break
    return v, w


def ball_cushion(state: Sequence[float], cushion: int, p: Sequence[float]) -> list[float]:
    """One ball after meeting ``cushion`` (unchanged when it is already leaving it)."""
    r, v, w = parts(state)
    n = NORMALS[cushion]
    if dot(v, n) <= -L.REST_SPEED:
        return list(state)
    if dot(v, n) >= L.REST_SPEED:
        if p[L.P_CUSHION_MODEL] == L.CUSHION_MATHAVAN:
            v, w = _mathavan(v, w, cushion, p)
        else:
            v, w = _han(v, w, cushion, p)
    if dot(v, n) > -L.REST_SPEED:
        along = cross(Z, n)
        v = sub(v, scale(dot(v, n), n))
        w = sub(w, scale(dot(w, along), along))
    return row(r, v, w)
