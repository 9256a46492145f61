"""Labelled strokes the auto-referee has never seen: simulated, then seen by a simulated
camera tracker. For testing and measuring only; the detector never imports this.

:func:`~carom.track.synthetic.strokes.labelled_stroke` plays one stroke of a kind with
the simulator (:mod:`carom.physics`), judges the true events and sends the paths through
a camera drawn from a family (:mod:`carom.track.synthetic.camera`: :data:`REAL`, fitted
to the real match file's camera, the default; the families of :data:`TEST_ONLY`, for
measuring only) or from the harsh ranges of the first nineteen rounds
(:mod:`carom.track.synthetic.harsh`); :func:`~carom.track.synthetic.strokes.labelled_recording`
sends many strokes through one camera, as a recording does.
"""

from __future__ import annotations

from carom.track.synthetic.camera import REAL, REAL_EVERY_FRAME, TEST_ONLY, Camera, Family
from carom.track.synthetic.harsh import HARSH_EVERY_FRAME, HarshCamera, HarshRanges
from carom.track.synthetic.strokes import (
    KINDS,
    Cameras,
    LabelledStroke,
    labelled_recording,
    labelled_recordings,
    labelled_stroke,
    labelled_strokes,
)

CAMERAS: dict[str, Cameras] = {"real": REAL, **{family.name: family for family in TEST_ONLY},
                               "harsh": HarshRanges(), "harsh-every-frame": HARSH_EVERY_FRAME,
                               REAL_EVERY_FRAME.name: REAL_EVERY_FRAME}
"""Every family of cameras by name: ``real`` (the default), the test-only families, the harsh
cameras the first nineteen rounds were developed on (``harsh``: resting balls sent once they
moved, a quarter of the cameras sending every frame of a moving ball; ``harsh-every-frame``:
every frame of every ball), and ``real-every-frame`` (the real camera sending every frame of
every ball). The order gives each family its block of seeds in the benchmarks."""

__all__ = ["CAMERAS", "HARSH_EVERY_FRAME", "KINDS", "REAL", "REAL_EVERY_FRAME", "TEST_ONLY", "Camera",
           "Cameras", "Family", "HarshCamera", "HarshRanges", "LabelledStroke", "labelled_recording",
           "labelled_recordings", "labelled_stroke", "labelled_strokes"]
