"""Knock-out brackets with the games for the places below: which game each player comes
from, and who plays, wins and loses each game once results are known.

The main bracket decides places 1 and 2 (byes to the best seeds, seeds placed so that
1 and 2 meet only in the final, :func:`~carom.competition.knockout.seed_order`). With a
third-place game, the losers of the semi-finals play for places 3 and 4; with every place
played out, the losers of each round of any bracket play a bracket of their own for the
places below (the quarter-finals' losers for 5–8, their first round's losers for 7–8).
A bracket is named by the first place it decides (its key's ``K1``, ``K3``, ``K5`` …).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from carom.competition.day.keys import GameKey
from carom.competition.knockout import seed_order

Source = tuple[str, int | GameKey]
"""("seed", n) the n-th seed of the field, ("winner", game) or ("loser", game)."""
EMPTY = -1
"""A place nobody takes (a bye, or the loser of a bye)."""


@dataclass(frozen=True, slots=True)
class KoSpec:
    key: GameKey
    sources: tuple[Source, Source]
    level: int
    """When it can be played at the earliest: the main bracket's round number it comes with."""
    last: bool
    """The last round of its bracket: its winner takes the bracket's first place."""
    places_below: bool
    """Its losers play on (a bracket of their own)."""


def ko_specs(stage: int, entrants: int, third_place: bool, placements: bool) -> list[KoSpec]:
    """Every game of the stage's brackets for a field of ``entrants`` (at least 2)."""
    size = 1
    while size < entrants:
        size *= 2
    specs: list[KoSpec] = []
    _build(stage, 1, [("seed", s) for s in seed_order(size)], 0, specs, placements,
           third_place or placements)
    return specs


def _build(stage: int, first: int, entrants: list[Source], level: int, specs: list[KoSpec],
           placements: bool, third: bool) -> None:
    current = entrants
    rounds = len(entrants).bit_length() - 1
    for r in range(1, rounds + 1):
        keys = [GameKey(stage, 0, first, r, i) for i in range(len(current) // 2)]
        below = r < rounds and (placements or (third and first == 1 and r == rounds - 1))
        specs.extend(KoSpec(k, (current[2 * i], current[2 * i + 1]), level + r, r == rounds, below)
                     for i, k in enumerate(keys))
        if below:
            losers: list[Source] = [("loser", k) for k in keys]
            _build(stage, first + len(keys), losers, level + r, specs, placements, third)
        current = [("winner", k) for k in keys]


@dataclass(frozen=True, slots=True)
class Resolved:
    """A bracket game as far as it is known: its two sides (a player, :data:`EMPTY`, or
    ``None`` not known yet), its winner and loser the same way."""

    spec: KoSpec
    sides: tuple[int | None, int | None]
    winner: int | None
    loser: int | None

    @property
    def played(self) -> bool:
        """Two players meet (not a bye): a game of the day."""
        a, b = self.sides
        return a is not None and b is not None and a != EMPTY and b != EMPTY


def resolve(specs: Sequence[KoSpec], field: Sequence[int],
            decided: Callable[[GameKey, tuple[int, int]], int | None]) -> Mapping[GameKey, Resolved]:
    """Each game's sides, winner and loser: ``decided(key, players)`` gives the winning side
    (0 or 1) of a game between two players, ``None`` while it has none."""
    out: dict[GameKey, Resolved] = {}

    def side(source: Source) -> int | None:
        kind, what = source
        if kind == "seed":
            assert isinstance(what, int)
            return field[what - 1] if what <= len(field) else EMPTY
        assert isinstance(what, GameKey)
        found = out[what]
        return found.winner if kind == "winner" else found.loser

    for spec in sorted(specs, key=lambda s: (s.level, s.key)):
        a, b = side(spec.sources[0]), side(spec.sources[1])
        winner: int | None = None
        loser: int | None = None
        if a is not None and b is not None:
            if a == EMPTY or b == EMPTY:
                winner, loser = (b if a == EMPTY else a), EMPTY
            else:
                won = decided(spec.key, (a, b))
                if won is not None:
                    winner, loser = (a, b) if won == 0 else (b, a)
        out[spec.key] = Resolved(spec, (a, b), winner, loser)
    return out


def knockout_places(specs: Sequence[KoSpec], resolved: Mapping[GameKey, Resolved]) -> list[tuple[int, int]]:
    """(place, player) for everyone the brackets have placed so far: each bracket's final
    gives its first two places; the losers of a round whose losers play no further share
    the place after the round's winners."""
    out: list[tuple[int, int]] = []
    for spec in specs:
        game = resolved[spec.key]
        first = spec.key.bracket
        if spec.last:
            if game.winner is not None and game.winner != EMPTY:
                out.append((first, game.winner))
            if game.loser is not None and game.loser != EMPTY:
                out.append((first + 1, game.loser))
        elif not spec.places_below and game.loser is not None and game.loser != EMPTY:
            in_round = sum(1 for s in specs if s.key.bracket == first and s.key.round == spec.key.round)
            out.append((first + in_round, game.loser))
    return sorted(out)
