"""Breaks in a ball's motion (``carom.track.reconstruct.breaks``): a ball that leaves a
silence faster than it entered it was set moving again."""

from __future__ import annotations

import numpy as np

from carom.track.reconstruct.breaks import find_breaks


def _slow_roll_then(after: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """A ball rolling out at 3 cm/s, sent every 0.4 s; no sample for 2.5 s; then four
    samples 0.1 s apart at velocity ``after``."""
    t_before = np.arange(0.0, 1.7, 0.4)
    xy_before = np.column_stack((0.5 + 0.03 * t_before, np.full_like(t_before, 1.0)))
    start = xy_before[-1] + (0.01, 0.0)
    t_after = t_before[-1] + 2.5 + 0.1 * np.arange(4)
    xy_after = start + (t_after - t_after[0])[:, None] * np.array(after)
    return np.concatenate((t_before, t_after)), np.vstack((xy_before, xy_after))


def test_a_ball_leaving_a_silence_faster_than_it_entered_was_set_moving_again() -> None:
    t, xy = _slow_roll_then((0.15, 0.15))
    silence = int(np.argmax(np.diff(t)))
    assert silence in find_breaks(t, xy, 0.0005)


def test_a_ball_rolling_on_through_a_silence_has_no_break_there() -> None:
    t, xy = _slow_roll_then((0.02, 0.0))
    silence = int(np.argmax(np.diff(t)))
    assert silence not in find_breaks(t, xy, 0.0005)
