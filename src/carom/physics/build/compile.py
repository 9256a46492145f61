"""Compile every physics kernel now, once, instead of on first use:
``python -m carom.physics.build`` (for an installation step or a container image).

Builds the ahead-of-time module that ``simulate`` loads (``aot.py``) and fills numba's
cache with the JIT kernels of the batch form, saying what it does on stderr.
"""

from __future__ import annotations

import sys
import time


def main() -> int:
    from carom.physics.build import aot

    start = time.perf_counter()
    if aot.load() is None:
        sys.stderr.write("carom: compiling the one-stroke kernels ahead of time...\n")
        if aot.build() is None:
            sys.stderr.write("carom: no ahead-of-time build here (no C compiler?): simulate will use "
                             "the JIT kernels\n")
    sys.stderr.write("carom: compiling the batch kernels (numba, cached)...\n")
    import numpy as np

    from carom.core.balls import BALLS, Ball
    from carom.core.position import starting_position
    from carom.core.table import TABLES
    from carom.physics.batch import simulate_batch
    from carom.physics.engine import strike_and_run
    from carom.physics.params import DEFAULT_PARAMS, kernel_vector
    from carom.physics.paths import sample_positions

    table = TABLES["large"]
    start_position = starting_position(table, Ball.WHITE)
    positions = np.array([[start_position[b] for b in BALLS]])
    simulate_batch(positions, np.array([[3.0, 80.0, 0.0, 0.0, 0.0]]), np.array([0]), table)
    p = kernel_vector(DEFAULT_PARAMS, table)
    s = np.zeros((3, 7))
    s[:, :2] = positions[0]
    logs = (np.empty(8), np.empty(8, np.int64), np.empty(8, np.int64), np.empty(8, np.int64),
            np.empty((8, 3, 7)), np.empty((8, 3), np.int64))
    strike_and_run(s, 0, np.array([1.0, 0.0, 0.0, 0.0, 0.0]), p, *logs, np.empty(0, np.uint8), np.empty(0))
    sample_positions(logs[0], logs[4], logs[5], 1, np.zeros(1), p)
    sys.stderr.write(f"carom: physics kernels ready ({time.perf_counter() - start:.0f} s)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
