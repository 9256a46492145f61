"""The hand-worked season's games as ``carom/1`` records: an opener, then one ``inning``
record per player and inning, so that a stored game's match ends with the totals, innings
and high runs the fixture gives (both players have the same innings: the home player
opens, the away player plays the equalizing inning)."""

from __future__ import annotations

from typing import Any

from tests.league.hand_season import Game

TARGET = 10
"""``club-3c-two-boards``: three-cushion to 10 points."""


def series(points: int, innings: int, high_run: int) -> list[int]:
    """``innings`` series adding up to ``points``, the largest ``high_run``; a player who
    reaches the target does so in the last inning, not before."""
    out = [0] * innings
    top = innings - 1 if points == TARGET else 0
    out[top] = high_run
    rest = points - high_run
    others = [i for i in range(innings) if i != top]
    while rest > 0:
        for i in others:
            if rest and out[i] < high_run:
                out[i] += 1
                rest -= 1
    return out


def records(game: Game) -> list[dict[str, Any]]:
    """The records of one game of the fixture (home player = player 0, who opens)."""
    _, _, home, away, innings, home_run, away_run = game
    out: list[dict[str, Any]] = [{"type": "opener", "player": 0}]
    for a, b in zip(series(home, innings, home_run), series(away, innings, away_run), strict=True):
        out += [{"type": "inning", "points": a}, {"type": "inning", "points": b}]
    return out
