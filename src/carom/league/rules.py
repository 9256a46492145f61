"""The league rules carom enforces, each with its id (LG1 …).

They are carom's own ids, like the competition rules T and P
(:mod:`carom.rules.competition`): the regulations they come from differ from federation
to federation, and ``docs/leagues.md`` gives, for each, the articles and reports it
follows. The values a rule reads (roster sizes, the deadline, how many games a player
plays, who may stand in) are fields of a league's format row
(:class:`carom.league.formats.MeetingFormat`), never code.
"""

from __future__ import annotations

LEAGUE_RULES: dict[str, str] = {
    "LG1": "a player is on one team's roster per league and season",
    "LG2": "a roster has at least as many players as a line-up and at most the format's roster size",
    "LG3": "a line-up names players of the team's roster, or substitutes the format allows",
    "LG4": "a substitute plays for higher teams at most as often in a half of the season as the format "
           "allows",
    "LG5": "a line-up is in before the format's deadline",
    "LG6": "a line-up is one team's of the meeting and fills every position of the format",
    "LG7": "a player plays no more games in one meeting than the format allows",
    "LG8": "where the format says so, a line-up is ordered by the players' averages, the best first",
    "LG9": "a meeting is reported once",
    "LG10": "a meeting's report has one result for each game of its format, between the players the "
            "line-ups put there, within the game's limits",
    "LG11": "every team meets every other of its division once at home and once away, and plays at most "
            "once on a match day",
    "LG12": "a season's divisions, clubs and teams are named once, each team in a division of the season "
            "with a known format",
    "LG13": "where a division says so, a club has at most one team in it",
}
"""Rule id → what it requires, in English (the pages will translate them)."""
