"""The league package's one error: input a league's rules forbid, with the rule that does.

Every refusal names a rule of :data:`carom.league.rules.LEAGUE_RULES` (``LG1`` …) and,
for a line of a sheet, the line: ``line 4: player 'Eva Malá' is on the roster of
'Kladno A' already (LG1)``. Nothing is changed by a refused input: every function of the
package returns new values and raises before it makes any.
"""

from __future__ import annotations

from carom.competition.errors import CompetitionError


class LeagueError(CompetitionError):
    """A season, roster, line-up, report or sheet that a league rule forbids."""

    def __init__(self, rule: str, reason: str, line: int = 0) -> None:
        super().__init__(reason)
        self.rule = rule
        self.reason = reason
        self.line = line

    def at(self, line: int) -> LeagueError:
        """The same refusal, placed at ``line`` of a sheet."""
        return LeagueError(self.rule, self.reason, line)

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.reason} ({self.rule})"
