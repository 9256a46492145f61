"""The auto-referee's doubts, the video's and the fit's problems about a tracked stroke, in the
page's language.

All keep their words as a template of the catalogues with its values
(:class:`carom.notation.said.Said`: written into a review's record, a stroke in doubt or the
fit's answer, as ``said`` beside the English ``what``); here they are said again in the page's words: each
template by the catalogue (context ``tracked``), a ball and a cushion by their own words, a
number with the language's decimal separator. Words written before they were kept, or
words that do not read (a record made by hand), are shown as they were written, in English.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from carom.core.errors import CaromError
from carom.notation.said import TRACKED
from carom.notation.words import LANGUAGES, SOURCE, catalogue
from carom.web.shared.i18n import PageWords

DEEPEST = 24
"""The most templates said one inside another (the auto-referee nests a few)."""

_DECIMAL = re.compile(r"-?\d+\.\d+")


class _Unreadable(CaromError):
    """Words that are not a template and its values."""


def said_words(entry: dict[str, Any], t: PageWords) -> str:
    """``{"said", "what"}`` in the page's language (``what``, the English, when it cannot be)."""
    said = entry.get("said")
    if isinstance(said, dict):
        try:
            return _said(said, t, 0)
        except (_Unreadable, KeyError, TypeError, ValueError, AttributeError):
            pass
    return str(entry.get("what", ""))


@cache
def known_phrases() -> frozenset[str]:
    """Every phrase of the context ``tracked`` the catalogues translate: the only templates
    said here. Words come from a record a client wrote (a camera's stroke in doubt), and a
    template that is not ours is shown as its English, never used as a format."""
    return frozenset(template for lang in LANGUAGES if lang != SOURCE
                     for template, _ in catalogue(lang).in_context(TRACKED))


def _said(value: Any, t: PageWords, depth: int) -> str:
    if isinstance(value, str):
        return _number(value, t)
    if "ball" in value:
        return t.pgettext("ball", str(value["ball"]))
    if "cushion" in value:
        return t.pgettext("cushion", str(value["cushion"]))
    if depth >= DEEPEST:
        raise _Unreadable("nested too deep")
    template, values = value["said"], value["values"]
    if not isinstance(template, str) or not isinstance(values, dict):
        raise _Unreadable("not a template and its values")
    if template not in known_phrases():
        raise _Unreadable("not a phrase of the catalogues")  # "%(x)999999999s" would fill the memory
    return t.translations.pgettext(TRACKED, template) % {str(name): _said(v, t, depth + 1)
                                                         for name, v in values.items()}


def _number(text: str, t: PageWords) -> str:
    """A number already written, with the page's decimal separator."""
    if _DECIMAL.fullmatch(text):
        return t.number(float(text), len(text.split(".")[1]))
    return text
