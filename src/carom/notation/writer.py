"""Writing values as ``carom/1`` lines (FORMAT.md). ``parse(format(x)) == x``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from carom.core.balls import BALLS
from carom.core.events import BallContact, CushionContact, Event
from carom.core.frozen import thaw
from carom.core.position import Position
from carom.core.records import (
    FORMAT,
    Call,
    Doubt,
    Expired,
    Header,
    Inning,
    Lag,
    Opener,
    Penalty,
    Record,
    Respot,
    Stroke,
    Timeout,
    Undo,
)


def dumps(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=False)


def header_json(header: Header) -> dict[str, Any]:
    return {
        "format": FORMAT, "discipline": header.discipline, "table": header.table,
        "players": list(header.players), "points": (list(header.points) if isinstance(header.points, tuple)
                                                 else header.points), "innings": header.innings,
        "sets": None if header.sets_to_win is None else {"to_win": header.sets_to_win},
        "equalizing_inning": header.equalizing_inning,
        **({} if header.tiebreak is None else {"tiebreak": header.tiebreak}),
        **({} if header.clock is None else {"clock": {
            "stroke": header.clock.stroke, "warning": header.clock.warning,
            "timeouts": header.clock.timeouts, "timeout": header.clock.timeout}}),
        **thaw(header.extra),
    }


def format_header(header: Header) -> str:
    return dumps(header_json(header))


def position_json(position: Position) -> dict[str, list[float]]:
    """A position in the ``start`` form: ``{"white": [x, y], …}``."""
    return {ball.value: [position[ball][0], position[ball][1]] for ball in BALLS if ball in position}


def event_json(event: Event) -> dict[str, Any]:
    if isinstance(event, BallContact):
        out: dict[str, Any] = {"kind": "ball", "ball": event.ball.value, "other": event.other.value}
    elif isinstance(event, CushionContact):
        out = {"kind": "cushion", "ball": event.ball.value, "cushion": event.cushion.value}
    else:
        out = {"kind": "jump", "ball": event.ball.value}
    if event.t is not None:
        out["t"] = event.t
    return out


def doubt_json(doubt: Doubt) -> dict[str, Any]:
    """A stroke's doubt as its JSON object (docs/format.md, "A stroke in doubt")."""
    out: dict[str, Any] = {} if doubt.confidence is None else {"confidence": doubt.confidence}
    out["reasons"] = [thaw(reason) for reason in doubt.reasons]
    return out


def record_json(record: Record) -> dict[str, Any]:
    """A record as the JSON object of its line."""
    out: dict[str, Any]
    if isinstance(record, Stroke):
        out = {"type": "stroke", "ball": record.ball.value}
        if record.start is not None:
            out["start"] = position_json(record.start)
        out["events"] = [event_json(e) for e in record.events]
        if record.end is not None:
            out["end"] = position_json(record.end)
        out["exits"] = [{"ball": e.ball.value, "zone": e.zone} for e in record.exits]
        out["fouls"] = list(record.fouls)
        if record.paths is not None:
            out["paths"] = {b.value: [list(s) for s in p] for b, p in record.paths.items()}
        if record.doubt is not None:
            out["doubt"] = doubt_json(record.doubt)
    elif isinstance(record, Call):
        out = {"type": "call", "result": record.result.value}
        if record.rule is not None:
            out["rule"] = record.rule
    elif isinstance(record, Inning):
        out = {"type": "inning", "points": record.points}
        if record.foul is not None:
            out["foul"] = record.foul
    elif isinstance(record, Lag):
        out = {"type": "lag", "results": [
            {"top": r.top, "red": r.red, "y": r.y, "crossed": r.crossed} for r in record.results
        ], "collided": record.collided}
    elif isinstance(record, Opener):
        out = {"type": "opener", "player": record.player}
    elif isinstance(record, Respot):
        out = {"type": "respot"}
    elif isinstance(record, Timeout):
        out = {"type": "timeout"}
    elif isinstance(record, Expired):
        out = {"type": "expired"}
    elif isinstance(record, Penalty):
        out = {"type": "penalty", "player": record.player, "result": "carom" if record.carom else "miss"}
    else:
        assert isinstance(record, Undo)
        out = {"type": "undo"}
    if record.extra:
        out.update(thaw(record.extra))
    return out


def format_record(record: Record) -> str:
    return dumps(record_json(record))


def format_match(header: Header, records: list[Record] | tuple[Record, ...]) -> str:
    """A whole match file: the header line, then one line per record."""
    return "".join(line + "\n" for line in (format_header(header), *map(format_record, records)))
