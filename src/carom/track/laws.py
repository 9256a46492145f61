"""The physics the detector reasons with (PHYSICS.md): how balls move between contacts.

Every threshold of the detector is derived from these numbers and from the tracker-error
model (:mod:`carom.track.tracker`): how fast a ball can change its velocity without a
contact (sliding friction), how it slows when rolling, how much a cushion compresses,
how an object ball leaves a contact. None of them is fitted to a labelled match.
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
"""Deceleration of a rolling ball, m/s²."""


def run_out(speed: float) -> float:
    """How far, m, a ball rolling at ``speed`` (m/s) goes before it stops: ``v² / 2a``, ``a``
    :data:`ROLL_DECELERATION`."""
    return speed * speed / (2.0 * ROLL_DECELERATION)


MAX_ROLL_DECELERATION = 0.006 * G
"""The largest deceleration of a rolling ball, m/s² (the top of the measured range of
rolling resistance, 0.004–0.006): a rolling ball keeps its line, and slows no faster."""

SLIP_DECAY = 3.5 * 0.18 * G
"""How fast a sliding ball's slip (the speed of its contact point on the cloth) falls,
m/s², at the bottom of the measured range of sliding friction (0.18): a slip ``u`` is gone,
and the ball rolls, within ``u / SLIP_DECAY`` (``τ = 2u / (7 μs g)``)."""

STRIKE_SLIP = 2.25
"""The largest slip of a ball just set moving, as a multiple of its speed: a cue tip half a
radius off centre gives a spin of ``2.5 · 0.5`` times the speed (draw), against the motion."""

FULL_SLIDE_SPEED = 1.0
"""Above this speed, m/s, a ball may slide (and so change velocity at the full sliding
rate) between any two samples; a slower ball is allowed proportionally less."""

CUSHION_COMPRESSION = 0.012
"""How far a fast ball's centre may sink into the cushion nose beyond ``R``, m (a few mm at
2 m/s, about a centimetre at the fastest speeds)."""

CUSHION_DWELL = 0.010
"""How long a ball stays in contact with a cushion, s (about 5 ms, doubled as a bound)."""

BALL_THROW = 0.12
"""Largest angle, radians (about 7°), between the line of centres and the direction an
object ball leaves in after a hit (collision-induced throw is at most about 5°)."""

THROW_SD = 0.05
"""Standard deviation, radians (about 3°), of the angle between the line of centres and
the direction a struck ball leaves in (collision-induced throw, at most
:data:`BALL_THROW`)."""

REST_SPEED = 0.01
"""Below this speed, m/s, a ball is taken to be at rest."""


CUSHION_NEAR = 0.05
"""A piece of motion that ends within this distance of a cushion line may still be
approaching it when the samples around the contact are missing, m."""

OBJECT_BALL_SLIDE = 0.21 * G
"""Deceleration of a struck (stun) object ball while it slides, m/s² (μs g with the
measured μs = 0.21): used to date the hit from the ball's first samples."""


SPIN_DEFLECTION = 0.5
"""Largest angle, radians (about 30°), between the line of centres and a ball's measured
change of velocity across a contact: the impulse is along the line of centres, but the
velocity measured after it already carries some of the curve that spin gives a sliding
ball."""



CHATTER_WINDOW = 0.06
"""A ball contact and a cushion contact of one ball this close in time, s: the ball may
be caught between the two and meet the cushion again."""

CHATTER_CHANCE = 0.05
"""The chance that it does: the simulator (PHYSICS.md) plays 113 such repeats in 2,437
ball contacts of ball 1 within :data:`CHATTER_WINDOW` of one of its cushion contacts
(4.6 %; 20,000 strokes of :mod:`carom.track.synthetic`, seeds 500,000 on, none of them
among the strokes any figure is measured on)."""

CUSHION_ALONG_CHANGE = 0.30 * (1.0 + 0.95)
"""The largest change of a ball's speed along a cushion at a contact, as a fraction of its
speed into the cushion: the friction impulse at the nose is at most the cushion's friction
(0.15–0.30, PHYSICS.md) times the normal impulse, ``(1 + e)`` times the speed in (``e`` up
to 0.95); side spin takes the ball's speed along the cushion up or down by that much."""

CUSHION_REBOUND_MIN = 0.5
"""The smallest ratio of a ball's speed off a cushion, as the samples after it measure it,
to its speed into it: restitution at the nose 0.80–0.95 (PHYSICS.md), and a rolling ball
comes off at 0.57 of its speed once its topspin has turned against the motion (check 13);
0.5 leaves room. Run back from the motion after a cushion, a ball came in up to twice as
fast as it left."""
