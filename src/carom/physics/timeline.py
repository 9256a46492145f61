"""The times at which a stroke's paths are sampled (numpy only, no kernel)."""

from __future__ import annotations

import numpy as np

from carom.core.errors import CaromError


def sample_times(event_times: np.ndarray, end: float, every: float) -> np.ndarray:
    """Every ``every`` seconds from 0 to ``end``, the end and every event time, once each."""
    if not every > 0:
        raise CaromError(f"the sampling interval must be positive, not {every!r}")
    regular = np.arange(0.0, end, every)
    return np.unique(np.concatenate((regular, event_times, [end])))
