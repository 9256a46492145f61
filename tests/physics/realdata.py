"""The real-table data of ``tests/data`` (erdo100/3cushiontool, Apache 2.0), replayed
with ``carom.physics.replay`` and started with ``carom.physics.object_ball_start``."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from carom.physics.object_ball_start import BACKSPIN, SIDE, approach, cut_sense, read_match, start_spin
from carom.physics.replay import Case, load_cases

DATA = Path(__file__).resolve().parents[1] / "data"
REPLAY = DATA / "object-ball-replay-part1.json"
MATCH = DATA / "real-3c-match-part1.jsonl"


@cache
def replay_cases() -> tuple[Case, ...]:
    return tuple(load_cases(REPLAY))


@cache
def _senses() -> dict[tuple[int, float], float]:
    strokes = read_match(MATCH)
    out = {}
    for c in replay_cases():
        striker = approach(strokes[c.shot], c.ball, c.r, c.t0) if c.shot in strokes else None
        out[c.shot, c.t0] = cut_sense(c.v, striker)
    return out


def with_start_spin(cases: Sequence[Case], backspin: float = BACKSPIN, side: float = SIDE) -> list[Case]:
    """The cases started with the start model's spin."""
    senses = _senses()
    return [dataclasses.replace(c, w=start_spin(c.v, senses[c.shot, c.t0], backspin, side)) for c in cases]
