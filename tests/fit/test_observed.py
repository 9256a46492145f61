"""A tracked stroke as the fit reads it: where the balls lay, when the cue ball ran free,
and what makes a stroke unreadable (a ball the tracker lost)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from carom.core.balls import Ball
from carom.core.events import BallContact
from carom.fit.observed import observe, on_cloth_and_apart
from carom.physics import simulate
from carom.track import BallTrack

from .tracked import LARGE, POSITION, STRIKE, tracked_stroke, with_samples_cut

R = LARGE.ball_radius


def test_the_balls_lay_where_the_tracker_first_saw_them() -> None:
    tracked = tracked_stroke()
    observed = observe(tracked, LARGE)
    for ball, track in tracked.balls.items():
        assert observed.position[ball] == track.first
    assert observed.problems == ()
    assert observed.departure == 1


def test_a_ball_a_hair_beyond_a_cushion_line_or_into_another_is_moved_onto_the_cloth_and_apart() -> None:
    position = on_cloth_and_apart({Ball.WHITE: (R - 0.0005, 1.0), Ball.YELLOW: (1.0, 1.0),
                                   Ball.RED: (1.0 + 2 * R - 0.0004, 1.0)}, LARGE)
    assert position[Ball.WHITE] == (R, 1.0)
    assert math.dist(position[Ball.YELLOW], position[Ball.RED]) >= 2 * R
    assert math.isclose(position[Ball.YELLOW][0] + position[Ball.RED][0], 2.0 + 2 * R - 0.0004)


def test_the_free_run_ends_before_the_first_contact() -> None:
    tracked = tracked_stroke()
    first = simulate(POSITION, STRIKE, LARGE).events[0]
    assert isinstance(first, BallContact)
    assert first.t is not None
    free_until = observe(tracked, LARGE).free_until
    assert 0.15 < free_until < first.t + 0.013


def test_a_ball_missing_from_the_tracks_is_a_problem() -> None:
    tracked = tracked_stroke()
    gone = dataclasses.replace(tracked, balls={b: t for b, t in tracked.balls.items() if b is not Ball.RED})
    assert any("red is not tracked" in p for p in observe(gone, LARGE).problems)


def test_a_ball_that_jumps_between_two_samples_was_lost() -> None:
    tracked = tracked_stroke()
    track = tracked.balls[Ball.YELLOW]
    lost = with_samples_cut(tracked, Ball.YELLOW, (track.t < 1.0) | (track.t > 2.5))
    problems = observe(lost, LARGE).problems
    assert any(p.startswith("yellow: lost between 0.98 s and 2.52 s") for p in problems), problems


def test_a_track_that_stops_while_the_ball_runs_was_lost() -> None:
    tracked = tracked_stroke()
    track = tracked.balls[Ball.WHITE]
    lost = with_samples_cut(tracked, Ball.WHITE, track.t < 2.0)
    problems = observe(lost, LARGE).problems
    assert any(p.startswith("white: the track stops at 1.98 s") for p in problems), problems


def test_a_cue_ball_that_never_moved_is_a_problem() -> None:
    tracked = tracked_stroke()
    still = BallTrack(np.array([0.0, 5.0]), np.array([POSITION[Ball.WHITE]] * 2))
    observed = observe(dataclasses.replace(tracked, balls={**tracked.balls, Ball.WHITE: still}), LARGE)
    assert observed.departure == 0
    assert any("never left" in p for p in observed.problems)


def test_the_tracks_show_when_a_ball_at_rest_was_struck_and_by_which_ball() -> None:
    first = simulate(POSITION, STRIKE, LARGE).events[0]
    assert isinstance(first, BallContact) and first.t is not None
    contacts = observe(tracked_stroke(), LARGE).contacts
    assert [(a, b) for a, b, _ in contacts] == [(Ball.WHITE, Ball.YELLOW)]
    assert abs(contacts[0][2] - (first.t + 0.013)) < 0.01
