"""Leagues on the match book: seasons stored as records, every meeting game an ordinary
match, results computed by :mod:`carom.league` (docs/leagues.md, "Storage and pages")."""

from __future__ import annotations

from carom.storage.leagues.office import ORGANISER, LeagueConflict, Leagues, captain_actor
from carom.storage.leagues.season import SignOff, StoredGame, StoredSeason, UnknownSeason

__all__ = ["ORGANISER", "LeagueConflict", "Leagues", "SignOff", "StoredGame", "StoredSeason", "UnknownSeason",
           "captain_actor"]
