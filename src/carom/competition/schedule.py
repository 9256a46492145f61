"""Games over tables: no player in two games at once, rest between games where it can.

Two views of one rule. :func:`plan` lays a whole list of games into time slots of at
most ``tables`` games (what a printed schedule shows). :func:`dispatch` is what runs a
tournament day: when tables are free, it starts the first waiting games (in plan
order) whose players are both free, and prefers games whose players did not just
finish one; a game the organiser gave a table goes only to that table. Both are
deterministic.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

from carom.competition.errors import CompetitionError


@dataclass(frozen=True, slots=True)
class Pairing:
    """A game to play: its key (anything the caller uses to find it) and its two players."""

    key: Hashable
    players: tuple[int, int]


def plan(games: Sequence[Pairing], tables: int) -> list[list[Pairing]]:
    """``games`` in time slots of at most ``tables`` games, no player twice in a slot,
    in the given order as far as that allows; a player who played in the previous slot
    is given the slot off when another game can take the table."""
    if tables < 1:
        raise CompetitionError("tables: at least one")
    left = list(games)
    slots: list[list[Pairing]] = []
    previous: set[int] = set()
    while left:
        chosen = [game for _, game in _choose(left, set(), list(range(tables)), previous, {})]
        slots.append(chosen)
        taken = {id(g) for g in chosen}
        left = [g for g in left if id(g) not in taken]
        previous = {p for g in chosen for p in g.players}
    return slots


def dispatch(waiting: Sequence[Pairing], playing: Collection[int], free_tables: Sequence[int],
             resting: Collection[int] = (), wanted: Mapping[Hashable, int] | None = None
             ) -> list[tuple[int, Pairing]]:
    """The games to start now, each with its table: the first of ``waiting`` whose
    players are not ``playing``, games without a ``resting`` player (who has just
    finished) first, one game per free table, tables in the order given; a game whose
    key ``wanted`` gives a table starts only on that one."""
    return _choose(list(waiting), set(playing), list(free_tables), set(resting), wanted or {})


def _choose(games: list[Pairing], busy: set[int], tables: list[int], resting: set[int],
            wanted: Mapping[Hashable, int]) -> list[tuple[int, Pairing]]:
    chosen: list[tuple[int, Pairing]] = []
    busy = set(busy)
    free = list(tables)
    for rested_only in (True, False):
        for game in games:
            if not free:
                return chosen
            a, b = game.players
            if a in busy or b in busy or a == b or any(game is c for _, c in chosen):
                continue
            if rested_only and (a in resting or b in resting):
                continue
            table = wanted.get(game.key, free[0])
            if table not in free:
                continue
            chosen.append((table, game))
            free.remove(table)
            busy.update(game.players)
    return chosen
