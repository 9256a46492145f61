"""The cue strike as a value: which ball, how fast, where the tip meets it (PHYSICS.md,
"Cue strike"). What the strike does to the ball is the kernel ``cue.cue_strike``:

The cue, a mass M moving at V along its axis d, meets the ball at the point of its
surface given by the tip offsets ``side`` (a) and ``height`` (b), fractions of R measured
across the cue axis. With an elastic tip and no slip the impulse along d gives the ball
the speed 2V / (1 + m/M + 5/2·(a² + b²)) and the spin (q × J d)/I, q the contact point:
Rω/v = 2.5·b for a level cue, natural roll at b = 0.4. An elevated cue drives the ball
into the cloth; the vertical part of the impulse is taken by the cloth (2-D model),
the spin keeps its massé components. Squirt (Alciatore TP A-31): with side the ball
leaves at an angle α to the cue line, away from the side struck,
tan α = 2.5·a·√(1 − a²) / (1 + m/mₑ + 2.5·(1 − a²)), mₑ the cue's end mass.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from carom.core.balls import Ball, cue_ball_problem
from carom.core.checks import as_ball, as_number, refuse

MISCUE_LIMIT = 0.5
"""Largest tip offset, as a fraction of R, that does not miscue (PHYSICS.md)."""
MAX_CUE_SPEED = 15.0
"""m/s. A hard break is about 8–12 m/s at the tip; beyond 15 m/s no player strikes and
the model (an elastic tip, a 2-D cloth) is not meant to go."""
MAX_ELEVATION = 89.0
"""Degrees: a cue at 89° is upright; 90° would strike straight down into the cloth."""

LIMITS: dict[str, tuple[float, float, str]] = {
    "speed": (0.0, MAX_CUE_SPEED, "m/s"),
    "direction": (-360.0, 360.0, "degrees"),
    "side": (-MISCUE_LIMIT, MISCUE_LIMIT, "R"),
    "height": (-MISCUE_LIMIT, MISCUE_LIMIT, "R"),
    "elevation": (0.0, MAX_ELEVATION, "degrees"),
}
"""The range of each number of a strike, both ends included; side and height together
must also stay within :data:`MISCUE_LIMIT` of the centre."""


def limit_problem(field: str, value: float) -> str | None:
    """Why ``value`` cannot be the strike's ``field`` (a key of :data:`LIMITS`), or ``None``."""
    low, high, unit = LIMITS[field]
    if math.isfinite(value) and low <= value <= high:
        return None
    return f"{value:g} is out of range: from {low:g} to {high:g} {unit}"


def miscue_problem(side: float, height: float) -> str | None:
    """Why the tip offsets miscue, or ``None`` (PHYSICS.md: at most 0.5 R from the centre)."""
    if math.hypot(side, height) <= MISCUE_LIMIT + 1e-12:
        return None
    return f"tip offset ({side:g}, {height:g}) is beyond the miscue limit of {MISCUE_LIMIT} R"


@dataclass(frozen=True, slots=True)
class Strike:
    """A cue strike on ``ball``: cue ``speed`` (m/s), ``direction`` (degrees counter-
    clockwise from +x), tip offsets ``side`` (+ right) and ``height`` (+ above centre) as
    fractions of R, cue ``elevation`` in degrees (0 level)."""

    ball: Ball
    speed: float
    direction: float
    side: float = 0.0
    height: float = 0.0
    elevation: float = 0.0

    def __post_init__(self) -> None:
        """Check what was given: the ball white or yellow, by value or name (O1; red is
        set moving with a ``Motion``, never struck), each number a finite real within
        :data:`LIMITS` (kept as a ``float``), the tip within the miscue limit."""
        ball = as_ball(self.ball)
        problem = cue_ball_problem(ball)
        if problem is not None:
            refuse(f"{problem}; to set red moving, give it a motion", "ball")
        object.__setattr__(self, "ball", ball)
        for field in LIMITS:
            value = as_number(getattr(self, field), f"cue {field}")
            problem = limit_problem(field, value)
            if problem is not None:
                refuse(problem, f"cue {field}")
            object.__setattr__(self, field, value)
        problem = miscue_problem(self.side, self.height)
        if problem is not None:
            refuse(problem)
