"""The order a meeting's games go on the hall's tables: round by round (the format's rounds,
then its game numbers), each game to the next of the chosen tables in turn; and the list
of tables a request names, checked before anything is put anywhere."""

from __future__ import annotations

from typing import Any, cast

import pytest

from carom.core.errors import InputError
from carom.storage.leagues import StoredGame
from carom.storage.leagues.on_tables import check_names, placements


def _games(rounds: dict[int, int]) -> list[StoredGame]:
    """Game number → its round (no match needed to place it)."""
    return [StoredGame(number, round_, 100 + number, cast(Any, None)) for number, round_ in rounds.items()]


def test_the_bundesliga_s_two_rounds_go_on_two_tables_boards_3_and_4_first() -> None:
    games = _games({1: 2, 2: 2, 3: 1, 4: 1})  # dbu-3c-bundesliga: boards 3 and 4, then 1 and 2
    assert [(g.number, t) for g, t in placements(games, ["A", "B"])] == [
        (3, "A"), (4, "B"), (1, "A"), (2, "B")]
    assert [(g.number, t) for g, t in placements(games, ["A", "B", "C"])] == [
        (3, "A"), (4, "B"), (1, "C"), (2, "A")]
    assert [t for _, t in placements(games, ["A"])] == ["A"] * 4


@pytest.mark.parametrize("names", [[], "1", ["1", " 1 "], ["1", ""], [1], None, ["t"] * 65])
def test_a_list_of_tables_that_is_not_one_is_refused(names: object) -> None:
    with pytest.raises(InputError, match="tables: "):
        check_names(names)


def test_names_are_kept_in_their_order_spaces_folded() -> None:
    assert check_names(["Stôl  2", "1"]) == ["Stôl 2", "1"]
