"""Sampled paths of a simulated stroke: where every ball was at given times, from the
event log (between two events every ball moves in closed form)."""

from __future__ import annotations

import numpy as np

from carom.physics import layout as L
from carom.physics.build.jit import kernel
from carom.physics.motion import advance
from carom.physics.timeline import sample_times

__all__ = ["sample_positions", "sample_times"]


@kernel
def sample_positions(log_t: np.ndarray, log_state: np.ndarray, log_mode: np.ndarray, n_log: int,
                     times: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Centres (len(times) × n × 2) of the n balls at ``times`` (ascending, ≥ 0)."""
    n = log_state.shape[1]
    out = np.empty((times.shape[0], n, 2))
    row = np.empty((n, L.STATE_WIDTH))
    k = 0
    for q in range(times.shape[0]):
        t = times[q]
        while k + 1 < n_log and log_t[k + 1] <= t:
            k += 1
        for m in range(n):
            advance(log_state[k], m, log_mode[k, m], t - log_t[k], p, row, m)
            out[q, m, 0] = row[m, L.X]
            out[q, m, 1] = row[m, L.Y]
    return out

