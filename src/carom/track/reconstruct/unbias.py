"""A stroke's samples with the camera's bias near other balls taken out.

A camera tracker moves the centres of two close balls along the line between them, apart
or together, by ``b · exp(-c / BIAS_REACH)`` each at a clearance ``c`` beyond ``2R``
(:mod:`carom.track.reconstruct.bias`, where a recording measures ``b``). Left in, the bias
bends a ball's samples as it passes another, makes a resting ball look nudged, and puts a
thin touch's centres up to ``2b`` too far apart (or a near pass's too close). With ``b``
measured over the recording, each sample is moved back by the bias at the clearance the
stroke's first reconstruction puts the two balls at then, and the stroke is read again.
"""

from __future__ import annotations

import numpy as np

from carom.core.balls import Ball
from carom.track import tracker
from carom.track.reconstruct.trajectory import BallPath
from carom.track.samples import BallTrack, TrackedStroke


def unbiased(stroke: TrackedStroke, paths: dict[Ball, BallPath], bias: tracker.CameraBias,
             diameter: float) -> TrackedStroke:
    """``stroke`` with every sample moved back by ``bias`` at the clearance ``paths`` (a
    reconstruction of the same stroke) give its ball and each other ball at its time."""
    balls: dict[Ball, BallTrack] = {}
    for ball, track in stroke.balls.items():
        own = paths[ball].centres(track.t)
        xy = track.xy.copy()
        for other, path in paths.items():
            if other is ball:
                continue
            line = own - path.centres(track.t)
            gap = np.hypot(line[:, 0], line[:, 1])
            shift = bias.value * np.exp(-np.maximum(gap - diameter, 0.0) / tracker.BIAS_REACH)
            xy -= line / np.maximum(gap, 1e-9)[:, None] * shift[:, None]
        balls[ball] = BallTrack(track.t, xy)
    return TrackedStroke(stroke.shot, stroke.cue, balls, stroke.label, stroke.line, stroke.extra)

