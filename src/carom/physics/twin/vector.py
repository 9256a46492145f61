"""Three-vectors as tuples, for the twins."""

from __future__ import annotations

import math

Vec = tuple[float, float, float]

Z: Vec = (0.0, 0.0, 1.0)


def add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def scale(k: float, a: Vec) -> Vec:
    return (k * a[0], k * a[1], k * a[2])


def dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def norm(a: Vec) -> float:
    return math.sqrt(dot(a, a))


def unit(a: Vec) -> Vec:
    n = norm(a)
    return scale(1.0 / n, a) if n > 0.0 else (0.0, 0.0, 0.0)


def flat(a: Vec) -> Vec:
    """The horizontal part."""
    return (a[0], a[1], 0.0)
