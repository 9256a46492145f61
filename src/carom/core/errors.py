"""Errors that name what is wrong: the line, the field, the rule."""

from __future__ import annotations


class CaromError(Exception):
    """Base of every error carom raises on bad input."""


class RecordError(CaromError):
    """A record that cannot be read or cannot happen; ``line`` is 1-based (0: unknown)."""

    def __init__(self, reason: str, line: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line

    def at(self, line: int) -> RecordError:
        """The same error, placed at ``line``."""
        return RecordError(self.reason, line)

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}" if self.line else self.reason
