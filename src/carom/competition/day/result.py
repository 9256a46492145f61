"""A game's result as the tournament keeps it: each player's points, innings and high
series, and the winner; taken from the game's match, from a paper scoresheet (totals,
or innings by innings), given as a walkover, or corrected by the organiser."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from carom.competition.day.refusal import Refused
from carom.competition.day.settings import MAX_LIMIT
from carom.competition.standings import Game

Pair = tuple[int, int]
MAX_INNINGS_LISTED = 1000


@dataclass(frozen=True, slots=True)
class Result:
    points: Pair
    innings: Pair
    high_run: Pair
    winner: int | None
    """0 or 1 (the side), ``None``: a draw."""
    walkover: bool = False
    """Given without play: only the match points count (no points, no innings)."""
    series: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    """The paper scoresheet innings by innings, when it was entered so."""

    @classmethod
    def from_series(cls, series: Sequence[Sequence[int]], winner: int | None = None) -> Result:
        """Totals of a scoresheet kept innings by innings: each player's series in order."""
        if len(series) != 2 or not all(isinstance(s, Sequence) and not isinstance(s, str) for s in series):
            raise Refused("series", "expected the two players' series, inning by inning")
        for side, runs in enumerate(series):
            if not 1 <= len(runs) <= MAX_INNINGS_LISTED:
                raise Refused(f"series[{side}]", f"expected 1 to {MAX_INNINGS_LISTED} innings")
            for i, run in enumerate(runs):
                if isinstance(run, bool) or not isinstance(run, int) or not 0 <= run <= MAX_LIMIT:
                    raise Refused(f"series[{side}][{i}]", f"expected a whole number from 0 to {MAX_LIMIT}")
        a, b = (tuple(s) for s in series)
        points = (sum(a), sum(b))
        return cls(points, (len(a), len(b)), (max(a), max(b)), _winner(points, winner), series=(a, b))

    @classmethod
    def totals(cls, points: Pair, innings: Pair, high_run: Pair, winner: int | None = None) -> Result:
        """A scoresheet's totals: points, innings and high series of each player."""
        for name, pair in (("points", points), ("innings", innings), ("high_run", high_run)):
            if len(pair) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_LIMIT
                                     for v in pair):
                raise Refused(name, f"expected two whole numbers from 0 to {MAX_LIMIT}")
        for side in (0, 1):
            if innings[side] < 1:
                raise Refused(f"innings[{side}]", "a game played has at least one inning")
            if high_run[side] > points[side]:
                raise Refused(f"high_run[{side}]", "the high series is more than the points")
            if points[side] > high_run[side] * innings[side]:
                raise Refused(f"high_run[{side}]", f"{points[side]} points in {innings[side]} innings need a "
                                                   f"series of at least {-(-points[side] // innings[side])}")
        return cls(tuple(points), tuple(innings), tuple(high_run), _winner(points, winner))  # type: ignore[arg-type]

    @classmethod
    def walkover_for(cls, side: int) -> Result:
        return cls((0, 0), (0, 0), (0, 0), side, walkover=True)

    def game(self, players: Pair) -> Game:
        """The game for the standings."""
        return Game(players, self.points, self.innings, self.high_run, self.winner)


def _winner(points: Pair, winner: int | None) -> int | None:
    """The given winner, checked against the points: the one with more points wins; level
    points are a draw unless a winner is named (a knock-out draw broken by penalties)."""
    if winner is not None and winner not in (0, 1):
        raise Refused("winner", "expected 0 or 1 (the side) or null")
    by_points = None if points[0] == points[1] else (0 if points[0] > points[1] else 1)
    if winner is None:
        return by_points
    if by_points is not None and winner != by_points:
        raise Refused("winner", f"side {winner} has fewer points")
    return winner


def check_within(result: Result, limits: Pair | None, innings_limit: int | None, knockout: bool) -> None:
    """A result entered by hand within the game's limits: nobody beyond his points target
    (E1), nobody beyond the innings limit, and a knock-out game with a winner (D10)."""
    if result.walkover:
        return
    if limits is not None:
        for side in (0, 1):
            if result.points[side] > limits[side]:
                raise Refused(f"points[{side}]", f"more than the game's limit of {limits[side]}", "E1")
    if innings_limit is not None:
        for side in (0, 1):
            if result.innings[side] > innings_limit:
                raise Refused(f"innings[{side}]", f"more than the game's limit of {innings_limit}", "E1")
    if abs(result.innings[0] - result.innings[1]) > 1:
        raise Refused("innings", "the players' innings differ by more than one", "E2")
    if knockout and result.winner is None:
        raise Refused("winner", "a knock-out game needs a winner: name the one who won the shoot-out", "P1")
