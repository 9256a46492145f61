"""A game of a tournament named by where it stands: stage, group or bracket, round, place.

A group game is ``1.A.2.1`` (stage 1, group A, round 2, board 1); a knock-out game is
``2.K1.3.0`` (stage 2, the bracket that decides places from 1, round 3, game 0 from the
top); the third-place game ``2.K3.1.0``, the games for places 5–8 ``2.K5.1.0`` … A key is
the same whatever happens on the day: it is derived from the draw, never numbered as
games are made, so every record can name its game and a replay finds it again.
"""

from __future__ import annotations

from typing import NamedTuple

from carom.competition.errors import CompetitionError

MAX_PART = 100_000


def group_name(number: int) -> str:
    """A, B, ..., Z, then 27, 28, ..."""
    return chr(ord("A") + number - 1) if number <= 26 else str(number)


def group_number(name: str) -> int:
    if len(name) == 1 and "A" <= name <= "Z":
        return ord(name) - ord("A") + 1
    if name.isascii() and name.isdigit() and 26 < int(name) <= MAX_PART:
        return int(name)
    raise CompetitionError(f"game: no group {name!r:.12}")


class GameKey(NamedTuple):
    """A tuple (hashed and compared as one: keys are looked up a great deal)."""

    stage: int
    group: int
    """The group's number (1 is A); 0 for a knock-out game."""
    bracket: int
    """The first place the knock-out bracket decides (1 the main one, 3 the third-place
    game, 5 the games for places 5–8, …); 0 for a group game."""
    round: int
    slot: int
    """The board of a group round (0 first); the game's place from the top in a bracket round."""

    @property
    def knockout(self) -> bool:
        return self.bracket > 0

    @property
    def text(self) -> str:
        where = f"K{self.bracket}" if self.knockout else group_name(self.group)
        return f"{self.stage}.{where}.{self.round}.{self.slot}"

    def __str__(self) -> str:
        return self.text

    @classmethod
    def parse(cls, text: object) -> GameKey:
        """``1.A.2.1`` or ``2.K1.3.0`` (:class:`CompetitionError` naming what is wrong)."""
        if not isinstance(text, str) or len(text) > 40:
            raise CompetitionError("game: expected a game's key such as 1.A.2.1 or 2.K1.3.0")
        parts = text.split(".")
        numbers = [parts[i] for i in (0, 2, 3)] if len(parts) == 4 else []
        if not numbers or not all(p.isascii() and p.isdigit() and int(p) <= MAX_PART for p in numbers):
            raise CompetitionError(f"game: {text!r:.40} is not a game's key (such as 1.A.2.1 or 2.K1.3.0)")
        stage, round_, slot = (int(p) for p in numbers)
        if stage < 1 or round_ < 1:
            raise CompetitionError(f"game: {text!r:.40}: stages and rounds count from 1")
        where = parts[1]
        if where.startswith("K") and where[1:].isascii() and where[1:].isdigit():
            if not 0 < int(where[1:]) <= MAX_PART:
                raise CompetitionError(f"game: {text!r:.40}: a bracket is named by the first place it "
                                       "decides")
            return cls(stage, 0, int(where[1:]), round_, slot)
        return cls(stage, group_number(where), 0, round_, slot)
