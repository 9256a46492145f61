"""What storage refuses, named so that a caller can answer with the right status."""

from __future__ import annotations

from carom.core.errors import CaromError


class StorageError(CaromError):
    """Base of the errors of :mod:`carom.storage`."""


class UnknownMatch(StorageError):
    """No match has this id."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"no match {match_id}")
        self.match_id = match_id


class StaleSequence(StorageError):
    """A write named a sequence number that is not the match's last one."""

    def __init__(self, match_id: int, after: int, current: int) -> None:
        super().__init__(
            f"match {match_id}: the write follows record {after}, "
            f"but the match is at record {current}"
        )
        self.match_id = match_id
        self.after = after
        self.current = current
