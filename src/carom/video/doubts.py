"""What the video could not show about a stroke, as a stroke line's ``doubts`` keeps it.

Each doubt is a phrase of the catalogues with its values (:class:`carom.notation.said.Said`,
context ``tracked``: a ball as its :class:`~carom.core.balls.Ball`, a frame and a time as
the text the English shows), written as ``{"what": English, "said": phrase}`` so that the
referee's tablet says it in its own language. A line written before the phrases were kept,
or by another tracker, holds plain English strings: they are read as ``{"what": text}``.
"""

from __future__ import annotations

import json
from typing import Any

from carom.notation.said import Said
from carom.track.errors import TrackFormatError

FIELD = "doubts"
"""The stroke line's field."""
SHOWN = 60
"""The most characters of a refused entry said back."""


def seconds(t: float) -> str:
    """A time in a doubt, s, as its English writes it (to the millisecond)."""
    return format(t, ".3f")


def entry(said: Said) -> dict[str, Any]:
    """A doubt as the stroke line writes it: its English and its phrase."""
    return {"what": str(said), "said": said.as_json()}


def read_doubts(value: Any, line: int = 0) -> list[dict[str, Any]]:
    """A stroke line's ``doubts`` as ``{"what"}`` entries (``"said"`` beside it when kept):
    a missing field is no doubt, a plain string its English; any other entry, an entry with
    a field other than these, words that are not a string or a phrase that is not an object
    is refused with the field's name (:class:`TrackFormatError`, as the line's reader does)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise TrackFormatError(f"expected a list of doubts, got {_shown(value)}", line, FIELD)
    return [_entry(item, line, f"{FIELD}[{k}]") for k, item in enumerate(value)]


def _entry(item: Any, line: int, where: str) -> dict[str, Any]:
    """One doubt: words, or ``{"what": words, "said": phrase}``."""
    if isinstance(item, str):
        return {"what": item}
    if not isinstance(item, dict):
        raise TrackFormatError(f'expected words or {{"what": words, "said": phrase}}, got {_shown(item)}',
                               line, where)
    unknown = sorted(str(k) for k in item if k not in ("what", "said"))
    if unknown:
        raise TrackFormatError(f"no field {', '.join(map(json.dumps, unknown))} (what, said)", line, where)
    what = item.get("what")
    if not isinstance(what, str):
        raise TrackFormatError(f"expected the doubt in words, got {_shown(what)}", line, f"{where}.what")
    said = item.get("said")
    if said is None:
        return {"what": what}
    if not isinstance(said, dict):
        raise TrackFormatError(f"expected a phrase and its values, got {_shown(said)}", line, f"{where}.said")
    return {"what": what, "said": said}


def _shown(value: Any) -> str:
    """A refused value as JSON, cut to :data:`SHOWN` characters."""
    text = json.dumps(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"
