"""Standings, who goes on, the ranking and the champion, from the state's games.

Each group's standings count its games whose results count (:mod:`.games`): a player
whose games are annulled (withdrawn under ``annul``, or a no-show) is not in them and
goes on nowhere. A stage feeds the next once all its games are done: the next stage's
players entered straight into it (seeded players who enter late) in seed order, then
the qualifiers (:func:`~carom.competition.qualify.qualifiers`), D13. The final ranking:
the last stage's (a bracket's places, or the standings), then those out in each earlier
stage by their group place and MP, GD, BED, HS.
"""

from __future__ import annotations

from carom.competition.day.bracket import EMPTY, knockout_places
from carom.competition.day.games import DONE, derived
from carom.competition.day.state import DayState
from carom.competition.qualify import knockout_size, qualifiers
from carom.competition.standings import Line, rank_across, standings


def group_standings(state: DayState, stage: int) -> list[tuple[int, list[Line]]]:
    """Each group of a groups stage (by number) with its standings over the games that count."""
    games = derived(state).games
    out = []
    for number, members in enumerate(state.groups.get(stage, ()), start=1):
        mine = [g for g in games if g.key.stage == stage and g.key.group == number]
        results = [g.result.game(g.players) for g in mine if g.counts and g.result is not None]
        out.append((number, standings([p for p in members if _ranked(state, p)], results)))
    return out


def _ranked(state: DayState, player: int) -> bool:
    """Still in the standings: not withdrawn with his games annulled."""
    gone = state.withdrawn.get(player)
    if gone is None:
        return True
    assert state.settings is not None
    return not gone.no_show and state.settings.withdrawn_games == "count"


def stage_done(state: DayState, stage: int) -> bool:
    """Every game of a begun stage done (a bracket: down to its last place played)."""
    if stage not in state.fields:
        return False
    made = derived(state)
    if stage in made.brackets:
        _, resolved = made.brackets[stage]
        return all(r.winner is not None for r in resolved.values())
    return all(g.status == DONE for g in made.games if g.key.stage == stage)


def places_on(state: DayState, stage: int) -> int:
    """How many of groups stage ``stage`` go on to the next."""
    plan = state.stages
    spec, following = plan[stage - 1], plan[stage]
    if spec.places is not None:
        return spec.places
    if following.kind == "groups":
        return spec.groups
    groups = state.groups.get(stage, ())
    smallest = min((len(g) for g in groups), default=len(state.fields.get(stage, ())) // max(spec.groups, 1))
    return knockout_size(spec.groups, smallest)


def next_field(state: DayState, stage: int) -> tuple[int, ...]:
    """The field of ``stage`` (the one after a done stage): its direct entrants in seed
    order, then the qualifiers of the stage before it."""
    direct = [p for p in state.seeds if _entered_into(state, p, stage) and p not in state.withdrawn]
    tables = [[line for line in lines if line.player not in state.withdrawn]
              for _, lines in group_standings(state, stage - 1)]
    available = sum(len(t) for t in tables)
    places = min(places_on(state, stage - 1), available)
    going = qualifiers(tables, places) if places >= 2 else [t[0].player for t in tables if t][:places]
    return tuple(direct + going)


def _entered_into(state: DayState, player: int, stage: int) -> bool:
    entry = state.entry(player)
    return entry is not None and entry.stage == stage


def ranking(state: DayState) -> list[tuple[int, int]]:
    """The final ranking so far as (rank, player)."""
    out: list[tuple[int, int]] = []
    placed: set[int] = set()
    made = derived(state)
    for stage in range(len(state.stages), 0, -1):
        if stage not in state.fields:
            continue
        if stage in made.brackets:
            specs, resolved = made.brackets[stage]
            field = state.fields[stage]
            for place, player in sorted(knockout_places(specs, resolved),
                                        key=lambda x: (x[0], field.index(x[1]), x[1])):
                out.append((place, player))
                placed.add(player)
            continue
        tables = group_standings(state, stage)
        if len(tables) == 1 and not out:
            for line in tables[0][1]:
                out.append((line.rank, line.player))
                placed.add(line.player)
            continue
        lines = sorted((line for _, group in tables for line in group if line.player not in placed),
                       key=lambda x: (x.rank, *(-v for v in x.key()), x.player))
        rank = len(out) + 1
        for line in lines:
            out.append((rank, line.player))
            placed.add(line.player)
            rank += 1
    return out


def champion(state: DayState) -> int | None:
    """The winner, once known: the main bracket's final's, or the first of the last
    stage's standings once all its games are done."""
    if not state.stages or len(state.stages) not in state.fields:
        return None
    last = len(state.stages)
    made = derived(state)
    if last in made.brackets:
        specs, resolved = made.brackets[last]
        final = [s for s in specs if s.key.bracket == 1 and s.last]
        if not final:
            field = state.fields[last]
            return field[0] if field else None
        winner = resolved[final[0].key].winner
        return None if winner is None or winner == EMPTY else winner
    if not stage_done(state, last):
        return None
    tables = group_standings(state, last)
    if len(tables) == 1:
        return tables[0][1][0].player if tables[0][1] else None
    best = rank_across(lines[0] for _, lines in tables if lines)
    return best[0].player if best else None


def finished(state: DayState) -> bool:
    """All stages played and a champion known."""
    return bool(state.stages) and stage_done(state, len(state.stages)) and champion(state) is not None
