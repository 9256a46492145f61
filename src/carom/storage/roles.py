"""Who may do what: the roles of named accounts and what each role grants.

Three roles, each limited to what it needs (docs/accounts.md):

- the **organiser** may do everything, and is the only one who manages accounts;
- the **tournament director** runs the day: matches, tournaments and their desk, the
  player register, the review of tracked recordings; no accounts;
- the **referee** enters and confirms the matches it is given (and the table devices it
  is given), and nothing else.

Every account may change its own password. The routes of the web ask for a
:class:`Permission`, never for a role, so that a role's reach is this one table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    ORGANISER = "organiser"
    DIRECTOR = "director"
    REFEREE = "referee"


class Permission(StrEnum):
    ACCOUNTS = "accounts"
    """Create, remove and reset accounts; read the accounts' log."""
    RUN = "run"
    """Matches, tournaments and the desk, the register, the review: the day's running."""
    REFEREE = "referee"
    """Enter and confirm a match's records. A referee holds it for the matches it is given
    only; a role that also has :attr:`RUN` holds it for every match."""


GRANTS: dict[Role, frozenset[Permission]] = {
    Role.ORGANISER: frozenset(Permission),
    Role.DIRECTOR: frozenset({Permission.RUN, Permission.REFEREE}),
    Role.REFEREE: frozenset({Permission.REFEREE}),
}


@dataclass(frozen=True, slots=True)
class Account:
    """A named account: who did something, and what it may do."""

    id: int
    name: str
    role: Role

    def may(self, permission: Permission) -> bool:
        return permission in GRANTS[self.role]

    @property
    def actor(self) -> str:
        """How the account signs a tournament's log record (the ``actor`` of
        :class:`carom.storage.tournaments.Tournaments`): its name and its id, which no
        later account of the same name shares (``Anna #3``)."""
        return f"{self.name} #{self.id}"

    def may_referee(self, given_to: int | None) -> bool:
        """Whether this account may enter and confirm a match given to account ``given_to``
        (``None``: given to nobody)."""
        return self.may(Permission.RUN) or (self.may(Permission.REFEREE) and given_to == self.id)
