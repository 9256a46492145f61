"""The object ``carom replay FILE --json`` prints (FORMAT.md), and nothing more."""

from __future__ import annotations

from typing import Any

from carom.match.state import GameResult, MatchState, Ruling
from carom.match.stats import player_stats
from carom.notation.writer import position_json


def ruling_json(ruling: Ruling) -> dict[str, Any]:
    return {
        "line": ruling.line, "player": ruling.player, "points": ruling.points,
        "fouls": list(ruling.fouls), "next": ruling.next,
        "spot": None if ruling.spot is None else position_json(ruling.spot),
    }


def game_json(game: GameResult) -> dict[str, Any]:
    """One finished game or set: its score, innings, winner and how it ended (E1–E5)."""
    return {"set": game.set_no, "points": list(game.points), "innings": list(game.innings),
            "winner": game.winner, "termination": game.termination.value, "rule": game.rule}


def shootout_json(state: MatchState) -> dict[str, Any]:
    """The penalty shoot-out (P1–P3): each stroke, the score, the winner (``None`` while
    it goes on)."""
    score = list(state.penalty_score)
    return {"penalties": [{"player": p, "result": "carom" if carom else "miss"}
                          for p, carom in state.penalties],
            "score": score, "winner": state.winner if state.finished else None}


def replay_json(state: MatchState, rulings: list[Ruling] | tuple[Ruling, ...]) -> dict[str, Any]:
    """The replay object: lag winner, rulings, per-player totals, the games, the result."""
    players: list[dict[str, Any]] = [{"points": s.points, "innings": s.innings, "high_run": s.high_run,
                "average": float(s.average), "sets": s.sets} for s in player_stats(state)]
    if state.rules.handicap:  # each player's own points limit (docs/format.md)
        for p, player in enumerate(players):
            player["limit"] = state.rules.limit(p)
    if state.rules.clock is not None:  # the time-outs taken (T2)
        for p, player in enumerate(players):
            player["timeouts"] = state.timeouts_total[p]
    extra: dict[str, Any] = {}
    if state.shootout or state.penalties:
        extra["shootout"] = shootout_json(state)
    return {
        "lag_winner": state.lag_winner,
        "rulings": [ruling_json(r) for r in rulings],
        "players": players,
        "games": [game_json(g) for g in state.games],
        "finished": state.finished,
        "winner": state.winner,
        **extra,
    }
