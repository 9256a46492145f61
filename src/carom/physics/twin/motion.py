"""Twin of ``carom.physics.motion``: one ball's motion, in vectors (PHYSICS.md,
"Motion states"; checks 1–3)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from carom.physics import layout as L
from carom.physics.twin.vector import Vec, Z, add, cross, flat, norm, scale, unit


def parts(state: Sequence[float]) -> tuple[Vec, Vec, Vec]:
    """Centre, velocity and spin of a state row as vectors."""
    return ((state[L.X], state[L.Y], 0.0), (state[L.VX], state[L.VY], 0.0),
            (state[L.WX], state[L.WY], state[L.WZ]))


def row(r: Vec, v: Vec, w: Vec) -> list[float]:
    return [r[0], r[1], v[0], v[1], w[0], w[1], w[2]]


def contact_slip(v: Vec, w: Vec, radius: float) -> Vec:
    """Velocity of the point touching the cloth: v + ω × (−R ẑ)."""
    return flat(add(v, cross(w, scale(-radius, Z))))


def transition_time(state: Sequence[float], mode: int, p: Sequence[float]) -> float:
    _, v, w = parts(state)
    g = p[L.P_GRAVITY]
    if mode == L.SLIDING:
        return 2.0 * norm(contact_slip(v, w, p[L.P_RADIUS])) / (7.0 * p[L.P_MU_SLIDE] * g)
    if mode == L.ROLLING:
        return norm(v) / (p[L.P_MU_ROLL] * g)
    if mode == L.SPINNING:
        return abs(w[2]) / p[L.P_SPIN_DECAY] if p[L.P_SPIN_DECAY] > 0 else math.inf
    return math.inf


def _spin_z(wz: float, t: float, decay: float) -> float:
    return math.copysign(max(abs(wz) - decay * t, 0.0), wz) if wz != 0.0 else 0.0


def _within(state: Sequence[float], mode: int, t: float, p: Sequence[float]) -> list[float]:
    """The state after ``t`` seconds that stay inside ``mode``."""
    r, v, w = parts(state)
    radius = p[L.P_RADIUS]
    wz = _spin_z(w[2], t, p[L.P_SPIN_DECAY])
    if mode == L.SLIDING:
        direction = unit(contact_slip(v, w, radius))
        force = scale(-p[L.P_MU_SLIDE] * p[L.P_GRAVITY], direction)  # per unit mass
        torque = cross(scale(-radius, Z), force)                      # per unit mass
        alpha = scale(2.5 / radius**2, torque)
        r = add(add(r, scale(t, v)), scale(0.5 * t * t, force))
        v = add(v, scale(t, force))
        w = add(w, scale(t, alpha))
        return row(r, v, (w[0], w[1], wz))
    if mode == L.ROLLING:
        direction = unit(v)
        decel = p[L.P_MU_ROLL] * p[L.P_GRAVITY]
        r = add(add(r, scale(t, v)), scale(-0.5 * decel * t * t, direction))
        v = scale(norm(v) - decel * t, direction)
        return row(r, v, (-v[1] / radius, v[0] / radius, wz))
    return row(r, (0.0, 0.0, 0.0), (0.0, 0.0, wz))


def _next(state: list[float], mode: int, p: Sequence[float]) -> tuple[list[float], int]:
    """The state and mode that follow the end of ``mode``."""
    r, v, w = parts(state)
    radius = p[L.P_RADIUS]
    if mode == L.SLIDING and norm(v) > L.SPEED_EPS:
        return row(r, v, (-v[1] / radius, v[0] / radius, w[2])), L.ROLLING
    if mode in (L.SLIDING, L.ROLLING) and w[2] != 0.0 and p[L.P_SPIN_DECAY] > 0:
        return row(r, (0.0, 0.0, 0.0), (0.0, 0.0, w[2])), L.SPINNING
    return row(r, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)), L.RESTING


def evolve(state: Sequence[float], mode: int, dt: float, p: Sequence[float]) -> tuple[list[float], int]:
    """The state and mode after ``dt`` seconds, through every mode passed."""
    s = list(state)
    left = dt
    while mode != L.RESTING:
        end = transition_time(s, mode, p)
        if left < end:
            return _within(s, mode, left, p), mode
        s = _within(s, mode, end, p)
        left -= end
        s, mode = _next(s, mode, p)
    return s, mode


def settle(state: Sequence[float], p: Sequence[float]) -> tuple[list[float], int]:
    """Twin of ``motion.settle``: the mode a state is in, and the state made consistent."""
    r, v, w = parts(state)
    radius = p[L.P_RADIUS]
    if norm(contact_slip(v, w, radius)) > L.SPEED_EPS:
        return list(state), L.SLIDING
    if norm(v) > L.SPEED_EPS:
        return row(r, v, (-v[1] / radius, v[0] / radius, w[2])), L.ROLLING
    return row(r, (0.0, 0.0, 0.0), (0.0, 0.0, w[2])), (L.SPINNING if w[2] != 0.0 else L.RESTING)


def acceleration(state: Sequence[float], mode: int, p: Sequence[float]) -> Vec:
    _, v, w = parts(state)
    if mode == L.SLIDING:
        return scale(-p[L.P_MU_SLIDE] * p[L.P_GRAVITY], unit(contact_slip(v, w, p[L.P_RADIUS])))
    if mode == L.ROLLING:
        return scale(-p[L.P_MU_ROLL] * p[L.P_GRAVITY], unit(v))
    return (0.0, 0.0, 0.0)


def kinetic_energy(state: Sequence[float], p: Sequence[float]) -> float:
    """½ m v² + ½ I ω² of one ball (check 6)."""
    _, v, w = parts(state)
    m, radius = p[L.P_MASS], p[L.P_RADIUS]
    return 0.5 * m * (v[0] ** 2 + v[1] ** 2) + 0.2 * m * radius**2 * (w[0] ** 2 + w[1] ** 2 + w[2] ** 2)
