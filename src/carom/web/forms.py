"""HTML forms to ``carom/1`` objects: the tablet's buttons to records, the organiser's
form to a header. The reader (:mod:`carom.notation.reader`) then judges them, so a
form never bypasses the checks a file gets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from carom.core.errors import CaromError, RecordError
from carom.core.records import FORMAT
from carom.rules.disciplines import DISCIPLINES


class FormError(CaromError):
    """A form field that cannot be read; the message names the field."""


def _text(form: Mapping[str, Any], key: str) -> str:
    value = form.get(key)
    return value.strip() if isinstance(value, str) else ""


def _whole(form: Mapping[str, Any], key: str, label: str) -> int | None:
    text = _text(form, key)
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise FormError(f"{label}: {text!r} is not a whole number") from None


def _number(form: Mapping[str, Any], key: str, label: str) -> float:
    text = _text(form, key).replace(",", ".")
    try:
        return float(text)
    except ValueError:
        raise FormError(f"{label}: enter a number of centimetres, not {text!r}") from None


def _checked(form: Mapping[str, Any], key: str) -> bool:
    return _text(form, key) not in ("", "0", "false", "off")


def record_from_form(form: Mapping[str, Any], players: tuple[str, str]) -> dict[str, Any]:
    """The record a tablet button or form stands for (FORMAT.md)."""
    kind = _text(form, "type")
    if kind == "call":
        record: dict[str, Any] = {"type": "call", "result": _text(form, "result")}
        if record["result"] == "foul":
            record["rule"] = _text(form, "rule")
        return record
    if kind in ("undo", "respot"):
        return {"type": kind}
    if kind == "opener":
        player = _whole(form, "player", "opener: player")
        return {"type": "opener", "player": player}
    if kind == "lag":
        results = []
        for p in (0, 1):
            y = _number(form, f"lag{p}_y", f"lag: {players[p]}: distance") / 100.0
            results.append({"top": _checked(form, f"lag{p}_top"), "red": _checked(form, f"lag{p}_red"),
                            "y": y, "crossed": _checked(form, f"lag{p}_crossed")})
        return {"type": "lag", "results": results, "collided": _checked(form, "collided")}
    raise RecordError(f"type: unknown record type {kind!r} (call, undo, respot, opener, lag)")


def header_from_form(form: Mapping[str, Any]) -> dict[str, Any]:
    """The header the organiser's form describes; :func:`parse_header` judges it."""
    sets = _whole(form, "sets_to_win", "sets to win")
    header: dict[str, Any] = {
        "format": FORMAT, "discipline": _text(form, "discipline"),
        "players": [_text(form, "player0"), _text(form, "player1")],
        "points": _whole(form, "points", "points limit"),
        "innings": _whole(form, "innings", "innings limit"),
        "sets": None if sets is None else {"to_win": sets},
        "equalizing_inning": _checked(form, "equalizing_inning"),
    }
    spec = DISCIPLINES.get(header["discipline"])
    if spec is not None and len(spec.tables) == 1:
        header["table"] = spec.tables[0]  # a balkline game fixes its table (K1)
    elif _text(form, "table"):
        header["table"] = _text(form, "table")
    return header
