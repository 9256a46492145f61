"""A meeting's games and its result: from two line-ups to game points and meeting points.

:func:`plan_meeting` makes the games the format lists, each player from the position the
format names, each with its discipline and each player's target (the game's distance,
or with a handicap by average the player's share of it). :func:`score_meeting` takes the
games' results (each an ordinary ``carom/1`` match's totals), checks them against the
plan (LG10, LG7), and gives each game's outcome and game points and the meeting's
game points and meeting points. A game is won on points; with a handicap by average, on
the share of one's own target (both reaching it is a draw).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from carom.competition.handicap import handicap_target
from carom.league.errors import LeagueError
from carom.league.fixtures import Fixture
from carom.league.formats import Handicap, MeetingFormat
from carom.league.lineups import LineUp


@dataclass(frozen=True, slots=True)
class PlannedGame:
    """A game of a meeting: the format's ``number``-th, home player first."""

    number: int
    round: int
    discipline: str
    table: str
    players: tuple[int, int]
    targets: tuple[int | None, int | None]
    """Each player's points to win (``None``: the innings alone end the game)."""
    innings: int | None


@dataclass(frozen=True, slots=True)
class GameResult:
    """A played game's totals, home player first (a ``carom/1`` match's result)."""

    number: int
    players: tuple[int, int]
    points: tuple[int, int]
    innings: tuple[int, int]
    high_run: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ScoredGame:
    game: PlannedGame
    result: GameResult
    outcome: int
    """1: the home player won, 0: a draw, -1: the away player won."""
    game_points: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MeetingResult:
    fixture: int
    teams: tuple[int, int]
    """Home, away."""
    games: tuple[ScoredGame, ...]
    game_points: tuple[int, int]
    meeting_points: tuple[int, int]

    @property
    def outcome(self) -> int:
        """1: the home team won, 0: a draw, -1: the away team won."""
        home, away = self.game_points
        return (home > away) - (home < away)


def plan_meeting(fmt: MeetingFormat, home: LineUp, away: LineUp,
                 averages: Mapping[tuple[int, str], Fraction] | None = None) -> tuple[PlannedGame, ...]:
    """The games of a meeting of ``fmt`` between two checked line-ups. ``averages``: each
    (player, discipline)'s average, for a handicap by average (none: the full distance)."""
    games = []
    for number, slot in enumerate(fmt.games, 1):
        players = (home.players[slot.home - 1], away.players[slot.away - 1])
        targets: tuple[int | None, int | None] = (slot.points, slot.points)
        if fmt.handicap is Handicap.AVERAGE and slot.points is not None:
            known = [(averages or {}).get((p, slot.discipline)) for p in players]
            best = max((a for a in known if a is not None), default=None)
            targets = (handicap_target(known[0], best, slot.points),
                       handicap_target(known[1], best, slot.points))
        games.append(PlannedGame(number, slot.round, slot.discipline, fmt.table, players, targets,
                                 slot.innings))
    _check_games_per_player(fmt, [g.players for g in games])
    return tuple(games)


def score_meeting(fmt: MeetingFormat, fixture: Fixture, planned: Sequence[PlannedGame],
                  results: Sequence[GameResult]) -> MeetingResult:
    """The meeting's result from one result per planned game (LG10, LG7)."""
    by_number = Counter(r.number for r in results)
    for game in planned:
        if by_number[game.number] != 1:
            raise LeagueError("LG10", f"meeting {fixture.id}: game {game.number} has "
                                      f"{by_number[game.number]} results, one is needed")
    extra = sorted(set(by_number) - {g.number for g in planned})
    if extra:
        raise LeagueError("LG10", f"meeting {fixture.id}: game {extra[0]} is not a game of {fmt.id!r}")
    _check_games_per_player(fmt, [r.players for r in results])
    result_of = {r.number: r for r in results}
    scored = tuple(_score(fmt, fixture, g, result_of[g.number]) for g in planned)
    home = sum(s.game_points[0] for s in scored)
    away = sum(s.game_points[1] for s in scored)
    outcome = (home > away) - (home < away)
    points = (fmt.meeting_points.of(outcome), fmt.meeting_points.of(-outcome))
    return MeetingResult(fixture.id, (fixture.home, fixture.away), scored, (home, away), points)


def _check_games_per_player(fmt: MeetingFormat, pairs: Sequence[tuple[int, int]]) -> None:
    for player, count in Counter(p for pair in pairs for p in pair).items():
        if count > fmt.games_per_player:
            raise LeagueError("LG7", f"player {player} plays {count} games of the meeting; {fmt.id!r} "
                                     f"allows {fmt.games_per_player}")


def _score(fmt: MeetingFormat, fixture: Fixture, game: PlannedGame, result: GameResult) -> ScoredGame:
    where = f"meeting {fixture.id}, game {game.number}"
    if result.players != game.players:
        raise LeagueError("LG10", f"{where}: played by {result.players[0]} and {result.players[1]}, the "
                                  f"line-ups put {game.players[0]} and {game.players[1]} there")
    for side in (0, 1):
        points, innings, run, target = (result.points[side], result.innings[side], result.high_run[side],
                                        game.targets[side])
        if min(points, innings, run) < 0 or run > points:
            raise LeagueError("LG10", f"{where}: {points} points, {innings} innings, high run {run} "
                                      "cannot be")
        if target is not None and points > target:
            raise LeagueError("LG10", f"{where}: {points} points beyond the target of {target}")
        if game.innings is not None and innings > game.innings:
            raise LeagueError("LG10", f"{where}: {innings} innings beyond the limit of {game.innings}")
    if abs(result.innings[0] - result.innings[1]) > 1:
        raise LeagueError("LG10", f"{where}: {result.innings[0]} and {result.innings[1]} innings; the "
                                  "players' innings differ by one at most")
    home, away = (_share(result.points[s], game.targets[s], fmt) for s in (0, 1))
    outcome = (home > away) - (home < away)
    return ScoredGame(game, result, outcome, (fmt.game_points.of(outcome), fmt.game_points.of(-outcome)))


def _share(points: int, target: int | None, fmt: MeetingFormat) -> Fraction:
    """What decides a game: the points, or with a handicap the share of one's target."""
    if fmt.handicap is Handicap.AVERAGE and target:
        return Fraction(points, target)
    return Fraction(points)
