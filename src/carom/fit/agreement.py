"""The re-simulated stroke against the recording's: first contact, cushions before the
last ball, ruling (docs/fit.md, "What agrees").

The recording's ruling is the auto-referee's (``carom.track``), the simulated stroke's
the referee's (``carom.rules``), in the same discipline: the first contact is the first
ball the cue ball touched (ball 2, rule C1), the cushion count the cue ball's cushions
before ball 3 (1C1, 3C1; none when it never reached ball 3), the ruling the points and
the faults.
"""

from __future__ import annotations

from dataclasses import dataclass

from carom.core.balls import Ball
from carom.core.records import Stroke
from carom.core.table import TableSpec
from carom.rules.disciplines import Discipline
from carom.rules.referee import Verdict, judge_stroke


@dataclass(frozen=True, slots=True)
class Reading:
    """What one stroke's ruling rests on."""

    first_contact: Ball | None
    cushions: int | None
    """The cue ball's cushions before ball 3; None when it never reached ball 3."""
    points: int
    fouls: tuple[str, ...]

    @classmethod
    def of(cls, verdict: Verdict) -> Reading:
        contacts = verdict.contacts
        before = contacts.cushions_before_ball3 if contacts.ball3 is not None else None
        return cls(contacts.ball2, before, verdict.points, tuple(verdict.fouls))

    def words(self) -> str:
        if self.fouls:
            return "foul " + ", ".join(self.fouls)
        return f"{self.points} point" if self.points else "no point"


@dataclass(frozen=True, slots=True)
class Agreement:
    """The re-simulated stroke's reading and the recording's."""

    fitted: Reading
    recorded: Reading

    @property
    def same_first_contact(self) -> bool:
        return self.fitted.first_contact == self.recorded.first_contact

    @property
    def same_cushions(self) -> bool:
        return self.fitted.cushions == self.recorded.cushions

    @property
    def same_ruling(self) -> bool:
        return (self.fitted.points, self.fitted.fouls) == (self.recorded.points, self.recorded.fouls)

    @property
    def same(self) -> bool:
        """All three the same."""
        return self.same_first_contact and self.same_cushions and self.same_ruling


def agreement(simulated: Stroke, recorded: Verdict, discipline: Discipline, table: TableSpec) -> Agreement:
    """The simulated stroke judged in ``discipline`` against the recording's verdict."""
    verdict = judge_stroke(simulated, discipline, table)
    return Agreement(Reading.of(verdict), Reading.of(recorded))
