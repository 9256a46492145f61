"""The games of the day, derived from the state: who plays each, whether it waits, is
played on a table or is done, its result and whether that counts, in schedule order.

A group game exists from its stage's start (its round robin, by the Berger tables); a
knock-out game once both its players are known (a bye is no game). A withdrawn
player's games without a result become walkovers for the opponent; his finished games
count or are annulled as the tournament's setting says, and all of a no-show's are
annulled (D8). The derivation is kept beside the state it came from (states never change).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from carom.competition.day.bracket import KoSpec, Resolved, ko_specs, resolve
from carom.competition.day.keys import GameKey
from carom.competition.day.result import Result
from carom.competition.day.state import Call, DayState, Taken
from carom.competition.roundrobin import round_robin_boards

WAITING, PLAYING, DONE = "waiting", "playing", "done"


@dataclass(frozen=True, slots=True)
class DayGame:
    key: GameKey
    players: tuple[int, int]
    status: str
    """waiting, playing (called to a table) or done."""
    taken: Taken | None
    """Its result (a walkover for a withdrawn player's opponent too), once it has one."""
    counts: bool
    """The result counts in the standings (it is not annulled)."""
    call: Call | None

    @property
    def result(self) -> Result | None:
        return None if self.taken is None else self.taken.result

    @property
    def winner(self) -> int | None:
        """The winner's player id (``None``: no result yet, or a draw)."""
        result = self.result
        return None if result is None or result.winner is None else self.players[result.winner]

    @property
    def table(self) -> int | None:
        return None if self.call is None else self.call.table


@dataclass(frozen=True, slots=True)
class Derived:
    games: tuple[DayGame, ...]
    """Every game of the day, in schedule order."""
    by_key: Mapping[GameKey, DayGame]
    brackets: Mapping[int, tuple[list[KoSpec], Mapping[GameKey, Resolved]]]
    """Each begun knock-out stage: its games' specs and how far they are resolved."""


_MEMO: dict[int, tuple[DayState, Derived]] = {}
_KO_MEMO: dict[tuple[int, int], tuple[DayState, Mapping[GameKey, DayGame]]] = {}


def day_games(state: DayState) -> tuple[DayGame, ...]:
    """Every game of the day, in schedule order."""
    return derived(state).games


def derived(state: DayState) -> Derived:
    """The state's games, in schedule order, and each knock-out stage's brackets."""
    memo = _MEMO.get(id(state))
    if memo is not None and memo[0] is state:
        return memo[1]
    made = _derive(state)
    if len(_MEMO) > 64:
        _MEMO.clear()
    _MEMO[id(state)] = (state, made)
    return made


def group_pairings(state: DayState, stage: int) -> list[tuple[GameKey, tuple[int, int]]]:
    """A groups stage's games by their keys: each group's round robin by the Berger tables,
    a game's place its board (so that a late entrant taking the bye's number leaves every
    other game's key as it was)."""
    return list(_pairings(stage, state.groups.get(stage, ())))


@lru_cache(maxsize=256)
def _pairings(stage: int, groups: tuple[tuple[int, ...], ...]) -> tuple[tuple[GameKey, tuple[int, int]], ...]:
    return tuple((GameKey(stage, number, 0, r, board), pair)
                 for number, members in enumerate(groups, start=1)
                 for r, boards in enumerate(round_robin_boards(members), start=1)
                 for board, pair in boards)


@lru_cache(maxsize=256)
def _pairs_by_key(stage: int, groups: tuple[tuple[int, ...], ...]) -> dict[GameKey, tuple[int, int]]:
    return dict(_pairings(stage, groups))


def game_at(state: DayState, key: GameKey) -> DayGame | None:
    """One game of the state (``None``: no such game, or its players are not known yet),
    without deriving the whole day when the day's derivation is not at hand."""
    memo = _MEMO.get(id(state))
    if memo is not None and memo[0] is state:
        return memo[1].by_key.get(key)
    if key.knockout:
        return knockout_games(state, key.stage).get(key)
    pair = _pairs_by_key(key.stage, state.groups.get(key.stage, ())).get(key)
    return None if pair is None else _game(state, key, pair)


def knockout_games(state: DayState, stage: int) -> Mapping[GameKey, DayGame]:
    """A knock-out stage's games whose players are known (kept beside the state)."""
    memo = _KO_MEMO.get((id(state), stage))
    if memo is not None and memo[0] is state:
        return memo[1]
    made: dict[GameKey, DayGame] = {}
    if stage in state.fields and state.stages[stage - 1].kind == "knockout":
        _knockout(state, stage, made)
    if len(_KO_MEMO) > 64:
        _KO_MEMO.clear()
    _KO_MEMO[(id(state), stage)] = (state, made)
    return made


def playing(state: DayState) -> list[DayGame]:
    """The games on a table now (from the calls alone, without deriving the whole day)."""
    out = []
    for key in state.calls:
        if key in state.taken:
            continue
        game = game_at(state, key)
        if game is not None and game.status == PLAYING:
            out.append(game)
    return out


def _derive(state: DayState) -> Derived:
    made: dict[GameKey, DayGame] = {}
    brackets = {}
    levels: dict[GameKey, int] = {}
    for number, stage in enumerate(state.stages, start=1):
        if number not in state.fields:
            continue
        if stage.kind == "groups":
            for key, pair in group_pairings(state, number):
                made[key] = _game(state, key, pair)
        else:
            specs, resolved = _knockout(state, number, made)
            brackets[number] = (specs, resolved)
            levels.update((s.key, s.level) for s in specs)
    order = _order(state, made, levels)
    return Derived(tuple(made[k] for k in order), made, brackets)


def _knockout(state: DayState, stage: int, made: dict[GameKey, DayGame]
              ) -> tuple[list[KoSpec], Mapping[GameKey, Resolved]]:
    settings = state.settings
    assert settings is not None
    field = state.fields[stage]
    if len(field) < 2:
        return [], {}
    specs = ko_specs(stage, len(field), settings.third_place, settings.placements)

    def decided(key: GameKey, players: tuple[int, int]) -> int | None:
        game = _game(state, key, players)
        made[key] = game
        result = game.result
        return None if result is None else result.winner

    return specs, resolve(specs, field, decided)


def _game(state: DayState, key: GameKey, players: tuple[int, int]) -> DayGame:
    taken = state.taken.get(key)
    call = state.calls.get(key)
    counts = True
    out = [state.withdrawn.get(p) for p in players]
    gone = [w for w in out if w is not None]
    if gone:
        first = min(gone, key=lambda w: w.seq)  # the withdrawal that found the game as it was
        finished_before = key in first.finished
        if not finished_before:  # a walkover for the other, who had not withdrawn then
            taken = Taken(Result.walkover_for(1 - out.index(first)), "walkover", first.at)
        assert state.settings is not None
        annul = state.settings.withdrawn_games == "annul" or any(w.no_show for w in gone)
        counts = not annul
    status = DONE if taken is not None else PLAYING if call is not None else WAITING
    return DayGame(key, players, status, taken, counts, call)


def _order(state: DayState, made: Mapping[GameKey, DayGame], levels: Mapping[GameKey, int]) -> list[GameKey]:
    """The schedule: each stage's group games in the order its start planned them, then
    its knock-out games by when they can be played (placement games before the final of
    their round), then the organiser's postponements and swaps, in the order made."""
    order = [k for k in state.group_order if k in made]
    planned = set(order)
    order.extend(sorted((k for k in made if k not in planned),
                        key=lambda k: (k.stage, levels.get(k, 0), -k.bracket, k.slot)))
    for first, second in state.moves:
        if first not in made or (second is not None and second not in made):
            continue
        i = order.index(first)
        if second is None:
            order.append(order.pop(i))
        else:
            j = order.index(second)
            order[i], order[j] = order[j], order[i]
    return order
