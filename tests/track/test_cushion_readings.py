"""Cushion contacts read from the samples on either side of a join (the method of images)."""

from __future__ import annotations

import numpy as np

from carom.core.balls import Ball, Cushion
from carom.core.table import TABLES
from carom.track.contacts.cushion_contacts import cushion_hits
from carom.track.reconstruct.ballmotion import reconstruct
from carom.track.samples import BallTrack
from tests.track.development import judged_in_recording

LARGE = TABLES["large"]
PERIOD = 0.0375


def _line(start: tuple[float, float], velocity: tuple[float, float], t: np.ndarray, t0: float) -> np.ndarray:
    return np.asarray(start) + (t - t0)[:, None] * np.asarray(velocity)


def _hit_then_turned() -> BallTrack:
    """Yellow runs up the table into the right cushion (line at x = 1.389 m) at 5 m/s,
    is seen once just after it, then a ball it meets a few centimetres on turns it: the
    motion before carried on and the motion after run back both cross the right
    cushion, on either side of the lone sample between them (samples every 37.5 ms)."""
    before_t = PERIOD * np.arange(0, 8)
    before = _line((1.3639, 1.0976), (1.36, 4.9), before_t, before_t[-1])
    lone_t, lone = np.array([before_t[-1] + PERIOD]), np.array([[1.3669, 1.2772]])
    after_t = lone_t[0] + PERIOD * np.arange(2, 6)
    after = _line((1.2473, 1.5884), (-2.1, 4.0), after_t, after_t[0])
    rest_t = np.array([after_t[-1] + 0.5, after_t[-1] + 1.0])
    rest = np.repeat(after[-1:] + 0.0, 2, axis=0)
    t = np.concatenate((before_t, lone_t, after_t, rest_t))
    xy = np.concatenate((before, lone, after, rest))
    xy = xy + np.random.default_rng(3).normal(0.0, 0.0005, xy.shape)
    return BallTrack(t, xy)


def test_the_motions_before_and_after_a_lone_sample_read_one_cushion_contact_not_two() -> None:
    motion = reconstruct(Ball.YELLOW, _hit_then_turned(), 0.0005)
    hits = [h for h in cushion_hits(motion, LARGE, []) if h.cushion is Cushion.RIGHT and h.probability > 0.5]
    assert len(hits) == 1
    assert hits[0].t < 0.3  # before the lone sample, which shows it coming off


def _along_the_cushion(seed: int) -> BallTrack:
    """Yellow rolling out slowly (0.1 m/s) along the right cushion, its centre 3 mm
    inside the cushion line (not touching it), sampled every 25 ms with 1.2 mm of noise."""
    t = np.arange(0.0, 1.6, 0.025)
    speed, slow = 0.1, 0.0625
    along = speed * t - 0.5 * slow * t * t
    xy = np.column_stack((np.full(t.shape, LARGE.width - LARGE.ball_radius - 0.003), 1.0 + along))
    xy = xy + np.random.default_rng(seed).normal(0.0, 0.0012, xy.shape)
    t = np.concatenate((t, [t[-1] + 2.0]))
    return BallTrack(t, np.concatenate((xy, xy[-1:])))


def test_a_ball_rolling_along_a_cushion_does_not_touch_it_at_every_wiggle_of_the_noise() -> None:
    """Its normal speed is within the noise, so the fits before and after each sample
    nearest the cushion turn sign by chance: a contact needs the normal velocity to
    change by more than that noise shows."""
    found = 0
    for seed in range(10):
        motion = reconstruct(Ball.YELLOW, _along_the_cushion(seed), 0.0012)
        found += sum(h.probability > 0.5 for h in cushion_hits(motion, LARGE, []))
    assert found == 0


def _struck_then_cushion() -> BallTrack:
    """White struck from rest at 3 m/s towards the right cushion, samples every 22 ms: two
    lone samples (it met a ball on the way, which turned it), the cushion between the
    second and the next, then a clean run away from it up the table."""
    t = np.array([0.0, 0.022, 0.044])
    xy = np.array([[1.2231, 0.3544], [1.2819, 0.3716], [1.3525, 0.4485]])
    after_t = 0.067 + 0.022 * np.arange(10)
    after = _line((1.3612, 0.5209), (-2.4, 2.8), after_t, after_t[0])
    t = np.concatenate((t, after_t, [after_t[-1] + 1.0]))
    xy = np.concatenate((xy, after, after[-1:]))
    xy = xy + np.random.default_rng(5).normal(0.0, 0.0005, xy.shape)
    return BallTrack(t, xy)


def test_a_cushion_inside_the_join_where_a_ball_started_is_read_from_the_motion_after() -> None:
    """The ball's start and its next events lie in one join (lone samples inside): the
    motion after, run back, crosses the right cushion before the last lone sample, which
    lies where a reflection puts it."""
    motion = reconstruct(Ball.WHITE, _struck_then_cushion(), 0.0005)
    (start,) = [j for j in motion.joins if j.kind == "start"]
    assert start.via
    hits = [h for h in cushion_hits(motion, LARGE, []) if h.cushion is Cushion.RIGHT and h.probability > 0.5]
    assert len(hits) == 1
    assert 0.044 < hits[0].t < 0.067


def test_side_spin_may_change_a_balls_speed_along_a_cushion_by_the_friction_impulse() -> None:
    """White runs into the top cushion at 3.6 m/s, nearly square (0.1 m/s along it), and
    the one sample before a ball turns it lies 17 mm along the cushion from where a
    mirror puts it: side spin at the nose changes the speed along the cushion by up to
    the friction impulse (``CUSHION_ALONG_CHANGE`` times the speed in), not only by a
    share of the speed along it. A slow ball cannot be thrown so far: no reflection."""
    from carom.track.contacts.cushion_contacts import _reflected
    from carom.track.reconstruct.geometry import cushion_lines

    top = next(line for line in cushion_lines(LARGE) if line.cushion is Cushion.TOP)
    p0, p1, dt = (0.7029, 2.7706), (0.6896, 2.7381), 0.04
    reach = top.depth(np.array(p0)) / 3.6
    assert _reflected(top, p0, (0.1, 3.6), dt, reach, p1, 0.001)
    # a slow ball (0.3 m/s in) thrown 30 mm along in the 70 ms after the cushion: no
    y_line = LARGE.length - LARGE.ball_radius
    p0 = (0.7029, y_line - 0.009)
    reach = 0.009 / 0.3
    q = (p0[0] + 0.1 * 0.1, p0[1] + 0.3 * 0.1)
    mirrored = (q[0] + 0.030, 2.0 * y_line - q[1])
    assert not _reflected(top, p0, (0.1, 0.3), 0.1, reach, mirrored, 0.001)
    assert _reflected(top, p0, (0.1, 0.3), 0.1, reach, (q[0] + 0.010, mirrored[1]), 0.001)


def test_run_back_from_the_motion_after_a_cushion_a_ball_came_in_faster_than_it_left() -> None:
    """White leaves the left cushion at (2.19, 2.26) m/s; the sample 78 ms before its first
    one after the cushion lies 124 mm from the cushion's line, where the motion after, run
    back and mirrored, puts it at 85 mm: it came in at 3.2 m/s into the cushion and left
    at 2.2 (a ball comes off a cushion slower than it went in). Forward, from the motion
    before, a sample farther than the mirror image is no reflection."""
    from carom.track.contacts.cushion_contacts import _reflected
    from carom.track.reconstruct.geometry import cushion_lines

    left = next(line for line in cushion_lines(LARGE) if line.cushion is Cushion.LEFT)
    p0, p1, dt = (0.1169, 2.4020), (0.1545, 2.2270), 0.078
    v = (-2.19, -2.26)  # run back
    reach = left.depth(np.array(p0)) / 2.19
    assert _reflected(left, p0, v, dt, reach, p1, 0.002, backwards=True)
    assert not _reflected(left, p0, v, dt, reach, p1, 0.002)


def _into_and_along(seed: int, short: float = 0.0, pressing: float = 0.0) -> BallTrack:
    """Yellow runs into the top cushion (line at y = 2.809 m) at 0.15 m/s across it and
    0.25 m/s along it, reaches it at 0.27 s and slides along it (the cushion took its
    speed into it, none came back), samples every 40 ms with 0.7 mm of noise; after the
    contact its samples lie ``short`` of the line and run back to it at ``pressing``
    (m/s), still pressed into the cushion."""
    t = 0.04 * np.arange(0, 40)
    line = 2.80925
    y = np.where(t < 0.27, 2.76925 + 0.15 * t, np.minimum(line - short + pressing * (t - 0.27), line))
    xy = np.column_stack((1.2 - 0.25 * t, y))
    t, xy = np.r_[t, t[-1] + 1.0], np.vstack((xy, xy[-1]))
    return BallTrack(t, xy + np.random.default_rng(seed).normal(0.0, 0.0007, xy.shape))


def test_a_ball_that_runs_into_a_cushion_and_slides_along_it_touched_it() -> None:
    """Nothing but a cushion (or a ball, and there is none) takes a ball's speed into a
    cushion: come to the line and gone on along it, it touched the cushion, though it
    never came away from it (development stroke 178695: ball 1 along the top cushion,
    then the second ball; the cushion before it was missed and the point lost at 1.000).
    Where the samples show the turn (four of these six noises; one was read before the
    slide was), the contact is found."""
    found = 0
    for seed in range(6):
        motion = reconstruct(Ball.YELLOW, _into_and_along(seed), 0.0007)
        hits = [h for h in cushion_hits(motion, LARGE, []) if h.probability > 0.5]
        assert [h.cushion for h in hits] in ([], [Cushion.TOP])
        found += bool(hits) and abs(hits[0].t - 0.27) < 0.05
    assert found >= 4


def test_a_ball_that_runs_into_a_cushion_and_along_it_still_pressed_in_touched_it() -> None:
    """A ball on the cushion's line that still moves into it touches it: the slide is read
    when the motion after the turn does not leave the cushion, not only when it runs
    square along it, and the turn of the same join that the samples after it do not bear
    out (no motion away) gives way to it (development stroke 301444: ball 1 into the
    right cushion and the top at a corner, then down along the right one pressed into it;
    the right cushion was missed and three cushions read as two at 1.000). Read as square
    to the cushion only, three of these ten noises found it."""
    found = 0
    for seed in range(10):
        motion = reconstruct(Ball.YELLOW, _into_and_along(seed, short=0.004, pressing=0.02), 0.0007)
        hits = [h for h in cushion_hits(motion, LARGE, []) if h.probability > 0.5]
        found += any(h.cushion is Cushion.TOP and abs(h.t - 0.27) < 0.06 for h in hits)
    assert found >= 9


def _rolled_out_towards_the_right_cushion(rest_x: float) -> BallTrack:
    """White rolling out slowly up the table and towards the right cushion (line at
    x = 1.389 m), sent every 14 mm or so (real-file stroke 545611: 0.013 m/s towards it
    and 0.045 m/s along it at its last moving sample, 12.5 mm from the line), then
    seen once more at rest, three seconds later, at x = ``rest_x``."""
    t = np.array([6.5, 6.8, 7.27, 7.826, 10.614])
    x = np.array([1.3615, 1.3660, 1.3695, 1.3768, rest_x])
    y = np.array([2.3110, 2.3270, 2.3441, 2.3691, 2.3777])
    return BallTrack(t, np.column_stack((x, y)))


def test_a_slow_ball_that_stops_short_of_a_cushion_did_not_touch_it() -> None:
    """Rolling on at the speed its last two samples give, it stops within v²/2a, 7 mm
    towards the cushion: at rest 11 mm from the line, it never reached it (before, the
    velocity of the last chord taken at its end, any rest within 5 cm of a cushion the
    ball came towards was read as stopped against it). At rest on the line, bounced back
    a millimetre, it touched it."""
    short = reconstruct(Ball.WHITE, _rolled_out_towards_the_right_cushion(1.3781), 0.0005)
    assert not [h for h in cushion_hits(short, LARGE, []) if h.cushion is Cushion.RIGHT]
    reached = reconstruct(Ball.WHITE, _rolled_out_towards_the_right_cushion(1.3885), 0.0005)
    hits = [h for h in cushion_hits(reached, LARGE, []) if h.cushion is Cushion.RIGHT]
    assert hits and max(h.probability for h in hits) > 0.5


_CORNER_T = [0.149, 0.185, 0.223, 0.26, 0.297, 0.334, 0.371, 0.408, 0.445, 0.482, 0.519, 0.556, 0.594,
             0.63, 0.667, 0.705, 0.742, 0.778, 0.816, 0.853, 0.89, 0.927]
_CORNER_MM = [[834.0, 1652.5], [899.7, 1447.6], [963.8, 1240.5], [1022.0, 1044.2], [1082.6, 857.3],
              [1140.4, 661.8], [1199.9, 470.5], [1252.3, 269.9], [1378.3, 182.6], [1303.3, 77.0],
              [1210.3, 75.4], [1115.6, 157.0], [1026.6, 237.5], [930.3, 314.1], [840.1, 382.5],
              [749.2, 456.7], [663.4, 524.2], [582.3, 591.6], [497.8, 656.2], [412.7, 722.9],
              [339.7, 779.1], [260.3, 841.3]]
"""White at 5.5 m/s down the table, turned by yellow at 0.41 s towards the bottom right
corner, then off the right cushion and the bottom one, seen every 37 ms with 2 mm of
noise (development stroke 312977, sparse camera): two lone samples in one join, the
first 11 mm short of the right cushion line coming at it, the second 86 mm off it
going away."""


def test_a_cushion_between_two_lone_samples_is_read_from_the_chord_that_led_to_the_first() -> None:
    """Neither the motion before (yellow turned it since) nor the motion after (the
    bottom cushion turned it since) reaches the right cushion between the two lone
    samples, and the fits of a turn take the second lone sample alone as its far side:
    the right cushion was missed, and with it the third cushion and the point (1.000).
    The chord from the sample before to the first lone sample, carried on, crosses the
    right cushion, and the second lone sample lies where its mirror puts it."""
    t = np.array([0.0, *_CORNER_T, _CORNER_T[-1] + 1.0])
    xy = 0.001 * np.array([[566.0, 2486.0], *_CORNER_MM, _CORNER_MM[-1]])
    motion = reconstruct(Ball.WHITE, BallTrack(t, xy), 0.002)
    hits = [h for h in cushion_hits(motion, LARGE, []) if h.probability > 0.5]
    right = [h for h in hits if h.cushion is Cushion.RIGHT]
    assert len(right) == 1 and 0.445 < right[0].t < 0.482
    assert [h.cushion for h in hits if h.t < 0.6] == [Cushion.RIGHT, Cushion.BOTTOM]


def test_ball_1s_cushions_between_lone_samples_give_the_points_they_made() -> None:
    """Development strokes 312977 (the corner above) and 317337 (yellow off the left
    cushion into red and back into it, two lone samples between), each judged in its
    recording with a sparse camera: no cushion missed, the point given."""
    for shot, first in ((312977, 312950), (317337, 317300)):
        stroke, ruling = judged_in_recording(shot, first)
        assert stroke.verdict.points == ruling.points == 1
