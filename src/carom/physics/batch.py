"""Many strokes in one compiled call, parallel over strokes (docs/physics.md, "the batch form").

The input is arrays: the three balls' centres (N × 3 × 2, rows white, yellow, red), the
strikes (N × 5: cue speed, direction in degrees, side, height, elevation) and the cue
ball of each stroke (N, 0 white, 1 yellow, 2 red). The outcome is arrays too, so that a
million strokes fit in a few hundred megabytes: each stroke's contacts in order as one
byte each (``kind·16 + ball·4 + other``, kind 1 ball–ball with ``other`` a ball, kind 2
cushion with ``other`` a cushion in the order bottom, top, left, right), how many there
were, the end position, the time of the last event and a status (0 ok, 1 stopped after
too many events). Each stroke is simulated by the same kernel as ``simulate``, so a
stroke gives the same contacts and end position here as there, bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import prange

from carom.core.balls import BALLS, CUSHIONS
from carom.core.errors import CaromError
from carom.core.events import BallContact, CushionContact, Event
from carom.core.records import Stroke
from carom.core.table import TableSpec
from carom.physics import layout as L
from carom.physics.build.jit import parallel_kernel
from carom.physics.build.notice import compile_notice
from carom.physics.engine import strike_and_run
from carom.physics.params import DEFAULT_PARAMS, Params, kernel_vector
from carom.physics.strike import MISCUE_LIMIT

STRIKE_COLUMNS = ("speed", "direction", "side", "height", "elevation")
KIND_BALL = L.EVENT_BALL
KIND_CUSHION = L.EVENT_CUSHION


@parallel_kernel
def _batch(positions: np.ndarray, strikes: np.ndarray, cue: np.ndarray, p: np.ndarray,
           codes: np.ndarray, n_codes: np.ndarray, end: np.ndarray, duration: np.ndarray,
           status: np.ndarray) -> None:
    no_t = np.empty(0)
    no_i = np.empty(0, dtype=np.int64)
    no_state = np.empty((0, 3, L.STATE_WIDTH))
    no_mode = np.empty((0, 3), dtype=np.int64)
    for k in prange(positions.shape[0]):
        s = np.zeros((3, L.STATE_WIDTH))
        for b in range(3):
            s[b, L.X] = positions[k, b, 0]
            s[b, L.Y] = positions[k, b, 1]
        _, nc, st, t = strike_and_run(s, cue[k], strikes[k], p, no_t, no_i, no_i, no_i, no_state, no_mode,
                                      codes[k], no_t)
        n_codes[k] = nc
        status[k] = st
        duration[k] = t
        for b in range(3):
            end[k, b, 0] = s[b, L.X]
            end[k, b, 1] = s[b, L.Y]


@dataclass(frozen=True, slots=True)
class BatchOutcome:
    """What happened in each stroke of a batch (arrays indexed by stroke)."""

    codes: np.ndarray
    """N × max_events bytes: the contacts in order (0 past the last one kept)."""
    n_codes: np.ndarray
    """Contacts in each stroke; more than ``codes.shape[1]`` means the list was cut."""
    end: np.ndarray
    """N × 3 × 2: where white, yellow and red came to rest."""
    duration: np.ndarray
    status: np.ndarray

    def events(self, k: int) -> tuple[Event, ...]:
        """Stroke ``k``'s contacts as ``carom/1`` events (without times)."""
        out: list[Event] = []
        for code in self.codes[k, :min(int(self.n_codes[k]), self.codes.shape[1])]:
            kind, a, b = int(code) >> 4, (int(code) >> 2) & 3, int(code) & 3
            if kind == KIND_BALL:
                out.append(BallContact(BALLS[a], BALLS[b]))
            else:
                out.append(CushionContact(BALLS[a], CUSHIONS[b]))
        return tuple(out)

    def stroke(self, k: int, positions: np.ndarray, cue: np.ndarray) -> Stroke:
        """Stroke ``k`` as a record the referee can judge."""
        start = {ball: (float(positions[k, i, 0]), float(positions[k, i, 1])) for i, ball in enumerate(BALLS)}
        end = {ball: (float(self.end[k, i, 0]), float(self.end[k, i, 1])) for i, ball in enumerate(BALLS)}
        return Stroke(ball=BALLS[int(cue[k])], events=self.events(k), start=start, end=end)


def simulate_batch(positions: np.ndarray, strikes: np.ndarray, cue: np.ndarray, table: TableSpec,
                   params: Params = DEFAULT_PARAMS, *, max_events: int = 64) -> BatchOutcome:
    """Simulate N strokes in parallel. ``positions``: N × 3 × 2 (white, yellow, red),
    ``strikes``: N × 5 (:data:`STRIKE_COLUMNS`), ``cue``: N ball numbers. Keeps the first
    ``max_events`` contacts of each stroke."""
    positions = np.ascontiguousarray(positions, dtype=np.float64)
    strikes = np.ascontiguousarray(strikes, dtype=np.float64)
    cue = np.ascontiguousarray(cue, dtype=np.int64)
    n = positions.shape[0]
    _check(positions, strikes, cue, table, params)
    codes = np.zeros((n, max_events), dtype=np.uint8)
    n_codes = np.zeros(n, dtype=np.int32)
    end = np.empty((n, 3, 2))
    duration = np.empty(n)
    status = np.zeros(n, dtype=np.int8)
    with compile_notice("a batch"):
        _batch(positions, strikes, cue, kernel_vector(params, table), codes, n_codes, end, duration, status)
    return BatchOutcome(codes, n_codes, end, duration, status)


def _check(positions: np.ndarray, strikes: np.ndarray, cue: np.ndarray, table: TableSpec,
           params: Params) -> None:
    n = positions.shape[0]
    if positions.shape != (n, 3, 2) or strikes.shape != (n, 5) or cue.shape != (n,):
        raise CaromError("expected positions N×3×2, strikes N×5 and cue N")
    if not (np.all(np.isfinite(positions)) and np.all(np.isfinite(strikes))):
        raise CaromError("positions and strikes must be finite")
    if np.any((cue < 0) | (cue > 2)):
        raise CaromError("cue ball numbers are 0 (white), 1 (yellow) or 2 (red)")
    slack = params.ball_radius - 0.001
    x, y = positions[..., 0], positions[..., 1]
    if np.any((x < slack) | (x > table.width - slack) | (y < slack) | (y > table.length - slack)):
        raise CaromError("a ball lies off the table's surface")
    for a, b in ((0, 1), (0, 2), (1, 2)):
        gap = np.hypot(*(positions[:, a] - positions[:, b]).T)
        if np.any(gap < 2.0 * params.ball_radius - 0.0005):
            raise CaromError("two balls overlap")
    if np.any(strikes[:, 0] < 0) or np.any(np.hypot(strikes[:, 2], strikes[:, 3]) > MISCUE_LIMIT + 1e-12):
        raise CaromError("cue speeds must be ≥ 0 and tip offsets within the miscue limit")
    if np.any((strikes[:, 4] < 0) | (strikes[:, 4] >= 90)):
        raise CaromError("cue elevation must lie in [0, 90) degrees")
