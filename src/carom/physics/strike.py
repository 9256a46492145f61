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

from carom.core.balls import Ball
from carom.core.errors import CaromError

MISCUE_LIMIT = 0.5
"""Largest tip offset, as a fraction of R, that does not miscue (PHYSICS.md)."""


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
        if not self.speed >= 0.0 or math.isinf(self.speed):
            raise CaromError(f"cue speed must be a finite number ≥ 0, not {self.speed!r}")
        if not math.isfinite(self.direction):
            raise CaromError(f"direction must be finite, not {self.direction!r}")
        if math.hypot(self.side, self.height) > MISCUE_LIMIT + 1e-12:
            raise CaromError(f"tip offset ({self.side}, {self.height}) is beyond the miscue limit "
                             f"of {MISCUE_LIMIT} R")
        if not 0.0 <= self.elevation < 90.0:
            raise CaromError(f"cue elevation must lie in [0, 90) degrees, not {self.elevation!r}")
