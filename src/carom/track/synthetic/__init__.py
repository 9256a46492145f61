"""Labelled strokes the auto-referee has never seen: simulated, then seen by a simulated
camera tracker. For testing and measuring only; the detector never imports this.

:func:`~carom.track.synthetic.strokes.labelled_stroke` plays one stroke of a kind with
the simulator (:mod:`carom.physics`), judges the true events and sends the paths through
a :class:`~carom.track.synthetic.camera.Camera` drawn from
:class:`~carom.track.synthetic.camera.CameraRanges`;
:func:`~carom.track.synthetic.strokes.labelled_recording` sends many strokes through one
camera, as a recording does.
"""

from __future__ import annotations

from carom.track.synthetic.camera import CAMERAS, EVERY_FRAME, Camera, CameraRanges
from carom.track.synthetic.strokes import (
    KINDS,
    LabelledStroke,
    labelled_recording,
    labelled_recordings,
    labelled_stroke,
    labelled_strokes,
)

__all__ = ["CAMERAS", "EVERY_FRAME", "KINDS", "Camera", "CameraRanges", "LabelledStroke",
           "labelled_recording", "labelled_recordings", "labelled_stroke",
           "labelled_strokes"]
