"""The input of ``carom simulate SPEC.json`` (PHYSICS.md, "The simulator's command").

```json
{"table": "large",
 "balls": {"white": {"r": [0.528, 0.71]}, "red": {"r": [0.71, 2.13], "v": [0, 0], "w": [0, 0, 0]}},
 "strike": {"ball": "white", "speed": 3.0, "direction": 80.0, "side": 0.3, "height": 0.2,
            "elevation": 0.0},
 "params": {"mu_roll": 0.0045},
 "sample": 0.02}
```

Only ``balls`` is required; ``table`` defaults to ``large``; a strike's ``side``,
``height`` and ``elevation`` default to 0. Every mistake is a :class:`SpecError` (a
``CaromError``, so a ``ValueError``) that names the field. The limits: every number
finite; a ball's speed at most :data:`MAX_BALL_SPEED`, its spin at most
:data:`MAX_SPIN`; the strike within ``carom.physics.strike.LIMITS`` and never on red
(O1); parameters within ``carom.physics.params.RANGES``; ``sample`` from
:data:`MIN_SAMPLE` to :data:`MAX_SAMPLE` seconds; the file at most
:data:`MAX_SPEC_BYTES`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from carom.core.balls import Ball, cue_ball_problem
from carom.core.errors import CaromError, InvalidValue
from carom.core.position import Position
from carom.core.table import TableSpec, table
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.simulate import MAX_SAMPLE, MIN_SAMPLE, Motion
from carom.physics.strike import LIMITS, Strike, limit_problem, miscue_problem

MAX_SPEC_BYTES = 1024 * 1024
"""A spec is a few hundred bytes; larger files are refused unread."""

_TOP = frozenset(("table", "balls", "strike", "params", "sample"))
_BALL = frozenset(("r", "v", "w"))
_STRIKE = frozenset(("ball", "speed", "direction", "side", "height", "elevation"))


@dataclass(frozen=True, slots=True)
class Spec:
    """Everything one simulation needs."""

    table: TableSpec
    position: Position
    motion: Mapping[Ball, Motion]
    strike: Strike | None
    params: Params
    sample: float | None


class SpecError(CaromError):
    """A simulation spec that cannot be run; the message names the field."""


def parse_spec(obj: Any) -> Spec:
    """Read a simulation spec (the JSON object, already parsed)."""
    if not isinstance(obj, Mapping):
        raise SpecError("the spec must be a JSON object")
    _known(obj, _TOP, "the spec")
    name = obj.get("table", "large")
    try:
        spec_table = table(str(name))
    except KeyError as error:
        raise SpecError(f'"table": {error.args[0]}') from None
    balls = obj.get("balls")
    if not isinstance(balls, Mapping) or not balls:
        raise SpecError('"balls" must be an object naming at least one ball')
    position: dict[Ball, tuple[float, float]] = {}
    motion: dict[Ball, Motion] = {}
    for key, value in balls.items():
        ball = _ball(key, '"balls"')
        where = f'"balls.{key}"'
        if not isinstance(value, Mapping):
            raise SpecError(f'{where} must be an object with "r": [x, y]')
        _known(value, _BALL, where)
        if "r" not in value:
            raise SpecError(f'{where} needs "r": [x, y]')
        x, y = _vector(value["r"], 2, f"{where}.r")
        if not (0.0 <= x <= spec_table.width and 0.0 <= y <= spec_table.length):
            raise SpecError(f"{where}.r: ({x:g}, {y:g}) is off the {spec_table.name} table (x from 0 to "
                            f"{spec_table.width:g} m, y from 0 to {spec_table.length:g} m)")
        position[ball] = (x, y)
        if "v" in value or "w" in value:
            v = _vector(value.get("v", [0.0, 0.0]), 2, f"{where}.v")
            w = _vector(value.get("w", [0.0, 0.0, 0.0]), 3, f"{where}.w")
            try:
                motion[ball] = Motion((v[0], v[1]), (w[0], w[1], w[2]))
            except InvalidValue as error:  # faster or spinning more than a stroke can
                raise SpecError(f"{where}.{error}") from None
    strike = _strike(obj["strike"]) if obj.get("strike") is not None else None
    try:
        params = DEFAULT_PARAMS.with_overrides(obj.get("params", {}))
    except CaromError as error:
        raise SpecError(f'"params": {error}') from None
    sample = obj.get("sample")
    if sample is not None:
        sample = _number(sample, '"sample"')
        if not MIN_SAMPLE <= sample <= MAX_SAMPLE:
            raise SpecError(f'"sample": {sample:g} is out of range: from {MIN_SAMPLE:g} to {MAX_SAMPLE:g} '
                            "seconds")
    return Spec(spec_table, position, motion, strike, params, sample)


def _strike(value: Any) -> Strike:
    if not isinstance(value, Mapping):
        raise SpecError('"strike" must be an object')
    _known(value, _STRIKE, '"strike"')
    for needed in ("ball", "speed", "direction"):
        if needed not in value:
            raise SpecError(f'"strike" needs "{needed}"')
    ball = _ball(value["ball"], '"strike.ball"')
    problem = cue_ball_problem(ball)
    if problem is not None:
        raise SpecError(f'"strike.ball": {problem}; to set red moving, give it "v"')
    numbers = {}
    for field in LIMITS:
        number = _number(value.get(field, 0.0), f'"strike.{field}"')
        problem = limit_problem(field, number)
        if problem is not None:
            raise SpecError(f'"strike.{field}": {problem}')
        numbers[field] = number
    problem = miscue_problem(numbers["side"], numbers["height"])
    if problem is not None:
        raise SpecError(f'"strike": {problem}')
    return Strike(ball, **numbers)


def _known(obj: Mapping[str, Any], known: frozenset[str], where: str) -> None:
    unknown = sorted(set(obj) - known)
    if unknown:
        raise SpecError(f"{where}: unknown field(s) {', '.join(map(repr, unknown))} "
                        f"(known: {', '.join(sorted(known))})")


def _ball(value: Any, where: str) -> Ball:
    try:
        return Ball(value)
    except ValueError:
        raise SpecError(f"{where}: {value!r} is not a ball (white, yellow, red)") from None


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SpecError(f"{where} must be a finite number, not {value!r}")
    return float(value)


def _vector(value: Any, size: int, where: str) -> tuple[float, ...]:
    if not isinstance(value, list | tuple) or len(value) != size:
        raise SpecError(f"{where} must be a list of {size} numbers")
    return tuple(_number(v, f"{where}[{i}]") for i, v in enumerate(value))


