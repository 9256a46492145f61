"""Reading ``carom/1`` lines into values (FORMAT.md).

Every refusal names the field and the reason; the caller adds the line. Checks
that need only the line and the header live here (types, names, positions on the
table and apart); checks that need the match so far live in the engine.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from carom.core.balls import BALLS, Ball, Cushion
from carom.core.errors import InputError, RecordError
from carom.core.events import BallContact, CushionContact, Event, Jump
from carom.core.inputs import MAX_DIGITS, parse_json
from carom.core.position import Position, position_problems
from carom.core.records import (
    FORMAT,
    TIEBREAKS,
    Call,
    CallResult,
    Clock,
    Exit,
    Expired,
    Header,
    Inning,
    Lag,
    LagResult,
    Opener,
    Path,
    Penalty,
    Record,
    Respot,
    Stroke,
    Timeout,
    Undo,
)
from carom.core.table import TABLES, Point, TableSpec
from carom.rules.catalog import CALLABLE_FOULS, STROKE_FOULS
from carom.rules.disciplines import DISCIPLINES

_BALLS = {b.value: b for b in BALLS}
_NAMES = {b: b.value for b in BALLS}
_CUSHIONS = {c.value: c for c in Cushion}
_RESULTS = {r.value: r for r in CallResult}
_HUGE = 10**MAX_DIGITS
"""The smallest whole number too large to read (``carom.core.inputs``)."""


def _show(value: Any) -> str:
    """A value as it was written, for a message (a huge one shortened)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _HUGE:
        return "a number too large"
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except ValueError:  # a structure holding an int json cannot print
        return "a value too large"
    return shown if len(shown) <= 80 else shown[:77] + "…"


def _fail(reason: str) -> NoReturn:
    raise RecordError(reason)


def load_json(text: str) -> dict[str, Any]:
    """One line as a JSON object, read by :func:`carom.core.inputs.parse_json`: numbers
    finite and in range, nesting limited; a refusal names the field."""
    try:
        value = parse_json(text)
    except InputError as error:
        _fail(error.reason)
    if not isinstance(value, dict):
        _fail(f"a line must be a JSON object, not {type(value).__name__}")
    return value


def _extra(obj: Mapping[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """The fields a reader does not know, kept so that writing gives them back."""
    if obj.keys() <= known:
        return {}
    return {k: v for k, v in obj.items() if k not in known}


def _bool(obj: Mapping[str, Any], key: str, where: str, default: bool | None = None) -> bool:
    if key not in obj and default is not None:
        return default
    value = obj.get(key)
    if not isinstance(value, bool):
        _fail(f"{where}{key}: expected true or false, got {_show(value)}")
    return value


def _int(value: Any, where: str, low: int, nullable: bool = False) -> int | None:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < _HUGE:
        kind = "a whole number" + (f" >= {low}" if low else "") + (" or null" if nullable else "")
        _fail(f"{where}: expected {kind}, got {_show(value)}")
    return value


def _number(value: Any, where: str) -> float:
    """A finite number. Read from text it always is (``parse_json``); a value built in
    memory (a record posted to the scoreboard) is checked here as well."""
    if type(value) is float and math.isfinite(value):
        return value
    if type(value) is int and -_HUGE < value < _HUGE:
        return float(value)
    if type(value) is int:
        _fail(f"{where}: a whole number of more than {MAX_DIGITS} digits is too large")
    if type(value) is float:
        _fail(f"{where}: {value} is not a finite number")
    _fail(f"{where}: expected a number, got {_show(value)}")


def _ball(value: Any, where: str) -> Ball:
    ball = _BALLS.get(value) if isinstance(value, str) else None
    if ball is None:
        _fail(f"{where}: unknown ball {_show(value)} (white, yellow or red)")
    return ball


def _rule(value: Any, where: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        _fail(f"{where}: {_show(value)} is not a fault code here "
              f"(F2–F13{', Z7, O3' if 'Z7' in allowed else ''})")
    return value


# --- header -------------------------------------------------------------------------

_HEADER_KEYS = frozenset(
    ("format", "discipline", "table", "players", "points", "innings", "sets", "equalizing_inning",
     "tiebreak", "clock")
)


def parse_header(text: str) -> Header:
    """Line 1: the header (FORMAT.md)."""
    obj = load_json(text)
    if obj.get("format") != FORMAT:
        _fail(f"header: format must be {_show(FORMAT)}, got {_show(obj.get('format'))}")
    name = obj.get("discipline")
    if not isinstance(name, str) or name not in DISCIPLINES:
        _fail(f"header: discipline: unknown {_show(name)} (known: {', '.join(DISCIPLINES)})")
    spec = DISCIPLINES[name]
    table = obj.get("table", spec.tables[0] if len(spec.tables) == 1 else None)
    if not isinstance(table, str) or table not in TABLES:
        _fail(f"header: table: unknown {_show(table)} (known: {', '.join(TABLES)})")
    if table not in spec.tables:
        _fail(f"header: table: {name} is played on the {spec.tables[0]} table, not {table} (K1)")
    players = obj.get("players")
    if (not isinstance(players, list) or len(players) != 2
            or not all(isinstance(p, str) and p.strip() for p in players)):
        _fail(f"header: players: expected two names, got {_show(players)}")
    points = _points(obj.get("points"))
    innings = _int(obj.get("innings"), "header: innings", 1, nullable=True)
    if points is None and innings is None:
        _fail("header: points and innings are both null: a game needs a limit (E1)")
    sets = obj.get("sets")
    to_win: int | None = None
    if sets is not None:
        if not isinstance(sets, dict) or set(sets) != {"to_win"}:
            _fail(f'header: sets: expected null or {{"to_win": N}}, got {_show(sets)}')
        to_win = _int(sets["to_win"], "header: sets: to_win", 1)
    equalizing = _bool(obj, "equalizing_inning", "header: ", default=True)
    tiebreak = obj.get("tiebreak")
    if tiebreak is not None:
        if not isinstance(tiebreak, str) or tiebreak not in TIEBREAKS:
            _fail(f"header: tiebreak: expected null or \"penalties\", got {_show(tiebreak)} (P1)")
        if to_win is not None:
            _fail("header: tiebreak: a match of sets always has a winner: no tie-break (E4, P1)")
    clock = _clock(obj.get("clock"), points)
    return Header(name, table, (players[0], players[1]), points, innings, to_win, equalizing,
                  _extra(obj, _HEADER_KEYS), tiebreak, clock)


_CLOCK_KEYS = ("stroke", "warning", "timeouts", "timeout")


def _clock(value: Any, points: int | tuple[int, int] | None) -> Clock | None:
    """The shot clock (docs/clock.md): ``null``/absent, ``true`` (every default) or an
    object of some of ``stroke``, ``warning``, ``timeouts``, ``timeout`` (T1, T2)."""
    if value is None or value is False:
        return None
    if value is True:
        value = {}
    if not isinstance(value, dict):
        _fail(f"header: clock: expected null, true or an object, got {_show(value)} (T1)")
    for key in value:
        if key not in _CLOCK_KEYS:
            _fail(f"header: clock: {_show(key)} is no field of the clock "
                  "(stroke, warning, timeouts, timeout)")
    limit = max(points) if isinstance(points, tuple) else points
    defaults = Clock(timeouts=4 if limit is not None and limit >= 40 else 3)
    fields: dict[str, int] = {}
    for key in _CLOCK_KEYS:
        given = None if key not in value else _int(
            value[key], f"header: clock: {key}", 0 if key in ("warning", "timeouts") else 1)
        fields[key] = getattr(defaults, key) if given is None else given
    if "warning" not in value:  # a short clock (a test's, a drill's) warns a third before its end
        fields["warning"] = min(defaults.warning, fields["stroke"] // 3)
    clock = Clock(**fields)
    if clock.warning >= clock.stroke:
        _fail(f"header: clock: warning: {clock.warning} s left is not within a stroke of "
              f"{clock.stroke} s (T1)")
    return clock


def _points(value: Any) -> int | tuple[int, int] | None:
    """The points limit: one for both players, ``null``, or a handicap: a list of two,
    each player's own limit in ``players`` order (docs/format.md)."""
    if isinstance(value, list):
        if len(value) != 2:
            _fail(f"header: points: a handicap is one limit per player (two), got {_show(value)}")
        first = _int(value[0], "header: points[0]", 1)
        second = _int(value[1], "header: points[1]", 1)
        assert first is not None and second is not None
        return (first, second)
    return _int(value, "header: points", 1, nullable=True)


# --- records ------------------------------------------------------------------------


def parse_record(text: str, header: Header) -> Record:
    """One record line (FORMAT.md), checked against the header's table and discipline."""
    return record_from_json(load_json(text), header)


def record_from_json(obj: Mapping[str, Any], header: Header) -> Record:
    kind = obj.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        _fail(f"unknown record type {_show(kind)} "
              f"(lag, opener, stroke, call, inning, respot, undo, timeout, expired, penalty)")
    return parser(obj, header)


def _lag(obj: Mapping[str, Any], header: Header) -> Lag:
    results = obj.get("results")
    if not isinstance(results, list) or len(results) != 2:
        _fail("lag: results: expected one result per player (two)")
    length = TABLES[header.table].length
    parsed = []
    for i, result in enumerate(results):
        where = f"lag: results[{i}]: "
        if not isinstance(result, dict):
            _fail(f"{where}expected an object")
        y = _number(result.get("y"), f"{where}y")
        if not 0.0 <= y <= length:
            _fail(f"{where}y: {y:g} is not on the table (0 to {length:g} m)")
        parsed.append(LagResult(_bool(result, "top", where), _bool(result, "red", where), y,
                                _bool(result, "crossed", where)))
    return Lag((parsed[0], parsed[1]), _bool(obj, "collided", "lag: "),
               _extra(obj, frozenset(("type", "results", "collided"))))


def _opener(obj: Mapping[str, Any], header: Header) -> Opener:
    player = obj.get("player")
    if type(player) is not int or player not in (0, 1):  # not 0.0, not false
        _fail(f"opener: player: expected 0 or 1, got {_show(player)}")
    return Opener(player, _extra(obj, frozenset(("type", "player"))))


def _call(obj: Mapping[str, Any], header: Header) -> Call:
    raw = obj.get("result")
    result = _RESULTS.get(raw) if isinstance(raw, str) else None
    if result is None:
        _fail(f"call: result: expected carom, miss or foul, got {_show(obj.get('result'))}")
    rule = None
    if result is CallResult.FOUL:
        rule = _rule(obj.get("rule"), "call: rule", CALLABLE_FOULS)
    elif obj.get("rule") is not None:
        _fail(f"call: rule: a {result.value} names no rule")
    return Call(result, rule, _extra(obj, frozenset(("type", "result", "rule"))))


def _inning(obj: Mapping[str, Any], header: Header) -> Inning:
    points = _int(obj.get("points"), "inning: points", 0)
    assert points is not None
    foul = obj.get("foul")
    if foul is not None:
        foul = _rule(foul, "inning: foul", CALLABLE_FOULS)
    return Inning(points, foul, _extra(obj, frozenset(("type", "points", "foul"))))


def _respot(obj: Mapping[str, Any], header: Header) -> Respot:
    return Respot(_extra(obj, frozenset(("type",))))


def _undo(obj: Mapping[str, Any], header: Header) -> Undo:
    return Undo(_extra(obj, frozenset(("type",))))


def _timeout(obj: Mapping[str, Any], header: Header) -> Timeout:
    return Timeout(_extra(obj, frozenset(("type",))))


def _expired(obj: Mapping[str, Any], header: Header) -> Expired:
    return Expired(_extra(obj, frozenset(("type",))))


def _penalty(obj: Mapping[str, Any], header: Header) -> Penalty:
    player = obj.get("player")
    if type(player) is not int or player not in (0, 1):
        _fail(f"penalty: player: expected 0 or 1, got {_show(player)}")
    result = obj.get("result")
    if result not in ("carom", "miss"):
        _fail(f"penalty: result: expected carom or miss, got {_show(result)}")
    return Penalty(player, result == "carom", _extra(obj, frozenset(("type", "player", "result"))))


def _point(value: Any, where: str) -> Point:
    if not isinstance(value, list) or len(value) != 2:
        _fail(f"{where}: expected [x, y], got {_show(value)}")
    return (_number(value[0], where), _number(value[1], where))


def _position(value: Any, where: str, table: TableSpec, balls: tuple[Ball, ...],
              partial: bool = False) -> Position:
    """The positions of ``balls``; ``partial``: a ball may be left out (it jumped)."""
    if not isinstance(value, dict):
        _fail(f"{where}: expected an object of ball positions")
    for key in value:
        _ball(key, where)
    if not partial:
        missing = [b.value for b in balls if b.value not in value]
        if missing:
            _fail(f"{where}: no position for {', '.join(missing)}")
    extra = [k for k in value if _BALLS[k] not in balls]
    if extra:
        _fail(f"{where}: {', '.join(extra)} jumped and has no end position")
    position = Position({ball: _point(value[name], f"{where}: {name}") for ball in balls
                         if (name := _NAMES[ball]) in value})
    problems = position_problems(position, table)
    if problems:
        _fail(f"{where}: {problems[0]}")
    return position


def _event(value: Any, i: int) -> Event:
    where = f"stroke: events[{i}]"
    if not isinstance(value, dict):
        _fail(f"{where}: expected an object")
    t = value.get("t")
    if t is not None:
        t = _number(t, f"{where}: t")
    kind = value.get("kind")
    ball = _ball(value.get("ball"), f"{where}: ball")
    if kind == "ball":
        other = _ball(value.get("other"), f"{where}: other")
        if other is ball:
            _fail(f"{where}: a ball cannot touch itself ({ball})")
        return BallContact(ball, other, t)
    if kind == "cushion":
        name = value.get("cushion")
        cushion = _CUSHIONS.get(name) if isinstance(name, str) else None
        if cushion is None:
            _fail(f"{where}: cushion: unknown {_show(value.get('cushion'))} "
                  "(top, bottom, left or right)")
        return CushionContact(ball, cushion, t)
    if kind == "jump":
        return Jump(ball, t)
    _fail(f"{where}: kind: unknown {_show(kind)} (ball, cushion or jump)")


def _path(value: Any, where: str) -> Path:
    if not isinstance(value, list):
        _fail(f"{where}: expected a list of [t, x, y]")
    samples = []
    for j, sample in enumerate(value):
        if not isinstance(sample, list) or len(sample) != 3:
            _fail(f"{where}[{j}]: expected [t, x, y]")
        samples.append((_number(sample[0], where), _number(sample[1], where),
                        _number(sample[2], where)))
    return tuple(samples)


_STROKE_KEYS = frozenset(("type", "ball", "start", "events", "end", "exits", "fouls", "paths"))


def _stroke(obj: Mapping[str, Any], header: Header) -> Stroke:
    table = TABLES[header.table]
    ball = _ball(obj.get("ball"), "stroke: ball")
    events_raw = obj.get("events", [])
    if not isinstance(events_raw, list):
        _fail("stroke: events: expected a list")
    events = tuple(_event(e, i) for i, e in enumerate(events_raw))
    start = None
    if obj.get("start") is not None:
        start = _position(obj["start"], "stroke: start", table, BALLS)
    jumped = {e.ball for e in events if isinstance(e, Jump)}
    end = None
    if obj.get("end") is not None:
        # A called jump (F2) may leave its balls out of the end, as a jump event does.
        fouls_given = obj.get("fouls")
        called_jump = isinstance(fouls_given, list) and "F2" in fouls_given
        end = _position(obj["end"], "stroke: end", table,
                        tuple(b for b in BALLS if b not in jumped), partial=called_jump)
    exits_raw = obj.get("exits", [])
    if not isinstance(exits_raw, list):
        _fail("stroke: exits: expected a list")
    zone_names = {z.name for z in DISCIPLINES[header.discipline].zones(table)}
    exits = []
    for i, item in enumerate(exits_raw):
        where = f"stroke: exits[{i}]"
        if not isinstance(item, dict):
            _fail(f"{where}: expected {{\"ball\": B, \"zone\": Z}}")
        zone = item.get("zone")
        if zone not in zone_names:
            _fail(f"{where}: zone: {_show(zone)} is no zone of {header.discipline}")
        exits.append(Exit(_ball(item.get("ball"), f"{where}: ball"), zone))
    fouls_raw = obj.get("fouls", [])
    if not isinstance(fouls_raw, list):
        _fail("stroke: fouls: expected a list of fault codes")
    fouls = tuple(_rule(f, f"stroke: fouls[{i}]", STROKE_FOULS) for i, f in enumerate(fouls_raw))
    paths = None
    if obj.get("paths") is not None:
        raw = obj["paths"]
        if not isinstance(raw, dict):
            _fail("stroke: paths: expected an object of ball paths")
        paths = {_ball(k, "stroke: paths"): _path(v, f"stroke: paths: {k}") for k, v in raw.items()}
    return Stroke(ball, events, start, end, tuple(exits), fouls, paths,
                  _extra(obj, _STROKE_KEYS))


_PARSERS: dict[str, Callable[[Mapping[str, Any], Header], Record]] = {
    "lag": _lag, "opener": _opener, "stroke": _stroke, "call": _call,
    "inning": _inning, "respot": _respot, "undo": _undo, "timeout": _timeout,
    "expired": _expired, "penalty": _penalty,
}
