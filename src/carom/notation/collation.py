"""Sorting names as a language sorts them, after the Unicode Collation Algorithm as CLDR
tailors it, folded to what names need (no ICU, no Babel: the standard library's
:mod:`unicodedata`).

A name is compared letter by letter on three levels, the next level deciding only where
the one before ties (UTS #10):

1. the letters without their accents: ``Ľ`` is an ``L``, ``Ö`` an ``O`` (so ``Ľudovít``
   sorts among the ``L``, not after ``Z``); spaces and punctuation before digits, digits
   before letters; ``ß`` is ``ss``, ``æ`` ``ae``, ``œ`` ``oe``, ``ø`` ``o``, ``ł`` ``l``,
   ``đ`` ``d`` (letters that have no decomposition);
2. the accents: a letter without one first (``Novak`` before ``Novák``);
3. the case: lower case first.

CLDR's collation for German is the root one (``ä`` is an ``a`` with an accent, as DIN
5007-1 files names); for English too. Slovak's tailors letters of its alphabet that come
after their base letter (CLDR ``sk.xml``: ``&A<ä &C<č &H<ch &O<ô &R<ř &S<š &Z<ž``): so in
Slovak ``Čech`` comes after ``Cyril``, and ``Chudý`` after ``Hrubý``. A language without a
tailoring here sorts as the root does.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

TAILORED: dict[str, dict[str, str]] = {
    "sk": {"a\u0308": "a", "c\u030c": "c", "ch": "h", "o\u0302": "o", "r\u030c": "r", "s\u030c": "s",
           "z\u030c": "z"},
}
"""Letters (lower case, decomposed) that a language sorts as letters of their own, each
right after the letter named (CLDR's tailorings ``&X<y``)."""
EXPANSIONS = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ı": "i", "þ": "th"}
"""Letters without a decomposition, as the letters they sort as."""
_SPACE, _DIGIT, _LETTER, _OTHER = 1, 100, 1000, 100_000


def sort_key(text: str, lang: str = "en") -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], str]:
    """The key that sorts ``text`` as ``lang`` does (the text itself breaks a full tie)."""
    primary: list[int] = []
    secondary: list[int] = []
    tertiary: list[int] = []
    for weight, accent, upper in _elements(text, lang):
        primary.append(weight)
        secondary.append(accent)
        tertiary.append(upper)
    return tuple(primary), tuple(secondary), tuple(tertiary), text


def _elements(text: str, lang: str) -> list[tuple[int, int, int]]:
    """(primary, secondary, tertiary) weights of each letter or sign of the text."""
    tailored = TAILORED.get(lang, {})
    letters = _letters(unicodedata.normalize("NFD", text))
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(letters):
        base, marks = letters[i]
        upper = int(base != base.lower())
        lower = base.lower()
        pair = lower + letters[i + 1][0].lower() if i + 1 < len(letters) and not marks else ""
        if pair in tailored and not letters[i + 1][1]:
            out.append((_weight(tailored[pair]) + 1, 0, upper))  # a contraction: "ch"
            i += 2
            continue
        if marks and lower + marks[:1] in tailored:
            out.append((_weight(tailored[lower + marks[:1]]) + 1, _accent(marks[1:]), upper))
        else:
            for part in EXPANSIONS.get(lower, lower):
                out.append((_weight(part), _accent(marks), upper))
        i += 1
    return out


def _letters(decomposed: str) -> list[tuple[str, str]]:
    """Each base character with the combining marks that follow it."""
    found: list[tuple[str, str]] = []
    for char in decomposed:
        if unicodedata.combining(char) and found:
            base, marks = found[-1]
            found[-1] = (base, marks + char)
        else:
            found.append((char, ""))
    return found


@lru_cache(maxsize=4096)
def _weight(char: str) -> int:
    if char.isspace() or unicodedata.category(char)[0] in "PSZC":
        return _SPACE
    if char.isdigit():
        return _DIGIT + unicodedata.digit(char, 0)
    if "a" <= char <= "z":
        return _LETTER + 2 * (ord(char) - ord("a"))
    return _OTHER + ord(char)


def _accent(marks: str) -> int:
    return sum(ord(mark) - 0x2FF for mark in marks)
