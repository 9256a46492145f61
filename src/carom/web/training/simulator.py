"""The simulator and the shot finder over HTTP: what the training table (``/table``) plays.

``POST /api/simulate`` takes the spec that ``carom simulate`` reads (PHYSICS.md, read by
:func:`carom.physics.spec.parse_spec`, so every field is checked the same way) plus
``"discipline"`` (and ``"opening"``), simulates the stroke with its paths sampled every
10 ms unless ``"sample"`` says otherwise, and answers what ``carom play --json`` prints:
the stroke record and the referee's ruling (:func:`carom.rules.referee.judge`), with ball
1's contacts in order. ``POST /api/solve`` takes a position as ``carom solve`` reads it
(:func:`carom.solve.position_file.position_from`) plus the discipline and the player's
execution error, and answers the shot finder's most forgiving strokes.

Both run in the simulation pool (:mod:`carom.web.shared.pool`), apart from the event loop
and the writer; both refuse a bad body with 422 naming the field, a body over
:data:`MAX_BODY` with 413 (:mod:`carom.web.shared.guard`), a client over its share of the
pool with 429, a full pool with 503, and a computation over its time bound with 503;
neither changes anything, so neither needs a session.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from carom.core.balls import BALLS, Ball
from carom.core.errors import CaromError
from carom.core.events import BallContact, CushionContact
from carom.core.inputs import decode, parse_json
from carom.core.records import Stroke
from carom.notation.writer import record_json
from carom.rules.disciplines import DISCIPLINES, Discipline
from carom.rules.referee import StrokeContext, Verdict, judge
from carom.web.shared import work
from carom.web.shared.deps import words
from carom.web.shared.jobs import pooled
from carom.web.shared.pool import Task

router = APIRouter(prefix="/api", tags=["training table"])

MAX_BODY = 16 * 1024
"""A spec or a position is a few hundred bytes: larger bodies are refused unread."""
SIMULATE_SECONDS = 5.0
SOLVE_SECONDS = 20.0
"""Time bounds, from the job's start in the pool: a stroke takes milliseconds, a search
about a second (warm)."""
SAMPLE = 0.01
"""The paths' default sampling interval, seconds."""
MIN_SAMPLE = 0.005
"""The finest sampling the web gives: a stroke of a minute is then 12,000 samples a ball."""
MAX_SUGGESTIONS = 6

_EXTRA = ("discipline", "opening")
_SOLVE_FIELDS = ("discipline", "count", "seed", "sigma", "elevation")
_SIGMAS = ("direction", "speed", "tip")

class Problem(BaseModel):
    detail: str


class BadBody(CaromError):
    """A body that cannot be simulated or solved; the message names the field."""


def _problem(status: int, detail: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status, headers=dict(headers or {}))


def read_body(body: bytes) -> dict[str, Any]:
    """The JSON object of a body, within the limits of :mod:`carom.core.inputs`."""
    try:
        value = parse_json(decode(body))
    except CaromError as error:
        raise BadBody(f"body: {error}") from None
    if not isinstance(value, dict):
        raise BadBody("body: expected a JSON object")
    return value


def discipline_of(value: Any, choices: tuple[str, ...] | None = None) -> Discipline:
    known = choices or tuple(DISCIPLINES)
    if not isinstance(value, str) or value not in known:
        raise BadBody(f'"discipline": {str(value)[:40]!r} is not one of {", ".join(known)}')
    return DISCIPLINES[value]


def _flag(obj: Mapping[str, Any], name: str) -> bool:
    value = obj.get(name, False)
    if not isinstance(value, bool):
        raise BadBody(f'"{name}": expected true or false, not {str(value)[:40]!r}')
    return value


def _table_for(rules: Discipline, name: Any) -> str:
    """The table named, which the discipline must be played on (default: its first)."""
    if name is None:
        return rules.tables[0]
    if isinstance(name, str) and name not in rules.tables:
        raise BadBody(f'"table": {rules.id} is not played on the {name[:40]} table '
                      f"(its tables: {', '.join(rules.tables)})")
    return name  # type: ignore[no-any-return]  # parse_spec refuses what is not a table name


def contacts(stroke: Stroke) -> list[dict[str, Any]]:
    """Ball 1's contacts in order: each ball with its number (2 or 3 in the order first
    met, C1), each cushion numbered from 1."""
    ball1 = stroke.ball
    order: list[Ball] = []
    cushions = 0
    out: list[dict[str, Any]] = []
    for event in stroke.events:
        if isinstance(event, CushionContact) and event.ball is ball1:
            cushions += 1
            out.append({"t": event.t, "kind": "cushion", "cushion": event.cushion.value, "n": cushions})
        elif isinstance(event, BallContact) and event.involves(ball1):
            other = event.partner(ball1)
            if other not in order:
                order.append(other)
            out.append({"t": event.t, "kind": "ball", "ball": other.value, "n": order.index(other) + 2})
    return out


def ruling_json(verdict: Verdict, titles: Callable[[str], str]) -> dict[str, Any]:
    """The referee's ruling as ``carom play --json`` prints it, with each cited rule's title."""
    return {"points": verdict.points, "fouls": list(verdict.fouls), "cites": list(verdict.cites),
            "titles": {rule: titles(rule) for rule in verdict.cites}}


def stroke_json(stroke: Stroke) -> dict[str, Any]:
    """The stroke record as ``record_json`` writes it, its paths left as the tuples they are
    (JSON writes a tuple as a list): the same text, without copying 13,000 numbers first."""
    if stroke.paths is None:
        return record_json(stroke)
    out = record_json(dataclasses.replace(stroke, paths=None))
    out["paths"] = {ball.value: path for ball, path in stroke.paths.items()}
    return out


def simulate_spec(obj: dict[str, Any], titles: Callable[[str], str]) -> dict[str, Any]:
    """Simulate and judge one spec; a :class:`CaromError` naming the field if it cannot be."""
    from carom.physics import simulate
    from carom.physics.spec import parse_spec

    rules = discipline_of(obj.get("discipline", "three-cushion"))
    opening = _flag(obj, "opening")
    spec_obj = {k: v for k, v in obj.items() if k not in _EXTRA}
    spec_obj["table"] = _table_for(rules, spec_obj.get("table"))
    spec_obj.setdefault("sample", SAMPLE)
    spec = parse_spec(spec_obj)
    if spec.strike is None:
        raise BadBody('"strike": the stroke to play is needed (ball, speed, direction)')
    missing = [b.value for b in BALLS if b not in spec.position]
    if missing:
        raise BadBody(f'"balls": a position needs all three balls (missing: {", ".join(missing)})')
    if spec.sample is not None and spec.sample < MIN_SAMPLE:
        raise BadBody(f'"sample": {spec.sample:g} is finer than the {MIN_SAMPLE:g} s this address samples')
    try:
        stroke = simulate(spec.position, spec.strike, spec.table, spec.params, motion=spec.motion,
                          sample=spec.sample)
    except CaromError:
        raise
    except ValueError as error:  # the position: off the table, overlapping balls
        raise BadBody(f'"balls": {error}') from None
    verdict = judge(StrokeContext.of(rules, spec.table, cue_ball=spec.strike.ball, opening=opening,
                                     position=stroke.start), stroke)
    return {"discipline": rules.id, "table": spec.table.name, "stroke": stroke_json(stroke),
            "ruling": ruling_json(verdict, titles), "contacts": contacts(stroke)}


def solve_body(obj: dict[str, Any], titles: Callable[[str], str]) -> dict[str, Any]:
    """The shot finder's strokes from a position; a :class:`CaromError` naming the field."""
    from carom.solve import ExecutionNoise, find_shots
    from carom.solve.finder import MAX_SEED, SOLVABLE
    from carom.solve.position_file import position_from

    rules = discipline_of(obj.get("discipline", "three-cushion"), SOLVABLE)
    place = {k: v for k, v in obj.items() if k not in _SOLVE_FIELDS}
    place["table"] = _table_for(rules, place.get("table"))
    spot = position_from(place)
    count = _whole(obj.get("count", 3), '"count"', 1, MAX_SUGGESTIONS)
    seed = _whole(obj.get("seed", 0), '"seed"', 0, MAX_SEED)
    sigma = obj.get("sigma", {})
    if not isinstance(sigma, dict) or set(sigma) - set(_SIGMAS):
        raise BadBody(f'"sigma": expected an object with {", ".join(_SIGMAS)}')
    for name, value in sigma.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BadBody(f'"sigma.{name}": expected a number, not {str(value)[:40]!r}')
    try:
        noise = ExecutionNoise(**sigma)
    except CaromError as error:
        raise BadBody(f'"sigma": {error}') from None
    shots = find_shots(spot.start, spot.ball, rules, spot.table, noise=noise, seed=seed, count=count,
                       elevation=_flag(obj, "elevation"), opening=spot.opening, sample=None)
    out = []
    for shot in shots:
        verdict = judge(StrokeContext.of(rules, spot.table, cue_ball=spot.ball, opening=spot.opening,
                                         position=shot.stroke.start), shot.stroke)
        s = shot.strike
        out.append({"strike": {"ball": s.ball.value, "speed": s.speed, "direction": s.direction,
                               "side": s.side, "height": s.height, "elevation": s.elevation},
                    "chance": shot.chance, "route": list(shot.route),
                    "ruling": ruling_json(verdict, titles)})
    return {"discipline": rules.id, "table": spot.table.name, "shots": out}


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadBody(f"{where}: expected a whole number from {low} to {high}, not {str(value)[:40]!r}")
    return value


async def _pooled(request: Request, task: Task, seconds: float) -> Response:
    """Run ``task`` on the body in the simulation pool (:func:`carom.web.shared.jobs.pooled`):
    200, 422, or 429/503 with ``Retry-After`` (answered before the body is read)."""

    async def body() -> tuple[Any, ...]:
        return read_body(await request.body()), words(request).lang

    made = await pooled(request, task, body, seconds)
    return Response(made, media_type="application/json") if isinstance(made, bytes) else made


SIMULATE_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["balls", "strike"],
    "properties": {
        "discipline": {"type": "string", "enum": list(DISCIPLINES), "default": "three-cushion"},
        "opening": {"type": "boolean", "default": False,
                    "description": "judge it as the opening stroke (O3)"},
        "table": {"type": "string", "description": "default: the discipline's first table"},
        "balls": {"type": "object", "description": 'each ball\'s "r": [x, y] in metres (GEOMETRY.md), '
                                                   'optional "v" and "w"',
                  "example": {"white": {"r": [0.892, 0.71]}, "yellow": {"r": [0.71, 0.71]},
                              "red": {"r": [0.71, 2.13]}}},
        "strike": {"type": "object", "required": ["ball", "speed", "direction"],
                   "properties": {"ball": {"type": "string", "enum": ["white", "yellow"]},
                                  "speed": {"type": "number", "minimum": 0, "maximum": 15},
                                  "direction": {"type": "number", "minimum": -360, "maximum": 360},
                                  "side": {"type": "number"}, "height": {"type": "number"},
                                  "elevation": {"type": "number", "minimum": 0, "maximum": 89}},
                   "example": {"ball": "white", "speed": 3.0, "direction": 80.0, "side": 0.3, "height": 0.2}},
        "params": {"type": "object", "description": "parameter overrides (docs/limits.md)"},
        "sample": {"type": "number", "minimum": MIN_SAMPLE, "maximum": 10, "default": SAMPLE},
    },
}
SOLVE_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["start"],
    "properties": {
        "discipline": {"type": "string", "enum": ["three-cushion", "one-cushion", "straight-rail"],
                       "default": "three-cushion"},
        "table": {"type": "string"}, "ball": {"type": "string", "enum": ["white", "yellow"]},
        "start": {"type": "object", "example": {"white": [0.892, 0.71], "yellow": [0.71, 0.71],
                                                "red": [0.71, 2.13]}},
        "opening": {"type": "boolean"},
        "count": {"type": "integer", "minimum": 1, "maximum": MAX_SUGGESTIONS, "default": 3},
        "seed": {"type": "integer", "minimum": 0, "default": 0},
        "sigma": {"type": "object", "properties": {n: {"type": "number"} for n in _SIGMAS},
                  "description": "execution error: direction (degrees), speed (fraction), tip (R)"},
        "elevation": {"type": "boolean", "default": False},
    },
}
_REFUSALS: dict[int | str, dict[str, Any]] = {
    413: {"model": Problem}, 422: {"model": Problem}, 503: {"model": Problem}}


@router.post("/simulate", summary="Simulate and judge one stroke", responses=_REFUSALS,
             openapi_extra={"requestBody": {"required": True,
                                            "content": {"application/json": {"schema": SIMULATE_SCHEMA}}}})
async def simulate_route(request: Request) -> Response:
    """The stroke record (paths every 10 ms), the referee's ruling and ball 1's contacts:
    ``{"stroke": {...}, "ruling": {"points", "fouls", "cites", "titles"}, "contacts": [...]}``."""
    return await _pooled(request, work.simulate, SIMULATE_SECONDS)


@router.post("/solve", summary="The most forgiving scoring strokes from a position", responses=_REFUSALS,
             openapi_extra={"requestBody": {"required": True,
                                            "content": {"application/json": {"schema": SOLVE_SCHEMA}}}})
async def solve_route(request: Request) -> Response:
    """``{"shots": [{"strike", "chance", "route", "ruling"}, ...]}``, best first (429 or 503
    while the simulation pool is busy)."""
    return await _pooled(request, work.solve, SOLVE_SECONDS)
