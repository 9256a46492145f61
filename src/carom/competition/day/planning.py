"""A stage begins: its groups drawn snake-wise from its field (or its bracket made from
it) and its games laid into the schedule; and a late entry joins a stage (D2).

A late entrant joins a stage that has not begun, or a group none of whose games has
been called (the group's round robin is drawn again with him), or a group with a bye
place (an odd number of players) whose first round is on: he takes the bye's number,
the highest, and meets each round's resting player, so nothing already played changes.
In a knock-out, a late entry waits for a stage not begun.
"""

from __future__ import annotations

from dataclasses import replace

from carom.competition.day import records as r
from carom.competition.day.games import WAITING, derived, group_pairings
from carom.competition.day.keys import GameKey
from carom.competition.day.refusal import Refused
from carom.competition.day.state import DayState, Entry
from carom.competition.groups import snake_groups
from carom.competition.schedule import Pairing, plan


def begin_stage(state: DayState, stage: int, field: tuple[int, ...]) -> DayState:
    """The state with ``stage`` begun on ``field`` (in seed order): checked (D4)."""
    spec = state.stages[stage - 1]
    n = len(field)
    if n < 2:
        raise Refused("players", f"stage {stage} needs at least two players", "D4")
    fields = {**state.fields, stage: field}
    if spec.kind == "knockout":
        return replace(state, fields=fields)
    if n < 2 * spec.groups:
        raise Refused("groups", f"{spec.groups} groups need at least {2 * spec.groups} players, "
                                f"there are {n}", "D4")
    if stage < len(state.stages):
        following = state.stages[stage]
        places = spec.places if spec.places is not None else None
        if places is None and following.kind == "knockout":
            from carom.competition.qualify import knockout_size
            places = knockout_size(spec.groups, n // spec.groups)
        if places is not None and places > n:
            raise Refused("knockout_size" if state.settings and state.settings.mode != "stages"
                          else f"stages[{stage}].places", f"{places} places, but only {n} players", "D4")
    groups = {**state.groups, stage: tuple(tuple(g) for g in snake_groups(list(field), spec.groups))}
    return _planned(replace(state, fields=fields, groups=groups), stage)


def _planned(state: DayState, stage: int) -> DayState:
    """The stage's group games laid into time slots of the tables, round by round with the
    groups interleaved (:func:`~carom.competition.schedule.plan`), after the games planned before."""
    assert state.settings is not None
    games = sorted(group_pairings(state, stage), key=lambda kp: (kp[0].round, kp[0].group, kp[0].slot))
    slots = plan([Pairing(key, pair) for key, pair in games], state.settings.tables)
    keys: list[GameKey] = []
    for slot in slots:
        for pairing in slot:
            assert isinstance(pairing.key, GameKey)
            keys.append(pairing.key)
    kept = tuple(k for k in state.group_order if k.stage != stage)
    return replace(state, group_order=kept + tuple(keys))


def with_late_entry(state: DayState, record: r.Entered) -> DayState:
    """A player entered after the start (D2)."""
    stage = record.stage
    entry = Entry(record.player, stage, record.seed, record.target, late=True)
    grown = replace(state, entries=(*state.entries, entry), seeds=(*state.seeds, record.player),
                    targets={**state.targets, **({record.player: record.target} if record.target else {})})
    if stage not in state.fields:
        if record.group is not None:
            raise Refused("group", f"stage {stage} has not begun: its groups are drawn when it does", "D2")
        return grown
    spec = state.stages[stage - 1]
    if spec.kind == "knockout":
        if _begun(state, stage, None):
            raise Refused("stage", f"the knock-out of stage {stage} has begun: a late entry comes before its "
                                   "first game is called", "D2")
        return replace(grown, fields={**state.fields, stage: (*state.fields[stage], record.player)})
    number = record.group if record.group is not None else _group_for(state, stage)
    groups = state.groups[stage]
    if not 1 <= number <= len(groups):
        raise Refused("group", f"expected a group from 1 to {len(groups)}", "D2")
    if (why := _closed(state, stage, number)) is not None:
        raise Refused("group", why, "D2")
    members = tuple((*g, record.player) if i == number else g for i, g in enumerate(groups, start=1))
    joined = replace(grown, fields={**state.fields, stage: (*state.fields[stage], record.player)},
                     groups={**state.groups, stage: members})
    return _planned(joined, stage)


def _begun(state: DayState, stage: int, group: int | None) -> bool:
    """A game of the stage (of the group) has been called or has a result."""
    return any(g.status != WAITING or g.key in state.calls for g in derived(state).games
               if g.key.stage == stage and (group is None or g.key.group == group))


def _closed(state: DayState, stage: int, group: int) -> str | None:
    """Why a late entrant cannot join the group now, ``None`` when he can."""
    if not _begun(state, stage, group):
        return None
    members = state.groups[stage][group - 1]
    if len(members) % 2 == 0:
        return (f"group {group} has begun and has no bye place: a late entry comes before the player's first "
                "game would be called")
    if any(g.key.round > 1 and (g.status != WAITING or g.key in state.calls)
           for g in derived(state).games if g.key.stage == stage and g.key.group == group):
        return (f"group {group} has played past its first round: a late entry comes before the player's "
                "first game would be called")
    return None


def _group_for(state: DayState, stage: int) -> int:
    """The group a late entrant joins: the smallest that has not begun, else the first
    whose bye place is still open (D2)."""
    groups = state.groups[stage]
    fresh = [(len(g), i) for i, g in enumerate(groups, start=1) if not _begun(state, stage, i)]
    if fresh:
        return min(fresh)[1]
    open_ = [i for i in range(1, len(groups) + 1) if _closed(state, stage, i) is None]
    if open_:
        return open_[0]
    raise Refused("group", "every group has begun past its first round or has no bye place: a late entry "
                           "comes before the player's first game would be called", "D2")
