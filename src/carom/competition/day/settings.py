"""A tournament's settings: what every game is played under and how the field is played
through (its stages). Checked here for what the competition itself needs (numbers within
bounds, a mode that exists, stages that chain); the game's own header (discipline,
table, shot clock) is checked by whoever makes the games' matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from carom.competition.day.refusal import Refused

MODES = ("round_robin", "knockout", "groups_knockout", "stages")
SEEDINGS = ("average", "hand")
TIEBREAKS = ("penalties",)
WITHDRAWN_GAMES = ("annul", "count")
STAGE_KINDS = ("groups", "knockout")
CLOCK_FIELDS = ("stroke", "warning", "timeouts", "timeout")
MAX_PLAYERS = 256
MAX_TABLES = 64
MAX_GROUPS = 32
MAX_STAGES = 8
MAX_LIMIT = 100_000
NAME_LENGTH = 200


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of the event: round-robin groups, or a knock-out bracket (the last stage)."""

    kind: str = "groups"
    groups: int = 1
    places: int | None = None
    """How many of this stage go on to the next (``None``: a groups stage followed by a
    knock-out sends the default, :func:`~carom.competition.qualify.knockout_size`; followed
    by groups, the group winners)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What the organiser chooses: every game's header, the mode, the tables."""

    name: str
    discipline: str
    table: str
    points: int | None
    innings: int | None
    sets_to_win: int | None = None
    equalizing_inning: bool = True
    mode: str = "round_robin"
    groups: int = 1
    tables: int = 1
    handicap: bool = False
    knockout_size: int | None = None
    seeding: str = "average"
    clock: Mapping[str, int] | None = None
    """The shot clock of every game (the ``carom/1`` header's ``clock``), ``None``: none."""
    tiebreak: str = "penalties"
    """How a drawn knock-out game is decided: the format's penalty shoot-out (P1–P3)."""
    third_place: bool = False
    """The losers of the semi-finals play for the third place."""
    placements: bool = False
    """Every place of a knock-out is played out: the losers of each round play on for the
    places below (5–8 after the quarter-finals, …); implies the third-place game."""
    withdrawn_games: str = "annul"
    """A player who withdraws: ``annul`` his games (played ones too) or ``count`` the ones
    he finished; his remaining games are walkovers either way (docs/tournaments.md)."""
    stages: tuple[Stage, ...] = ()
    """The stages of mode ``stages`` (the other modes make theirs, :meth:`plan`)."""

    def plan(self) -> tuple[Stage, ...]:
        """The stages the field plays through."""
        if self.mode == "round_robin":
            return (Stage("groups", self.groups),)
        if self.mode == "knockout":
            return (Stage("knockout"),)
        if self.mode == "groups_knockout":
            return (Stage("groups", self.groups, self.knockout_size), Stage("knockout"))
        return self.stages

    def check(self) -> None:
        """:class:`Refused` naming the first field that is not right."""
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > NAME_LENGTH:
            raise Refused("name", f"expected 1 to {NAME_LENGTH} characters")
        for field, value in (("points", self.points), ("innings", self.innings), ("sets", self.sets_to_win),
                             ("knockout_size", self.knockout_size)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 1 <= value <= MAX_LIMIT):
                raise Refused(field, f"expected a whole number from 1 to {MAX_LIMIT} or null")
        if self.points is None and self.innings is None:
            raise Refused("points, innings", "a game needs a limit", "E1")
        if self.handicap and self.points is None:
            raise Refused("handicap", "a handicap needs a points limit (the distance)")
        if self.mode not in MODES:
            raise Refused("mode", f"expected one of {', '.join(MODES)}")
        if self.seeding not in SEEDINGS:
            raise Refused("seeding", f"expected one of {', '.join(SEEDINGS)}")
        if self.tiebreak not in TIEBREAKS:
            raise Refused("tiebreak", f"expected one of {', '.join(TIEBREAKS)}")
        if self.withdrawn_games not in WITHDRAWN_GAMES:
            raise Refused("withdrawn_games", f"expected one of {', '.join(WITHDRAWN_GAMES)}")
        if not _within(self.groups, MAX_GROUPS):
            raise Refused("groups", f"expected 1 to {MAX_GROUPS}")
        if not _within(self.tables, MAX_TABLES):
            raise Refused("tables", f"expected 1 to {MAX_TABLES}")
        if self.mode == "knockout" and self.groups != 1:
            raise Refused("groups", "a knock-out has no groups (1)")
        if self.mode != "stages" and self.stages:
            raise Refused("stages", "only mode stages lists its stages")
        if self.knockout_size is not None and self.knockout_size & (self.knockout_size - 1):
            raise Refused("knockout_size", "expected a power of two, at least 2")
        if self.knockout_size is not None and not 2 <= self.knockout_size <= MAX_PLAYERS:
            raise Refused("knockout_size", f"expected a power of two from 2 to {MAX_PLAYERS}")
        self._check_stages()
        if self.clock is not None and (not isinstance(self.clock, Mapping) or any(
                k not in CLOCK_FIELDS or isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 3600
                for k, v in self.clock.items())):
            raise Refused("clock", "expected whole seconds (0 to 3600) of stroke, warning, timeouts, timeout")

    def _check_stages(self) -> None:
        plan = self.plan()
        if not 1 <= len(plan) <= MAX_STAGES:
            raise Refused("stages", f"expected 1 to {MAX_STAGES} stages")
        for number, stage in enumerate(plan, start=1):
            where = f"stages[{number}]"
            if stage.kind not in STAGE_KINDS:
                raise Refused(f"{where}.kind", f"expected one of {', '.join(STAGE_KINDS)}")
            _whole(f"{where}.groups", stage.groups, MAX_GROUPS)
            last = number == len(plan)
            if stage.kind == "knockout" and not last:
                raise Refused(f"{where}.kind", "a knock-out is the last stage")
            if stage.kind == "knockout" and stage.groups != 1:
                raise Refused(f"{where}.groups", "a knock-out has no groups (1)")
            if stage.places is not None:
                _whole(f"{where}.places", stage.places, MAX_PLAYERS, least=1)
                if last:
                    raise Refused(f"{where}.places", "the last stage sends nobody on")
                if plan[number].kind == "knockout" and stage.places < 2 and self.mode == "stages":
                    raise Refused(f"{where}.places", "a knock-out needs at least two")


def _within(value: object, most: int, least: int = 1) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and least <= value <= most


def _whole(field: str, value: object, most: int, least: int = 1) -> None:
    if not _within(value, most, least):
        raise Refused(field, f"expected {least} to {most}")
