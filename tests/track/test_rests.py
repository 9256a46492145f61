"""Rests and moves read off a sparse tracker's samples: a ball seen once in a long
silence lay still there, and samples taken beside another ball that go on moving away
are the start of a real move, not the tracker's bias."""

from __future__ import annotations

import numpy as np

from carom.core.balls import Ball
from carom.core.events import BallContact
from carom.track.reconstruct.rests import (
    _rested_longer,
    _stays_moved,
    _undrifted,
    biased_excursions,
    rest_runs,
)
from tests.track.development import development_stroke, judged

D = 0.0615
"""A ball's diameter, m."""


def test_a_lone_sample_in_a_long_silence_is_a_rest_of_its_own() -> None:
    """A tracker that sends a ball once it moved 1–2 cm sends a rolling ball at least
    every second until it stops: seen once at 1.2 s, with nothing for over a second
    before and after, the ball lay still there (moved by a touch before, set moving
    again at 2.9 s). It is a rest of its own, so the move before and the move after
    are two departures, not one from the first sample."""
    t = np.array([0.0, 1.2, 2.9, 3.0, 3.1, 3.2, 3.3, 8.0])
    xy = np.array([[1.1275, 2.3167], [1.1419, 2.3092], [1.1270, 2.3170], [1.1126, 2.3249],
                   [1.0974, 2.3331], [1.0830, 2.3416], [1.0681, 2.3478], [1.0681, 2.3478]])
    runs = rest_runs(t, xy, 0.001)
    assert (1, 1, True) in runs
    assert runs[0] == (0, 0, True)


def _kept(later: list[tuple[float, float]]) -> np.ndarray:
    """Which samples of a ball resting at (0.5, 1.0) are kept, another ball resting
    beside it (3 mm beyond touching) from 1.95 s; ``later``: its samples from 2.0 s,
    every 0.05 s, then a last one at 6 s where the last of ``later`` lies."""
    t = np.array([0.0, *(2.0 + 0.05 * k for k in range(len(later))), 6.0])
    xy = np.array([(0.5, 1.0), *later, later[-1]])
    other_t = np.array([0.0, 1.95, 6.0])
    other = np.array([(1.0, 1.5), (0.5 - D - 0.003, 1.0), (0.5 - D - 0.003, 1.0)])
    return biased_excursions(t, xy, 0.001, [(other_t, other)], D)


def test_samples_beside_another_ball_that_go_on_moving_away_are_a_move() -> None:
    """Samples 15 and 32 mm from the rest taken beside the ball that stopped there
    could be its bias; but the next one, no ball near, is 60 mm away, each farther than
    the one before: the ball left, and when its first samples say it left counts."""
    kept = _kept([(0.515, 1.0), (0.532, 1.0), (0.56, 1.0)])
    assert kept.all()


def test_samples_beside_another_ball_that_come_back_are_its_bias() -> None:
    """The same two samples followed by one back at the rest, no ball near: the bias
    while the other ball lay beside it, set aside."""
    kept = _kept([(0.515, 1.0), (0.532, 1.0), (0.5005, 1.0)])
    assert not kept[1] and not kept[2]


def test_one_sample_beside_another_ball_where_the_ball_ended_is_not_enough() -> None:
    """One sample 15 mm from the rest beside the other ball, and the end there: a move
    or a bias followed by a nudge, the samples cannot tell; it is set aside, and the
    displacement between the two rests is weighed as a nudge."""
    kept = _kept([(0.515, 1.0)])
    assert not kept[1] and kept[-1]


def _still(step: tuple[float, float], seed: int, n: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """``n`` measurements of a resting ball with 0.5 mm of noise, displaced by ``step``
    from the middle one on."""
    xy = np.array([0.7, 1.2]) + np.random.default_rng(seed).normal(0.0, 0.0005, (n, 2))
    xy[n // 2:] += step
    return xy, np.ones(n, dtype=bool)


def test_one_step_in_the_tail_of_the_noise_of_a_ball_sent_every_frame_is_no_move() -> None:
    """The step between samples 4 and 5 is 2.5 mm (five times the noise), but the four
    samples before and the four after agree on where the ball lay: no move."""
    xy, still = _still((0.0, 0.0), 1)
    xy[5] += (0.0025, 0.0)
    assert not _stays_moved(xy, still, 4, 0.0005)


def test_a_ball_sent_every_frame_and_moved_3_mm_moved() -> None:
    xy, still = _still((0.003, 0.0), 2)
    assert _stays_moved(xy, still, 4, 0.0005)


def test_a_ball_sent_once_it_moved_is_judged_by_its_step_alone() -> None:
    """A first and a last sample only: the step decides (this test passes it through)."""
    xy, still = _still((0.0, 0.0), 3, n=2)
    assert _stays_moved(xy, still, 0, 0.0005)


def _sent_every_frame(shift: float, burst: float) -> tuple[np.ndarray, np.ndarray]:
    """A ball resting for 4 s, sent every 20 ms with 0.5 mm of noise: moved ``shift`` (m,
    along x) from 2 s on, and its four samples before 2 s and four after measured
    ``burst`` either side (a run of the noise's tail that steps at 2 s)."""
    t = np.arange(200) * 0.02
    xy, _ = _still((shift, 0.0), 3, n=200)
    xy[96:100, 0] += burst
    xy[100:104, 0] -= burst
    return t, xy


def test_a_ball_sent_every_frame_and_moved_2_mm_rests_twice() -> None:
    runs = rest_runs(*_sent_every_frame(0.002, 0.0), 0.0005)
    assert any(begin <= 5 and end == 99 and rest for begin, end, rest in runs)
    assert any(begin == 100 and rest for begin, _, rest in runs)


def test_a_long_rest_beginning_with_a_sample_in_the_noise_tail_is_not_a_creep() -> None:
    """A ball sent every frame rests for 2 s; the first sample of the stretch lies 1.6 mm
    off (the noise's tail) and later ones up to a millimetre the other way: measured from
    that one sample they drift beyond four standard deviations, measured from where the
    first four samples put the ball they do not. One rest."""
    t = (np.arange(100) * 0.02).tolist()
    xy = np.array([0.7, 1.2]) + np.random.default_rng(5).normal(0.0, 0.0004, (100, 2))
    xy[0, 0] += 0.0016
    xy[60:63, 0] -= 0.0008
    assert _undrifted(t, xy.tolist(), 0, 99, 0.002, 100) == [(0, 99, True)]


def test_a_ball_creeping_3_mm_from_a_long_rest_moved() -> None:
    t = (np.arange(100) * 0.02).tolist()
    xy = np.array([0.7, 1.2]) + np.random.default_rng(6).normal(0.0, 0.0004, (100, 2))
    xy[50:, 0] += np.linspace(0.0, 0.004, 50)
    runs = _undrifted(t, xy.tolist(), 0, 99, 0.002, 100)
    assert len(runs) > 1 and runs[0][0] == 0 and runs[0][1] < 99


def test_a_ball_sent_once_it_moved_and_seen_twice_is_judged_by_its_step() -> None:
    """A first and a last sample only: within the noise's reach, one rest."""
    t, xy = np.array([0.0, 9.0]), np.array([[0.5, 1.0], [0.5, 0.9975]])
    assert rest_runs(t, xy, 0.001) == [(0, 1, True)]


def _rest_then_leaving(gap: float) -> tuple[np.ndarray, np.ndarray]:
    """A ball sent every 20 ms, resting for 1 s (50 samples, 0.5 mm of noise); after a
    pause of ``gap`` s, three more samples where it lay, then it leaves at 0.5 m/s."""
    rng = np.random.default_rng(7)
    t = np.r_[np.arange(50) * 0.02, 0.98 + gap + np.arange(1, 11) * 0.02]
    xy = np.array([0.7, 1.2]) + rng.normal(0.0, 0.0005, (60, 2))
    xy[53:, 0] += 0.01 * np.arange(1, 8)
    return t, xy


def test_samples_that_never_left_a_rest_sent_every_frame_belong_to_it() -> None:
    """Read as the start of a move, the three samples where the ball still lay would date
    the start three frames early, where a ball passing then would be taken for its
    hitter: they are taken into the rest, and the move begins where the ball left."""
    t, xy = _rest_then_leaving(0.0)
    runs = [(0, 49, True), (50, 59, False)]
    assert _rested_longer(runs, t, xy, 0.002, 0.0005) == [(0, 52, True), (53, 59, False)]
    every = np.arange(50, 60)
    xy[every] = xy[every - 50]  # the stretch never leaves
    assert _rested_longer(runs, t, xy, 0.002, 0.0005) == [(0, 49, True), (50, 59, True)]


def test_more_still_samples_than_a_creep_takes_on_the_rests_mean_are_all_taken_in() -> None:
    """Six samples where the ball lay, then a gap (samples beside a passing ball set
    aside): on their mean they lie where the rest lay, so all six are rest, not the last
    three read as a move begun before the ball passing could have touched it. A creep of
    3 mm over the same six samples is not taken in beyond the first three."""
    rng = np.random.default_rng(5)
    t = np.r_[np.arange(56) * 0.02, 1.5 + np.arange(6) * 0.02]
    xy = np.array([0.7, 1.2]) + rng.normal(0.0, 0.0005, (62, 2))
    xy[56:, 0] += 0.02
    runs = [(0, 49, True), (50, 61, False)]
    assert _rested_longer(runs, t, xy, 0.002, 0.0005) == [(0, 55, True), (56, 61, False)]
    xy[50:56, 0] += 0.0005 * np.arange(1, 7)
    assert _rested_longer(runs, t, xy, 0.002, 0.0005) == [(0, 52, True), (53, 61, False)]


def test_a_lone_sample_in_the_noises_tail_between_still_ones_does_not_end_the_rest() -> None:
    """The stretch read as moving begins with a sample 7 mm off (a glitch, or the tail of
    the noise), then three where the ball lay, then the move: the lone sample is the
    noise's, and the rest lasts until the ball left (development stroke 179441, every
    frame: red's rest ended at a lone sample 0.23 s before white touched it, and its move
    was dated then, with white 8 cm away). Two samples off in a row are a move."""
    t, xy = _rest_then_leaving(0.0)
    runs = [(0, 49, True), (50, 59, False)]
    xy[50] += (0.007, 0.0)
    assert _rested_longer(runs, t, xy, 0.002, 0.0005) == [(0, 52, True), (53, 59, False)]
    xy[51] += (0.007, 0.0)
    assert _rested_longer(runs, t, xy, 0.002, 0.0005) == runs


def test_a_ball_whose_rest_a_lone_sample_cut_was_struck_when_the_hitter_came() -> None:
    """Development stroke 179441 (the recording of one from 179400, every frame), judged."""
    stroke = development_stroke(179441, 179400, every_frame=True)
    assert stroke.verdict.points == 1
    assert judged(stroke).points == 1


def test_samples_after_a_gap_are_not_taken_into_the_rest() -> None:
    """After samples lost or set aside as biased, a ball touched meanwhile may lie less
    than the noise's reach from its rest: its first samples after the gap stay a move."""
    t, xy = _rest_then_leaving(0.3)
    runs = [(0, 49, True), (50, 59, False)]
    assert _rested_longer(runs, t, xy, 0.002, 0.0005) == [(0, 49, True), (50, 59, False)]


def test_a_thin_touch_of_a_ball_sent_every_frame_is_found() -> None:
    """Development stroke 162563, in a recording of every-frame cameras (every ball sent
    every frame, resting or not): white passed red at 2.59 s and moved it 6.4 mm, white's
    second ball. Red's samples near white were set aside as biased; the eight before,
    within 2.3 mm of where it lay, were read as a move (a sample in the noise's tail had
    cut the rest), started 0.3 s before white came, and the point was lost at confidence
    1.000. Taken into the rest, the move lies where white passed, and the point is given
    (doubtful, at 0.83)."""
    stroke = development_stroke(162563, 162550, every_frame=True)
    assert stroke.verdict.points == 1
    ruling = judged(stroke)
    assert ruling.points == 1


def test_a_ball_sent_every_frame_still_for_fewer_frames_than_a_rest_needs_at_the_start_rested() -> None:
    """A ball sent every 28 ms lies still for its first four samples (86 ms, less than
    the span a rest needs elsewhere), then is set moving: every ball is at rest before
    the stroke (F3), so those samples are its first rest, and the move begins after
    them, not at the first sample with a creep measured from it."""
    t = np.arange(0.0, 0.4, 0.0285)
    # red's first samples in stroke 183399: the first 3 mm below the three after it
    still = [(0.9792, 0.2518), (0.9799, 0.2549), (0.9791, 0.2545), (0.9792, 0.2538)]
    xy = np.array(still + [(0.98 - 0.03 * k, 0.255 - 0.07 * k) for k in range(1, t.size - 3)])
    runs = rest_runs(t, xy, 0.0013)
    assert runs[0] == (0, 3, True)
    assert not runs[1][2]


def test_a_ball_struck_after_a_still_start_shorter_than_a_rest_is_found_struck() -> None:
    """A development stroke (seed 183399, in the recording of one from 183350, whose camera
    sends every frame of every ball): white struck red 0.11 s after the stroke began and
    sent it 8 m. Red's first sample lay 3 mm from the next three, all still, and the rest
    was read as that one sample and a creep from it: the creep was red's departure, dated
    before white came near, and the contact was lost."""
    stroke = development_stroke(183399, 183350, every_frame=True)
    assert stroke.verdict.points == 1
    ruling = judged(stroke)
    assert ruling.points == 1
    first = ruling.stroke.events[0]
    assert isinstance(first, BallContact) and {first.ball, first.other} == {Ball.WHITE, Ball.RED}


def test_still_samples_before_a_gap_are_rest_even_when_a_passing_balls_bias_moves_their_mean() -> None:
    """Four still samples, their mean 1.2 mm off the rest's (the bias of a ball coming
    near), then a gap: the ball was not seen leaving, so they are not the first samples
    of a creep, and the move is not dated before the gap, where no ball reached it yet
    (development stroke 310474: the contact dated 0.14 s early, before yellow's third
    cushion, at 1.000). Seen leaving right after them, they are still read as a creep."""
    rng = np.random.default_rng(3)
    t = np.r_[np.arange(54) * 0.017, 1.2 + np.arange(6) * 0.017]
    xy = np.array([0.1, 2.75]) + rng.normal(0.0, 0.0005, (60, 2))
    xy[50:54, 0] -= 0.0012
    xy[54:, 0] -= 0.05 + 0.005 * np.arange(6)
    runs = [(0, 49, True), (50, 59, False)]
    assert _rested_longer(runs, t, xy, 0.002, 0.0005) == [(0, 53, True), (54, 59, False)]
    t[54:] = 54 * 0.017 + np.arange(6) * 0.017
    assert _rested_longer(runs, t, xy, 0.002, 0.0005) == [(0, 52, True), (53, 59, False)]
