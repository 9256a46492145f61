"""The words of carom in every language, read from gettext catalogues (docs/i18n.md).

One domain, ``carom``: ``carom/locale/<lang>/LC_MESSAGES/carom.po`` is what a translator
edits, ``carom.mo`` beside it what the standard library's :mod:`gettext` reads here. The
catalogues hold every word of the interface: the web pages and their messages, the
scoresheet, and, under message contexts, what data rows only name by id:

- ``rule``: the title of a rule id of RULES.md (``F4`` → "touching a ball");
- ``discipline`` and ``table``: the display name of a registered discipline or table;
- ``ball``: a ball's colour; ``number``: the decimal separator of the language;
- ``refusal``: the engine's refusals, keyed by their English template, so that a page
  can say in its own language why a record was refused.

Messages are Python format strings (``%(name)s``), as Jinja2's i18n extension wants them
in the templates; ``%%`` is a percent sign. A language is any catalogue present.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path

from carom.core.averages import printed_average

LOCALE = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "carom"
SOURCE = "en"
"""The language the messages are written in; its catalogue names what ids stand for."""

ID_CONTEXTS = ("rule", "discipline", "table", "ball", "number")
"""Message contexts whose message is an id, not English: every language translates them."""
REFUSAL = "refusal"


def _languages() -> tuple[str, ...]:
    found = sorted(path.parents[1].name for path in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE, *(lang for lang in found if lang != SOURCE))


LANGUAGES: tuple[str, ...] = _languages()
"""Every language with a compiled catalogue, the source language first."""


class _Catalogue(gettext.GNUTranslations):
    """A compiled catalogue that can also list its entries of one context."""

    def in_context(self, context: str) -> Iterator[tuple[str, str]]:
        prefix = context + "\x04"
        entries: dict[object, str] = vars(self).get("_catalog", {})  # GNUTranslations' parsed .mo
        for key, text in entries.items():
            if isinstance(key, str) and key.startswith(prefix):
                yield key[len(prefix):], text


@cache
def catalogue(lang: str) -> _Catalogue:
    """The compiled catalogue of ``lang`` (one of :data:`LANGUAGES`)."""
    with open(LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as mo:
        return _Catalogue(mo)


class Words:
    """The words of one language: ``w.gettext("%(name)s to play", name="Anna")``.

    An unknown language gets the source language's words.
    """

    def __init__(self, lang: str = SOURCE) -> None:
        self.lang = lang if lang in LANGUAGES else SOURCE
        self.translations: gettext.GNUTranslations = catalogue(self.lang)
        """The compiled catalogue (for Jinja2's i18n extension)."""

    def gettext(self, message: str, /, **values: object) -> str:
        return self.translations.gettext(message) % values

    def ngettext(self, singular: str, plural: str, num: int, /, **values: object) -> str:
        """The form for ``num`` by the language's plural rule (sk: 1 nábeh, 2 nábehy,
        5 nábehov); ``%(num)s`` is the number."""
        return self.translations.ngettext(singular, plural, num) % {"num": num, **values}

    def pgettext(self, context: str, message: str, /, **values: object) -> str:
        return self.translations.pgettext(context, message) % values

    def rule(self, rule_id: str) -> str:
        """The short title of a rule id of RULES.md."""
        return self.translations.pgettext("rule", rule_id)

    def discipline(self, discipline_id: str) -> str:
        return self.translations.pgettext("discipline", discipline_id)

    def table(self, table_name: str) -> str:
        """A table as the scoresheet names it ("large table", "2.30 m table")."""
        return self.translations.pgettext("table", table_name)

    def ball(self, ball: str) -> str:
        return self.translations.pgettext("ball", ball)

    def decimal(self, value: float, digits: int = 3) -> str:
        """``value`` with ``digits`` decimals and the language's separator (13.333, 13,333)."""
        return f"{value:.{digits}f}".replace(".", self.translations.pgettext("number", "decimal separator"))

    def average(self, value: Fraction | float | int) -> str:
        """An average as the federations print it: cut, not rounded, to three decimals, with
        the language's separator (17 points in 12 innings: 1.416, 1,416)."""
        return printed_average(value, decimal=self.translations.pgettext("number", "decimal separator"))

    def limits(self, points: int | tuple[int, int] | None, innings: int | None,
               sets_to_win: int | None, equalizing_inning: bool) -> str:
        """A match's limits in words, e.g. "40 points, 50 innings, equalizing inning" (E1–E5);
        a handicap as "handicap 30 : 25 points"."""
        parts = []
        if isinstance(points, tuple):
            parts.append(self.gettext("handicap %(first)s : %(second)s points",
                                      first=points[0], second=points[1]))
        elif points is not None:
            parts.append(self.ngettext("%(num)s point", "%(num)s points", points))
        if innings is not None:
            parts.append(self.ngettext("%(num)s inning", "%(num)s innings", innings))
        if sets_to_win is not None:
            parts.append(self.ngettext("%(num)s set to win", "%(num)s sets to win", sets_to_win))
        elif equalizing_inning:
            parts.append(self.gettext("equalizing inning"))
        else:
            parts.append(self.gettext("no equalizing inning"))
        return self.gettext(", ").join(parts)

    def refusal(self, message: str) -> str:
        """An English refusal of the engine or the reader, in this language: the
        catalogue's ``refusal`` entries are the English templates of those messages."""
        if self.lang == SOURCE:
            return message
        return _translate(self.lang, message, 0)

    def error(self, error: Exception) -> str:
        """An error's message in this language (a refusal, its line included)."""
        return self.refusal(str(error))


def N_(message: str) -> str:
    """Marks a message for the catalogues where it is defined; it is translated where
    it is shown (``words.gettext(message, **values)``)."""
    return message


_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
_MAX_DEPTH = 8


@cache
def _templates(lang: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The refusal templates of ``lang`` as patterns, the most specific (longest
    literal text) first, each with its translation."""
    found = []
    for template, translated in catalogue(lang).in_context(REFUSAL):
        parts = _PLACEHOLDER.split(template)
        pattern = "".join(re.escape(part.replace("%%", "%")) if i % 2 == 0 else f"(?P<{part}>.+?)"
                          for i, part in enumerate(parts))
        literal = sum(len(part) for part in parts[::2])
        found.append((literal, re.compile(pattern, re.DOTALL), translated))
    found.sort(key=lambda item: -item[0])
    return tuple((pattern, translated) for _, pattern, translated in found)


@lru_cache(maxsize=4096)
def _translate(lang: str, message: str, depth: int) -> str:
    for pattern, translated in _templates(lang):
        match = pattern.fullmatch(message)
        if match is None:
            continue
        values = {name: _translate(lang, value, depth + 1) if depth < _MAX_DEPTH else value
                  for name, value in match.groupdict().items()}
        return translated % values
    return message
