"""The spin an object ball leaves the impact with: the start model of the replay files
(``carom.physics.replay``; docs/physics.md, "Where the error comes from").

The published replay file starts every object ball with no spin. Its tracks say
otherwise: before the first cushion an object ball slides longer, and rolls on slower,
than a spinless ball would (it left the impact with backspin, a follow cue ball's topspin
passed on through the balls' friction), and at the first cushion it comes off as if it
carried side spin whose sense is the one the cut gives it (the striking ball's surface
drags the object ball's round as it slides across it). The start model:

* backspin ``b·|v|/R`` about the horizontal axis across ``v``;
* side spin ``κ·σ·|v|/R`` about the vertical, σ = ±1 the sense the cut gives (0 for a
  ball struck square on or whose striker is not tracked): the striking ball's velocity
  just before the impact, less its part along ``v``, drags the object ball's near side.

``b`` and ``κ`` are fitted (``tools/calibrate.py``, cross-validated with the simulator's
parameters); the striking ball's approach is read from the match's tracks (the ball
nearest the object ball when it starts, its velocity over the 0.12 s before).
``tools/object_ball_starts.py`` writes a replay file's starts with this spin.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from carom.core.errors import InputError
from carom.core.inputs import parse_json, read_text
from carom.physics.params import DEFAULT_PARAMS

BACKSPIN = 0.028
"""Fitted b (``tools/calibrate.py``): backspin R·ω as a fraction of the object ball's speed."""
SIDE = 0.186
"""Fitted κ: side spin R·ωz as a fraction of the object ball's speed."""
APPROACH = 0.12
"""Seconds of the striking ball's track before the impact that give its velocity."""


def read_match(path: str | Path) -> dict[int, dict[str, Any]]:
    """The strokes of a tracked match file (one JSON object a line), by shot id."""
    out = {}
    for number, line in enumerate(read_text(path, 256 * 1024 * 1024).splitlines(), 1):
        if line.strip():
            stroke = parse_json(line)
            if not isinstance(stroke, dict) or "shot" not in stroke or "balls" not in stroke:
                raise InputError(f"{path}: not a tracked stroke", number)
            out[int(stroke["shot"])] = stroke
    return out


def approach(stroke: Mapping[str, Any], ball: str, r: tuple[float, float], t0: float) -> np.ndarray | None:
    """The velocity of the ball that struck ``ball`` (the one nearest ``r`` at ``t0``)
    just before ``t0``; None when no other ball was tracked there."""
    best = None
    for name, track in stroke["balls"].items():
        if name == ball:
            continue
        t, x, y = (np.asarray(track[k], dtype=float) for k in ("t", "x", "y"))
        before = (t >= t0 - APPROACH) & (t <= t0)
        if before.sum() < 3:
            continue
        gap = math.hypot(np.interp(t0, t, x) - r[0], np.interp(t0, t, y) - r[1])
        if best is None or gap < best[0]:
            best = (gap, np.array([np.polyfit(t[before], x[before], 1)[0],
                                   np.polyfit(t[before], y[before], 1)[0]]))
    if best is None or best[0] > 4.0 * DEFAULT_PARAMS.ball_radius:
        return None
    return best[1]


def cut_sense(v: tuple[float, float], striker: np.ndarray | None) -> float:
    """σ: +1 when the cut spins the object ball counter-clockwise seen from above, −1
    clockwise, 0 for a square hit or an unknown striker. The striker's surface slides
    across the object ball's along its velocity less the part along ``v``; the friction
    drags the object ball's near side (at −R·v̂ from its centre) that way."""
    speed = math.hypot(*v)
    if striker is None or speed == 0.0:
        return 0.0
    d = np.array(v) / speed
    across = striker - (striker @ d) * d
    turn = -(d[0] * across[1] - d[1] * across[0])
    return float(np.sign(turn)) if abs(turn) > 1e-3 else 0.0


def start_spin(v: tuple[float, float], sense: float, backspin: float = BACKSPIN, side: float = SIDE,
               radius: float = DEFAULT_PARAMS.ball_radius) -> tuple[float, float, float]:
    """The object ball's spin (rad/s) at the start: backspin and the cut's side spin."""
    speed = math.hypot(*v)
    return (backspin * v[1] / radius, -backspin * v[0] / radius, side * sense * speed / radius)
