"""The one error of the video package: what was not found, and where."""

from __future__ import annotations

from carom.core.errors import CaromError


class VideoError(CaromError):
    """A video that cannot be read, or in which something needed was not found.

    The message names the file and, where known, the frame (counted from 0) and its
    time in seconds, so that a user can find the place in a player.
    """

    def __init__(self, reason: str, source: str = "", frame: int | None = None,
                 time: float | None = None) -> None:
        self.reason = reason
        self.source = source
        self.frame = frame
        self.time = time
        super().__init__(self.describe())

    def describe(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.frame is not None:
            at = f"frame {self.frame}"
            if self.time is not None:
                at += f" ({self.time:.3f} s)"
            where.append(at)
        return ": ".join([*where, self.reason])
