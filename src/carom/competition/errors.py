"""The competition package's one error: a field, a bracket or a schedule that cannot be."""

from __future__ import annotations

from carom.core.errors import CaromError


class CompetitionError(CaromError):
    """Players, groups, places or tables that make no competition (the message says why)."""
