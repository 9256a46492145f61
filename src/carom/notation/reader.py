"""Reading ``carom/1`` lines into values (FORMAT.md).

Every refusal names the field and the reason; the caller adds the line. The reader
checks the shape of the JSON (an object, a list) and builds the values, which check
what they are given (``carom.core.records``: names, numbers, fault codes); what needs
the header's table and discipline (positions on the surface and apart, zones) is
``carom.rules.validity``, shared with ``Match.of`` and ``carom.judge``; what needs the
match so far lives in the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, NoReturn

from carom.core.checks import as_count, as_player, as_whole, refuse, shown, within
from carom.core.errors import InputError, InvalidValue, RecordError
from carom.core.events import BallContact, CushionContact, Event, Jump
from carom.core.inputs import parse_json
from carom.core.records import (
    FORMAT,
    Call,
    Clock,
    Doubt,
    Exit,
    Expired,
    Header,
    Inning,
    Lag,
    LagResult,
    Opener,
    Penalty,
    Record,
    Respot,
    Stroke,
    Timeout,
    Undo,
)
from carom.core.table import known_table
from carom.rules.disciplines import DISCIPLINES
from carom.rules.validity import as_discipline, check_record, played_on


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


def _object(value: Any) -> Any:
    """``value`` when it is a JSON object (its fields are the constructors' to check)."""
    if not isinstance(value, dict):
        refuse("expected an object")
    return value


def _extra(obj: Mapping[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """The fields a reader does not know, kept so that writing gives them back."""
    if obj.keys() <= known:
        return {}
    return {k: v for k, v in obj.items() if k not in known}


# --- header -------------------------------------------------------------------------


def parse_header(text: str) -> Header:
    """Line 1: the header (FORMAT.md)."""
    obj = load_json(text)
    if obj.get("format") != FORMAT:
        _fail(f"header: format must be {shown(FORMAT)}, got {shown(obj.get('format'))}")
    try:
        return _header(obj)
    except InvalidValue as error:
        raise RecordError(f"header: {error}") from None


def _header(obj: Any) -> Header:
    """The header's fields as a :class:`Header`: the table defaults to the discipline's
    one table; ``sets`` is ``{"to_win": N}``; the clock takes its defaults (T1, T2)."""
    rules = as_discipline(obj.get("discipline"))
    table = known_table(obj.get("table", rules.tables[0] if len(rules.tables) == 1 else None))
    played_on(rules, table)
    sets = obj.get("sets")
    to_win: int | None = None
    if sets is not None:
        if not isinstance(sets, dict) or set(sets) != {"to_win"}:
            refuse(f'expected null or {{"to_win": N}}, got {shown(sets)}', "sets")
        to_win = as_count(sets["to_win"], "sets: to_win", 1)
    header = Header(rules.id, table.name, obj.get("players"), obj.get("points"),
                    obj.get("innings"), to_win, obj.get("equalizing_inning", True),
                    _extra(obj, Header.KEYS), obj.get("tiebreak"))
    clock = _clock(obj.get("clock"), header.points)
    return header if clock is None else replace(header, clock=clock)


_CLOCK_KEYS = ("stroke", "warning", "timeouts", "timeout")


def _clock(value: Any, points: int | tuple[int, int] | None) -> Clock | None:
    """The shot clock (docs/clock.md): ``null``/absent, ``true`` (every default) or an
    object of some of ``stroke``, ``warning``, ``timeouts``, ``timeout`` (T1, T2)."""
    if value is None or value is False:
        return None
    if value is True:
        value = {}
    with within("clock"):
        if not isinstance(value, dict):
            refuse(f"expected null, true or an object, got {shown(value)} (T1)")
        for key in value:
            if key not in _CLOCK_KEYS:
                refuse(f"{shown(key)} is no field of the clock (stroke, warning, timeouts, timeout)")
        limit = max(points) if isinstance(points, tuple) else points
        defaults = Clock(timeouts=4 if limit is not None and limit >= 40 else 3)
        fields: dict[str, int] = {}
        for key in _CLOCK_KEYS:
            given = None if key not in value else as_whole(
                value[key], key, 0 if key in ("warning", "timeouts") else 1)
            fields[key] = getattr(defaults, key) if given is None else given
        if "warning" not in value:  # a short clock (a test's, a drill's) warns a third before its end
            fields["warning"] = min(defaults.warning, fields["stroke"] // 3)
        return Clock(**fields)


# --- records ------------------------------------------------------------------------


def parse_record(text: str, header: Header) -> Record:
    """One record line (FORMAT.md), checked against the header's table and discipline."""
    return record_from_json(load_json(text), header)


def record_from_json(obj: Mapping[str, Any], header: Header) -> Record:
    kind = obj.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        _fail(f"unknown record type {shown(kind)} "
              f"(lag, opener, stroke, call, inning, respot, undo, timeout, expired, penalty)")
    try:  # a try, not _reading(): this runs for every line
        record = parser(obj)
    except InvalidValue as error:
        raise RecordError(f"{kind}: {error}") from None
    try:
        check_record(record, DISCIPLINES[header.discipline], known_table(header.table))
    except InvalidValue as error:
        raise RecordError(str(error)) from None
    return record


def _lag(obj: Any) -> Lag:
    results = obj.get("results")
    if not isinstance(results, list) or len(results) != 2:
        refuse("expected one result per player (two)", "results")
    parsed = []
    for i, result in enumerate(results):
        with within(f"results[{i}]"):
            fields = _object(result)
            parsed.append(LagResult(fields.get("top"), fields.get("red"), fields.get("y"),
                                    fields.get("crossed")))
    return Lag((parsed[0], parsed[1]), obj.get("collided"), _extra(obj, Lag.KEYS))


def _opener(obj: Any) -> Opener:
    return Opener(obj.get("player"), _extra(obj, Opener.KEYS))


def _call(obj: Any) -> Call:
    return Call(obj.get("result"), obj.get("rule"), _extra(obj, Call.KEYS))


def _inning(obj: Any) -> Inning:
    return Inning(obj.get("points"), obj.get("foul"), _extra(obj, Inning.KEYS))


def _respot(obj: Mapping[str, Any]) -> Respot:
    return Respot(_extra(obj, Respot.KEYS))


def _undo(obj: Mapping[str, Any]) -> Undo:
    return Undo(_extra(obj, Undo.KEYS))


def _timeout(obj: Mapping[str, Any]) -> Timeout:
    return Timeout(_extra(obj, Timeout.KEYS))


def _expired(obj: Mapping[str, Any]) -> Expired:
    return Expired(_extra(obj, Expired.KEYS))


def _penalty(obj: Mapping[str, Any]) -> Penalty:
    player = as_player(obj.get("player"))
    result = obj.get("result")
    if result not in ("carom", "miss"):
        refuse(f"expected carom or miss, got {shown(result)}", "result")
    return Penalty(player, result == "carom", _extra(obj, Penalty.KEYS))


def _event(value: Any, i: int) -> Event:
    try:  # a try, not within(): this runs for every event of every stroke
        fields = _object(value)
        kind = fields.get("kind")
        if kind == "ball":
            return BallContact(fields.get("ball"), fields.get("other"), fields.get("t"))
        if kind == "cushion":
            return CushionContact(fields.get("ball"), fields.get("cushion"), fields.get("t"))
        if kind == "jump":
            return Jump(fields.get("ball"), fields.get("t"))
        refuse(f"unknown {shown(kind)} (ball, cushion or jump)", "kind")
    except InvalidValue as error:
        refuse(str(error), f"events[{i}]")


def _stroke(obj: Any) -> Stroke:
    events = obj.get("events", [])
    if not isinstance(events, list):
        refuse("expected a list", "events")
    for field in ("start", "end"):
        if obj.get(field) is not None and not isinstance(obj[field], dict):
            refuse("expected an object of ball positions", field)
    exits = obj.get("exits", [])
    if not isinstance(exits, list):
        refuse("expected a list", "exits")
    for i, item in enumerate(exits):
        if not isinstance(item, dict):
            refuse('expected {"ball": B, "zone": Z}', f"exits[{i}]")
    fouls = obj.get("fouls", [])
    if not isinstance(fouls, list):
        refuse("expected a list of fault codes", "fouls")
    paths = obj.get("paths")
    if paths is not None and not isinstance(paths, dict):
        refuse("expected an object of ball paths", "paths")
    return Stroke(obj.get("ball"), tuple(_event(e, i) for i, e in enumerate(events)),
                  obj.get("start"), obj.get("end"),
                  tuple(_exit(item, i) for i, item in enumerate(exits)), tuple(fouls), paths,
                  _extra(obj, Stroke.KEYS), _doubt(obj.get("doubt")))


def _doubt(given: Any) -> Doubt | None:
    """A stroke's ``doubt`` (docs/format.md): ``{"confidence": p, "reasons": [{"what": …}]}``."""
    if given is None:
        return None
    if not isinstance(given, dict):
        refuse(f'expected {{"confidence": p, "reasons": [...]}}, got {shown(given)}', "doubt")
    unknown = sorted(k for k in given if k not in ("confidence", "reasons"))
    if unknown:
        refuse(f"no field {', '.join(map(shown, unknown))} (confidence, reasons)", "doubt")
    reasons = given.get("reasons", [])
    if not isinstance(reasons, list):
        refuse("expected a list of reasons", "doubt.reasons")
    return Doubt(given.get("confidence"), tuple(reasons))


def _exit(item: Any, i: int) -> Exit:
    with within(f"exits[{i}]"):
        return Exit(item.get("ball"), item.get("zone"))


_PARSERS: dict[str, Callable[[Mapping[str, Any]], Record]] = {
    "lag": _lag, "opener": _opener, "stroke": _stroke, "call": _call,
    "inning": _inning, "respot": _respot, "undo": _undo, "timeout": _timeout,
    "expired": _expired, "penalty": _penalty,
}
