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
``height`` and ``elevation`` default to 0. Every mistake is a :class:`~carom.core.errors.CaromError`
that says where it is.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from carom.core.balls import Ball
from carom.core.errors import CaromError
from carom.core.position import Position
from carom.core.table import TableSpec, table
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.simulate import Motion
from carom.physics.strike import Strike

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


def parse_spec(obj: Any) -> Spec:
    """Read a simulation spec (the JSON object, already parsed)."""
    if not isinstance(obj, Mapping):
        raise CaromError("the spec must be a JSON object")
    _known(obj, _TOP, "the spec")
    name = obj.get("table", "large")
    spec_table = table(str(name))
    balls = obj.get("balls")
    if not isinstance(balls, Mapping) or not balls:
        raise CaromError('"balls" must be an object naming at least one ball')
    position: dict[Ball, tuple[float, float]] = {}
    motion: dict[Ball, Motion] = {}
    for key, value in balls.items():
        ball = _ball(key, '"balls"')
        where = f'"balls.{key}"'
        if not isinstance(value, Mapping):
            raise CaromError(f"{where} must be an object with \"r\"")
        _known(value, _BALL, where)
        if "r" not in value:
            raise CaromError(f'{where} needs "r": [x, y]')
        position[ball] = _vector(value["r"], 2, f"{where}.r")  # type: ignore[assignment]
        if "v" in value or "w" in value:
            v = _vector(value.get("v", [0.0, 0.0]), 2, f"{where}.v")
            w = _vector(value.get("w", [0.0, 0.0, 0.0]), 3, f"{where}.w")
            motion[ball] = Motion((v[0], v[1]), (w[0], w[1], w[2]))
    strike = _strike(obj["strike"]) if obj.get("strike") is not None else None
    overrides = obj.get("params", {}) or {}
    if not isinstance(overrides, Mapping):
        raise CaromError('"params" must be an object of parameter values')
    params = DEFAULT_PARAMS.with_overrides(overrides)
    sample = obj.get("sample")
    if sample is not None:
        sample = _number(sample, '"sample"')
        if not sample > 0:
            raise CaromError('"sample" must be a positive number of seconds')
    return Spec(spec_table, position, motion, strike, params, sample)


def _strike(value: Any) -> Strike:
    if not isinstance(value, Mapping):
        raise CaromError('"strike" must be an object')
    _known(value, _STRIKE, '"strike"')
    for needed in ("ball", "speed", "direction"):
        if needed not in value:
            raise CaromError(f'"strike" needs "{needed}"')
    return Strike(_ball(value["ball"], '"strike.ball"'), _number(value["speed"], '"strike.speed"'),
                  _number(value["direction"], '"strike.direction"'),
                  _number(value.get("side", 0.0), '"strike.side"'),
                  _number(value.get("height", 0.0), '"strike.height"'),
                  _number(value.get("elevation", 0.0), '"strike.elevation"'))


def _known(obj: Mapping[str, Any], known: frozenset[str], where: str) -> None:
    unknown = sorted(set(obj) - known)
    if unknown:
        raise CaromError(f"{where}: unknown field(s) {', '.join(map(repr, unknown))} "
                         f"(known: {', '.join(sorted(known))})")


def _ball(value: Any, where: str) -> Ball:
    try:
        return Ball(value)
    except ValueError:
        raise CaromError(f"{where}: {value!r} is not a ball (white, yellow, red)") from None


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CaromError(f"{where} must be a finite number, not {value!r}")
    return float(value)


def _vector(value: Any, size: int, where: str) -> tuple[float, ...]:
    if not isinstance(value, list | tuple) or len(value) != size:
        raise CaromError(f"{where} must be a list of {size} numbers")
    return tuple(_number(v, f"{where}[{i}]") for i, v in enumerate(value))
