"""Doubts about what the camera let the auto-referee see: balls that moved unseen, and a
camera noisier or losing more frames than the auto-referee was validated on.

The confidence (:mod:`carom.track.judging.explanation`) weighs what the samples say. Two
things it cannot weigh make a stroke doubtful whatever its confidence, each a doubt about the
recording (no probability):

* a ball that moved, between two of its samples, as far as several samples would have shown
  it (:func:`~carom.track.sampling.hidden_moves`) where its motion on either side does not
  carry it across (the gap holds a start, a stop or a turn): the tracker lost it, and what
  it met there is a guess;
* a recording whose camera is noisier, or loses more frames, than any on which the
  calibration of the confidence was measured (:data:`VALIDATED_NOISE`,
  :data:`VALIDATED_LOSS`).
"""

from __future__ import annotations

from dataclasses import dataclass

from carom.core.balls import Ball
from carom.notation.said import Said
from carom.track.judging.confidence import Doubt
from carom.track.reconstruct.ballmotion import BallMotion
from carom.track.samples import TrackedStroke
from carom.track.sampling import Sending, hidden_moves, intervals

VALIDATED_NOISE = 0.002
"""The most noise, m per coordinate, of the cameras on which the confidence's calibration
was measured to hold, as the detector measures a recording's noise (its noisiest ball's
median estimate): the harsh cameras (0.3–1.5 mm of noise and up to 1 ms of blur along the
motion) read 0.7–1.8 mm over 20 recordings of 50 (docs/auto-referee.md, "Measured")."""

VALIDATED_LOSS = 0.5
"""The most frames lost of the cameras on which it was measured to hold (the test family
``half-lost``)."""

LOSS_FRAMES = 200
"""A recording's loss is weighed from this many frames due (fewer tell too little: over
200 frames a loss of half of them is measured to ±3.5 %, one binomial standard deviation,
far from the real file's 0.0–0.2 %)."""


@dataclass(frozen=True, slots=True)
class CameraSeen:
    """What the doubts need of a recording's camera: the way it sends the balls
    (:func:`~carom.track.sampling.sending`) and its noise on its noisiest ball, m (the median
    of that ball's noise over the recording's strokes, as the detector measures it:
    :func:`~carom.track.judging.recording.ball_noise`)."""

    sent: Sending
    noise: float


def camera_doubts(tracked: TrackedStroke, motions: dict[Ball, BallMotion], seen: CameraSeen) -> list[Doubt]:
    """The doubts about the camera a stroke's reading (its ``motions``) rests on."""
    out: list[Doubt] = []
    sent = seen.sent
    steps = intervals([tracked], sent.frame_period, inner=False)
    for gap in hidden_moves(steps, sent.send_step_top, sent.frame_period):
        if not _carried(motions[gap.ball], gap.t0, gap.t1):
            said = Said("%(ball)s moved %(cm)s cm between %(t0)s s and %(t1)s s with no sample: the tracker "
                        "lost it, and what it met there is not seen", ball=gap.ball,
                        cm=format(gap.chord * 100, ".0f"), t0=format(gap.t0, ".2f"), t1=format(gap.t1, ".2f"))
            out.append(Doubt(None, said))
    if seen.noise > VALIDATED_NOISE:
        said = Said("the camera's samples scatter by %(noise)s mm, more than on any camera the auto-referee "
                    "was checked on (%(checked)s mm)", noise=format(seen.noise * 1000, ".1f"),
                    checked=format(VALIDATED_NOISE * 1000, ".1f"))
        out.append(Doubt(None, said))
    frames = sum(b.frames for b in sent.loss)
    rate = sent.loss_rate
    if rate is not None and frames >= LOSS_FRAMES and rate > VALIDATED_LOSS:
        said = Said("the camera lost %(rate)s %% of the frames, more than any camera the auto-referee was "
                    "checked on (%(checked)s %%)", rate=format(100.0 * rate, ".0f"),
                    checked=format(100.0 * VALIDATED_LOSS, ".0f"))
        out.append(Doubt(None, said))
    return out


def _carried(motion: BallMotion, t0: float, t1: float) -> bool:
    """Whether one piece of the ball's motion holds the samples at ``t0`` and ``t1``: its
    motion on either side of the gap carries it across, and nothing happened in it."""
    return any(not p.rest and p.t0 <= t0 + 1e-9 and t1 <= p.t1 + 1e-9 for p in motion.pieces)
