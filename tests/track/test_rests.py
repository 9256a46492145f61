"""Rests and moves read off a sparse tracker's samples: a ball seen once in a long
silence lay still there, samples taken beside another ball that go on moving away are
the start of a real move, not the tracker's bias, and a ball measured beside ball 1 at
the start that comes back towards it once ball 1 leaves carried the bias."""

from __future__ import annotations

import numpy as np

from carom.core.balls import Ball
from carom.core.events import BallContact
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import track_stroke
from carom.track.reconstruct.rests import (
    _merged,
    _moved_across_gaps,
    _rested_longer,
    _stays_moved,
    _tails_joined,
    _undrifted,
    biased_excursions,
    rest_runs,
    resumed,
)
from carom.track.synthetic import HarshRanges, labelled_stroke
from carom.track.tracker import DEFAULT_MODEL
from tests.track.development import development_stroke, judged, judged_in_recording

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


def test_samples_beside_another_ball_going_away_to_where_the_ball_ended_are_a_move() -> None:
    """Three samples 12, 24 and 35 mm from the rest, beside the ball that stopped there,
    each farther than the one before, and then nothing until the end of the stroke, where
    the ball lies where the last of them was: a tracker that sends a ball once it moved
    sent nothing of it at rest. A biased centre comes back when the other ball leaves or
    the bias ends; this ball stayed, so it moved, and its samples say when."""
    kept = _kept([(0.512, 1.0), (0.524, 1.0), (0.535, 1.0)])
    assert kept.all()


def test_one_sample_beside_another_ball_where_the_ball_ended_is_not_enough() -> None:
    """One sample 15 mm from the rest beside the other ball, and the end there: a move
    or a bias followed by a nudge, the samples cannot tell; it is set aside, and the
    displacement between the two rests is weighed as a nudge."""
    kept = _kept([(0.515, 1.0)])
    assert not kept[1] and kept[-1]


def _start_kept(after: list[tuple[float, float]], times: list[float]) -> np.ndarray:
    """Which samples are kept of a ball measured at (0.5, 1.0) at the start while ball 1
    was measured 29 mm beyond touching it along +x, and was struck away at once (gone by
    the next frame); ``after``: the ball's samples at ``times``, and a last one at 12 s
    where the last of them lies."""
    t = np.array([0.0, *times, 12.0])
    xy = np.array([(0.5, 1.0), *after, after[-1]])
    ball1_t = np.array([0.0, 0.03, 0.06, 12.0])
    ball1 = np.array([(0.5 + D + 0.029, 1.0), (0.5 + D + 0.15, 1.0), (0.5 + D + 0.3, 1.0), (1.2, 2.0)])
    return biased_excursions(t, xy, 0.001, [(ball1_t, ball1)], D)


def test_a_ball_that_comes_back_towards_ball_1_once_it_is_struck_away_was_biased_at_the_start() -> None:
    """Measured at the start beside ball 1, the ball's next sample, ball 1 gone, lies
    11 mm nearer where ball 1 stood, and it stays there until it is played 10 s later:
    the tracker's bias had pushed both centres apart (they were measured 29 mm beyond
    touching, room for 11 mm on each). A touch never sends a ball towards the ball that
    touched it, so its first sample is set aside, not read as a move at the strike."""
    kept = _start_kept([(0.511, 1.0), (0.52, 1.03), (0.53, 1.06)], [0.03, 10.2, 10.3])
    assert not kept[0]
    assert kept[1:].all()


def test_a_ball_that_leaves_ball_1_or_follows_it_at_the_start_keeps_its_first_sample() -> None:
    """The same ball 11 mm *away* from where ball 1 stood (a touch sends it so); or
    towards it but going on, a sample every 30 ms (ball 1 pushed it and it follows); or
    back by 20 mm, more than half the gap measured (29 mm) leaves for the bias on each:
    each is a move the detector weighs, and the first sample stays."""
    away = _start_kept([(0.489, 1.0), (0.48, 1.03), (0.47, 1.06)], [0.03, 10.2, 10.3])
    following = _start_kept([(0.511, 1.0), (0.522, 1.0), (0.533, 1.0)], [0.03, 0.06, 0.09])
    too_far = _start_kept([(0.52, 1.0), (0.53, 1.03), (0.54, 1.06)], [0.03, 10.2, 10.3])
    assert away[0] and following[0] and too_far[0]


def test_a_ball_that_moves_towards_where_ball_1_stood_long_after_it_left_keeps_its_first_sample() -> None:
    """The same 11 mm towards where ball 1 stood, but first sent 3 s after ball 1 was
    struck away: the bias went with ball 1, and a tracker that sends a ball once it moved
    would have sent the way back at once. A move so late is a contact, and the sample it
    started from stays."""
    late = _start_kept([(0.511, 1.0), (0.52, 1.0), (0.53, 1.0)], [3.0, 3.4, 3.8])
    assert late.all()


def test_a_contact_long_after_the_strike_moving_a_ball_towards_ball_1s_place_is_found() -> None:
    """A development stroke (seed 172178, in the recording of 29 from 172150, whose camera
    sends a ball once it moved 14 mm): red lay 32 mm beyond touching white, ball 1, at
    the strike. Yellow, white's first ball, rolled into red at 2.77 s and pushed it 36 mm,
    towards where white had stood; red's next sample came 3.06 s after the strike. Read as
    the bias coming back, red's first sample was set aside, its move became a nudge after
    the contact, and the point was lost at confidence 1.000."""
    stroke = development_stroke(172178, 172150)
    assert stroke.verdict.points == 1 and not stroke.camera.every_frame
    ruling = judged(stroke)
    assert ruling.points == 1
    assert any(isinstance(e, BallContact) and {e.ball, e.other} == {Ball.YELLOW, Ball.RED}
               and 2.5 < e.t < 3.1 for e in ruling.stroke.events)


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


def _cut_near_2_s(runs: list[tuple[int, int, bool]]) -> bool:
    """Whether the runs are cut anywhere between samples 90 and 110 (1.8–2.2 s)."""
    return any(90 <= end < 110 for _, end, _ in runs)


def test_a_step_in_the_noise_of_a_ball_sent_every_frame_leaves_one_rest() -> None:
    """Eight samples in the tail of the noise step by 1.6 mm at 2 s, and their means of
    four differ as much; but the ball's samples before and after lie, on their means, in
    one place: one rest there, no move (before, a nudge that a ball passing then was
    said to have made)."""
    t, xy = _sent_every_frame(0.0, 0.0008)
    runs = rest_runs(t, xy, 0.0005)
    assert not _cut_near_2_s(runs)
    assert any(rest and begin < 96 and end > 104 for begin, end, rest in runs)


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


def test_a_slow_last_contact_with_a_ball_biased_at_the_start_is_found() -> None:
    """A development stroke (seed 18344, looked at while this was written): yellow lay 12 mm
    beyond touching white at the start, measured 29 mm (the camera's bias pushed both
    centres apart); white was struck away, yellow's next sample came back 11 mm towards it,
    and ten seconds later white rolled slowly into yellow and moved it 7 cm, white's
    second ball. Read as a move at the strike, yellow was a ball already moving, and the
    point was lost at confidence 1.000; with its first sample set aside as the bias, the
    late contact is found (dated from yellow's sparse samples, within a few tenths of a
    second) and the point given."""
    rules, table = discipline("three-cushion"), TABLES["large"]
    stroke = labelled_stroke(18344, rules, table, None, HarshRanges())
    ruling = track_stroke(stroke.tracked, rules, table)
    assert stroke.verdict.points == 1
    assert ruling.points == 1
    assert any(isinstance(e, BallContact) and {e.ball, e.other} == {Ball.WHITE, Ball.YELLOW}
               and e.t > 10.0 for e in ruling.stroke.events)


def _burst_after_silence(shift: float) -> tuple[np.ndarray, np.ndarray]:
    """A ball seen once at the strike, then nothing for 2.5 s, then a burst of twelve
    samples 25 ms apart (a tracker that sends every frame of a moving ball) lying
    ``shift`` (m, along y) from the first, the first of them half as far, and a last
    sample at 10 s where the burst lies; 0.3 mm of noise, read as 1 mm."""
    rng = np.random.default_rng(11)
    t = np.array([0.0, *(2.5 + 0.025 * k for k in range(12)), 10.0])
    xy = np.array([0.5, 1.0]) + rng.normal(0.0, 0.0003, (14, 2))
    xy[0] = (0.5, 1.0)
    xy[1:, 1] -= shift
    xy[1, 1] += 0.5 * shift
    return t, xy


def test_a_ball_sent_again_in_a_burst_after_a_silence_and_4_mm_away_rests_twice() -> None:
    """No step between two samples is beyond the noise's reach (the first of the burst
    lies 2 mm from the lone sample before, the rest within a millimetre of each other),
    but the tracker sent the ball again, every frame, after seconds of silence: it was
    moving. Two rests, so that the move is weighed (before, one rest: the move was
    lost)."""
    runs = rest_runs(*_burst_after_silence(0.004), 0.001)
    assert runs[0] == (0, 0, True)
    assert any(begin == 1 and rest for begin, _, rest in runs)


def test_a_burst_where_the_ball_lay_is_a_rest_of_its_own_weighed_as_likelier_unmoved() -> None:
    """The burst is cut from the lone sample whatever its distance; how likely the ball
    moved is then weighed on that distance: a fraction of a millimetre, likelier none."""
    t, xy = _burst_after_silence(0.0)
    assert rest_runs(t, xy, 0.001)[0] == (0, 0, True)
    assert DEFAULT_MODEL.moved_probability(float(np.hypot(*(xy[-1] - xy[0]))), 0.001) < 0.5


def test_a_silence_made_by_leaving_out_biased_samples_is_no_silence() -> None:
    """Samples left out (they carried the bias of a ball resting beside) leave a gap the
    tracker did not: judged by all the samples it sent, nothing resumed, one rest."""
    t, xy = _burst_after_silence(0.0)
    sent = np.sort(np.concatenate([t, np.arange(0.02, 2.5, 0.02)]))
    assert resumed(sent) == []
    assert rest_runs(t, xy, 0.001, resumed(sent)) == [(0, 13, True)]


def test_a_burst_after_a_silence_is_where_the_tracker_resumed() -> None:
    t, _ = _burst_after_silence(0.0)
    assert resumed(t) == [2.5]


def test_a_ball_sent_once_it_moved_and_seen_twice_is_judged_by_its_step() -> None:
    """A first and a last sample only (no burst): within the noise's reach, one rest."""
    t, xy = np.array([0.0, 9.0]), np.array([[0.5, 1.0], [0.5, 0.9975]])
    assert rest_runs(t, xy, 0.001) == [(0, 1, True)]


def test_a_thin_touch_shown_by_a_burst_after_a_silence_is_found() -> None:
    """A development stroke (seed 104958, in the recording of ten from 104950, whose camera
    sends every frame of a moving ball): white touched red thinly at 2.39 s and moved it
    7.6 mm, white's second ball. Red's samples near white carry the bias and are left
    out; those after, 25 ms apart, lie 6 mm from red's one sample at the strike, each
    step among them within the noise. Taken as one rest, the point was lost at
    confidence 1.000; it is now given."""
    stroke = development_stroke(104958, 104950)
    assert stroke.camera.every_frame
    ruling = judged(stroke)
    assert stroke.verdict.points == 1
    assert ruling.points == 1


def test_a_ball_set_moving_beside_its_hitter_and_then_still_is_found_struck() -> None:
    """A development stroke (seed 128098, in the recording of 49 from 128050, whose camera
    sends a ball once it moved 10 mm): yellow, ball 1, hit white and three cushions and
    lay still from 7 s; red, set moving by white, met it at 10.42 s: ball 1's contact with
    its second ball. Yellow's four samples from 10.59 s march 13 to 48 mm away beside red,
    and it lies where the last of them was at the end. Set aside as the bias, the move
    became a nudge between two rests, and the point was lost at confidence 0.993."""
    stroke = development_stroke(128098, 128050)
    assert stroke.verdict.points == 1 and not stroke.camera.every_frame
    assert judged(stroke).points == 1


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


def _rest_across_a_gap(moved: float) -> tuple[np.ndarray, np.ndarray]:
    """A ball sent every 25 ms with 1.4 mm of noise, resting 1 s; its samples for 0.15 s
    set aside (a ball passed); then resting 1 s more, ``moved`` m from where it lay."""
    rng = np.random.default_rng(11)
    t = np.r_[np.arange(40) * 0.025, 1.15 + np.arange(40) * 0.025]
    xy = np.array([0.7, 1.2]) + rng.normal(0.0, 0.0014, (80, 2))
    xy[40:, 0] += moved
    return t, xy


def test_a_ball_sent_every_frame_moved_across_a_gap_in_its_samples_moved() -> None:
    """A thin touch moved it 4 mm while its samples beside the hitter were set aside:
    within the noise's reach of any one sample, plain on the means either side."""
    t, xy = _rest_across_a_gap(0.004)
    still = np.ones(80, dtype=bool)
    assert _moved_across_gaps(t, xy, still, 0.0014).tolist() == [k == 39 for k in range(79)]
    assert any(end == 39 for _, end, _ in rest_runs(t, xy, 0.0014))


def test_a_ball_sent_every_frame_still_across_a_gap_is_not_cut_there() -> None:
    t, xy = _rest_across_a_gap(0.0)
    assert not _moved_across_gaps(t, xy, np.ones(80, dtype=bool), 0.0014).any()
    assert not any(end == 39 for _, end, _ in rest_runs(t, xy, 0.0014))


T_81 = np.r_[np.arange(30) * 0.02, 0.9 + np.arange(51) * 0.02]
"""Thirty samples 20 ms apart, a gap of a third of a second, fifty-one more."""


def _rest_sample_rest(lone: tuple[float, float]) -> np.ndarray:
    """Thirty samples of a resting ball with 0.5 mm of noise, one more at ``lone`` (m,
    from where the ball lay), then fifty 6 mm along x: a ball moved during a gap."""
    xy = np.array([0.7, 1.2]) + np.random.default_rng(3).normal(0.0, 0.0005, (81, 2))
    xy[30] = (0.7 + lone[0], 1.2 + lone[1])
    xy[31:, 0] += 0.006
    return xy


def test_a_lone_sample_before_a_rest_of_many_where_it_lay_is_part_of_it() -> None:
    """The first sample after a gap, 1.5 mm from where the fifty after it lay (in the
    noise's tail of one sample, within four deviations of their mean), cut from them:
    it is the start of that rest, and the move is weighed between two rests of many
    samples, not from a single one."""
    runs = [(0, 29, True), (30, 30, True), (31, 80, True)]
    assert _merged(runs, T_81, _rest_sample_rest((0.0075, 0.0)), 0.0005) == [(0, 29, True), (30, 80, True)]


def test_a_lone_sample_off_the_rest_after_it_or_beside_the_rest_before_it_stays_apart() -> None:
    """The same sample 4 mm from the rest after it (eight deviations) is a place of its
    own; and one that lies where the rest *before* it lay, after a gap, is not taken into
    that rest: the ball may have been touched during the gap and moved less than the
    noise's reach."""
    runs = [(0, 29, True), (30, 30, True), (31, 80, True)]
    assert _merged(runs, T_81, _rest_sample_rest((0.010, 0.0)), 0.0005) == runs
    before = [(0, 29, True), (30, 30, True)]
    assert _merged(before, T_81[:31], _rest_sample_rest((0.0, 0.0))[:31], 0.0005) == before


def test_a_thin_touch_across_a_gap_ending_in_a_lone_sample_is_found() -> None:
    """A development stroke (seed 173600, in the recording of one from 173600, whose camera
    sends every frame of every ball): white passed red at 3.83 s and moved it 6 mm, its
    samples beside white set aside as biased (the camera's bias pushes touching centres
    apart by about 2 cm each). Red's first sample after the gap lay in the noise's tail
    and was cut from the rest after it: the move was weighed from one sample to one
    sample, and the point was lost."""
    stroke = development_stroke(173600, 173600, every_frame=True)
    assert stroke.verdict.points == 1
    assert judged(stroke).points == 1


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


def _rolled_to_rest_then_struck() -> tuple[np.ndarray, np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """A ball sent every 14 mm rolling slowly to a stop (its last sample at 4.81 s, still
    rolling), nothing sent for four seconds, then struck at 9.2 s by a ball coming up
    beside it and rolling away slowly: its first sample after the silence pulled 17 mm
    towards the hitter by the bias, the next ones taken with the hitter still near
    (development stroke 194418, red's samples, m)."""
    t = np.array([3.877, 4.116, 4.38, 4.812, 9.071, 9.43, 9.645, 9.956, 10.53])
    xy = np.array([[0.2248, 2.4735], [0.2149, 2.4626], [0.2011, 2.4530], [0.1896, 2.4419],
                   [0.1788, 2.4322], [0.1927, 2.4433], [0.2065, 2.4484], [0.2191, 2.4561],
                   [0.2329, 2.4618]])
    hitter_t = np.array([8.951, 9.046, 9.119, 9.19, 9.357, 9.645, 9.956, 10.53])
    hitter = np.array([[0.1155, 2.3669], [0.1205, 2.3877], [0.1295, 2.4012], [0.1377, 2.4122],
                       [0.1271, 2.4342], [0.1200, 2.4750], [0.1120, 2.5200], [0.1050, 2.5600]])
    return t, xy, [(hitter_t, hitter)]


def test_a_ball_that_rolled_to_rest_unseen_and_was_struck_keeps_its_samples_beside_the_hitter() -> None:
    """The samples beside the hitter are the start of a real move, not the bias on a
    resting ball: measured from where the ball came to rest (on along its last chord by
    as far as it rolls from the speed it had, never a tracker's step), they go farther
    one after another, and the sample after them, 0.31 s later and no ball near, farther
    still. Measured from its last sample, still rolling, they went back and forth, and
    they were set aside as bias: the ball was read rolling on through the four seconds'
    silence, the hitter found nowhere, and the point lost at 1.000."""
    t, xy, others = _rolled_to_rest_then_struck()
    assert biased_excursions(t, xy, 0.0012, others, D).all()


def test_a_ball_that_rolled_to_rest_unseen_and_was_struck_was_struck_by_the_ball_beside_it() -> None:
    """Development stroke 194418, judged in its recording of 50 (from 194400), whose
    strokes measure the camera's bias of 17 mm (alone, the bias left in hides the contact
    whatever the samples kept)."""
    stroke, ruling = judged_in_recording(194418, 194400)
    assert stroke.verdict.points == 1
    assert ruling.points == 1


_CREEP_T = [4.932, 4.968, 5.004, 5.041, 5.114, 5.187, 5.224, 5.26, 5.333, 5.37, 5.406, 5.479, 5.516, 5.552,
            5.589, 5.625, 5.662, 5.735, 5.771, 5.808, 5.845, 5.881, 5.918, 5.954, 5.99, 6.064, 6.1, 6.137,
            6.173, 6.211, 6.283, 6.32, 6.393, 6.465, 6.502, 6.539, 6.575, 6.648, 6.722, 6.794]
_CREEP_MM = [[1244.7, 1042.2], [1240.7, 1040.4], [1238.2, 1039.5], [1235.4, 1041.2], [1232.3, 1036.1],
             [1227.0, 1036.9], [1226.0, 1035.2], [1222.5, 1035.8], [1219.9, 1032.2], [1218.0, 1036.2],
             [1215.3, 1032.8], [1213.0, 1032.2], [1211.4, 1030.8], [1210.0, 1030.9], [1205.3, 1030.7],
             [1207.4, 1031.0], [1204.5, 1029.0], [1202.2, 1029.2], [1201.5, 1030.5], [1199.4, 1028.2],
             [1199.4, 1028.8], [1197.5, 1029.3], [1195.9, 1028.5], [1196.2, 1028.3], [1192.9, 1027.6],
             [1192.1, 1026.8], [1189.9, 1028.7], [1192.1, 1025.2], [1190.6, 1024.4], [1190.2, 1023.2],
             [1189.4, 1025.7], [1185.8, 1026.6], [1188.1, 1026.3], [1186.4, 1024.8], [1189.5, 1025.0],
             [1188.2, 1024.7], [1185.5, 1025.4], [1188.1, 1027.0], [1187.0, 1026.9], [1188.8, 1025.2]]
"""Red rolling out at 4 cm/s and slowing, every frame sent with 1.1 mm of noise
(development stroke 302034, every-frame camera)."""


def test_a_ball_rolling_out_at_a_few_centimetres_a_second_is_one_motion() -> None:
    """Each 0.1 s it moved 3–4 mm, within the noise, and its roll was cut into rests, moves
    and starts; the start at 5.88 s was laid on yellow, the only ball near (67 mm beyond
    touching), at 1.000. Drifting on the way it came, no faster, the rests are motion: one
    roll until it stopped."""
    t, xy = np.array(_CREEP_T), 0.001 * np.array(_CREEP_MM)
    runs = rest_runs(t, xy, 0.00114)
    moving = [r for r in runs if not r[2]]
    assert len(moving) == 1
    assert t[moving[0][0]] < 5.01 and t[moving[0][1]] > 5.95


def test_a_rest_that_drifts_no_way_the_ball_was_seen_coming_stays_a_rest() -> None:
    """The same drift after the ball lay still (a still ball whose samples a passing
    ball's bias moved): still read as rests, and so the start a ball made."""
    t, xy = np.array(_CREEP_T[13:]), 0.001 * np.array(_CREEP_MM[13:])
    xy = np.vstack((np.repeat(xy[:1], 3, axis=0), xy))
    t = np.r_[t[0] - 0.111, t[0] - 0.074, t[0] - 0.037, t]
    runs = rest_runs(t, xy, 0.00114)
    assert sum(r[2] for r in runs[1:-1]) >= 1


def test_a_ball_rolling_out_slowly_is_not_struck_by_a_ball_passing_67_mm_away() -> None:
    """Development stroke 302034 in its recording: the point yellow was given for the
    start read in red's roll is gone."""
    stroke, ruling = judged_in_recording(302034, 302000, every_frame=True)
    assert stroke.verdict.points == ruling.points == 0
    assert not any(isinstance(e, BallContact) and {e.ball, e.other} == {Ball.YELLOW, Ball.RED}
                   and 5.5 < e.t < 6.3 for e in ruling.stroke.events)


_STRUCK_T = [2.822, 2.858, 2.893, 2.927, 2.962, 2.997, 3.031, 3.067, 3.102, 3.136, 3.171, 3.206, 3.241,
             3.276, 3.311, 3.345, 3.381, 3.415, 3.45, 3.486, 3.52, 3.555, 3.589, 3.624, 3.659, 3.694,
             3.729, 3.764, 3.799, 3.833, 3.868, 3.904, 3.938, 3.973, 4.008, 4.043, 4.077, 4.112, 4.147,
             4.182, 4.46, 4.495, 4.53, 4.566, 4.6, 4.635]
_STRUCK_MM = [[1331.7, 1183.3], [1332.1, 1182.9], [1331.7, 1182.5], [1331.8, 1182.6], [1331.5, 1181.4],
              [1332.2, 1182.2], [1331.2, 1182.5], [1331.5, 1181.6], [1332.2, 1183.2], [1331.7, 1182.5],
              [1331.9, 1182.2], [1331.6, 1182.6], [1331.3, 1182.3], [1332.0, 1183.0], [1331.8, 1182.5],
              [1332.3, 1182.7], [1332.6, 1183.4], [1331.0, 1181.8], [1332.5, 1182.1], [1331.7, 1182.2],
              [1331.3, 1182.2], [1332.0, 1181.1], [1332.0, 1182.3], [1332.0, 1181.3], [1332.3, 1180.9],
              [1332.0, 1182.4], [1332.0, 1181.7], [1332.0, 1181.4], [1332.5, 1182.2], [1331.7, 1182.7],
              [1331.7, 1181.9], [1331.6, 1183.3], [1333.2, 1181.8], [1332.3, 1182.2], [1332.6, 1181.6],
              [1332.4, 1180.8], [1332.4, 1182.5], [1330.8, 1181.3], [1331.2, 1181.5], [1332.3, 1182.4],
              [1284.5, 1155.4], [1274.2, 1148.8], [1262.2, 1142.3], [1251.8, 1135.6], [1241.9, 1130.0],
              [1229.8, 1123.0]]
"""Red lying still, every frame sent with 0.58 mm of noise, its samples beside white set
aside as biased from 4.217 s, and set moving by white at 4.30 s, unseen in that gap
(development stroke 310502, every-frame camera)."""


def test_the_last_still_samples_cut_off_a_rest_by_the_noise_are_not_a_departure() -> None:
    """Steps in the noise's tail cut red's rest at 3.938 s and again at 4.077 s, leaving
    a rest of one sample; the three still samples after it, before the gap, were read as
    red's departure at 4.11 s, and white, then 33 mm beyond touching and on its way to
    the right cushion, was taken to have struck red before that cushion (1.000, the
    point lost). Measured against the whole rest, the ball lay still until the gap."""
    t, xy = np.array(_STRUCK_T), 0.001 * np.array(_STRUCK_MM)
    runs = rest_runs(t, xy, 0.00058)
    moving = [r for r in runs if not r[2]]
    assert moving and t[moving[0][0]] == 4.46


def test_a_short_rest_is_joined_to_the_rest_of_many_before_it_only_in_its_place_and_before_a_move() -> None:
    """A rest of two samples between a rest of many and a moving stretch, within the
    rest's reach of where it lay and sent on the next frames, is its end; two samples
    3 mm off (the ball moved), or followed by another rest, are left as they are."""
    rng = np.random.default_rng(11)
    t = np.arange(60) * 0.02
    xy = np.array([0.7, 1.2]) + rng.normal(0.0, 0.0005, (60, 2))
    xy[54:, 0] += 0.004 * np.arange(1, 7)
    runs = [(0, 49, True), (50, 51, True), (52, 59, False)]
    assert _tails_joined(runs, t, xy, 0.002) == [(0, 51, True), (52, 59, False)]
    assert _tails_joined([(0, 49, True), (50, 51, True), (52, 59, True)], t, xy, 0.002) == [
        (0, 49, True), (50, 51, True), (52, 59, True)]
    xy[50:52, 0] += 0.003
    assert _tails_joined(runs, t, xy, 0.002) == runs


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


def test_a_ball_struck_beside_a_cushion_is_struck_after_the_cushion() -> None:
    """Development strokes 310502 and 310474 in their recordings, every frame sent: the
    last contact, found before the third cushion from still samples read as a departure,
    is found after it, and the point is given."""
    for shot, first in ((310502, 310500), (310474, 310450)):
        stroke, ruling = judged_in_recording(shot, first, every_frame=True)
        assert stroke.verdict.points == ruling.points == 1


_ROLL_T = [10.708, 10.729, 10.749, 10.77, 10.79, 10.812, 10.832, 10.852, 10.873, 10.894, 10.914, 10.935,
           10.955, 10.976, 10.997, 11.017, 11.038, 11.059, 11.08, 11.101, 11.12, 11.142, 11.162, 11.182,
           11.203, 11.225, 11.244, 11.265, 11.286, 11.307, 11.327, 11.348, 11.368, 11.389, 11.409, 11.43,
           11.45, 11.471, 11.492, 11.513, 11.533, 11.554, 11.575, 11.595, 11.615, 11.657, 11.678, 11.698,
           11.719, 11.74, 11.76, 11.781, 11.801, 11.822, 11.843, 11.863, 11.884, 11.905, 11.926, 11.946]
_ROLL_MM = [[947.5, 53.2], [946.2, 55.3], [945.5, 54.6], [944.9, 55.1], [943.9, 55.9], [943.7, 58.2],
            [943.2, 59.9], [943.4, 59.0], [942.5, 60.6], [942.8, 61.4], [942.6, 62.2], [941.2, 63.2],
            [940.0, 63.8], [940.5, 65.0], [939.8, 64.9], [940.3, 67.2], [939.8, 67.0], [939.1, 68.5],
            [939.1, 69.1], [940.0, 69.4], [938.1, 70.2], [938.1, 69.6], [937.6, 71.0], [936.3, 71.3],
            [937.3, 71.4], [935.5, 72.6], [937.0, 74.1], [936.1, 74.2], [936.3, 73.6], [936.6, 75.0],
            [936.6, 75.8], [935.0, 77.3], [935.1, 77.6], [935.6, 77.1], [935.6, 77.2], [933.7, 78.4],
            [933.6, 78.0], [936.7, 79.2], [935.0, 79.2], [935.0, 79.0], [934.1, 79.0], [934.0, 81.5],
            [934.0, 81.1], [934.1, 79.9], [934.2, 82.5], [932.3, 82.2], [934.2, 81.7], [933.9, 80.9],
            [933.8, 83.4], [933.4, 81.9], [932.6, 83.4], [933.3, 83.2], [933.3, 82.2], [933.4, 83.7],
            [932.8, 83.2], [933.2, 83.7], [933.1, 82.2], [933.9, 82.9], [932.7, 82.1], [932.2, 82.2]]
"""White rolling out at 4 cm/s and slowing to a stop beside yellow, every frame (21 ms)
sent with 0.8 mm of noise (development stroke 315838, every-frame camera)."""


def test_a_ball_rolling_out_at_4_cm_a_second_seen_every_frame_is_seen_coming_into_its_drift() -> None:
    """On its last five frames before the drift its speed is within four deviations of
    still, so the drift was not seen coming: it stayed two rests and a start, laid on
    yellow resting 49 mm beyond touching (1.000). Measured on as many frames as the
    drift, the way it came is seen: one roll, then the rest where it stopped."""
    t, xy = np.array(_ROLL_T), 0.001 * np.array(_ROLL_MM)
    runs = rest_runs(t, xy, 0.00079)
    assert [r[2] for r in runs] == [True, False, True]
    assert t[runs[-1][0]] > 11.69


def test_a_ball_passed_early_and_struck_late_is_weighed_episode_by_episode() -> None:
    """A ball resting at (1.32, 2.53) is sent twice while white passes 11 mm beyond
    touching at 1.1 s (its bias, 8 and 6 mm off), then nothing while white is away,
    then four samples after white came back and struck it at 3.1 s, going on 53 mm.
    Read as one run of samples near white, the last went beyond any bias and all were
    kept: the ball left at 1.09 s, where white passed, and its contact was dated there,
    before white's third cushion (development stroke 315051, 1.000). White went away
    in the silence between: the pass is its bias, set aside; the strike, a move, kept."""
    t = np.array([0.0, 1.086, 1.254, 3.183, 3.371, 3.595, 3.820, 4.494, 12.882])
    xy = 0.001 * np.array([[1323.9, 2531.7], [1316.1, 2530.1], [1322.8, 2526.4], [1313.9, 2522.1],
                           [1307.3, 2510.6], [1300.1, 2498.9], [1294.9, 2487.0], [1281.4, 2463.6],
                           [1281.4, 2463.6]])
    white_t = np.array([0.0, 0.9, 1.086, 1.254, 1.6, 2.8, 3.1, 3.183, 3.371, 3.595, 3.82, 4.494, 12.882])
    white = 0.001 * np.array([[600.0, 300.0], [1250.0, 2400.0], [1250.0, 2561.0], [1315.0, 2620.0],
                              [1380.0, 2800.0], [1380.0, 2300.0], [1360.0, 2480.0], [1378.0, 2477.0],
                              [1383.0, 2470.0], [1385.0, 2460.0], [1387.0, 2455.0], [1390.0, 2440.0],
                              [1390.0, 2440.0]])
    keep = biased_excursions(t, xy, 0.0014, [(white_t, white)], D)
    assert keep.tolist() == [True, False, False, True, True, True, True, True, True]
