"""The motion at each end of a moving piece (``carom.track.reconstruct.pieces``): a ball
rolling slowly, sent by the tracker only every centimetre or two, still has a velocity
at each end, from its last chord, and a turn there is weighed."""

from __future__ import annotations

import numpy as np

from carom.track.reconstruct.pieces import LOCAL_SPAN, make_pieces
from tests.track.development import judged_in_recording


def test_a_ball_sent_seldom_has_a_velocity_at_each_end_of_its_piece() -> None:
    """Rolling out at 4 to 2.5 cm/s, sent every 14 mm: its last two samples lie 0.56 s
    apart, farther than the span an end is fitted over. Fitted on its last sample alone,
    its velocity there was unknown (read as zero, of infinite spread), and the turn a
    ball gave it there was never weighed; the chord gives it."""
    t = np.array([0.0, 0.33, 0.7, 1.1, 1.66])
    xy = np.column_stack((0.5 - 0.014 * np.arange(5), np.full(5, 1.3)))
    assert t[-1] - t[-2] > LOCAL_SPAN and t[1] - t[0] > LOCAL_SPAN
    (piece,) = make_pieces(t, xy, [(0, 4, False)])
    for end, fit in ((t[0], piece.head), (t[-1], piece.tail)):
        vx, vy = fit.velocity(end)
        assert -0.05 < vx < -0.02 and abs(vy) < 1e-9
        assert fit.velocity_sd(end, 0.001) < 0.01


def test_a_ball_that_rolled_out_slowly_and_was_struck_was_struck_by_the_ball_beside_it() -> None:
    """Development stroke 198737, judged in its recording of 50 (from 198700): white,
    rolling out at 3 cm/s and sent every 0.3–0.6 s, was met by yellow, ball 1's third
    ball, and turned; its velocity before the turn was unknown, the turn not weighed, and
    the point lost at 0.999."""
    stroke, ruling = judged_in_recording(198737, 198700)
    assert stroke.verdict.points == 1
    assert ruling.points == 1
