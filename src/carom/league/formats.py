"""A league meeting's format as data: one frozen row per format (docs/leagues.md).

A row says how many players a line-up has, which games they play (position against
position, discipline, distance, innings), how a game's result becomes game points and a
meeting's game points become meeting points, the table's tie-breaks, the roster sizes,
who may stand in, the line-up deadline and the handicap. A federation adds its own row;
no league has code of its own. Disciplines and tables are named by carom's ids
(``three-cushion``, ``balkline-47/2``; ``large``, ``small``): the league package does not
import the rulebook, and a test checks every row against it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from carom.competition.errors import CompetitionError
from carom.core.errors import UnknownName


class Handicap(StrEnum):
    """How a game's distance is set for each player."""

    NONE = "none"
    """Both play the game's distance (a format may still give lower boards shorter games)."""
    AVERAGE = "average"
    """Each plays the distance in proportion to their average, the stronger the full one
    (:func:`carom.competition.handicap.handicap_target`)."""


class TieBreak(StrEnum):
    """What orders teams level on meeting points, in the order a format lists them."""

    GAME_POINT_DIFFERENCE = "game-point-difference"
    GAME_POINTS = "game-points"
    TEAM_AVERAGE = "team-average"
    """The team's average over the season (weighted where the format weighs disciplines)."""
    DIRECT = "direct"
    """Meeting points in the meetings among the teams still level."""


@dataclass(frozen=True, slots=True)
class Points:
    """Points for a win, a draw and a loss."""

    win: int
    draw: int
    loss: int

    def of(self, outcome: int) -> int:
        """The points of an outcome: 1 a win, 0 a draw, -1 a loss."""
        return self.win if outcome > 0 else self.draw if outcome == 0 else self.loss


@dataclass(frozen=True, slots=True)
class GameSlot:
    """One game of a meeting: the home line-up's ``home``-th player against the away
    line-up's ``away``-th, in ``round`` (the games of a round are played at once)."""

    round: int
    home: int
    away: int
    discipline: str
    points: int | None
    """The distance (points to win); ``None``: the innings alone end the game."""
    innings: int | None
    """The innings limit; ``None``: none."""


@dataclass(frozen=True, slots=True)
class Substitutes:
    """Who may stand in for a team besides its roster."""

    lower_teams: int = 0
    """Players of the same club's teams up to this many places lower (its 2nd team for a
    1st team at 1); 0: nobody. The ClubCloud's "Ersatzspieler-Regel" 0, 1, 2 (all lower
    teams) is 0, 1 and a large number here."""
    per_half: int | None = None
    """How often one substitute may play for higher teams in a half of the season
    (the SBiZ league rules: twice); ``None``: no limit."""


@dataclass(frozen=True, slots=True)
class Weight:
    """A discipline's factors in a weighted team average: points × ``points`` over
    innings × ``innings`` (the DBU Mehrkampf's MGD)."""

    discipline: str
    points: int
    innings: int


@dataclass(frozen=True, slots=True)
class MeetingFormat:
    """A league meeting's format, as its regulation gives it (``source``: where
    docs/leagues.md cites it)."""

    id: str
    title: str
    source: str
    table: str
    positions: int
    games: tuple[GameSlot, ...]
    games_per_player: int
    game_points: Points
    meeting_points: Points
    tiebreaks: tuple[TieBreak, ...]
    roster: int
    """The most players a team's roster may hold (at least ``positions``)."""
    substitutes: Substitutes = Substitutes()
    deadline: timedelta = timedelta(0)
    """A line-up is in at the latest this long before the meeting's start."""
    handicap: Handicap = Handicap.NONE
    by_average: bool = False
    """Line-ups are ordered by the players' averages in the league, the best first."""
    weights: tuple[Weight, ...] = ()

    def __post_init__(self) -> None:
        _check(self)

    def weight(self, discipline: str) -> tuple[int, int]:
        """The (points, innings) factors of ``discipline`` in the team average (1, 1 unless weighted)."""
        return next(((w.points, w.innings) for w in self.weights if w.discipline == discipline), (1, 1))

    def games_of(self, side: int, position: int) -> int:
        """How many games the player at ``position`` of side 0 (home) or 1 (away) plays."""
        return sum(1 for g in self.games if (g.home, g.away)[side] == position)


def _check(row: MeetingFormat) -> None:
    """A row that could not be played is refused when it is made, naming its field."""
    def bad(why: str) -> CompetitionError:
        return CompetitionError(f"format {row.id!r}: {why}")

    if row.positions < 1 or not row.games:
        raise bad("positions and games: at least one of each")
    if row.roster < row.positions:
        raise bad(f"roster: {row.roster} players cannot fill {row.positions} positions")
    for n, slot in enumerate(row.games, 1):
        if not (1 <= slot.home <= row.positions and 1 <= slot.away <= row.positions) or slot.round < 1:
            raise bad(f"games[{n}]: positions 1 to {row.positions} and a round from 1")
        if (slot.points is None and slot.innings is None) or any(
                v is not None and v < 1 for v in (slot.points, slot.innings)):
            raise bad(f"games[{n}]: a distance or an innings limit, each at least 1")
        if row.handicap is Handicap.AVERAGE and slot.points is None:
            raise bad(f"games[{n}]: a handicap by average needs a distance")
    for side in (0, 1):
        used = Counter((g.home, g.away)[side] for g in row.games)
        if set(used) != set(range(1, row.positions + 1)):
            raise bad("games: every position plays")
        if max(used.values()) > row.games_per_player:
            raise bad(f"games: a position plays more than games_per_player = {row.games_per_player}")
        rounds = Counter(((g.home, g.away)[side], g.round) for g in row.games)
        if max(rounds.values()) > 1:
            raise bad("games: a position plays twice in one round")


def _board_games(discipline: str, rounds: tuple[tuple[int, ...], ...],
                 distances: dict[int, tuple[int | None, int | None]]) -> tuple[GameSlot, ...]:
    """Board against board (position n of each side), ``rounds`` listing the boards of
    each round, ``distances`` each board's (points, innings)."""
    return tuple(GameSlot(r, board, board, discipline, *distances[board])
                 for r, boards in enumerate(rounds, 1) for board in boards)


_TWO_ONE_NOTHING = Points(2, 1, 0)
_BY_GAMES_THEN_AVERAGE = (TieBreak.GAME_POINT_DIFFERENCE, TieBreak.TEAM_AVERAGE, TieBreak.DIRECT)

FORMATS: dict[str, MeetingFormat] = {f.id: f for f in (
    MeetingFormat(
        id="dbu-3c-bundesliga", title="DBU 1. Bundesliga Dreiband", source="leagues.md#dbu-3c-bundesliga",
        table="large", positions=4,
        games=_board_games("three-cushion", ((3, 4), (1, 2)), dict.fromkeys(range(1, 5), (50, None))),
        games_per_player=1, game_points=_TWO_ONE_NOTHING, meeting_points=_TWO_ONE_NOTHING,
        tiebreaks=_BY_GAMES_THEN_AVERAGE, roster=12),
    MeetingFormat(
        id="dbu-3c-bundesliga-2", title="DBU 2. Bundesliga Dreiband", source="leagues.md#dbu-3c-bundesliga",
        table="large", positions=4,
        games=_board_games("three-cushion", ((3, 4), (1, 2)), dict.fromkeys(range(1, 5), (40, 50))),
        games_per_player=1, game_points=_TWO_ONE_NOTHING, meeting_points=_TWO_ONE_NOTHING,
        tiebreaks=_BY_GAMES_THEN_AVERAGE, roster=12),
    MeetingFormat(
        id="dbu-mehrkampf-oberliga", title="DBU Oberliga Mehrkampf (Vierkampf)",
        source="leagues.md#dbu-mehrkampf", table="large", positions=4,
        games=(GameSlot(1, 1, 1, "straight-rail", 200, 20), GameSlot(1, 2, 2, "one-cushion", 80, 25),
               GameSlot(1, 3, 3, "balkline-47/2", 150, None), GameSlot(1, 4, 4, "balkline-71/2", 125, None)),
        games_per_player=1, game_points=_TWO_ONE_NOTHING, meeting_points=_TWO_ONE_NOTHING,
        tiebreaks=_BY_GAMES_THEN_AVERAGE, roster=12,
        weights=(Weight("straight-rail", 8, 8), Weight("one-cushion", 24, 3),
                 Weight("balkline-47/2", 8, 4), Weight("balkline-71/2", 9, 3))),
    MeetingFormat(
        id="cmbs-3c-extraliga", title="ČMBS Extraliga v trojbandu (závodní stůl)",
        source="leagues.md#cmbs-3c-extraliga", table="large", positions=4,
        games=_board_games("three-cushion", ((3, 4), (1, 2)),
                           {1: (40, 40), 2: (40, 40), 3: (30, 40), 4: (30, 40)}),
        games_per_player=1, game_points=_TWO_ONE_NOTHING, meeting_points=_TWO_ONE_NOTHING,
        tiebreaks=_BY_GAMES_THEN_AVERAGE, roster=12, by_average=True),
    MeetingFormat(
        id="club-handicap-mixed", title="Club league, three disciplines with handicap (carom's example)",
        source="leagues.md#club-handicap-mixed", table="small", positions=3,
        games=(GameSlot(1, 1, 1, "straight-rail", 120, 25), GameSlot(1, 2, 2, "balkline-52/2", 80, 25),
               GameSlot(1, 3, 3, "three-cushion", 20, 50)),
        games_per_player=1, game_points=_TWO_ONE_NOTHING, meeting_points=_TWO_ONE_NOTHING,
        tiebreaks=(TieBreak.GAME_POINT_DIFFERENCE, TieBreak.DIRECT), roster=8,
        substitutes=Substitutes(lower_teams=1, per_half=2), deadline=timedelta(hours=1),
        handicap=Handicap.AVERAGE),
    MeetingFormat(
        id="club-3c-two-boards", title="Club league, three-cushion on two boards (carom's example)",
        source="leagues.md#club-3c-two-boards", table="small", positions=2,
        games=_board_games("three-cushion", ((1, 2),), dict.fromkeys((1, 2), (10, 20))),
        games_per_player=1, game_points=_TWO_ONE_NOTHING, meeting_points=_TWO_ONE_NOTHING,
        tiebreaks=(TieBreak.GAME_POINT_DIFFERENCE, TieBreak.DIRECT), roster=4,
        substitutes=Substitutes(lower_teams=1, per_half=2)),
)}
"""Every registered format by id; docs/leagues.md cites the source of each value."""


def meeting_format(name: str) -> MeetingFormat:
    """The format called ``name``; :class:`UnknownName` (a ``KeyError``) names the known ones."""
    try:
        return FORMATS[name]
    except KeyError:
        raise UnknownName("league format", name, FORMATS) from None
