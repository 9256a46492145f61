"""What happens on the table during a stroke, in the order it happened (FORMAT.md).

Every source (a tablet, the simulator, a tracking camera) speaks this vocabulary;
the referee judges it. The list order is the truth; ``t`` is information only.
Balls and cushions may be given by name (``BallContact("white", "red")``); anything
else, a ball touching itself, or a time that is not a finite number raises
:class:`~carom.core.errors.InvalidValue`.
"""

from __future__ import annotations

from dataclasses import dataclass

from carom.core.balls import Ball, Cushion
from carom.core.checks import as_ball, as_cushion, as_time, refuse

_set = object.__setattr__
"""How the constructors below fill a frozen value's fields (as a dataclass's own does)."""


@dataclass(frozen=True, slots=True, init=False)
class BallContact:
    """Two balls touched; ``ball`` is the moving one."""

    ball: Ball
    other: Ball
    t: float | None = None

    def __init__(self, ball: Ball | str, other: Ball | str, t: float | None = None) -> None:
        # written out, not a __post_init__: the reader builds one for every contact it reads
        if type(ball) is not Ball:
            ball = as_ball(ball, "ball")
        if type(other) is not Ball:
            other = as_ball(other, "other")
        if ball is other:
            refuse(f"a ball cannot touch itself ({ball})")
        _set(self, "ball", ball)
        _set(self, "other", other)
        _set(self, "t", t if t is None or (type(t) is float and t - t == 0.0) else as_time(t))

    def involves(self, ball: Ball) -> bool:
        return self.ball is ball or self.other is ball

    def partner(self, ball: Ball) -> Ball:
        """The other ball of the contact, seen from ``ball``."""
        return self.other if self.ball is ball else self.ball


@dataclass(frozen=True, slots=True, init=False)
class CushionContact:
    """A ball touched a cushion."""

    ball: Ball
    cushion: Cushion
    t: float | None = None

    def __init__(self, ball: Ball | str, cushion: Cushion | str, t: float | None = None) -> None:
        _set(self, "ball", ball if type(ball) is Ball else as_ball(ball, "ball"))
        _set(self, "cushion", cushion if type(cushion) is Cushion else as_cushion(cushion, "cushion"))
        _set(self, "t", t if t is None or (type(t) is float and t - t == 0.0) else as_time(t))


@dataclass(frozen=True, slots=True, init=False)
class Jump:
    """A ball left the playing surface or touched the wooden frame (rule F2)."""

    ball: Ball
    t: float | None = None

    def __init__(self, ball: Ball | str, t: float | None = None) -> None:
        _set(self, "ball", ball if type(ball) is Ball else as_ball(ball, "ball"))
        _set(self, "t", t if t is None or (type(t) is float and t - t == 0.0) else as_time(t))


Event = BallContact | CushionContact | Jump

EVENT_TYPES = (BallContact, CushionContact, Jump)
