"""The strike in the coordinates the fit searches: how the ball leaves the cue.

A tracker sees the ball, not the cue: the ball's speed and heading just after the strike
are read off its first samples at once, while the cue speed and the cue's direction
that give them depend on the tip offset (a strike off centre gives a slower ball, and
squirt turns it away from the side struck). So the fit searches the ball's speed and
heading, the tip offsets, the elevation and the moment of the strike, and turns them
into a :class:`~carom.physics.Strike` with the inverse of the cue model
(``carom.physics.cue``; PHYSICS.md, "Cue strike"):

* ball speed on the cloth ``v = 2V·cos θ / (1 + m/M + 5/2·(a² + b²))``, so
  ``V = v·(1 + m/M + 5/2·(a² + b²)) / (2 cos θ)``;
* heading ``φ_ball = φ_cue + α``, ``tan α = 2.5·a·√(1 − a²) / (1 + m/mₑ + 2.5·(1 − a²))``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from carom.core.balls import Ball
from carom.physics.params import Params
from carom.physics.strike import MAX_CUE_SPEED, MAX_ELEVATION, MISCUE_LIMIT, Strike

NAMES = ("speed", "heading", "side", "height", "elevation", "time")
"""The fit's coordinates, in the order of its vectors."""


@dataclass(frozen=True, slots=True)
class Launch:
    """How the struck ball leaves the cue: ``speed`` (m/s on the cloth) and ``heading``
    (degrees counter-clockwise from +x), tip offsets ``side`` and ``height`` (fractions
    of R), cue ``elevation`` (degrees), and ``time``: when the cue struck, in seconds of
    the tracked stroke's clock."""

    speed: float
    heading: float
    side: float
    height: float
    elevation: float
    time: float

    def vector(self) -> np.ndarray:
        return np.array([self.speed, self.heading, self.side, self.height, self.elevation, self.time])

    @classmethod
    def of(cls, x: np.ndarray) -> Launch:
        return cls(*(float(v) for v in x))


def squirt(side: float, params: Params) -> float:
    """Degrees the ball turns from the cue's line, away from the side struck."""
    if params.cue_end_mass <= 0.0 or side == 0.0:
        return 0.0
    rest = 1.0 - side * side
    ratio = params.ball_mass / params.cue_end_mass
    return math.degrees(math.atan(2.5 * side * math.sqrt(rest) / (1.0 + ratio + 2.5 * rest)))


def within_miscue(side: float, height: float) -> tuple[float, float]:
    """The tip offsets, brought onto the miscue circle where they lie beyond it (the
    fit's bounds are a square around it)."""
    h = math.hypot(side, height)
    if h <= MISCUE_LIMIT:
        return side, height
    return side * MISCUE_LIMIT / h, height * MISCUE_LIMIT / h


def strike_of(launch: Launch, ball: Ball, params: Params) -> Strike:
    """The cue strike that launches ``ball`` so (cue speed held to the strike's range)."""
    side, height = within_miscue(launch.side, launch.height)
    elevation = min(max(launch.elevation, 0.0), MAX_ELEVATION)
    spread = 1.0 + params.ball_mass / params.cue_mass + 2.5 * (side * side + height * height)
    speed = launch.speed * spread / (2.0 * math.cos(math.radians(elevation)))
    direction = math.remainder(launch.heading - squirt(side, params), 360.0)
    return Strike(ball, min(max(speed, 0.0), MAX_CUE_SPEED), direction, side, height, elevation)


def launch_of(strike: Strike, time: float, params: Params) -> Launch:
    """The launch a strike gives (the inverse of :func:`strike_of`)."""
    spread = 1.0 + params.ball_mass / params.cue_mass + 2.5 * (strike.side ** 2 + strike.height ** 2)
    speed = 2.0 * strike.speed * math.cos(math.radians(strike.elevation)) / spread
    heading = math.remainder(strike.direction + squirt(strike.side, params), 360.0)
    return Launch(speed, heading, strike.side, strike.height, strike.elevation, time)
