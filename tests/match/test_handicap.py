"""A handicap: each player's own points limit (docs/format.md, "Handicap"). Every file
valid before stays valid; the engine ends a game when a player reaches his own limit,
with the equalizing inning as usual (E1, E3), in sets too (E4)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from carom.core.errors import RecordError
from carom.match.state import Termination
from carom.notation.matchfile import lines_of, read_match
from carom.notation.rulings_json import replay_json
from carom.notation.writer import format_header
from tests.helpers import header, parse_header, play, text

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "three-cushion-handicap.carom.jsonl"


def test_a_list_of_two_limits_is_read_and_written_back() -> None:
    h = parse_header(header(points=[30, 20]))
    assert h.points == (30, 20)
    assert json.loads(format_header(h))["points"] == [30, 20]
    assert parse_header(header(points=25)).points == 25  # one limit, as before
    assert parse_header(header(points=None, innings=10)).points is None


@pytest.mark.parametrize(("points", "reason"), [
    ([30], "a handicap is one limit per player (two)"),
    ([30, 20, 10], "a handicap is one limit per player (two)"),
    ([30, 0], "header: points[1]: expected a whole number >= 1"),
    (["30", 20], "header: points[0]: expected a whole number >= 1"),
    ([30, True], "header: points[1]"),
    ([30, None], "header: points[1]"),
    ({"0": 30}, "header: points: expected a whole number >= 1 or null"),
])
def test_a_bad_handicap_is_refused_on_line_1(points: object, reason: str) -> None:
    with pytest.raises(RecordError, match=r"^line 1: ") as caught:
        read_match(lines_of(text(header(points=points))))
    assert reason in str(caught.value)


@pytest.mark.rule("E1", "E3")
def test_the_opener_reaches_his_own_limit_and_the_second_equalizes() -> None:
    r = play(header(points=[3, 5]), "opener 0", "inning 3")
    assert not r.state.finished and r.state.last_inning  # E3: the equalizing inning
    r = play(header(points=[3, 5]), "opener 0", "inning 3", "inning 4")
    game = r.state.games[0]
    assert r.state.winner == 0 and game.termination is Termination.EQUALIZING_INNING
    r = play(header(points=[3, 5]), "opener 0", "inning 3", "inning 5")
    assert r.state.finished and r.state.winner is None  # both reached their own: a draw
    assert r.state.games[0].termination is Termination.DRAW


@pytest.mark.rule("E1")
def test_nobody_scores_past_his_own_limit() -> None:
    with pytest.raises(RecordError, match="only 3 points left to the limit"):
        play(header(points=[3, 5]), "opener 0", "inning 4")
    r = play(header(points=[3, 5], equalizing=False), "opener 1", "inning 4", "inning 3")
    assert r.state.winner == 0 and r.state.games[0].termination is Termination.POINTS_LIMIT
    r = play(header(points=[3, 5]), "opener 1", "carom", "carom", "carom", "carom", "carom")
    assert r.state.score == (0, 5)  # his own limit of 5, not the first's 3
    assert r.state.last_inning and r.state.striker == 0  # E3: the other's equalizing inning


@pytest.mark.rule("E1", "E3")
def test_at_the_innings_limit_the_larger_share_of_the_own_limit_wins() -> None:
    """A decision (docs/format.md): 3 of 5 (60 %) beats 4 of 10 (40 %)."""
    r = play(header(points=[10, 5], innings=1), "opener 0", "inning 4", "inning 3")
    assert r.state.winner == 1
    r = play(header(points=[10, 5], innings=1), "opener 0", "inning 4", "inning 1")
    assert r.state.winner == 0 and r.state.games[0].termination is Termination.EQUALIZING_INNING
    r = play(header(points=[10, 5], innings=1), "opener 0", "inning 6", "inning 3")
    assert r.state.winner is None  # 60 % each: level


@pytest.mark.rule("E4", "E6")
def test_sets_end_at_each_players_own_limit() -> None:
    r = play(header(points=[2, 4], sets=2), "opener 0", "inning 2")
    assert r.state.set_no == 2 and r.state.sets_won == (1, 0)  # E4: no equalizing inning
    r = play(header(points=[2, 4], sets=2), "opener 0", "inning 2", "inning 4", "inning 1", "inning 4")
    assert r.state.finished and r.state.winner == 1 and r.state.sets_won == (1, 2)


def test_the_scoresheet_and_replay_json_show_each_players_limit() -> None:
    r = play(header(points=[3, 5]), "opener 0", "inning 3", "inning 4")
    assert "handicap 3 : 5 points" in r.scoresheet()
    assert "Handicap 3 : 5 Punkte" in r.scoresheet("de")
    players = replay_json(r.state, r.rulings)["players"]
    assert [p["limit"] for p in players] == [3, 5]
    plain = play(header(points=3), "opener 0", "inning 3", "inning 1")
    assert "limit" not in replay_json(plain.state, plain.rulings)["players"][0]  # as before


def test_carom_replay_json_of_the_handicap_example() -> None:
    out = subprocess.run([sys.executable, "-m", "carom.cli.main", "replay", str(EXAMPLE), "--json"],
                         capture_output=True, text=True, check=True).stdout
    replay = json.loads(out)
    assert [p["limit"] for p in replay["players"]] == [12, 20]
    assert replay["finished"] and replay["players"][replay["winner"]]["points"] == \
        [12, 20][replay["winner"]]
