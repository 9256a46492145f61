"""The detector's numeric helpers give numpy's results to the last bit."""

from __future__ import annotations

import numpy as np

from carom.track.reconstruct.numeric import diff, interp_at, linspace, median, percentile


def _samples(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for k in range(3000):
        n = int(rng.integers(1, 80))
        if k % 3 == 0:
            out.append(rng.random(n) * 0.05)
        elif k % 3 == 1:
            out.append(np.round(rng.random(n) * 10) / 300)  # many equal values, as rounded time stamps give
        else:
            out.append(rng.exponential(0.01, n))
    return out


def test_percentile_and_median_are_numpys() -> None:
    for values in _samples(1):
        for q in (0.0, 0.5, 10.0, 33.3, 50.0, 90.0, 100.0):
            assert percentile(values, q) == float(np.percentile(values, q))
        assert median(values) == float(np.median(values))


def test_the_other_helpers_are_numpys() -> None:
    rng = np.random.default_rng(2)
    times = np.cumsum(rng.random(50) + 0.01)
    values = rng.random(50)
    for t in rng.random(200) * 60.0:
        assert interp_at(times.tolist(), values.tolist(), float(t)) == float(np.interp(t, times, values))
    assert np.array_equal(diff(values), np.diff(values))
    assert np.array_equal(linspace(0.3, 1.7, 9), np.linspace(0.3, 1.7, 9))


def test_interpolation_is_numpys_with_equal_times_and_at_the_samples() -> None:
    """Time stamps may repeat (a tracker's rounding): ``interp_at`` still gives numpy's value,
    before, at and between the samples and beyond the last."""
    rng = np.random.default_rng(3)
    for _ in range(3000):
        times = np.sort(rng.integers(0, 6, int(rng.integers(1, 8)))) / 2.0
        values = rng.normal(size=times.shape[0])
        for t in np.arange(-1, 14) / 4.0:
            assert interp_at(times.tolist(), values.tolist(), float(t)) == float(np.interp(t, times, values))
