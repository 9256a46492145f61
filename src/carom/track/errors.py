"""Errors for tracked data: each names the line and the field that is wrong."""

from __future__ import annotations

from carom.core.errors import CaromError


class TrackFormatError(CaromError):
    """A tracked file that cannot be read: ``line`` is 1-based (0: the whole file)."""

    def __init__(self, reason: str, line: int = 0, field: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.field = field

    def __str__(self) -> str:
        where = []
        if self.line:
            where.append(f"line {self.line}")
        if self.field:
            where.append(self.field)
        prefix = ": ".join(where)
        return f"{prefix}: {self.reason}" if prefix else self.reason
