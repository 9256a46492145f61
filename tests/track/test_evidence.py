"""Each kind of evidence deciding a contact on its own (the tracker-error model of
``carom.track.tracker``): the response of the balls against the distance of the centres."""

from __future__ import annotations

from math import sqrt

import numpy as np
import pytest

from carom.core.balls import Ball
from carom.core.events import BallContact
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import BallTrack, TrackedRuling, TrackedStroke, track_stroke
from carom.track.contacts.touch import ROLLING_KEEPS, STUN_ROLL, unseen_nudge
from carom.track.reconstruct.rests import rest_runs
from carom.track.tracker import DEFAULT_MODEL, VISIBLE_NUDGE
from tests.track.synthetic import R, sample, simulate

W, Y, RED = Ball.WHITE, Ball.YELLOW, Ball.RED
THREE_CUSHION, LARGE = discipline("three-cushion"), TABLES["large"]
NOISE = 0.0005


def _noisy(xy: np.ndarray, seed: int) -> np.ndarray:
    return xy + np.random.default_rng(seed).normal(0.0, NOISE, xy.shape)


def _rolling(start: tuple[float, float], velocity: tuple[float, float], t: np.ndarray,
             deceleration: float = 0.3) -> np.ndarray:
    """A ball from ``start`` at ``velocity`` slowing evenly, sampled at ``t`` (from 0)."""
    v = np.array(velocity)
    speed = float(np.hypot(*v))
    stop = speed / deceleration
    tau = np.minimum(t, stop)
    along = speed * tau - 0.5 * deceleration * tau * tau
    return np.asarray(start) + (along / speed)[:, None] * v


def _still(where: tuple[float, float], end: float, seed: int,
           moved: tuple[float, float] = (0.0, 0.0)) -> BallTrack:
    """A resting ball as a tracker that sends only moves shows it: a first and a last
    sample (the last ``moved`` from the first)."""
    xy = np.array([where, (where[0] + moved[0], where[1] + moved[1])])
    return BallTrack(np.array([0.0, end]), _noisy(xy, seed))


def _pass(gap: float, moved: float = 0.0) -> tuple[np.ndarray, np.ndarray, tuple[float, float], float]:
    """White rolling up the table at x = 0.5, 1.5 m/s; the point ``gap`` beyond ``2R``
    from its path at y = 1.2 (where a resting ball is put), and when white is level. With
    ``moved``, white goes on from there turned away from that ball as a touch that moved
    it ``moved`` (m) turns a rolling ball (:func:`_touch_turn`)."""
    t = np.arange(0.0, 3.0, 0.02)
    xy = _rolling((0.5, 0.3), (0.0, 1.5), t)
    k = int(np.argmin(np.abs(xy[:, 1] - 1.2)))
    turned = _turned_after(xy, k, _touch_turn(moved, float(np.hypot(*(xy[k + 1] - xy[k]))) / 0.02))
    return t, turned, (0.5 + 2.0 * R + gap, float(xy[k, 1])), float(t[k])


def _touch_turn(moved: float, speed: float) -> float:
    """How far, radians, a ball rolling at ``speed`` turns on its next leg when it touches a
    resting ball and moves it ``moved`` (m): the touched ball leaves at ``√(moved/5.8)``,
    ``√(δ/R)`` of the hitter's speed, and the hitter keeps 5/7 of a turn of that ratio."""
    return ROLLING_KEEPS * sqrt(moved / STUN_ROLL) / speed


def _turned_after(xy: np.ndarray, k: int, angle: float) -> np.ndarray:
    """``xy`` with the points after ``k`` turned about point ``k`` by ``angle`` (radians,
    anticlockwise)."""
    c, s = np.cos(angle), np.sin(angle)
    out = xy.copy()
    out[k + 1:] = xy[k] + (xy[k + 1:] - xy[k]) @ np.array([[c, s], [-s, c]])
    return out


def _set_moving(t: np.ndarray, spot: tuple[float, float], t_level: float,
                speed: float) -> tuple[np.ndarray, np.ndarray]:
    """Samples of a ball resting at ``spot`` until ``t_level``, then rolling along +x at
    ``speed``: its rest shows in the first sample only (a tracker that sends moves)."""
    later = t[t >= t_level] - t_level
    return (np.concatenate(([0.0], t[t >= t_level][1:])),
            np.vstack(([spot], _rolling(spot, (speed, 0.0), later[1:]))))


def _set_moving_as_white_passes(gap: float, speed: float, seed: int) -> TrackedRuling:
    """White passing red measured ``gap`` beyond touching (:func:`_pass`), red leaving
    along +x at ``speed`` when white is level (:func:`_set_moving`), yellow still far
    away; judged. ``seed``: the noises' (three, from it)."""
    t, white, spot, t_level = _pass(gap)
    red_t, red = _set_moving(t, spot, t_level, speed)
    tracked = TrackedStroke(seed, W, {W: BallTrack(t, _noisy(white, seed)),
                                      Y: _still((1.2, 2.5), 3.0, seed + 1),
                                      RED: BallTrack(red_t, _noisy(red, seed + 2))})
    return track_stroke(tracked, THREE_CUSHION, LARGE)


def _contact(ruling: TrackedRuling, a: Ball, b: Ball) -> float:
    """The chance the detector gives a contact of ``a`` and ``b`` (0 if none is a candidate)."""
    assert ruling.detection is not None
    return max((h.probability for h in ruling.detection.balls if {h.mover, h.other} == {a, b}), default=0.0)


def _recorded(ruling: TrackedRuling, a: Ball, b: Ball) -> bool:
    return any(isinstance(e, BallContact) and {e.ball, e.other} == {a, b} for e in ruling.stroke.events)


def test_a_thin_touch_measured_25_mm_too_far_apart_is_found_by_the_struck_balls_response() -> None:
    """The resting ball starts to move, away from white along the line of centres, when
    white passes: a contact, though the tracked centres never came within 25 mm of
    touching (the tracker's bias near other balls)."""
    ruling = _set_moving_as_white_passes(0.025, 0.25, 1)
    assert _contact(ruling, W, RED) > 0.95
    assert _recorded(ruling, W, RED)


@pytest.mark.parametrize("gap", [0.003, -0.003], ids=["3 mm apart", "measured 3 mm overlapping"])
def test_a_close_pass_at_a_ball_that_does_not_move_is_no_contact(gap: float) -> None:
    """However close the centres, a ball that stays at rest was not touched by a ball
    passing at 1.5 m/s (a touch would have sent it rolling centimetres): its two
    measurements differ by 0.5 mm, as two measurements of a still ball do."""
    t, white, spot, _ = _pass(gap)
    red = BallTrack(np.array([0.0, 3.0]), np.array([spot, (spot[0] + 0.0003, spot[1] - 0.0004)]))
    tracked = TrackedStroke(2, W, {W: BallTrack(t, _noisy(white, 4)), Y: _still((1.2, 2.5), 3.0, 5),
                                   RED: red})
    ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
    assert _contact(ruling, W, RED) < 0.1
    assert not _recorded(ruling, W, RED)


def test_a_ball_found_moved_by_millimetres_was_touched_by_the_ball_that_passed_it() -> None:
    """Only a first and a last sample of the resting ball, 8 mm apart, away from
    white's path: white, the one ball that passed near, touched it."""
    t, white, spot, _ = _pass(0.015, moved=0.008)
    tracked = TrackedStroke(3, W, {W: BallTrack(t, _noisy(white, 7)), Y: _still((1.2, 2.5), 3.0, 8),
                                   RED: _still(spot, 3.0, 9, moved=(0.008, 0.0))})
    ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
    assert _contact(ruling, W, RED) > 0.9
    assert _recorded(ruling, W, RED)


def test_two_measurements_of_a_still_ball_a_millimetre_apart_are_no_touch() -> None:
    t, white, spot, _ = _pass(0.004)
    tracked = TrackedStroke(4, W, {W: BallTrack(t, _noisy(white, 10)), Y: _still((1.2, 2.5), 3.0, 11),
                                   RED: _still(spot, 3.0, 12, moved=(0.0007, 0.0007))})
    ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
    assert not _recorded(ruling, W, RED)


def test_of_two_balls_passing_the_one_the_struck_ball_leaves_away_from_hit_it() -> None:
    """White and yellow both pass the resting red within reach, at different times;
    red leaves when white passes, along the line from white: white hit it."""
    t, white, spot, t_level = _pass(0.0)
    yellow = _rolling((spot[0] + 0.4, 0.4), (-0.4, 1.5), t)  # passes red's spot about 0.5 s later
    red_t, red = _set_moving(t, spot, t_level, 0.4)
    tracked = TrackedStroke(5, W, {W: BallTrack(t, _noisy(white, 13)), Y: BallTrack(t, _noisy(yellow, 14)),
                                   RED: BallTrack(red_t, _noisy(red, 15))})
    ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
    assert _contact(ruling, W, RED) > 0.99
    assert _contact(ruling, Y, RED) < 0.01


def test_two_moving_balls_that_turn_each_other_touched_though_measured_apart() -> None:
    """Two moving balls collide: both turn, with opposite impulses along the line of
    centres. The tracker's bias pushed both centres 12 mm apart around the collision."""
    paths, truth = simulate({W: (0.4, 0.6), Y: (1.0, 0.6), RED: (1.2, 2.6)}, {W: (0.8, 0.6), Y: (-0.6, 0.6)},
                            duration=4.0)
    t_hit = next(e[0] for e in truth.events if e[1] == "ball")
    tracks = sample(paths, seed=16, noise=NOISE)
    biased = {}
    for ball, track in tracks.items():
        if ball is RED:
            biased[ball] = track
            continue
        other = Y if ball is W else W
        xy = track.xy.copy()
        near = np.abs(track.t - t_hit) < 0.06
        them = np.column_stack([np.interp(track.t, tracks[other].t, tracks[other].xy[:, i]) for i in (0, 1)])
        away = xy - them
        xy[near] += 0.012 * away[near] / np.hypot(*away[near].T)[:, None]
        biased[ball] = BallTrack(track.t, xy)
    ruling = track_stroke(TrackedStroke(6, W, biased), THREE_CUSHION, LARGE)
    assert _contact(ruling, W, Y) > 0.99
    assert _recorded(ruling, W, Y)


def test_a_point_that_hangs_on_one_uncertain_contact_is_doubtful_and_names_it() -> None:
    """A point stroke (white hits yellow, three cushions, red), except that red shows
    only a first and a last sample 2 mm apart where white passed 4 mm from touching it:
    whether white touched red is uncertain, the point hangs on it, the stroke is put
    before a human with that contact named."""
    start = {W: (1.0552, 1.0752), Y: (1.0765, 1.3382), RED: (0.10, 2.70)}
    paths, _ = simulate(start, {W: (-0.1673, 2.5744)}, duration=6.0)
    tracks = sample(paths, seed=17, noise=NOISE)
    rows = paths[W]
    k = int(np.argmin(np.abs(rows[:, 0] - 3.87)))
    p, v = rows[k, 1:], (rows[k + 1, 1:] - rows[k - 1, 1:])
    n = np.array((-v[1], v[0])) / float(np.hypot(*v))
    spot = p + n * (2.0 * R + 0.004)
    # red lay where white passed 4 mm from touching it; it shows a move of 2 mm, away
    # from white's path (the direction makes a touch likelier than the length alone)
    assert np.min(np.hypot(*(rows[:, 1:] - spot).T)) > 2.0 * R
    tracks[RED] = _still((float(spot[0]), float(spot[1])), float(tracks[W].t[-1]), 18,
                         moved=(0.002 * float(n[0]), 0.002 * float(n[1])))
    # white goes on turned away from red by a quarter of what a touch that moved red 2 mm
    # gives (in the noise, about as far from a touch's turn as from none): it says little
    white = tracks[W]
    j = int(np.searchsorted(white.t, rows[k, 0]))
    angle = 0.25 * _touch_turn(0.002, float(np.hypot(*v)) / float(rows[k + 1, 0] - rows[k - 1, 0]))
    clockwise = float(v[0] * n[1] - v[1] * n[0]) > 0.0  # red lies to white's left
    tracks[W] = BallTrack(white.t, _turned_after(white.xy, j, -angle if clockwise else angle))
    ruling = track_stroke(TrackedStroke(7, W, tracks), THREE_CUSHION, LARGE)
    assert ruling.doubtful
    assert 0.5 <= ruling.confidence < 0.9
    assert "white–red contact" in ruling.doubts[0].what
    assert ruling.doubts[0].probability == pytest.approx(1.0 - ruling.confidence, abs=0.05)


def test_the_model_weighs_a_displacement_of_a_still_ball_against_its_noise() -> None:
    model = DEFAULT_MODEL
    assert model.moved_probability(0.0005, 0.0005) < 0.1
    assert model.moved_probability(0.006, 0.0005) > 0.95
    # another ball close by makes the same displacement less sure (its bias)
    assert model.moved_probability(0.006, 0.0005, crowding=0.0) < model.moved_probability(0.006, 0.0005)
    # a contact measured 3 cm too far apart keeps a small, not a vanishing, likelihood
    assert 1e-4 < float(model.gap_likelihood(0.03, 0.002)) < 0.01


@pytest.mark.parametrize(("moved", "touched"), [((0.0045, 0.0), True), ((0.0, 0.0045), False)],
                         ids=["away from white", "along white's path"])
def test_the_direction_of_a_small_displacement_decides_whether_it_was_a_touch(
        moved: tuple[float, float], touched: bool) -> None:
    """A tracker with 1 mm of noise: a resting ball's two samples 4.5 mm apart say
    little by their length (two measurements of a still ball differ so in one pair in
    eight); white passed it measured 5 mm beyond touching, which says little either
    (a contact measured 5 mm too far apart against a miss anywhere within reach: about
    even). Displaced away from white along the line of centres, it was touched;
    displaced as far along white's path, which no touch by white can do, it was not
    (the length alone would have made it a contact, at 0.65)."""
    t, white, spot, _ = _pass(0.005, moved=0.0045 if touched else 0.0)
    rng = np.random.default_rng(21)
    xy_white = white + rng.normal(0.0, 0.001, white.shape)
    red = BallTrack(np.array([0.0, 3.0]), np.array([spot, (spot[0] + moved[0], spot[1] + moved[1])]))
    tracked = TrackedStroke(5, W, {W: BallTrack(t, xy_white), Y: _still((1.2, 2.5), 3.0, 22), RED: red})
    ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
    assert ruling.detection is not None
    (dep,) = [d for d in ruling.detection.departures if d.join.kind == "nudge"]
    assert 0.5 < dep.moved < 0.8  # the length alone leans to a move
    if touched:
        assert _contact(ruling, W, RED) > 0.85
        assert _recorded(ruling, W, RED)
    else:
        assert _contact(ruling, W, RED) < 0.3
        assert not _recorded(ruling, W, RED)


def _frozen_chance(leaving: tuple[float, float] | None) -> float:
    """White's first contact is yellow, whose centre was measured 15 mm beyond touching
    white's along x (the tracker's bias on touching balls); yellow left in ``leaving``."""
    from carom.core.records import Stroke
    from carom.track.judging.frozen import frozen_reading

    white, yellow = (0.5, 1.0), (0.5 + 2.0 * R + 0.015, 1.0)
    stroke = Stroke(W, (BallContact(W, Y, 0.01),), {W: white, Y: yellow, RED: (1.2, 2.5)})
    reading = frozen_reading(stroke, {W: white, Y: yellow, RED: (1.2, 2.5)}, 0.001, LARGE,
                             DEFAULT_MODEL.bias_scale, None if leaving is None else {Y: leaving})
    assert reading is not None
    return reading.probability


def test_a_ball_leaving_along_the_line_of_centres_measured_before_the_stroke_was_frozen_to_ball_1() -> None:
    """The bias moves touching centres along the line between them and leaves its
    direction alone: yellow leaving exactly along the measured line (as a ball pushed by
    a ball touching it does) makes frozen likelier than the distance alone says; leaving
    along a line turned 0.2 rad from it, 12 mm beside it at white (white travelled before
    it met yellow: they lay apart) makes it unlikely (a few per cent of hit balls leave
    otherwise for a reason the readings do not hold); the distance alone, 15 mm beyond
    touching, leaves it doubtful either way."""
    alone = _frozen_chance(None)
    along = _frozen_chance((1.0, 0.0))
    beside = _frozen_chance((float(np.cos(0.2)), float(np.sin(0.2))))
    assert 0.1 < alone < 0.5
    assert along > 1.8 * alone and along > 0.5
    assert beside < 0.02


def test_a_departure_neither_reading_explains_leaves_the_distance_to_decide() -> None:
    """A hit ball that left 55° off the measured line of centres (it met a cushion before
    its first sample, unseen) is no evidence either way: neither a frozen push nor a
    contact after a run gives that, so the frozen reading keeps about the chance the
    distance gives it, instead of being dismissed."""
    alone = _frozen_chance(None)
    turned = _frozen_chance((float(np.cos(0.96)), float(np.sin(0.96))))
    assert turned > 0.1 and abs(turned - alone) < 0.1


def _frozen_chance_from_first_motion(line: tuple[tuple[float, float], tuple[float, float]] | None) -> float:
    """White's first contact is yellow, whose centre was measured 30 mm beyond touching
    white's along x; white's first motion after the strike is ``line`` (a point, a unit
    direction)."""
    from carom.core.records import Stroke
    from carom.track.judging.frozen import frozen_reading

    white, yellow = (0.5, 1.0), (0.5 + 2.0 * R + 0.03, 1.0)
    stroke = Stroke(W, (BallContact(W, Y, 0.01),), {W: white, Y: yellow, RED: (1.2, 2.5)})
    reading = frozen_reading(stroke, {W: white, Y: yellow, RED: (1.2, 2.5)}, 0.001, LARGE,
                             DEFAULT_MODEL.bias_scale, None, line)
    assert reading is not None
    return reading.probability


def test_ball_1s_first_motion_starting_where_it_stood_if_touching_shows_the_balls_frozen() -> None:
    """The tracker's bias pushes two touching centres apart along their line, equally:
    measured 30 mm beyond touching, white stood 15 mm nearer yellow than measured if
    they touched. White's first motion (a stun push sends it square to the line) passes
    through that place: frozen is the likelier reading (0.65: balls a few millimetres
    apart leave alike), though the distance alone says apart (0.11). Passing through
    white's measured centre instead, it ran before it met yellow: apart (0.006)."""
    alone = _frozen_chance_from_first_motion(None)
    through_touching = _frozen_chance_from_first_motion(((0.515, 1.04), (0.0, 1.0)))
    through_measured = _frozen_chance_from_first_motion(((0.5, 1.04), (0.0, 1.0)))
    assert alone < 0.2
    assert through_touching > 0.5 > alone * 4.0
    assert through_measured < 0.05


def test_a_first_motion_neither_reading_explains_leaves_the_distance_to_decide() -> None:
    """White's first clean motion passes 8.5 cm beside both places it could have started
    from (frozen: 15 mm nearer yellow than measured; apart: anywhere it ran from before it
    met yellow): it met a cushion before its first clean piece, unseen, as a white pushed
    frozen into a nearby cushion does. That says nothing of the gap, so the frozen reading
    keeps the chance the distance gives it (0.11), instead of the ratio of two far tails
    (10⁻⁵⁸ before: a sure and wrong ruling)."""
    alone = _frozen_chance_from_first_motion(None)
    for line in (((0.6, 1.0), (0.0, 1.0)), ((0.4, 1.0), (0.0, -1.0))):
        assert abs(_frozen_chance_from_first_motion(line) - alone) < 0.02


@pytest.mark.parametrize(("gap", "touched"), [(0.0, True), (0.02, False)], ids=["at contact", "2 cm beyond"])
def test_the_distance_white_passed_at_decides_whether_a_small_displacement_was_a_touch(
        gap: float, touched: bool) -> None:
    """Red found moved 4.5 mm (its length alone: moved at 0.65), away from white's path
    along the line of centres. The distance white passed at is weighed with it: a
    touched ball's hitter passed at contact distance, a still ball's passes lie anywhere
    within reach. Measured at touching, white turned as the touch turns it, a touch;
    measured 2 cm beyond touching (the tracker's bias allows it, but rarely), white going
    on straight, no touch, though the direction fits."""
    t, white, spot, _ = _pass(gap, moved=0.0045 if touched else 0.0)
    rng = np.random.default_rng(21)
    xy_white = white + rng.normal(0.0, 0.001, white.shape)
    red = BallTrack(np.array([0.0, 3.0]), np.array([spot, (spot[0] + 0.0045, spot[1])]))
    tracked = TrackedStroke(5, W, {W: BallTrack(t, xy_white), Y: _still((1.2, 2.5), 3.0, 22), RED: red})
    ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
    assert ruling.detection is not None
    (dep,) = [d for d in ruling.detection.departures if d.join.kind == "nudge"]
    assert 0.5 < dep.moved < 0.8
    assert _recorded(ruling, W, RED) is touched
    if touched:
        assert _contact(ruling, W, RED) > 0.95
    else:
        assert _contact(ruling, W, RED) < 0.4


def test_beside_another_ball_the_direction_of_a_small_displacement_says_little() -> None:
    """As above, red displaced 4.5 mm along white's path, which no touch by white can
    do; but yellow rests 5 mm beyond touching red where red was measured last: the
    tracker's bias moves red's centre along the line to yellow by up to centimetres,
    so the direction of a displacement of millimetres is no evidence against the touch
    (its length and the distance white passed at still are)."""

    def chance(yellow: tuple[float, float]) -> tuple[float, float]:
        t, white, spot, _ = _pass(0.005)
        rng = np.random.default_rng(21)
        xy_white = white + rng.normal(0.0, 0.001, white.shape)
        red = BallTrack(np.array([0.0, 3.0]), np.array([spot, (spot[0], spot[1] + 0.0045)]))
        tracked = TrackedStroke(5, W, {W: BallTrack(t, xy_white), Y: _still(yellow, 3.0, 22), RED: red})
        ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
        assert ruling.detection is not None
        (dep,) = [d for d in ruling.detection.departures if d.join.kind == "nudge"]
        return dep.angle_sd, _contact(ruling, W, RED)

    spot = _pass(0.005)[2]
    far_sd, far = chance((1.2, 2.5))
    near_sd, near = chance((spot[0] + 2.0 * R + 0.005, spot[1] + 0.0045))
    assert far < 0.3 and far_sd < 0.5
    assert near_sd >= 1.0 and near > 2.0 * far


def _slow_push(seed: int) -> TrackedRuling:
    """White rolls slowly up the table into red and stops against it; red rolls on 67 mm.
    A tracker that sends a ball once it moved 15 mm sends red at 15, 30, 45 and 60 mm,
    the first two beside white (within 4 cm: their centres may carry the bias)."""
    t = np.arange(0.0, 3.0, 0.02)
    hit = 2.0 / 3.0  # white at y = 1.10 and 0.2 m/s
    white = _rolling((0.5, 0.9), (0.0, 0.4), np.minimum(t, hit))
    spot = (0.5, 1.10 + 2.0 * R)
    after = np.maximum(t - hit, 0.0)
    red_all = _rolling(spot, (0.0, 0.2), after)
    travel = red_all[:, 1] - spot[1]
    sent = [0]
    for k in range(1, len(t)):
        if travel[k] - travel[sent[-1]] >= 0.015:
            sent.append(k)
    sent.append(len(t) - 1)
    red = BallTrack(t[sent], _noisy(red_all[sent], seed))
    still = white[-1]
    white_sent = np.nonzero(t <= hit + 0.02)[0]
    w = BallTrack(np.r_[t[white_sent], 3.0], _noisy(np.vstack([white[white_sent], still]), seed + 1))
    tracked = TrackedStroke(7, W, {W: w, Y: _still((1.2, 2.5), 3.0, seed + 2), RED: red})
    return track_stroke(tracked, THREE_CUSHION, LARGE)


def test_a_slow_push_whose_first_samples_lie_beside_the_hitter_is_a_contact() -> None:
    """Red's first two moving samples lie within 4 cm of white, which stopped against it,
    and within 5 cm of where red rested: alone they could be the tracker's bias. But each
    lies farther than the one before, and the next, with no ball near, farther still: red
    left, at the time those samples say (0.67 s), and white touched it then. (Set aside as
    bias, they left red's move a displacement between two rests with no time to it.)"""
    ruling = _slow_push(31)
    assert ruling.detection is not None
    first = ruling.detection.departures[0]
    assert first.join.kind == "start" and first.left_at is not None
    assert abs(first.left_at - 2.0 / 3.0) < 2.0 * first.left_sd + 0.01
    assert _contact(ruling, W, RED) > 0.9
    assert _recorded(ruling, W, RED)


def test_a_frozen_push_is_dated_at_the_strike_though_ball_1_met_a_cushion_before_its_next_clean_run() -> None:
    """White frozen to red below it, struck up and to the right: it pushes red up the
    table and meets the right cushion 36 ms later, seen once in between (a lone sample
    of its start). The reading of red pushed by the ball touching it is dated when white
    left, before that sample, not from white's motion after the cushion."""
    from carom.track.contacts.struck import contact_readings

    start = {W: (1.33, 0.60), RED: (1.33, 0.60 + 2.0 * R + 0.0001), Y: (0.3, 2.0)}
    paths, truth = simulate(start, {W: (1.5, 2.0)}, duration=4.0)
    assert [e[1] for e in truth.events[:2]] == ["ball", "cushion"]
    tracks = sample(paths, seed=3, noise=0.0007, period=0.03)
    ruling = track_stroke(TrackedStroke(9, W, tracks), THREE_CUSHION, LARGE)
    assert ruling.detection is not None
    (white_start,) = [j for j in ruling.detection.motions[W].joins if j.kind == "start"]
    assert white_start.via  # the sample between the push and the cushion
    first_moving = float(ruling.detection.motions[W].t[white_start.via[0]])
    (dep,) = [d for d in ruling.detection.departures if d.rest is not None
              and any(j is d.join for j in ruling.detection.motions[RED].joins)]
    frozen = contact_readings(dep, ruling.detection.paths[W], 2.0 * R, DEFAULT_MODEL)[-1]
    assert frozen[1] <= first_moving


def test_a_departure_whose_first_motion_shows_no_speed_is_dated_as_loosely_as_the_physics_allows() -> None:
    """A slow roll seen at its end (its first piece of motion fits no speed) left its rest
    between sliding and rolling the chord to a stop before, not at its first moving sample
    within 10 ms: the contact that set it moving may lie a second earlier."""
    from math import sqrt

    from carom.track import laws
    from carom.track.contacts.departure import _left_at

    rest, p = np.array([1.121, 0.258]), np.array([1.1405, 0.2971])
    chord = float(np.hypot(*(p - rest)))
    left, sd = _left_at(7.381, 0.0, rest, p, np.zeros(2))
    soonest = sqrt(2.0 * chord / laws.OBJECT_BALL_SLIDE)
    latest = sqrt(2.0 * chord / laws.ROLL_DECELERATION)
    assert left == pytest.approx(7.381 - soonest)
    assert sd == pytest.approx(0.5 * (latest - soonest))
    assert sd > 0.5  # the contact 0.67 s before the first moving sample fits
    # a ball seen moving is dated from its speed, as before
    left, sd = _left_at(0.343, 0.0, np.array([0.9563, 1.2081]), np.array([0.9462, 1.2248]),
                        np.array([-0.3315, 0.6296]))
    assert left == pytest.approx(0.3167, abs=1e-3) and sd < 0.01


def test_a_frozen_ball_pushed_into_the_cushion_behind_it_and_back_was_pushed_not_met_later() -> None:
    """Red frozen to white, 4.5 cm from the right cushion: white, struck to the right and up
    the table, pushes red into the cushion, and red comes straight back through the place
    white left (a ball 2R behind red would lie less than the cushion's compression beyond
    its line, so the cushion is not plain from where a hitter would stand). Seen straight,
    red would have left through white, which lay against it: no ball leaves through a ball
    touching it, so it went into the cushion behind it and back, and the push of white is
    ball 1's first contact (before, red's departure pointed at white, no reading fitted a
    push, and white–red was missing from the record)."""
    from carom.core.balls import Cushion

    right = LARGE.width - R
    start = {W: (right - 0.045 - 2.0 * R, 1.67), RED: (right - 0.045, 1.67), Y: (0.3, 1.0)}
    paths, truth = simulate(start, {W: (4.0, 2.0)}, duration=4.0)
    assert [e[1] for e in truth.events[:2]] == ["ball", "cushion"]
    tracks = sample(paths, seed=5, noise=0.0007, period=0.03)
    ruling = track_stroke(TrackedStroke(9, W, tracks), THREE_CUSHION, LARGE)
    assert ruling.detection is not None
    (dep,) = [d for d in ruling.detection.departures
              if any(j is d.join for j in ruling.detection.motions[RED].joins)]
    assert dep.bounce is not None and dep.bounce.cushion is Cushion.RIGHT
    assert float(dep.direction[0]) > 0.9  # away from white, into the cushion
    first = next(e for e in ruling.stroke.events if isinstance(e, BallContact))
    assert {first.ball, first.other} == {W, RED}


def test_a_struck_balls_first_sample_pulled_towards_the_hitter_by_the_bias_does_not_hide_the_hit() -> None:
    """White brushes red, which leaves away from it at 0.4 m/s; red's first sample in
    motion, taken with white still beside it, is pulled 18 mm towards white (the
    tracker's bias), so the chord from red's rest to it points back at the hitter. The
    next sample, taken farther on, says the way red left."""
    t, white, spot, t_level = _pass(0.0)
    red_t, red = _set_moving(t, spot, t_level, 0.4)
    red[1] += (-0.018, 0.0)
    tracked = TrackedStroke(6, W, {W: BallTrack(t, _noisy(white, 16)), Y: _still((1.2, 2.5), 3.0, 17),
                                   RED: BallTrack(red_t, _noisy(red, 18))})
    ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
    assert _contact(ruling, W, RED) > 0.9
    assert _recorded(ruling, W, RED)


def test_a_contact_among_the_hitters_lost_samples_is_found_along_its_motion_after_them() -> None:
    """White, struck at once, is seen at 35 ms and next at 170 ms (the frames between
    lost beside yellow, as in development stroke 178450): the chord between those two
    samples passes 162 mm from where yellow lay, beyond the reach a hitter's path is
    searched in; but white turned at the contact, and its motion after the gap, run back,
    passes yellow at touching distance just as yellow leaves along the line of centres.
    Yellow, set moving with only white moving, was hit by white."""
    rng = np.random.default_rng(11)

    def run(start: tuple[float, float], velocity: tuple[float, float], t: np.ndarray,
            t0: float) -> np.ndarray:
        return np.asarray(start) + (t - t0)[:, None] * np.asarray(velocity)

    tw = np.r_[0.0, 0.035, np.arange(0.17, 0.34, 0.034)]
    after = run((0.5517, 1.7257), (-2.12, -2.93), tw[2:], 0.203)
    white = np.vstack(([1.1626, 2.1432], [1.0902, 2.1253], after))
    ty = np.r_[0.0, np.arange(0.102, 0.3, 0.034)]
    away = np.array([-0.85, 0.53]) / np.hypot(-0.85, 0.53)
    yellow = np.vstack(([0.726, 2.083], run(tuple(np.array([0.726, 2.083]) + away * 0.024), tuple(away * 3.4),
                                             ty[1:], 0.102)))
    a, b, spot = white[1], white[2], np.array([0.726, 2.083])
    along = float(np.clip(np.dot(spot - a, b - a) / np.dot(b - a, b - a), 0.0, 1.0))
    assert float(np.hypot(*(a + along * (b - a) - spot))) > 2.0 * R + 0.1
    tracked = TrackedStroke(12, W, {W: BallTrack(tw, white + rng.normal(0.0, 0.001, white.shape)),
                                    Y: BallTrack(ty, yellow + rng.normal(0.0, 0.001, yellow.shape)),
                                    RED: _still((1.1, 1.03), 0.34, 13)})
    ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
    assert _contact(ruling, W, Y) > 0.95
    first = ruling.stroke.events[0]
    assert isinstance(first, BallContact) and {first.ball, first.other} == {W, Y}
    assert abs((first.t or 0.0) - 0.095) < 0.02


def _rolled_up_to(measured_gap: float, seed: int) -> TrackedRuling:
    """White rolls up the table from 0.6 m/s and stops at (0.5, 0.9); red rests ahead of
    it, measured ``measured_gap`` beyond touching white's resting place, and never
    moves (its first and last samples 0.3 mm apart). The tracker sends white while it
    rolls, then once more at the end."""
    t = np.arange(0.0, 2.0, 0.02)
    white = _rolling((0.5, 0.3), (0.0, 0.6), t)
    t, white = np.r_[t, 3.0], np.vstack((white, white[-1]))
    spot = (0.5, float(white[-1, 1]) + 2.0 * R + measured_gap)
    red = BallTrack(np.array([0.0, 3.0]), np.array([spot, (spot[0] + 0.0003, spot[1] - 0.0001)]))
    tracked = TrackedStroke(14, W, {W: BallTrack(t, _noisy(white, seed)),
                                    Y: _still((1.2, 2.5), 3.0, seed + 1), RED: red})
    return track_stroke(tracked, THREE_CUSHION, LARGE)


def test_a_ball_that_rolled_up_to_another_and_stayed_touching_it_may_have_touched_it() -> None:
    """A slow last touch moves the ball touched by less than the noise: white, rolling
    up to red and stopping there, its centre measured 5 mm *closer* than touching red's
    (a camera's bias pulls two touching centres together), arrived at red, and the touch
    is weighed where it arrived, not at the end of the stroke when both lay still (where
    it was not weighed at all: development stroke 189964). Stopped 10 mm short, it is
    no touch."""
    assert _contact(_rolled_up_to(-0.005, 15), W, RED) > 0.5
    assert _contact(_rolled_up_to(0.010, 15), W, RED) < 0.01


def test_a_ball_set_moving_with_one_ball_near_was_hit_by_it_however_badly_it_was_measured() -> None:
    """Red, resting, leaves along the line of centres from white as white passes; white's
    centre is measured 9 cm beyond touching (blurred at the contact, as in development
    stroke 179487, where a ball sent 5 m was ruled moved by nothing at 0.999). Only a
    ball moves a ball, and white is the only one that came near: red was hit by white,
    not by a cause the tracker did not see."""
    ruling = _set_moving_as_white_passes(0.09, 0.8, 17)
    assert _contact(ruling, W, RED) > 0.99
    assert _recorded(ruling, W, RED)


def test_the_nudge_a_touch_leaves_unseen_is_the_step_the_rests_are_not_cut_at() -> None:
    """A contact that moves a resting ball less than its noise lets it show leaves no
    move in the reading: at the real camera's noise 3 mm (``VISIBLE_NUDGE``), at 3 mm of
    noise twice the spread of two measurements of it. The rests' reading agrees: the
    two samples of a still ball just within that step are one rest, just beyond it two."""
    assert unseen_nudge(0.0005) == VISIBLE_NUDGE
    assert unseen_nudge(0.003) == pytest.approx(2.0 * sqrt(2.0) * 0.003)
    sigma = 0.003
    step = unseen_nudge(sigma)
    t = np.array([0.0, 3.0])
    for factor, runs in ((0.95, 1), (1.05, 2)):
        xy = np.array([(1.0, 1.0), (1.0 + factor * step, 1.0)])
        assert len(rest_runs(t, xy, sigma)) == runs


def test_a_slow_thin_touch_is_weighed_with_the_nudge_a_noisy_camera_hides() -> None:
    """White rolls past red at 0.31 m/s, its path touching red's place, seen by a camera
    with 3 mm of noise; red moved 3 mm, and its two samples lie 5.5 mm apart, a move that
    noise hides (up to 8.9 mm at red's 3.2 mm measured). A contact that moved red so far
    leaves an overlap of up to 0.5 mm possible, not the 0.16 mm a nudge of 3 mm would (a
    camera with 0.5 mm of noise): the touch keeps its chance (0.15 here, 0.05 when weighed
    as if 3 mm had shown)."""
    t = np.arange(0.0, 5.0, 0.02)
    white = _rolling((0.5, 0.3), (0.0, 0.8), t)
    k = int(np.argmin(np.abs(white[:, 1] - 1.2)))
    spot = (0.5 + 2.0 * R, float(white[k, 1]))
    rng = np.random.default_rng(36)
    noise = 0.003
    red = np.array([spot, (spot[0] + 0.003, spot[1])]) + rng.normal(0.0, noise, (2, 2))
    yellow = np.array([(1.2, 2.5), (1.2, 2.5)]) + rng.normal(0.0, noise, (2, 2))
    tracked = TrackedStroke(8, W, {W: BallTrack(t, white + rng.normal(0.0, noise, white.shape)),
                                   Y: BallTrack(np.array([0.0, 5.0]), yellow),
                                   RED: BallTrack(np.array([0.0, 5.0]), red)})
    ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
    assert 0.1 < _contact(ruling, W, RED) < 0.5


def _thin_pass(turn: float, seed: int) -> TrackedRuling:
    """White rolling up the table at 0.5 m/s overlaps red's place by 0.1 mm (red rolls 5 mm,
    within the 7 mm a camera with 2.5 mm of noise hides) and goes on turned by ``turn``
    radians away from red; red's first and last samples only, 5 mm apart."""
    noise, overlap, deceleration = 0.0025, 0.0001, 0.05
    t = np.arange(0.0, 4.0, 0.02)
    speed = 0.6
    t_pass = (speed - sqrt(speed * speed - 2.0 * deceleration * 0.9)) / deceleration
    before = _rolling((0.5, 0.3), (0.0, speed), t[t <= t_pass], deceleration)
    speed_at = speed - deceleration * t_pass
    heading = (-np.sin(turn) * speed_at, np.cos(turn) * speed_at)
    after = _rolling((0.5, 1.2), heading, t[t > t_pass] - t_pass, deceleration)
    spot = (0.5 + 2.0 * R - overlap, 1.2)
    rng = np.random.default_rng(seed)
    white = np.vstack((before, after)) + rng.normal(0.0, noise, (t.shape[0], 2))
    red = np.array([spot, (spot[0] + 0.005, spot[1])]) + rng.normal(0.0, noise, (2, 2))
    yellow = np.array([(1.2, 2.5), (1.2, 2.5)]) + rng.normal(0.0, noise, (2, 2))
    tracked = TrackedStroke(seed, W, {W: BallTrack(t, white), Y: BallTrack(np.array([0.0, 4.0]), yellow),
                                      RED: BallTrack(np.array([0.0, 4.0]), red)})
    return track_stroke(tracked, THREE_CUSHION, LARGE)


@pytest.mark.parametrize("seed", [40, 41])
def test_a_thin_touch_that_hides_in_the_noise_is_read_in_ball_1s_turn(seed: int) -> None:
    """A thin touch moves red less than its noise shows (its rest is not cut), but turns
    white by 2.3° (5/7 of ``√(δ/R)`` for a rolling ball): white's legs before and after the
    pass, each fitted as a line, show the turn, and the touch is recorded. The same pass with
    white going on straight is no contact. Weighed by the distance alone (before the turn
    was read) the touch had 0.21 and 0.04, turned or not, and was not recorded."""
    turned = ROLLING_KEEPS * sqrt(0.0001 / R)
    assert _recorded(_thin_pass(turned, seed), W, RED)
    assert _contact(_thin_pass(turned, seed), W, RED) > 0.8
    assert _contact(_thin_pass(0.0, seed), W, RED) < 0.05
    assert not _recorded(_thin_pass(0.0, seed), W, RED)
