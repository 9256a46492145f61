"""JSON schemas of a ``carom/1`` header and record, for the API's documentation.

They describe FORMAT.md for clients (and guide the fuzzer); the reader
(:mod:`carom.notation.reader`) stays the judge, with its own clear refusals.
"""

from __future__ import annotations

from typing import Any

from carom.core.records import MAX_REASON_CHARACTERS, MAX_REASONS
from carom.core.table import TABLES
from carom.rules.catalog import CALLABLE_FOULS, STROKE_FOULS
from carom.rules.disciplines import DISCIPLINES
from carom.web.shared.forms import MAX_NAME

_BALL = {"type": "string", "enum": ["white", "yellow", "red"]}
_POINT = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
_POSITION = {"type": "object", "properties": {b: _POINT for b in ("white", "yellow", "red")}}
_EVENT = {"type": "object", "required": ["kind", "ball"], "properties": {
    "kind": {"type": "string", "enum": ["ball", "cushion", "jump"]}, "ball": _BALL, "other": _BALL,
    "cushion": {"type": "string", "enum": ["top", "bottom", "left", "right"]}, "t": {"type": "number"},
}}


def _kind(name: str, required: list[str] | None = None, **properties: Any) -> dict[str, Any]:
    """A record type: its fields and no others (a record from the web carries only
    the fields of its type)."""
    return {"type": "object", "title": name, "required": ["type", *(required or [])],
            "additionalProperties": False,
            "properties": {"type": {"type": "string", "enum": [name]}, **properties}}


_DOUBT = {
    "type": "object", "additionalProperties": False,
    "description": "why the stroke's source (a camera, the auto-referee) doubts it: the tablet asks the "
                   "referee to uphold or overrule it (docs/format.md); no ruling reads it",
    "properties": {
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "reasons": {"type": "array", "maxItems": MAX_REASONS, "items": {
            "type": "object", "required": ["what"], "additionalProperties": False, "properties": {
                "what": {"type": "string", "minLength": 1, "maxLength": MAX_REASON_CHARACTERS},
                "said": {"type": "object", "description": "the words as a phrase of the catalogues"}}}}},
}

_LAG_RESULT = {"type": "object", "required": ["top", "red", "y", "crossed"], "properties": {
    "top": {"type": "boolean"}, "red": {"type": "boolean"}, "y": {"type": "number", "minimum": 0},
    "crossed": {"type": "boolean"}}}

RECORD_SCHEMA: dict[str, Any] = {
    "description": "one record of a carom/1 match file (FORMAT.md)",
    "oneOf": [
        _kind("call", ["result"], result={"type": "string", "enum": ["carom", "miss", "foul"]},
              rule={"type": "string", "enum": list(CALLABLE_FOULS)}),
        _kind("inning", ["points"], points={"type": "integer", "minimum": 0},
              foul={"type": "string", "enum": list(CALLABLE_FOULS)}),
        _kind("stroke", ["ball"], ball=_BALL, start=_POSITION, end=_POSITION,
              events={"type": "array", "items": _EVENT},
              fouls={"type": "array", "items": {"type": "string", "enum": list(STROKE_FOULS)}},
              exits={"type": "array", "items": {"type": "object", "properties": {
                  "ball": _BALL, "zone": {"type": "string"}}}},
              paths={"type": "object", "additionalProperties": {"type": "array", "items": {
                  "type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}}},
              doubt=_DOUBT),
        _kind("lag", ["results", "collided"], collided={"type": "boolean"},
              results={"type": "array", "items": _LAG_RESULT, "minItems": 2, "maxItems": 2}),
        _kind("opener", ["player"], player={"type": "integer", "enum": [0, 1]}),
        _kind("respot"),
        _kind("undo"),
        _kind("timeout"),
        _kind("expired"),
        _kind("penalty", ["player", "result"], player={"type": "integer", "enum": [0, 1]},
              result={"type": "string", "enum": ["carom", "miss"]}),
    ],
}

HEADER_SCHEMA: dict[str, Any] = {
    "description": "a carom/1 header (FORMAT.md); \"format\" may be left out",
    "type": "object", "required": ["discipline", "players"], "additionalProperties": False,
    "properties": {
        "format": {"type": "string", "enum": ["carom/1"]},
        "discipline": {"type": "string", "enum": list(DISCIPLINES)},
        "table": {"type": "string", "enum": list(TABLES), "default": "large",
                  "description": "left out: the table the discipline is played on, else the large one"},
        "players": {"type": "array", "minItems": 2, "maxItems": 2,
                    "items": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
                    "description": "two different players; no control or text-direction characters"},
        "points": {"oneOf": [
            {"type": ["integer", "null"], "minimum": 1},
            {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 2, "maxItems": 2,
             "description": "a handicap: each player's own points limit, in players order"}]},
        "innings": {"type": ["integer", "null"], "minimum": 1},
        "sets": {"type": ["object", "null"], "properties": {"to_win": {"type": "integer", "minimum": 1}}},
        "equalizing_inning": {"type": "boolean"},
        "tiebreak": {"type": ["string", "null"], "enum": ["penalties", None],
                     "description": "a draw must be broken by a penalty shoot-out (docs/format.md)"},
        "clock": {"description": "the shot clock (docs/clock.md): true for the defaults, or some fields",
                  "oneOf": [{"type": ["boolean", "null"]}, {
                      "type": "object", "additionalProperties": False, "properties": {
                          "stroke": {"type": "integer", "minimum": 1},
                          "warning": {"type": "integer", "minimum": 0},
                          "timeouts": {"type": "integer", "minimum": 0},
                          "timeout": {"type": "integer", "minimum": 1}}}]},
    },
}
