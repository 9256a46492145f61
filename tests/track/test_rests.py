"""Rests and moves read off a sparse tracker's samples: a ball seen once in a long
silence lay still there, and samples taken beside another ball that go on moving away
are the start of a real move, not the tracker's bias."""

from __future__ import annotations

import numpy as np

from carom.track.reconstruct.rests import _stays_moved, _undrifted, biased_excursions, rest_runs

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

