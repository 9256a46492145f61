"""The words of the user interface, in English and Slovak."""

from __future__ import annotations

LANGUAGES = ("en", "sk")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "inning": "Inning", "series": "series", "total": "total", "points": "Points",
        "innings": "Innings", "average": "Average", "high_run": "High run", "sets": "Sets",
        "result": "Result", "won": "won", "lost": "lost", "draw": "draw", "playing": "playing",
        "set": "Set", "match_points": "Match points", "best_game": "Best game average",
        "general_average": "General average", "table": "table", "points_limit": "points",
        "innings_limit": "innings", "equalizing": "equalizing inning",
        "no_equalizing": "no equalizing inning", "sets_to_win": "sets to win",
        "lag_winner": "Lag won by", "opener": "Opened by", "large": "large", "small": "small",
        "half-match": "2.30 m",
    },
    "sk": {
        "inning": "Nábeh", "series": "séria", "total": "spolu", "points": "Body",
        "innings": "Nábehy", "average": "Priemer", "high_run": "Najvyššia séria",
        "sets": "Sety", "result": "Výsledok", "won": "výhra", "lost": "prehra",
        "draw": "remíza", "playing": "hrá sa", "set": "Set", "match_points": "Zápasové body",
        "best_game": "Najlepší priemer v hre", "general_average": "Generálny priemer",
        "table": "stôl", "points_limit": "bodov", "innings_limit": "nábehov",
        "equalizing": "dohrávka", "no_equalizing": "bez dohrávky", "sets_to_win": "víťazné sety",
        "lag_winner": "Rozhodovací strk vyhral", "opener": "Zahajoval", "large": "veľký",
        "small": "malý", "half-match": "2,30 m",
    },
}


def words(language: str) -> dict[str, str]:
    """The words of ``language`` (``en`` or ``sk``); English for any other."""
    return WORDS.get(language, WORDS["en"])


def limits_text(points: int | None, innings: int | None, sets_to_win: int | None,
                equalizing_inning: bool, language: str) -> str:
    """A match's limits in words, e.g. "40 points, 50 innings, equalizing inning" (E1–E5)."""
    w = words(language)
    parts = []
    if points is not None:
        parts.append(f"{points} {w['points_limit']}")
    if innings is not None:
        parts.append(f"{innings} {w['innings_limit']}")
    if sets_to_win is not None:
        parts.append(f"{sets_to_win} {w['sets_to_win']}")
    else:
        parts.append(w["equalizing"] if equalizing_inning else w["no_equalizing"])
    return ", ".join(parts)
