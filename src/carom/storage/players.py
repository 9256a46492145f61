"""Players as identities: what makes two typed names the same player.

A match refers to its two players by id (``matches.player0_id``, ``player1_id``), so
that statistics follow a player and not a spelling. A quick match types two names: a
name finds the one player whose folded name it is (:func:`name_key`), or makes a new
one. When a register holds two players of the same name, a typed name no longer says
which one is meant, and the match must name them by id.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime

from carom.storage.errors import StorageError

KEY_LENGTH = 200


def name_key(name: str) -> str:
    """A name folded for finding its player: Unicode-normalised (NFKC), spaces
    collapsed, case folded ("  anna  NOVÁK" and "Anna Novák" are one player)."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()[:KEY_LENGTH]


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    name: str
    created: datetime | None = None


class SamePlayer(StorageError):
    """Both players of a match are one player."""

    def __init__(self, name: str) -> None:
        super().__init__(f"players: {name} cannot play against himself")
        self.name = name


class AmbiguousName(StorageError):
    """A typed name that several players have."""

    def __init__(self, name: str, count: int) -> None:
        super().__init__(f"players: {count} players are called {name}: choose one by id")
        self.name = name
        self.count = count


class UnknownPlayer(StorageError):
    """No player has this id."""

    def __init__(self, player_id: int) -> None:
        super().__init__(f"players: no player {player_id}")
        self.player_id = player_id
