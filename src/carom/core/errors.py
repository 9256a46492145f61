"""Errors that name what is wrong: the line, the field, the rule.

Every error carom raises on bad input derives from :class:`CaromError`, itself a
``ValueError``: ``except carom.CaromError`` catches them all, and code that expects a
``ValueError`` for a bad value keeps working.
"""

from __future__ import annotations

from typing import Self


class CaromError(ValueError):
    """Base of every error carom raises on bad input."""


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
