"""Standings as carom federations compute them.

The order (docs/tournaments.md says where it comes from): match points (2 a win,
1 a draw, 0 a loss); then the general average GD (all points ÷ all innings of the
player's games); then the best single-game average BED (the best points ÷ innings of
one game); then the high run HS; then the games among the tied players: the direct game
of two, the mini-table (match points of their games among themselves) of more, whose
order and rank numbers they take. Players still level after all that (a drawn direct
game, a mini-table level for some or all, as a cycle of three where each beat one) share
the rank and are listed by id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Game:
    """A finished game between two players: its totals and who won (``None``: a draw)."""

    players: tuple[int, int]
    points: tuple[int, int]
    innings: tuple[int, int]
    high_run: tuple[int, int]
    winner: int | None
    """0 or 1 (an index into ``players``), ``None`` for a draw."""

    def match_points(self, side: int) -> int:
        if self.winner is None:
            return 1
        return 2 if self.winner == side else 0


def _avg(points: int, innings: int) -> Fraction:
    return Fraction(points, innings) if innings else Fraction(0)


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line of the standings."""

    rank: int
    player: int
    played: int
    won: int
    drawn: int
    lost: int
    match_points: int
    points: int
    innings: int
    general_average: Fraction
    """GD: all points ÷ all innings."""
    best_average: Fraction
    """BED: the best average of one game."""
    high_run: int
    """HS."""

    def key(self) -> tuple[int, Fraction, Fraction, int]:
        """What ranks before the direct game: MP, GD, BED, HS (larger is better)."""
        return (self.match_points, self.general_average, self.best_average, self.high_run)


def standings(players: Iterable[int], games: Iterable[Game]) -> list[Line]:
    """The standings of ``players`` over ``games`` (games of others are ignored).
    The same players and games in any order give the same standings."""
    field = sorted(set(players))
    if not field:
        return []
    mine = [g for g in games if g.players[0] in field and g.players[1] in field]
    acc: dict[int, list[int]] = {p: [0, 0, 0, 0, 0, 0, 0, 0] for p in field}
    best: dict[int, Fraction] = {p: Fraction(0) for p in field}
    for g in mine:
        for side in (0, 1):
            p = g.players[side]
            a = acc[p]
            a[0] += 1
            mp = g.match_points(side)
            a[1 if mp == 2 else 2 if mp == 1 else 3] += 1
            a[4] += mp
            a[5] += g.points[side]
            a[6] += g.innings[side]
            a[7] = max(a[7], g.high_run[side])
            best[p] = max(best[p], _avg(g.points[side], g.innings[side]))
    lines = [Line(0, p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], _avg(a[5], a[6]), best[p], a[7])
             for p, a in ((p, acc[p]) for p in field)]
    lines.sort(key=lambda x: (tuple(-v for v in x.key()), x.player))
    out: list[Line] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and lines[j].key() == lines[i].key():
            j += 1
        out.extend(_mini_table(lines[i:j], mine, first_rank=i + 1))
        i = j
    return out


def _mini_points(tied: Sequence[Line], games: Sequence[Game]) -> dict[int, int]:
    """The match points of each tied player in the games among the tied players only."""
    ids = {line.player for line in tied}
    points = dict.fromkeys(ids, 0)
    for g in games:
        if g.players[0] in ids and g.players[1] in ids:
            for side in (0, 1):
                points[g.players[side]] += g.match_points(side)
    return points


def _mini_table(tied: list[Line], games: Sequence[Game], first_rank: int) -> list[Line]:
    """Players level on MP, GD, BED and HS, ranked by the mini-table of their games among
    themselves (the direct game when they are two): its order and its rank numbers, the
    players level in it sharing the rank (a cycle of three, each beating one, shares it)."""
    points = _mini_points(tied, games)
    ordered = sorted(tied, key=lambda x: (-points[x.player], x.player))
    out: list[Line] = []
    for pos, line in enumerate(ordered):
        level = bool(out) and points[out[-1].player] == points[line.player]
        out.append(_with_rank(line, out[-1].rank if level else first_rank + pos))
    return out


def _with_rank(line: Line, rank: int) -> Line:
    return Line(rank, line.player, line.played, line.won, line.drawn, line.lost, line.match_points,
                line.points, line.innings, line.general_average, line.best_average, line.high_run)


def rank_across(lines: Iterable[Line]) -> list[Line]:
    """Lines of different groups ranked against each other (the best runners-up): by
    MP, GD, BED, HS and then id; there is no direct game between groups."""
    return sorted(lines, key=lambda x: (tuple(-v for v in x.key()), x.player))
