"""A change the club's tables cannot take, and the rules it names.

The ids are carom's own (the rulebook says nothing of a club's tables or its devices);
docs/tables.md explains each. A refusal names the field that is wrong and, where one
decides it, the rule: ``table: no table 7 in the hall (TD2)``.
"""

from __future__ import annotations

from carom.competition.errors import CompetitionError

TABLE_RULES: dict[str, str] = {
    "TD1": "a table is registered under a name no other table in the hall has, with a size and a "
           "place in the hall's order",
    "TD2": "a change names a table in the hall (registered, not retired)",
    "TD3": "a retired table leaves the hall: its devices stop, its one-off matches leave it",
    "TD4": "a pairing code is for one table, good once, until its time; a newer code for the table "
           "replaces it",
    "TD5": "a device is paired with a good code and holds its table's token until it is revoked or "
           "the table retired",
    "TD6": "a one-off match is on one table at a time, put there once, taken off only while there",
    "TD7": "a tournament plays on a list of different tables of the hall: its table n is the n-th",
    "TD8": "a table plays its games in the order they came to it; a game stays on it until its match is "
           "finished and confirmed (a one-off match also leaves once one put after it is); then comes the "
           "next game made, then the next one to be called",
}


class Refused(CompetitionError):
    """A record the tables refuse: the field, why, and the rule."""

    def __init__(self, field: str, reason: str, rule: str | None = None) -> None:
        super().__init__(f"{field}: {reason}" + (f" ({rule})" if rule else ""))
        self.field = field
        self.reason = reason
        self.rule = rule
