"""Determinism: the same input gives the same events and positions, bit for bit — twice
in a process, in a fresh process, and in the batch form (ARCHITECTURE.md, principle 10)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.core.position import starting_position
from carom.notation.writer import format_record
from carom.physics import Strike, simulate, simulate_batch

from .conftest import LARGE

STRIKES = [(3.0, 80.0, 0.3, 0.2, 0.0), (5.5, 159.4, 0.38, -0.12, 0.0), (2.2, 271.0, -0.2, 0.1, 15.0),
           (6.0, 10.0, 0.0, -0.35, 0.0), (1.2, 45.0, 0.1, 0.4, 0.0)]
POSITION = starting_position(LARGE, Ball.WHITE)


def test_the_same_stroke_twice_is_the_same_record() -> None:
    for s in STRIKES:
        a = format_record(simulate(POSITION, Strike(Ball.WHITE, *s), LARGE, sample=0.01))
        b = format_record(simulate(POSITION, Strike(Ball.WHITE, *s), LARGE, sample=0.01))
        assert a == b


def test_a_fresh_process_gives_the_same_record() -> None:
    code = ("from carom.core.balls import Ball; from carom.core.position import starting_position;"
            "from carom.core.table import TABLES; from carom.notation.writer import format_record;"
            "from carom.physics import Strike, simulate; t = TABLES['large'];"
            "print(format_record(simulate(starting_position(t, Ball.WHITE),"
            f" Strike(Ball.WHITE, *{STRIKES[1]}), t, sample=0.01)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    here = format_record(simulate(POSITION, Strike(Ball.WHITE, *STRIKES[1]), LARGE, sample=0.01))
    assert out.strip() == here


def test_the_batch_gives_what_simulate_gives_bit_for_bit() -> None:
    n = len(STRIKES)
    positions = np.broadcast_to(np.array([POSITION[b] for b in BALLS]), (n, 3, 2)).copy()
    strikes = np.array(STRIKES)
    cue = np.zeros(n, dtype=np.int64)
    first = simulate_batch(positions, strikes, cue, LARGE)
    again = simulate_batch(positions, strikes, cue, LARGE)
    for name in ("codes", "n_codes", "end", "duration", "status"):
        assert np.array_equal(getattr(first, name), getattr(again, name))
    for k, s in enumerate(STRIKES):
        stroke = simulate(POSITION, Strike(Ball.WHITE, *s), LARGE)
        assert first.events(k) == tuple(replace(e, t=None) for e in stroke.events)
        assert stroke.end is not None
        for i, ball in enumerate(BALLS):
            assert (first.end[k, i, 0], first.end[k, i, 1]) == stroke.end[ball]



def test_the_ahead_of_time_build_computes_what_the_jit_kernels_compute() -> None:
    """``simulate`` runs the ahead-of-time build of the kernels; the batch form and the
    tests run numba's JIT: the same logs, bit for bit, on random strokes."""
    from carom.physics.build import aot
    from carom.physics.build.choice import stroke_kernels
    from carom.physics.engine import strike_and_run
    from carom.physics.params import DEFAULT_PARAMS

    stroke_kernels()  # builds the module when it is missing
    module = aot.load()
    if module is None:
        import pytest

        pytest.skip("no ahead-of-time build on this machine (simulate uses the JIT kernels)")
    rng = np.random.default_rng(11)
    for model in ("han2005", "mathavan2010"):
        p = DEFAULT_PARAMS.replace(cushion_model=model).vector(LARGE)
        for _ in range(40):
            s = np.zeros((3, 7))
            s[:, 0] = rng.uniform(0.1, 1.3, 3)
            s[:, 1] = rng.uniform(0.1, 2.7, 3)
            if min(np.hypot(*(s[a, :2] - s[b, :2])) for a, b in ((0, 1), (0, 2), (1, 2))) < 0.062:
                continue
            strike = np.array([rng.uniform(1, 6), rng.uniform(0, 360), rng.uniform(-0.35, 0.35),
                               rng.uniform(-0.35, 0.35), rng.choice([0.0, 20.0])])
            outs = []
            for run in (module.strike_and_run, strike_and_run):
                state = s.copy()
                ints = np.empty(512, np.int64)
                logs = (np.empty(512), ints.copy(), ints.copy(), ints.copy(), np.empty((512, 3, 7)),
                        np.empty((512, 3), np.int64))
                n, _, _, end = run(state, 0, strike, p, *logs, np.empty(0, np.uint8), np.empty(0))
                outs.append((n, end, state.tobytes(), logs[0][:n].tobytes(), logs[4][:n].tobytes()))
            assert outs[0] == outs[1]
