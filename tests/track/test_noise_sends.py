"""A send-on-move tracker's samples of a resting ball: the one frame of many whose noise
reached the send step is sent, so its distance from the sample before sits at the step,
not at the noise. The tracker-error model weighs that selection, and a sample sent so,
with no ball near, is set aside as the noise's tail; a ball that really left keeps its
samples."""

from __future__ import annotations

import numpy as np

from carom.core.balls import Ball
from carom.track.reconstruct.ballmotion import reconstruct_all
from carom.track.reconstruct.rests import noise_sends
from carom.track.samples import BallTrack
from carom.track.sampling import Sending
from carom.track.tracker import DEFAULT_MODEL, SendRule

D = 0.0615
"""A ball's diameter, m."""

NOISY = SendRule(0.0199, 0.0149)
"""A camera of the ``noisy`` family: 50 frames a second, a ball sent once it moved 14.9 mm."""

RED_T = np.array([0.0, 0.219, 10.234, 10.612, 13.898, 13.997, 14.336])
RED_XY = np.array([[0.4848, 1.0259], [0.4923, 1.0410], [0.4714, 1.0542], [0.4539, 1.0638],
                   [0.4441, 1.0849], [0.4492, 1.0687], [0.4466, 1.0754]])
"""A resting red seen by a camera with 3.8 mm of noise: sent at 0.219 s 16.9 mm from its
first sample, by its noise alone, then nothing for ten seconds until white set it moving
(a development stroke of the ``noisy`` family, its samples as sent)."""

FAR = [(np.array([0.0, 14.336]), np.array([[1.2, 2.0], [1.2, 2.0]]))]
"""Another ball that never came near the red."""


def test_a_still_balls_sample_at_the_send_step_is_weighed_as_what_its_noise_sends() -> None:
    """16.9 mm at 3.8 mm of noise is in the tail of two plain measurements (a move,
    0.93); as the one frame of 500 whose noise reached the 14.9 mm step, it is what a
    still ball sends (below one half). A step shorter than the send step is not one the
    rule sent of a still ball, and weighs as before."""
    sent = NOISY.sent(0.0, 10.0)
    assert DEFAULT_MODEL.moved_probability(0.0169, 0.0038) > 0.9
    assert DEFAULT_MODEL.moved_probability(0.0169, 0.0038, sent=sent) < 0.5
    below = DEFAULT_MODEL.moved_probability(0.012, 0.0038)
    assert DEFAULT_MODEL.moved_probability(0.012, 0.0038, sent=sent) == below


def test_at_the_real_cameras_noise_the_selection_changes_nothing() -> None:
    """The real match's camera: 0.5 mm of noise (the floor) against a 14.6 mm step. No
    still ball's noise reaches the step, and a sample at it is a move, as before."""
    sent = SendRule(0.0199, 0.0146).sent(0.0, 10.0)
    for d in (0.0146, 0.015, 0.02, 0.03):
        plain = DEFAULT_MODEL.moved_probability(d, 0.0005)
        assert DEFAULT_MODEL.moved_probability(d, 0.0005, sent=sent) == plain


def test_a_resting_ball_sent_once_by_its_noise_then_silent_rests_until_it_is_set_moving() -> None:
    """Read with the recording's send rule, the red rests until white sets it moving
    after ten seconds; without it, its noise-sent sample starts a creep of 25 mm over
    those ten seconds, and white's contact with it at 9.75 s finds it 31 mm away."""
    track = BallTrack(RED_T, RED_XY)
    assert not noise_sends(RED_T, RED_XY, 0.0038, NOISY, FAR, D)[1]
    white = BallTrack(*FAR[0])
    for rule, left_by in ((NOISY, 10.0), (None, 0.3)):
        red = reconstruct_all([(Ball.RED, track, 0.0038), (Ball.WHITE, white, 0.0038)], D, rule)[Ball.RED]
        assert red.pieces[0].rest
        assert (red.joins[0].t_hi > left_by) if rule else (red.joins[0].t_hi < left_by)


def test_a_ball_that_came_near_keeps_its_sample_at_the_send_step() -> None:
    """The same samples with white passing 3 cm from the red at 0.1 s: a ball may have
    moved it, and whether it did is weighed where the contacts are; the sample stays."""
    near = [(np.array([0.0, 0.1, 14.336]), np.array([[0.6, 1.2], [0.4848 - D - 0.03, 1.0259], [0.2, 1.5]]))]
    assert noise_sends(RED_T, RED_XY, 0.0038, NOISY, near, D).all()


def test_a_slow_departure_keeps_its_samples() -> None:
    """A ball leaving slowly on its own line, no ball seen near (its hitter lost): its
    first sample at the step after a long rest may be set aside as noise, but the next,
    twice the step out, is no still ball's, and the move is read from it (at 3.8 mm of
    noise, steps of 14–16 mm read as nudges)."""
    t = np.array([0.0, 2.0, 2.3, 2.7, 3.3, 8.0])
    xy = np.array([[0.5, 1.0], [0.516, 1.0], [0.532, 1.0], [0.548, 1.0], [0.562, 1.0], [0.566, 1.0]])
    keep = noise_sends(t, xy, 0.0038, NOISY, FAR, D)
    assert keep[2:].all()
    motion = reconstruct_all([(Ball.RED, BallTrack(t, xy), 0.0038)], D, NOISY)[Ball.RED]
    assert motion.moved
    assert motion.joins[0].t_hi <= 2.7


def test_a_real_cameras_move_at_the_send_step_keeps_its_sample() -> None:
    """At 0.5 mm of noise a sample 16 mm from a resting ball's first is a move whatever
    came near: no still ball's noise reaches the step."""
    t = np.array([0.0, 2.0, 8.0])
    xy = np.array([[0.5, 1.0], [0.516, 1.0], [0.516, 1.0]])
    assert noise_sends(t, xy, 0.0005, SendRule(0.0199, 0.0146), FAR, D).all()


def test_the_rule_is_the_recordings_measured_send_step() -> None:
    """The rule is the recording's: its frame and the least step it sends a ball after;
    a tracker that sends every frame, or whose frame its samples do not show, has none."""
    assert Sending(0.0199, 0.0149, 0.026, ()).rule == NOISY
    assert Sending(0.0199, 0.0, 0.0, ()).rule is None
    assert Sending(None, 0.0149, 0.026, ()).rule is None
