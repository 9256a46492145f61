"""A review's stroke read back (``carom.fit``) and played again with one field of its strike
changed: what the review page's "Play what was played" and "What if" compute, in the
simulation pool (docs/review.md, "What was played").

Everything here runs in a pool process on plain values (the stroke's record as the
review's log holds it, the match's header) and answers plain values: the page's words
are put in by the route (:mod:`carom.web.review.fit_pages`), so that one fit serves
every language.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from carom.core.balls import Ball
from carom.core.errors import CaromError
from carom.core.records import Header, Stroke
from carom.core.table import TABLES
from carom.fit import Budget, FittedStroke, agreement, fit_stroke, what_if
from carom.fit.stroke import STRIKE_FIELDS
from carom.notation.reader import record_from_json
from carom.physics.strike import MISCUE_LIMIT, Strike
from carom.rules.disciplines import DISCIPLINES
from carom.rules.referee import Verdict, judge_stroke
from carom.track import BallTrack, TrackedStroke
from carom.web.review.log import STROKE_FIELDS
from carom.web.review.pages import samples_text
from carom.web.training.simulator import contacts
from carom.web.training.table import STRIKE_KEYS, STRIKE_RANGES

GUARD_VARIABLE = "CAROM_FIT_SECONDS"
"""The environment variable that sets the fit's guard, in processor seconds (1 when unset)."""


def budget() -> Budget:
    """The fit's bound: ``carom fit``'s own. The simulations end it on every real stroke
    (docs/fit.md, "Speed"), which makes it deterministic; the processor seconds are the
    guard (a stroke stopped by them says so and is not what was played): 1 s, or the
    seconds of :data:`GUARD_VARIABLE` (a slower machine; the tests, whose answers must not
    hang on how busy the machine is)."""
    try:
        seconds = float(os.environ.get(GUARD_VARIABLE, "1"))
    except ValueError:
        seconds = 1.0
    return Budget(simulations=3000, seconds=seconds if 0.0 < seconds < math.inf else 1.0)
SAMPLE = 0.01
"""Seconds between the drawn paths' points (the training table's)."""
TABLE_KEYS = {name: key for key, name in STRIKE_KEYS.items()}
"""Each strike field's key in the training table's address."""


def tracked_of(record: Mapping[str, Any]) -> TrackedStroke:
    """The tracked stroke a review's stroke record carries (its ``samples``, ``"t x y;…"``
    per ball, as :func:`carom.web.review.pages.samples_text` wrote them)."""
    balls = {}
    for name, text in (record.get("samples") or {}).items():
        try:
            rows = np.array([[float(v) for v in sample.split(" ")] for sample in str(text).split(";")])
            times, centres = np.ascontiguousarray(rows[:, 0]), np.ascontiguousarray(rows[:, 1:3])
            balls[Ball(name)] = BallTrack(times, centres)
        except (ValueError, IndexError):
            raise CaromError(f"shot {record.get('shot')!r}: the samples of {name} do not read") from None
    return TrackedStroke(shot=record.get("shot"), cue=Ball(record["ball"]), balls=balls)


def recorded_verdict(record: Mapping[str, Any], header: Header) -> Verdict:
    """The auto-referee's verdict on the stroke (its record judged as ``carom track``
    judged it: from where the balls lay, with the striker's ball)."""
    stroke = record_from_json({k: v for k, v in record.items() if k not in STROKE_FIELDS}, header)
    assert isinstance(stroke, Stroke)
    return judge_stroke(stroke, header.discipline, header.table, position=stroke.start)


def paths_text(stroke: Stroke, shift: float) -> dict[str, str]:
    """The stroke's sampled paths as the replay reads samples (``"t x y;…"``), on the
    tracked clock: ``shift`` seconds (the strike's moment) added to the simulator's."""
    assert stroke.paths is not None
    return {ball.value: samples_text([t + shift for t, _, _ in path], [(x, y) for _, x, y in path])
            for ball, path in stroke.paths.items()}


def _ruling(verdict: Verdict) -> dict[str, Any]:
    return {"points": verdict.points, "fouls": list(verdict.fouls), "cites": list(verdict.cites)}


def table_values(strike: Strike) -> tuple[dict[str, float], list[str]]:
    """The strike as the training table's controls take it (:data:`STRIKE_RANGES`, the tip
    within :data:`~carom.physics.strike.MISCUE_LIMIT` of the centre), and the fields that
    had to be brought into them."""
    values = {name: float(getattr(strike, name)) for name in STRIKE_FIELDS}
    moved = []
    for name, (low, high) in STRIKE_RANGES.items():
        if not low <= values[name] <= high:
            values[name] = min(max(values[name], low), high)
            moved.append(name)
    reach = math.hypot(values["side"], values["height"])
    if reach > MISCUE_LIMIT:
        values["side"], values["height"] = (MISCUE_LIMIT * values["side"] / reach,
                                            MISCUE_LIMIT * values["height"] / reach)
        moved += [name for name in ("side", "height") if name not in moved]
    return values, moved


def table_address(fitted: FittedStroke, header: Header) -> tuple[str, list[str]]:
    """The training table's address that plays the stroke read back (docs/table.md): the
    position and the strike exactly (``repr`` of each number), and the fields brought into
    the table's ranges."""
    values, moved = table_values(fitted.strike)
    parts = [("d", header.discipline), ("t", header.table), ("b", fitted.strike.ball.value)]
    parts += [(ball.value[0], f"{x!r},{y!r}") for ball, (x, y) in fitted.position.items()]
    parts += [(TABLE_KEYS[name], repr(values[name])) for name in STRIKE_FIELDS]
    return "/table?" + "&".join(f"{k}={v}" for k, v in parts), moved


def fit_record(record: dict[str, Any], header: Header) -> tuple[dict[str, Any], FittedStroke | None]:
    """Read the stroke back: what the page shows of it, and the fitted stroke (``None``
    when there was nothing to fit) for the what-ifs."""
    tracked = tracked_of(record)
    table = TABLES[header.table]
    try:
        fitted = fit_stroke(tracked, table, budget=budget())
    except CaromError as error:
        return {"fitted": False, "played": False, "problems": [str(error)]}, None
    agreed = agreement(fitted.stroke, recorded_verdict(record, header), DISCIPLINES[header.discipline], table)
    address, moved = table_address(fitted, header)
    out: dict[str, Any] = {
        "fitted": True, "played": fitted.played, "problems": list(fitted.problems),
        "problems_said": [reason.as_json() for reason in fitted.reasons],
        "strike": {name: float(getattr(fitted.strike, name)) for name in STRIKE_FIELDS},
        "strike_time": fitted.strike_time,
        "uncertainty": {name: float(fitted.uncertainty[name]) for name in STRIKE_FIELDS},
        "rmse": {ball.value: value for ball, value in fitted.rmse.items()},
        "moved": [ball.value for ball in fitted.moved],
        "first_contact": _pair(agreed.fitted.first_contact, agreed.recorded.first_contact),
        "cushions": _pair(agreed.fitted.cushions, agreed.recorded.cushions),
        "ruling": {"fitted": {"points": agreed.fitted.points, "fouls": list(agreed.fitted.fouls)},
                   "recorded": {"points": agreed.recorded.points, "fouls": list(agreed.recorded.fouls)},
                   "same": agreed.same_ruling},
        "simulations": fitted.simulations, "seconds": fitted.seconds,
        "table": address, "table_moved": moved,
    }
    if fitted.played:
        out["paths"] = paths_text(what_if(fitted, sample=SAMPLE), fitted.strike_time)
    return out, fitted


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Ball) else value


def _pair(fitted: Any, recorded: Any) -> dict[str, Any]:
    return {"fitted": _plain(fitted), "recorded": _plain(recorded), "same": fitted == recorded}


def check_change(field: Any, value: Any) -> tuple[str, float]:
    """A what-if's field and value, or a :class:`CaromError` naming what is wrong: one of
    the strike's fields, a number within the training table's range of it."""
    if not isinstance(field, str) or field not in STRIKE_FIELDS:
        raise CaromError(f'"field": {str(field)[:40]!r} is not one of {", ".join(STRIKE_FIELDS)}')
    low, high = STRIKE_RANGES[field]
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise CaromError(f'"value": {field} must be a number from {low:g} to {high:g}, '
                         f'not {str(value)[:40]!r}')
    return field, float(value)


def what_if_record(fitted: FittedStroke, field: str, value: float, header: Header) -> dict[str, Any]:
    """The stroke read back played again with ``field`` set to ``value``: its paths (on the
    tracked clock), its ruling and ball 1's contacts; a :class:`CaromError` naming the
    field when the strike cannot be played (the tip beyond the miscue limit)."""
    field, value = check_change(field, value)
    stroke = what_if(fitted, sample=SAMPLE, **{field: value})
    verdict = judge_stroke(stroke, header.discipline, header.table, position=stroke.start)
    return {"field": field, "value": value, "paths": paths_text(stroke, fitted.strike_time),
            "ruling": _ruling(verdict), "contacts": contacts(stroke)}
