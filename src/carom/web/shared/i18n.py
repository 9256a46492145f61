"""The language of a page, and what a page formats beyond the core's words.

The user's choice (a cookie set by the language switch) wins; without one, the
browser's ``Accept-Language``; without that, English. Czech browsers get Slovak. The
words are the catalogues' (:mod:`carom.notation.words`); numbers and dates follow
the page's locale as Babel (CLDR) gives it (13.333, 13,333; 12/3/26, 3. 12. 2026).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from typing import Any

from babel.dates import format_datetime
from babel.numbers import get_decimal_symbol
from jinja2 import Environment, pass_context
from jinja2.runtime import Context

from carom.core.averages import printed_average
from carom.notation.words import LANGUAGES, Words

COOKIE = "carom_lang"
_ALIASES = {"cs": "sk"}


def negotiate(cookie: str | None, accept_language: str | None, asked: str | None = None) -> str:
    """The language to answer in: the one the address asks for (``?lang=``), else the
    cookie's, else the best of ``Accept-Language``."""
    for chosen in (asked, cookie):
        if chosen in LANGUAGES:
            return chosen
    best, best_q = LANGUAGES[0], -1.0
    for i, part in enumerate((accept_language or "").split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        primary = tag.split("-")[0].strip().lower()
        lang = _ALIASES.get(primary, primary)
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if lang in LANGUAGES and q > best_q and q > 0:
            best, best_q = lang, q - i * 1e-6
    return best


class PageWords(Words):
    """The words of a page: the catalogue's, and numbers and dates by the page's locale."""

    def number(self, value: Any, digits: int = 3) -> str:
        """A ratio (not an average: :meth:`average`): ``digits`` decimals, the locale's
        separator (Babel's pattern formatting costs 40 µs, and the board shows two per record)."""
        return f"{float(value):.{digits}f}".replace(".", _decimal_symbol(self.lang))

    def average(self, value: Any) -> str:
        """An average, cut (not rounded) to three decimals (:mod:`carom.core.averages`),
        with the locale's separator."""
        return printed_average(value, decimal=_decimal_symbol(self.lang))

    def when(self, moment: datetime | None) -> str:
        """A moment of the match day, in the server's time zone."""
        if moment is None:
            return ""
        if moment.tzinfo is None:  # SQLite keeps UTC without saying so
            moment = moment.replace(tzinfo=UTC)
        return format_datetime(moment.astimezone(), "short", locale=self.lang)


@cache
def _decimal_symbol(lang: str) -> str:
    return str(get_decimal_symbol(lang))


def install(env: Environment) -> None:
    """Jinja2's i18n extension with the words of the page being rendered: every
    template context carries ``t`` (a :class:`PageWords`), and ``_()``, ``ngettext()``,
    ``pgettext()`` and ``{% trans %}`` look the message up in its catalogue."""

    @pass_context
    def gettext(context: Context, message: str) -> str:
        return _words(context).translations.gettext(message)

    @pass_context
    def ngettext(context: Context, singular: str, plural: str, num: int) -> str:
        return _words(context).translations.ngettext(singular, plural, num)

    @pass_context
    def pgettext(context: Context, where: str, message: str) -> str:
        return _words(context).translations.pgettext(where, message)

    @pass_context
    def npgettext(context: Context, where: str, singular: str, plural: str, num: int) -> str:
        return _words(context).translations.npgettext(where, singular, plural, num)

    env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext, ngettext, newstyle=True, pgettext=pgettext, npgettext=npgettext)


def _words(context: Context) -> PageWords:
    words = context.get("t")
    return words if isinstance(words, PageWords) else PageWords()
