"""Reader ``balls-jsonl``: one stroke a line, per ball the lists ``t``, ``x``, ``y``.

The format of ``tests/data/real-3c-match-part1.jsonl`` (erdo100/3cushiontool)::

    {"shot": 545599, "cue": "white", "point": true,
     "balls": {"white": {"t": [0.0, 0.02, …], "x": […], "y": […]}, "yellow": {…}, "red": {…}}}

``shot`` is the stroke's id, ``cue`` the ball played, ``point`` (optional, ``null`` when
unknown) whether the stroke scored. Fields it does not know travel in ``extra``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.core.errors import InputError
from carom.core.inputs import parse_json
from carom.track.errors import TrackFormatError
from carom.track.readers import NumberedLines, Reader
from carom.track.samples import BallTrack, TrackedStroke

_BALL_NAMES = {ball.value: ball for ball in BALLS}
_KNOWN = frozenset(("shot", "cue", "balls", "point"))


MIN_STEP = 1e-4
"""The shortest time between two samples of a ball, s: no tracker takes more than
10,000 frames a second."""

MAX_TIME = 3600.0
"""The latest time of a sample, s: a stroke lasts seconds, a recording of one no more
than an hour."""

MAX_COORDINATE = 10.0
"""The largest coordinate, m, in either direction: tables are a few metres long (a
larger value is most likely in millimetres)."""

MAX_SAMPLES = 200_000
"""The most samples of one ball in one stroke (over an hour at 50 frames a second)."""


def sniff(first_line: str) -> bool:
    """A JSON object with ``balls`` and ``cue`` on its first line."""
    try:
        obj = parse_json(first_line)
    except InputError:
        return False
    return isinstance(obj, dict) and "balls" in obj and "cue" in obj


def read(lines: NumberedLines) -> Iterator[TrackedStroke]:
    for number, text in lines:
        yield parse_line(text, number)


def parse_line(text: str, line: int = 0) -> TrackedStroke:
    """One stroke from one line of the file."""
    try:
        obj = parse_json(text)
    except InputError as error:
        raise TrackFormatError(error.reason, line) from None
    if not isinstance(obj, dict):
        raise TrackFormatError("expected a JSON object (one stroke per line)", line)
    if "shot" not in obj:
        raise TrackFormatError("missing (the stroke's id)", line, "shot")
    shot = obj["shot"]
    if not isinstance(shot, (int, str)) or isinstance(shot, bool):
        raise TrackFormatError(f"expected a number or a string, got {json.dumps(shot)}", line, "shot")
    cue = _ball(obj.get("cue"), line, "cue")
    raw = obj.get("balls")
    if not isinstance(raw, dict):
        raise TrackFormatError("expected an object of ball tracks", line, "balls")
    balls: dict[Ball, BallTrack] = {}
    for name, value in raw.items():
        ball = _ball(name, line, f"balls.{name}")
        balls[ball] = _track(value, line, f"balls.{name}")
    missing = [ball.value for ball in BALLS if ball not in balls]
    if missing:
        raise TrackFormatError(f"no track for {', '.join(missing)}", line, "balls")
    label = obj.get("point")
    if label is not None and not isinstance(label, bool):
        raise TrackFormatError(f"expected true, false or null, got {json.dumps(label)}", line, "point")
    extra = {k: v for k, v in obj.items() if k not in _KNOWN}
    return TrackedStroke(shot, cue, balls, label, line, extra)


def _ball(value: Any, line: int, field: str) -> Ball:
    ball = _BALL_NAMES.get(value) if isinstance(value, str) else None
    if ball is None:
        raise TrackFormatError(f"unknown ball {json.dumps(value)} (white, yellow or red)", line, field)
    return ball


def _numbers(obj: Mapping[str, Any], key: str, line: int, field: str, largest: float) -> list[float]:
    value = obj.get(key)
    where = f"{field}.{key}"
    if not isinstance(value, list) or not value:
        raise TrackFormatError("expected a non-empty list of numbers", line, where)
    if len(value) > MAX_SAMPLES:
        raise TrackFormatError(f"{len(value)} samples: at most {MAX_SAMPLES} are read", line, where)
    for i, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, (int, float)) or not math.isfinite(item):
            raise TrackFormatError(f"expected a finite number, got {json.dumps(item)}", line,
                                   f"{where}[{i}]")
        if abs(item) > largest:
            hint = " (positions are in metres)" if key != "t" else " (times are in seconds)"
            raise TrackFormatError(f"{item} is out of range: at most {largest:g} in size{hint}", line,
                                   f"{where}[{i}]")
    return value


def _track(value: Any, line: int, field: str) -> BallTrack:
    if not isinstance(value, dict):
        raise TrackFormatError('expected {"t": […], "x": […], "y": […]}', line, field)
    t = _numbers(value, "t", line, field, MAX_TIME)
    x, y = (_numbers(value, key, line, field, MAX_COORDINATE) for key in ("x", "y"))
    if not len(t) == len(x) == len(y):
        raise TrackFormatError(f"t, x and y differ in length ({len(t)}, {len(x)}, {len(y)})", line, field)
    times = np.asarray(t, dtype=np.float64)
    steps = np.diff(times)
    if steps.size and not np.all(steps > 0.0):
        i = int((steps <= 0.0).argmax()) + 1
        raise TrackFormatError(f"times must increase ({t[i]} follows {t[i - 1]})", line, f"{field}.t[{i}]")
    if steps.size and not np.all(steps >= MIN_STEP):
        i = int((steps < MIN_STEP).argmax()) + 1
        raise TrackFormatError(f"samples {t[i] - t[i - 1]:.3g} s apart ({t[i - 1]}, {t[i]}): at least "
                               f"{MIN_STEP:g} s apart (no tracker takes more than {1 / MIN_STEP:,.0f} frames "
                               "a second)", line, f"{field}.t[{i}]")
    if times[0] < 0.0:
        raise TrackFormatError(f"negative time {t[0]}", line, f"{field}.t[0]")
    xy = np.column_stack((np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)))
    return BallTrack(times, xy)


READER = Reader(
    name="balls-jsonl",
    description="one stroke a line: {shot, cue, balls: {ball: {t, x, y}}, point}",
    sniff=sniff,
    read=read,
)
