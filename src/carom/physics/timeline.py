"""The times at which a stroke's paths are sampled (numpy only, no kernel)."""

from __future__ import annotations

import numpy as np

from carom.core.errors import CaromError

MAX_SAMPLES = 200_000
"""Regular samples of one stroke's paths at most (200 s at 1 ms): a path stays a few MB."""


def sample_times(event_times: np.ndarray, end: float, every: float) -> np.ndarray:
    """Every ``every`` seconds from 0 to ``end``, the end and every event time, once each."""
    if not every > 0:
        raise CaromError(f"the sampling interval must be positive, not {every!r}")
    if end / every > MAX_SAMPLES:
        raise CaromError(f"sampling a stroke of {end:.1f} s every {every:g} s gives more than "
                         f"{MAX_SAMPLES:,} samples: sample less often")
    regular = np.arange(0.0, end, every)
    return np.unique(np.concatenate((regular, event_times, [end])))
