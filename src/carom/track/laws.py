"""The physical and measurement constants the detector reasons with (PHYSICS.md).

Every threshold of the detector is derived from these numbers: how fast a ball can
change its velocity without a contact (sliding friction), how it slows when rolling,
how much a cushion compresses, and how noisy a tracked position is. None of them is
fitted to a labelled match.
"""

from __future__ import annotations

G = 9.81
"""Gravity, m/s²."""

MU_SLIDE = 0.25
"""Sliding friction, the top of the measured range 0.18–0.25: a ball with no contact
never changes its velocity faster than ``MU_SLIDE * G`` (about 2.5 m/s²)."""

MU_ROLL = 0.0045
"""Rolling resistance: a rolling ball decelerates at ``MU_ROLL * G`` (0.044 m/s²)."""

MAX_FREE_ACCELERATION = MU_SLIDE * G
"""The largest acceleration a ball can have between contacts, m/s²."""

ROLL_DECELERATION = MU_ROLL * G

FULL_SLIDE_SPEED = 1.0
"""Above this speed, m/s, a ball may slide (and so change velocity at the full sliding
rate) between any two samples; a slower ball is allowed proportionally less."""
"""Deceleration of a rolling ball, m/s²."""

POSITION_NOISE_FLOOR = 0.0005
"""The smallest position noise assumed for a tracker, m (one standard deviation)."""

POSITION_NOISE_CEILING = 0.004
"""The largest per-ball noise estimate believed; a larger one means the track has jumps."""

TIMING_JITTER = 0.0003
"""Uncertainty of a sample's time stamp, s: the along-track error grows as ``speed * jitter``."""

CUSHION_COMPRESSION = 0.012
"""How far a fast ball's centre may sink into the cushion nose beyond ``R``, m (a few mm at
2 m/s, about a centimetre at the fastest speeds)."""

CUSHION_DWELL = 0.010
"""How long a ball stays in contact with a cushion, s (about 5 ms, doubled as a bound)."""

BALL_THROW = 0.12
"""Largest angle, radians (about 7°), between the line of centres and the direction an
object ball leaves in after a hit (collision-induced throw is at most about 5°)."""

REST_SPEED = 0.01
"""Below this speed, m/s, a ball is taken to be at rest."""

CUSHION_CALIBRATION = 0.006
"""How far inside the nominal cushion line, m, a touching ball's centre may be measured:
the contact point lies above the centre (nose 37 mm high, ``R`` 30.75 mm), and a
tracker's calibration at the edge of its picture is good to a few millimetres."""

CUSHION_NEAR = 0.05
"""A piece of motion that ends within this distance of a cushion line may still be
approaching it when the samples around the contact are missing, m."""

OBJECT_BALL_SLIDE = 0.21 * G
"""Deceleration of a struck (stun) object ball while it slides, m/s² (μs g with the
measured μs = 0.21): used to date the hit from the ball's first samples."""

DETECTABLE_NUDGE = 0.003
"""The smallest move of a resting ball a tracker shows reliably, m (a few times the noise)."""

CONTACT_SHAPE_SD = 0.0015
"""Standard deviation of a measured centre distance at a contact beyond the sample noise,
m: trackers measure touching balls worse (merged blobs), and the path between samples
is reconstructed."""

SPIN_DEFLECTION = 0.5
"""Largest angle, radians (about 30°), between the line of centres and a ball's measured
change of velocity across a contact: the impulse is along the line of centres, but the
velocity measured after it already carries some of the curve that spin gives a sliding
ball."""

DETECTABLE_SPEED_CHANGE = 0.05
"""The smallest change of a moving ball's velocity the pieces around it show reliably,
m/s (three standard deviations of a velocity fitted over a few samples at 1 mm noise)."""

CUSHION_DEPTH_SD = 0.003
"""Spread of a cushion contact's measured depth beyond its fitted uncertainty, m: the
paths bend near a cushion (the ball slides after it) and are extended straight."""
