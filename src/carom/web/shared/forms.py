"""HTML forms to ``carom/1`` objects: the tablet's buttons to records, the organiser's
form to a header. The reader (:mod:`carom.notation.reader`) then judges them, so a
form never bypasses the checks a file gets. What the web adds: players' names a
person can read (:func:`check_names`) and records that carry only their type's fields.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from carom.core.errors import CaromError
from carom.core.inputs import is_digits
from carom.core.records import FORMAT, Header
from carom.notation.words import N_, Words
from carom.storage.players import name_key

MAX_NAME = 60
"""Characters in a player's name: the longest real names fit, a list stays a list."""
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that reorder text around them ("\u202eevil" shows as "live")."""


class FormError(CaromError):
    """A field that cannot be taken; the message names the field and says why, in any
    language (:meth:`say`). A ``field`` value is a message too: a word, or a word with
    values (``(N_("line %(line)s, name"), {"line": 3})``)."""

    def __init__(self, template: str, **values: Any) -> None:
        super().__init__(template % {k: _english(v) for k, v in values.items()})
        self.template = template
        self.values = values

    def say(self, words: Words) -> str:
        """The message in ``words``' language; a ``field`` value is a word too."""
        values = {k: _field(v, words) if k == "field" else words.error(v) if isinstance(v, Exception) else v
                  for k, v in self.values.items()}
        return words.gettext(self.template, **values)


Field = str | tuple[str, dict[str, Any]]
"""Where a value was found, as a message: a word, or a template and its values."""


def _english(value: Any) -> Any:
    return value[0] % value[1] if isinstance(value, tuple) else value


def _field(value: Field, words: Words) -> str:
    return words.gettext(value[0], **value[1]) if isinstance(value, tuple) else words.gettext(value)


def check_name(name: str, field: Field) -> None:
    """A player's name a person can read, wherever one comes in (a match, its import, a
    review, a tournament entry, the register): at most :data:`MAX_NAME` characters, no
    control or text-direction characters. :class:`FormError` naming ``field`` if not."""
    if len(name) > MAX_NAME:
        raise FormError(N_("%(field)s: %(length)s characters; at most %(most)s fit the boards"),
                        field=field, length=len(name), most=MAX_NAME)
    for position, char in enumerate(name, start=1):
        if char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise FormError(N_("%(field)s: an invisible control character (U+%(code)s, character "
                               "%(position)s), which a name cannot have"),
                            field=field, code=f"{ord(char):04X}", position=position)


async def read_upload(form: Mapping[str, Any], limit: int, missing: str) -> tuple[bytes, str]:
    """The form's ``file``: its bytes and its name, read up to one byte past ``limit``; a
    :class:`FormError` saying ``missing`` when there is none or it is empty, or naming the
    limit when it is larger."""
    from starlette.datastructures import UploadFile

    upload = form.get("file")
    data = await upload.read(limit + 1) if isinstance(upload, UploadFile) else b""
    if not data:
        raise FormError(missing)
    if len(data) > limit:
        raise FormError(N_("file: larger than %(mib)s MiB"), mib=limit // 2**20)
    return data, upload.filename or ""


def whole_id(text: str) -> int:
    """An id typed or chosen in a form: its digits (ASCII only), else 0 (which names nothing)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else 0


def _text(form: Mapping[str, Any], key: str) -> str:
    value = form.get(key)
    return value.strip() if isinstance(value, str) else ""


def _whole(form: Mapping[str, Any], key: str, label: str) -> int | None:
    text = _text(form, key)
    if not text:
        return None
    if not is_digits(text) or len(text) > 9:
        raise FormError(N_("%(field)s: %(text)s is not a whole number"), field=label, text=repr(text[:20]))
    return int(text)


def _number(form: Mapping[str, Any], key: str, name: str) -> float:
    text = _text(form, key).replace(",", ".")
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if value != value or value in (float("inf"), float("-inf")):
        raise FormError(N_("lag: %(name)s: enter a number of centimetres, not %(text)s"),
                        name=name, text=repr(text[:20]))
    return value


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
    if kind in ("undo", "respot", "timeout", "expired"):
        return {"type": kind}
    if kind == "penalty":
        return {"type": "penalty", "player": _whole(form, "player", N_("penalty: player")),
                "result": _text(form, "result")}
    if kind == "opener":
        return {"type": "opener", "player": _whole(form, "player", N_("opener: player"))}
    if kind == "lag":
        results = []
        for p in (0, 1):
            y = _number(form, f"lag{p}_y", players[p]) / 100.0
            results.append({"top": _checked(form, f"lag{p}_top"), "red": _checked(form, f"lag{p}_red"),
                            "y": y, "crossed": _checked(form, f"lag{p}_crossed")})
        return {"type": "lag", "results": results, "collided": _checked(form, "collided")}
    raise FormError(N_("type: unknown record type %(kind)s "
                       "(call, undo, respot, opener, lag, timeout, expired, penalty)"),
                    kind=repr(kind[:20]))


def header_from_form(form: Mapping[str, Any]) -> dict[str, Any]:
    """The header the organiser's form describes; :func:`parse_header` judges it (a
    table the discipline is not played on is refused there, naming the one it is, K1)."""
    sets = _whole(form, "sets_to_win", N_("sets to win"))
    return {
        "format": FORMAT, "discipline": _text(form, "discipline"), "table": _text(form, "table"),
        "players": [_text(form, "player0"), _text(form, "player1")],
        "points": _whole(form, "points", N_("points limit")),
        "innings": _whole(form, "innings", N_("innings limit")),
        "sets": None if sets is None else {"to_win": sets},
        "equalizing_inning": _checked(form, "equalizing_inning"),
    }


def check_names(header: Header) -> None:
    """Names a person can read (:func:`check_name`), of two different players."""
    for slot, name in enumerate(header.players, start=1):
        check_name(name, (N_("players: player %(slot)s's name"), {"slot": slot}))
    if name_key(header.players[0]) == name_key(header.players[1]):
        raise FormError(N_("players: both players are %(name)s: a player cannot play against himself"),
                        name=header.players[0])


def say(error: Exception, words: Words) -> str:
    """A refusal in the page's language: a form's own, or the engine's, reader's or
    storage's, translated by its template (:meth:`carom.notation.words.Words.error`)."""
    return error.say(words) if isinstance(error, FormError) else words.error(error)
