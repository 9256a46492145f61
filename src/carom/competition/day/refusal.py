"""A record the tournament cannot take, and the tournament day's rules it names.

The ids are carom's own (the rulebook, RULES.md, says nothing of running a tournament);
docs/tournaments.md gives each its source. A refusal names the field that is wrong and,
where one decides it, the rule: ``game 1.A.2.0: table 2 is playing game 1.A.1.1 (D5)``.
"""

from __future__ import annotations

from carom.competition.errors import CompetitionError

DAY_RULES: dict[str, str] = {
    "D1": "entries: a player once, before the start or as a late entry; at most 256 players",
    "D2": "a late entry comes before the player's first game would be called: into a stage or "
          "group not begun, or a group's bye place while its first round is on",
    "D3": "the seeding is edited, or taken from a ranking list, before the start",
    "D4": "the start needs a field each stage can play (two players a group, places for the "
          "knock-out)",
    "D5": "no player and no table in two games at once: a game is called when it is waiting, its "
          "players are known and free and its table is free",
    "D6": "a game is moved to a free table, swapped with another of the same kind, or postponed "
          "while it waits",
    "D7": "a start time is given to a waiting game or to a round",
    "D8": "a player who withdraws or does not come: his remaining games are walkovers; his finished "
          "games count or are annulled as the tournament's setting says; a no-show played none",
    "D9": "a walkover is given to one player of a game that has no result",
    "D10": "a result from a paper scoresheet is for a game without one, within the game's limits",
    "D11": "a finished game is corrected with a reason; a confirmed one only once unlocked; never so "
           "that who went on changes after that was used",
    "D12": "a confirmed game is unlocked with a reason",
    "D13": "a stage feeds the next once all its games are done",
    "D14": "a finished game's match takes no record once its table or one of its players has moved on",
}


class Refused(CompetitionError):
    """A record (or a setting) the tournament refuses: the field, why, and the rule."""

    def __init__(self, field: str, reason: str, rule: str | None = None) -> None:
        text = f"{field}: {reason}" + (f" ({rule})" if rule else "")
        super().__init__(text)
        self.field = field
        self.reason = reason
        self.rule = rule
