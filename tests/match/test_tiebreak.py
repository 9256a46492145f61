"""A knock-out draw broken by a penalty shoot-out, as records of the log (docs/format.md,
"Tie-break"; rules P1–P3 of carom.rules.competition, sources in docs/clock.md).

P1: a match whose header says ``"tiebreak": "penalties"`` and that ends level is not over:
a penalty shoot-out decides it. P2: each penalty is one stroke from the starting position
(O2), the match opener first, then in turn. P3: rounds of one stroke each until one player
scores and the other does not (sudden death)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from carom.core.balls import Ball
from carom.core.errors import RecordError
from carom.core.position import starting_position
from carom.core.table import TABLES
from carom.match.state import Termination
from carom.notation.matchfile import lines_of, read_match
from carom.notation.rulings_json import replay_json
from tests.helpers import header, play, text


def knockout(**kwargs: Any) -> dict[str, Any]:
    head = header(points=3, innings=2, **kwargs)
    head["tiebreak"] = "penalties"
    return head


def pen(player: int, carom: bool) -> dict[str, Any]:
    return {"type": "penalty", "player": player, "result": "carom" if carom else "miss"}


LEVEL = ("opener 0", "inning 1", "inning 1", "inning 1", "inning 1")
"""Two innings each, 2 : 2 after the last one: a draw (E3)."""


@pytest.mark.rule("P1", "P2", "O2")
def test_a_level_knockout_game_goes_to_penalties_from_the_starting_position() -> None:
    r = play(knockout(), *LEVEL)
    s = r.state
    assert s.shootout and not s.finished and s.winner is None
    assert s.games[0].termination is Termination.DRAW  # the game stays a draw (GD, HS unchanged)
    last = r.rulings[-1]
    assert last.next == 0 and s.striker == 0  # the match opener shoots first (P2)
    assert last.spot == starting_position(TABLES["large"], Ball.WHITE)
    assert "P1" in last.cites and "P2" in last.cites
    plain = play(header(points=3, innings=2), *LEVEL)
    assert plain.state.finished and plain.state.winner is None  # without the flag: a draw stands


@pytest.mark.rule("P3")
def test_sudden_death_rounds_until_one_scores_and_the_other_misses() -> None:
    r = play(knockout(), *LEVEL, pen(0, True), pen(1, True), pen(0, False), pen(1, False))
    assert r.state.shootout and not r.state.finished  # two level rounds
    r = play(knockout(), *LEVEL, pen(0, True), pen(1, True), pen(0, False), pen(1, True))
    assert r.state.finished and r.state.winner == 1 and not r.state.shootout
    out = replay_json(r.state, r.rulings)
    assert out["winner"] == 1 and out["games"][0]["winner"] is None
    shots = [{"player": p, "result": result}
             for p, result in ((0, "carom"), (1, "carom"), (0, "miss"), (1, "carom"))]
    assert out["shootout"] == {"penalties": shots, "score": [1, 2], "winner": 1}
    sheet = r.scoresheet()
    assert "Penalty shoot-out" in sheet and "won" in sheet


@pytest.mark.rule("P1")
def test_a_match_won_on_penalties_stays_a_draw_for_the_statistics() -> None:
    """Found on a club day: the winner of the shoot-out goes on, but the game was drawn on the table:
    one match point each, as docs/clock.md says (P1)."""
    from carom.match.stats import player_stats

    r = play(knockout(), *LEVEL, pen(0, True), pen(1, False))
    assert r.state.finished and r.state.winner == 0
    assert [s.match_points for s in player_stats(r.state)] == [1, 1]


@pytest.mark.rule("P3")
def test_the_first_player_cannot_win_before_the_second_has_shot() -> None:
    r = play(knockout(), *LEVEL, pen(0, True))
    assert r.state.shootout and r.state.striker == 1
    r = play(knockout(), *LEVEL, pen(0, True), pen(1, False))
    assert r.state.winner == 0


@pytest.mark.parametrize(("records", "reason"), [
    ((*LEVEL, pen(1, True)), "line 7: penalty: player 1 shoots, but it is player 0's turn (P2)"),
    ((*LEVEL, pen(0, True), pen(0, True)),
     "line 8: penalty: player 0 shoots, but it is player 1's turn (P2)"),
    (("opener 0", pen(0, True)), "line 3: a penalty record before the match ended level (P1)"),
    ((*LEVEL, "carom"),
     "line 7: a call record during the penalty shoot-out: each penalty is a penalty record (P2)"),
    ((*LEVEL, "inning 0"), "line 7: a inning record during the penalty shoot-out"),
    ((*LEVEL, pen(0, True), pen(1, False), pen(0, True)),
     "line 9: a penalty record after the match was decided"),
    ((*LEVEL, {"type": "penalty", "player": 2, "result": "carom"}),
     "line 7: penalty: player: expected 0 or 1"),
    ((*LEVEL, {"type": "penalty", "player": 0, "result": "foul"}),
     "line 7: penalty: result: expected carom or miss"),
])
@pytest.mark.rule("P1", "P2")
def test_impossible_tiebreak_records_are_refused_with_line_and_reason(records: tuple[Any, ...],
                                                                      reason: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_match(lines_of(text(knockout(), *records)))
    assert str(caught.value).startswith(reason)


@pytest.mark.rule("P1")
def test_a_penalty_without_the_header_flag_and_bad_flags_are_refused() -> None:
    with pytest.raises(RecordError, match=r"^line 7: a penalty record, but the header asks for no tie-break"):
        play(header(points=3, innings=2), *LEVEL, pen(0, True))
    bad = header()
    bad["tiebreak"] = "coin"
    with pytest.raises(RecordError, match=r'^line 1: header: tiebreak: expected null or "penalties"'):
        play(bad)
    sets = header(sets=2)
    sets["tiebreak"] = "penalties"
    with pytest.raises(RecordError, match=r"^line 1: header: tiebreak: a match of sets"):
        play(sets)


@pytest.mark.rule("P1")
def test_undo_takes_back_a_penalty_and_the_decision() -> None:
    r = play(knockout(), *LEVEL, pen(0, True), pen(1, False), "undo")
    assert r.state.shootout and r.state.striker == 1 and r.state.penalties == ((0, True),)
    r = play(knockout(), *LEVEL, "undo")
    assert not r.state.shootout and r.state.last_inning


@pytest.mark.rule("P1", "P3")
def test_carom_replay_gives_the_shootout_winner(tmp_path: Any) -> None:
    path = tmp_path / "ko.carom.jsonl"
    path.write_text(text(knockout(), *LEVEL, pen(0, False), pen(1, True)), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "carom.cli.main", "replay", str(path), "--json"],
                         capture_output=True, text=True, check=True).stdout
    replay = json.loads(out)
    assert replay["finished"] and replay["winner"] == 1 and replay["shootout"]["winner"] == 1
    bad = tmp_path / "bad.carom.jsonl"
    bad.write_text(text(knockout(), *LEVEL, pen(1, True)), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "carom.cli.main", "replay", str(bad)],
                         capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert "line 7: penalty: player 1 shoots, but it is player 0's turn (P2)" in run.stderr
