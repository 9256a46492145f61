"""What happens on the table during a stroke, in the order it happened (FORMAT.md).

Every source (a tablet, the simulator, a tracking camera) speaks this vocabulary;
the referee judges it. The list order is the truth; ``t`` is information only.
"""

from __future__ import annotations

from dataclasses import dataclass

from carom.core.balls import Ball, Cushion


@dataclass(frozen=True, slots=True)
class BallContact:
    """Two balls touched; ``ball`` is the moving one."""

    ball: Ball
    other: Ball
    t: float | None = None

    def involves(self, ball: Ball) -> bool:
        return self.ball is ball or self.other is ball

    def partner(self, ball: Ball) -> Ball:
        """The other ball of the contact, seen from ``ball``."""
        return self.other if self.ball is ball else self.ball


@dataclass(frozen=True, slots=True)
class CushionContact:
    """A ball touched a cushion."""

    ball: Ball
    cushion: Cushion
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Jump:
    """A ball left the playing surface or touched the wooden frame (rule F2)."""

    ball: Ball
    t: float | None = None


Event = BallContact | CushionContact | Jump
