"""Words about a tracked stroke (the auto-referee's doubts, the fit's problems), kept as a
template and its values so that a page can say them in its own language.

A :class:`Said` is a message of the catalogues (``%(name)s`` placeholders: the catalogues
collect the first argument of every ``Said(...)`` of ``carom.track``, ``carom.fit`` and
``carom.video``, in the context :data:`TRACKED`) with its values: another :class:`Said`, a
ball or a cushion (said in the page's words for them), or a number already written. ``str()`` is the English;
:meth:`Said.as_json` keeps the whole of it in a review's record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from carom.core.balls import Ball, Cushion

TRACKED = "tracked"
"""The catalogues' context of these words."""


@dataclass(frozen=True, slots=True, init=False)
class Said:
    """A template of the catalogues and its values."""

    template: str
    values: tuple[tuple[str, Said | Ball | Cushion | str], ...]

    def __init__(self, template: str, **values: Said | Ball | Cushion | str) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "values", tuple(values.items()))

    def __str__(self) -> str:
        return self.template % {name: str(value) for name, value in self.values}

    def as_json(self) -> dict[str, Any]:
        """``{"said": template, "values": {name: value}}``, a value a nested one of these,
        ``{"ball": …}``, ``{"cushion": …}`` or a string."""
        return {"said": self.template, "values": {name: _json(value) for name, value in self.values}}


def _json(value: Said | Ball | Cushion | str) -> Any:
    if isinstance(value, Said):
        return value.as_json()
    if isinstance(value, Ball):
        return {"ball": value.value}
    if isinstance(value, Cushion):
        return {"cushion": value.value}
    return str(value)


def all_of(items: Sequence[Said]) -> Said:
    """``items`` together: "a and b and c" (a and (b and c))."""
    return _chained(items, lambda first, rest: Said("%(first)s and %(rest)s", first=first, rest=rest))


def listed(items: Sequence[Said]) -> Said:
    """``items`` one after another: "a; b; c" (a; (b; c))."""
    return _chained(items, lambda first, rest: Said("%(first)s; %(rest)s", first=first, rest=rest))


def _chained(items: Sequence[Said], link: Callable[[Said, Said], Said]) -> Said:
    """``items`` linked two by two from the right: link(a, link(b, c))."""
    if len(items) == 1:
        return items[0]
    return link(items[0], _chained(items[1:], link))
