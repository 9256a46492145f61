"""Tracked strokes as values: per ball, the sampled centre ``(t, x, y)``.

Every reader produces these, whatever its input format; the detector reads only them.
Coordinates are those of GEOMETRY.md (metres, origin at the bottom-left cushion
nose), ``t`` in seconds from the start of the stroke.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from carom.core.balls import Ball

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class BallTrack:
    """One ball's samples: times strictly increasing, one ``(x, y)`` per time.

    A ball that never moved has at least one sample (its position); a tracker that
    samples only moving balls gives the first and the last time of the stroke.
    """

    t: FloatArray
    xy: FloatArray
    """Shape ``(n, 2)``."""

    def __len__(self) -> int:
        return int(self.t.shape[0])

    @property
    def first(self) -> tuple[float, float]:
        return (float(self.xy[0, 0]), float(self.xy[0, 1]))

    @property
    def last(self) -> tuple[float, float]:
        return (float(self.xy[-1, 0]), float(self.xy[-1, 1]))


@dataclass(frozen=True, slots=True)
class TrackedStroke:
    """One stroke as a tracker saw it."""

    shot: Any
    """The input's id for the stroke (any JSON value), echoed in every output."""
    cue: Ball
    """The ball the striker played."""
    balls: dict[Ball, BallTrack]
    """Every ball on the table; a ball missing here jumped before it was seen."""
    label: bool | None = None
    """Whether the stroke scored, if the input knows it (for measuring the detector only)."""
    line: int = 0
    """Where the stroke was read, for error messages (1-based; 0: unknown)."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def duration(self) -> float:
        """The time of the last sample of any ball."""
        return max(float(track.t[-1]) for track in self.balls.values())
