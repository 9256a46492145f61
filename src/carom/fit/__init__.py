"""The stroke read back from the table (docs/fit.md).

``fit_stroke(tracked, table)`` finds the cue strike (speed, direction, tip offsets,
elevation, and the moment it happened) that makes the simulator (``carom.physics``)
reproduce a tracked stroke (``carom.track``'s public reader), with its uncertainty and
how well the re-simulated stroke follows every ball; ``what_if(fitted, side=0.2)`` plays
it again with a field changed; ``agreement`` compares the re-simulated stroke's first
contact, cushions and ruling with the recording's. A leaf: it stands on the simulator,
the tracked-data reader, the referee and SciPy.
"""

from __future__ import annotations

from carom.fit.agreement import Agreement, agreement
from carom.fit.search import Budget
from carom.fit.stroke import FittedStroke, fit_stroke, what_if

__all__ = ["Agreement", "Budget", "FittedStroke", "agreement", "fit_stroke", "what_if"]
