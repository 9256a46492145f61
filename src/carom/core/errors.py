"""Errors that name what is wrong: the line, the field, the rule.

Every error carom raises derives from :class:`CaromError`, itself a ``ValueError``:
``except carom.CaromError`` catches them all, and code that expects a ``ValueError``
for a bad value keeps working. A name that is not registered (a table, a discipline)
raises :class:`UnknownName`, which is a ``KeyError`` too, for code that looks names up.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Self


class CaromError(ValueError):
    """Base of every error carom raises."""


class InputError(CaromError):
    """Input that cannot be read; ``line`` is 1-based (0: unknown or not line-based)."""

    def __init__(self, reason: str, line: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line

    def at(self, line: int) -> Self:
        """The same error, placed at ``line``."""
        return type(self)(self.reason, line)

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}" if self.line else self.reason


class RecordError(InputError):
    """A ``carom/1`` record that cannot be read or cannot happen."""


class InvalidValue(CaromError):
    """A value that cannot be built: a constructor refused what it was given. The message
    names the field first (``player: expected 0 or 1, got 2``), so that a reader can put
    the line and the record in front of it."""


class MissingExtra(CaromError, ImportError):
    """An optional package a function needs is not installed; the message says which
    extra of carom brings it (``pip install 'carom[pandas]'``)."""


class UnknownName(CaromError, KeyError):
    """A name that is not registered: ``unknown table 'x' (known: large, small, …)``.

    A ``KeyError`` too, so that a registry behaves like the mapping it is; its message
    reads as a sentence, without the quotes a ``KeyError`` puts around its key.
    """

    def __init__(self, what: str, name: str, known: Iterable[str]) -> None:
        super().__init__(f"unknown {what} {name!r} (known: {', '.join(known)})")
        self.what = what
        self.name = name

    def __str__(self) -> str:
        return str(self.args[0])
