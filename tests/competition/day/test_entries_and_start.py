"""Before the start and the start itself: entries (D1), the seeding by hand and from a
ranking list (D3), the start's checks (D4), the settings' bounds."""

from __future__ import annotations

import pytest

from carom.competition.day import DayState, Refused, Settings, Stage, apply, group_standings
from carom.competition.day import records as r
from carom.competition.day.seeding import ranking_seeds, seed_order, targets
from tests.competition.day.helpers import at, made

RR = Settings("Club night", "three-cushion", "large", 10, None, tables=2)


def test_the_log_begins_with_the_tournament() -> None:
    with pytest.raises(Refused, match="type: a tournament's log begins with its creation"):
        apply(DayState(), r.Entered(actor="anna", at=at(), player=1))
    state = made(RR, [], start=False)
    with pytest.raises(Refused, match="type: the tournament is made once"):
        apply(state, r.Created(actor="anna", at=at(), settings=RR))
    with pytest.raises(Refused, match="actor: expected the account"):
        apply(state, r.Entered(actor=" ", at=at(), player=1))


def test_a_player_is_entered_once_and_a_field_has_at_most_256() -> None:
    state = made(RR, [1, 2], start=False)
    with pytest.raises(Refused, match=r"player: player 2 is entered already \(D1\)"):
        apply(state, r.Entered(actor="anna", at=at(), player=2))
    with pytest.raises(Refused, match="player: expected a player's id"):
        apply(state, r.Entered(actor="anna", at=at(), player=0))
    with pytest.raises(Refused, match="stage: expected a stage from 1 to 1"):
        apply(state, r.Entered(actor="anna", at=at(), player=3, stage=2))
    full = made(RR, range(1, 257), start=False)
    with pytest.raises(Refused, match=r"players: at most 256 \(D1\)"):
        apply(full, r.Entered(actor="anna", at=at(), player=999))


@pytest.mark.parametrize(("change", "message"), [
    ({"knockout_size": 2**63}, "knockout_size: expected a whole number from 1 to 100000 or null"),
    ({"knockout_size": 512, "mode": "groups_knockout", "groups": 2},
     "knockout_size: expected a power of two from 2 to 256"),
    ({"tables": 65}, "tables: expected 1 to 64"),
    ({"groups": 0}, "groups: expected 1 to 32"),
    ({"points": None, "innings": None}, r"points, innings: a game needs a limit \(E1\)"),
    ({"withdrawn_games": "keep"}, "withdrawn_games: expected one of annul, count"),
    ({"mode": "stages", "stages": (Stage("knockout"), Stage("groups"))},
     r"stages\[1\].kind: a knock-out is the last"),
    ({"mode": "stages", "stages": (Stage("groups", 2, 4), Stage("knockout", 1, 2))},
     "places: the last stage sends nobody on"),
])
def test_settings_out_of_bounds_are_refused_naming_the_field(change: dict[str, object], message: str) -> None:
    settings = Settings(**{**{f: getattr(RR, f) for f in RR.__dataclass_fields__}, **change})  # type: ignore[arg-type]
    with pytest.raises(Refused, match=message):
        apply(DayState(), r.Created(actor="anna", at=at(), settings=settings))


def test_the_seeding_is_edited_before_the_start_only() -> None:
    state = made(Settings("Hand", "three-cushion", "large", 10, None), [1, 2, 3, 4], start=False)
    state = apply(state, r.SeedingSet(actor="anna", at=at(), seeds=((3, 1), (1, 2))))
    assert state.hand_seeding
    # by hand: the seeded first by seed, the others after them by average (2 has the better one)
    assert seed_order(state, {2: 1, 4: 0.5}) == (3, 1, 2, 4)  # type: ignore[dict-item]
    with pytest.raises(Refused, match=r"seeds: player 9 is not entered \(D3\)"):
        apply(state, r.SeedingSet(actor="anna", at=at(), seeds=((9, 1),)))
    started = apply(state, r.Started(actor="anna", at=at(), seeds=(3, 1, 2, 4)))
    with pytest.raises(Refused, match=r"seeds: the tournament has started: the seeding is fixed \(D3\)"):
        apply(started, r.SeedingSet(actor="anna", at=at(), seeds=((1, 1),)))


def test_seeds_from_a_ranking_list() -> None:
    state = made(RR, [1, 2, 3, 4], start=False)
    # the list ranks 7 (not entered), 4, 2: they are seeds 1 and 2; 1 and 3 lose any seed
    seeds = ranking_seeds(state, [7, 4, 2, 4])
    assert seeds == ((1, 0), (2, 2), (3, 0), (4, 1))
    state = apply(state, r.SeedingSet(actor="anna", at=at(), seeds=seeds, source="ranking SBA 2026"))
    assert seed_order(state, {}) == (4, 2, 1, 3)


def test_handicap_targets_follow_the_averages_unless_given() -> None:
    settings = Settings("Handicap", "three-cushion", "large", 30, None, handicap=True)
    state = made(settings, [1, 2, 3], start=False)
    state = apply(state, r.Entered(actor="anna", at=at(), player=4, target=12))
    assert dict(targets(state, {1: 1, 2: 0.5})) == {1: 30, 2: 15, 3: 30, 4: 12}  # type: ignore[dict-item]


def test_the_start_takes_every_entrant_once_and_a_playable_field() -> None:
    state = made(Settings("G", "three-cushion", "large", 10, None, groups=2), [1, 2, 3], start=False)
    with pytest.raises(Refused, match=r"seeds: expected every entrant once, in seed order \(D4\)"):
        apply(state, r.Started(actor="anna", at=at(), seeds=(1, 2)))
    with pytest.raises(Refused, match=r"groups: 2 groups need at least 4 players, there are 3 \(D4\)"):
        apply(state, r.Started(actor="anna", at=at(), seeds=(1, 2, 3)))
    ko = made(Settings("GK", "three-cushion", "large", 10, None, mode="groups_knockout", groups=2,
                       knockout_size=8), [1, 2, 3, 4, 5, 6], start=False)
    with pytest.raises(Refused, match=r"knockout_size: 8 places, but only 6 players \(D4\)"):
        apply(ko, r.Started(actor="anna", at=at(), seeds=(1, 2, 3, 4, 5, 6)))
    started = apply(state, r.Entered(actor="anna", at=at(), player=4))
    started = apply(started, r.Started(actor="anna", at=at(), seeds=(4, 3, 2, 1)))
    # snake-wise: seeds 1 and 4 in group A, 2 and 3 in B
    assert started.groups[1] == ((4, 1), (3, 2))
    assert [n for n, _ in group_standings(started, 1)] == [1, 2]
    with pytest.raises(Refused, match=r"state: the tournament has already started \(D4\)"):
        apply(started, r.Started(actor="anna", at=at(), seeds=(4, 3, 2, 1)))


def test_withdrawing_before_the_start_takes_the_entry_back() -> None:
    state = made(RR, [1, 2, 3], start=False)
    state = apply(state, r.Withdrew(actor="anna", at=at(), player=2))
    assert state.players() == [1, 3] and not state.withdrawn
