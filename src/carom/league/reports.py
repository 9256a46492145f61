"""The season's reported meetings: each meeting enters once (LG9).

:class:`Reports` is a value: :func:`report` returns a new one with the meeting added
and leaves the old as it was; a meeting reported a second time, or one that is not a
fixture of the season, is refused and nothing changes. A correction is the league
office's business: it replaces a report on purpose (:func:`correct`), never by sending
the report again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from carom.league.errors import LeagueError
from carom.league.fixtures import Fixture
from carom.league.meetings import MeetingResult


@dataclass(frozen=True, slots=True)
class Reports:
    """The meetings reported so far, in the order they came in."""

    meetings: tuple[MeetingResult, ...] = ()

    def of(self, fixture: int) -> MeetingResult | None:
        return next((m for m in self.meetings if m.fixture == fixture), None)


def report(reports: Reports, fixtures: Iterable[Fixture], result: MeetingResult) -> Reports:
    """``reports`` with ``result`` added; refused (LG9) if its meeting is in already, or
    not a fixture (LG11)."""
    fixture = next((f for f in fixtures if f.id == result.fixture), None)
    if fixture is None or (fixture.home, fixture.away) != result.teams:
        raise LeagueError("LG11", f"meeting {result.fixture} between teams {result.teams[0]} and "
                                  f"{result.teams[1]} is not a fixture of the season")
    if reports.of(result.fixture) is not None:
        raise LeagueError("LG9", f"meeting {result.fixture} is reported already")
    return Reports((*reports.meetings, result))


def correct(reports: Reports, result: MeetingResult) -> Reports:
    """``reports`` with the report of ``result``'s meeting replaced (the league office's
    correction); refused (LG9) if that meeting was never reported."""
    if reports.of(result.fixture) is None:
        raise LeagueError("LG9", f"meeting {result.fixture} has no report to correct")
    return Reports(tuple(result if m.fixture == result.fixture else m for m in reports.meetings))
