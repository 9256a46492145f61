"""The live mode's table sink against a real ``carom serve``: a camera paired as a table's
device writes each stroke to the match the table plays now, moves on with the table, and
keeps out (with the reason) a stroke no match on the table can take."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from carom.video.errors import VideoError
from carom.video.live import Sent
from carom.video.live_table import ScoreboardTable, pair
from tests.web.server import Server
from tests.web.tables.helpers import CAROM, MISS, OPENER, add_table, new_match, pairing_code, put, write

POSITIONS = {"white": [0.528, 0.71], "yellow": [0.71, 0.71], "red": [0.71, 2.13]}
MISSED = {"type": "stroke", "ball": "white", "start": POSITIONS, "end": POSITIONS, "events": [],
          "exits": [], "fouls": []}
"""A stroke the scoreboard takes: the cue ball touches nothing (no point)."""


@pytest.fixture(scope="module")
def scoreboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("live-table") / "data").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def organiser(scoreboard: Server) -> Iterator[httpx.Client]:
    client = scoreboard.organiser()
    yield client
    client.close()


def _paired(scoreboard: Server, organiser: httpx.Client, table: str) -> str:
    add_table(organiser, table, order=len(organiser.get("/api/tables").json()) + 1)
    _, token = pair(scoreboard.url, table, pairing_code(organiser, table))
    return token


def _opened(scoreboard: Server, organiser: httpx.Client, table: str,
            players: tuple[str, str]) -> tuple[str, int]:
    """A table paired, a match of ``players`` put on it and opened by its device: the
    device token and the match."""
    token = _paired(scoreboard, organiser, table)
    match = new_match(organiser, *players)
    put(organiser, table, match)
    assert write(organiser, match, 0, OPENER, **{"X-Device-Token": token}).status_code == 201
    return token, match


class Judged:
    """A judge that gives ``record`` and remembers the disciplines it was asked for."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.asked: list[str] = []

    def __call__(self, discipline: str) -> dict[str, Any]:
        self.asked.append(discipline)
        return self.record


def _finish(organiser: httpx.Client, match: int, token: str) -> None:
    """The calls that play ``match`` (to two points) out from where it is, then both
    players confirm on the table's device."""
    device = {"X-Device-Token": token}
    found = organiser.get(f"/api/matches/{match}").json()
    seq, state = found["seq"], found["state"]
    while not state["finished"]:  # caroms to the limit, then the equalizing inning missed
        response = write(organiser, match, seq, MISS if max(state["score"]) >= 2 else CAROM, **device)
        assert response.status_code == 201 and seq < 20, response.text
        seq, state = seq + 1, response.json()["state"]
    for player in (0, 1):
        confirmed = organiser.post(f"/api/matches/{match}/confirm", json={"player": player}, headers=device)
        assert confirmed.status_code == 200, confirmed.text


def test_strokes_go_to_the_match_on_the_table_and_move_on_with_it(scoreboard: Server,
                                                                  organiser: httpx.Client) -> None:
    token = _paired(scoreboard, organiser, "Stôl 1")
    first, second = new_match(organiser, "Anna", "Boris"), new_match(organiser, "Cyril", "Dana")
    put(organiser, "Stôl 1", first)
    put(organiser, "Stôl 1", second)
    sink = ScoreboardTable(scoreboard.url, "Stôl 1", token)
    assert sink.size == "large"
    judge = Judged(MISSED)

    waiting = sink.send(judge)
    assert waiting.kept_out == f"match {first} is waiting for its opening (the lag or the opener)"
    assert waiting.note == f"table Stôl 1 plays match {first} (Anna – Boris); not written: {waiting.kept_out}"
    assert judge.asked == []  # nothing judged for a match that cannot take it
    assert write(organiser, first, 0, OPENER, **{"X-Device-Token": token}).status_code == 201

    written = sink.send(judge)
    assert written.kept_out is None and written.discipline == "three-cushion", written
    assert written.note.startswith(f"match {first} record 2 written: "), written.note
    assert judge.asked == ["three-cushion"]
    again = sink.send(judge)
    assert again.kept_out is None and again.note.startswith(f"match {first} record 3 written")
    # the table's tablet shows the camera's last stroke; its referee overrules it there (undo, then the call)
    device = {"X-Device-Token": token}
    tablet = httpx.get(f"{scoreboard.url}/tables/Stôl 1/tablet/now", headers=device, timeout=10)
    assert "Last: Boris: foul – playing the opponent" in tablet.text and 'id="btn-undo"' in tablet.text
    for entry in ({"after": "3", "type": "undo"}, {"after": "4", "type": "call", "result": "carom"}):
        assert httpx.post(f"{scoreboard.url}/m/{first}/tablet", data=entry, headers=device,
                          timeout=10).status_code == 200
    assert sink.send(judge).note.startswith(f"match {first} record 6 written")  # after the undo and the call

    _finish(organiser, first, token)
    state = organiser.get("/api/tables/Stôl 1").json()["now"]
    assert state["match"] == second and not state["started"]
    waiting = sink.send(judge)
    assert waiting.note.startswith(f"table Stôl 1 plays match {second} (Cyril – Dana); not written: ")
    assert write(organiser, second, 0, OPENER, **{"X-Device-Token": token}).status_code == 201
    moved = sink.send(judge)
    assert moved.kept_out is None
    assert moved.note.startswith(f"match {second} record 2 written: "), moved.note
    assert organiser.get(f"/api/matches/{second}").json()["seq"] == 2
    assert sink.playing == second


def test_a_finished_match_waiting_for_its_confirmation_takes_no_stroke(scoreboard: Server,
                                                                       organiser: httpx.Client) -> None:
    token = _paired(scoreboard, organiser, "Over")
    match = new_match(organiser, "Emil", "Fero")
    put(organiser, "Over", match)
    device = {"X-Device-Token": token}
    for seq, record in enumerate((OPENER, CAROM, CAROM, MISS)):
        assert write(organiser, match, seq, record, **device).status_code == 201
    sent = ScoreboardTable(scoreboard.url, "Over", token).send(Judged(MISSED))
    assert sent.kept_out == f"match {match} is over (waiting for its confirmation)"
    assert organiser.get(f"/api/matches/{match}").json()["seq"] == 4


def test_a_table_that_plays_nothing_keeps_the_stroke_out_and_says_what_is_next(
        scoreboard: Server, organiser: httpx.Client) -> None:
    token = _paired(scoreboard, organiser, "Empty")
    sink = ScoreboardTable(scoreboard.url, "Empty", token)
    assert sink.send(Judged(MISSED)) == Sent("not written: table Empty plays nothing now",
                                             "table Empty plays nothing now")


def test_a_stroke_the_scoreboard_refuses_is_said_and_the_next_one_is_written(scoreboard: Server,
                                                                             organiser: httpx.Client) -> None:
    token, match = _opened(scoreboard, organiser, "Refusing", ("Gita", "Hana"))
    sink = ScoreboardTable(scoreboard.url, "Refusing", token)
    off = {**MISSED, "end": {**POSITIONS, "red": [3.0, 9.0]}}
    refused = sink.send(Judged(off))
    assert refused.kept_out is not None and refused.kept_out.startswith("refused by the scoreboard (422): ")
    assert "red" in refused.kept_out, refused.kept_out
    assert sink.send(Judged(MISSED)).kept_out is None
    assert organiser.get(f"/api/matches/{match}").json()["seq"] == 2


def test_a_stroke_that_cannot_be_judged_by_the_matchs_discipline_is_kept_out(scoreboard: Server,
                                                                           organiser: httpx.Client) -> None:
    from carom.core.errors import InvalidValue

    token, _ = _opened(scoreboard, organiser, "Unjudged", ("Ivan", "Jana"))

    def judge(discipline: str) -> dict[str, Any]:
        raise InvalidValue(f"discipline: {discipline} is not played here")

    sent = ScoreboardTable(scoreboard.url, "Unjudged", token).send(judge)
    assert sent.kept_out == ("it cannot be judged by three-cushion on a large table "
                             "(discipline: three-cushion is not played here)")


def test_an_unknown_table_a_wrong_code_and_a_revoked_token_are_named(scoreboard: Server,
                                                                     organiser: httpx.Client,
                                                                     tmp_path: Path) -> None:
    with pytest.raises(VideoError, match=r"table 'Nowhere': the scoreboard at .* has no such table \(404: "):
        pair(scoreboard.url, "Nowhere", "code")
    token, _ = _opened(scoreboard, organiser, "Revoked", ("Karol", "Lea"))
    with pytest.raises(VideoError, match=r"table 'Nowhere': .* no such table \(404"):
        ScoreboardTable(scoreboard.url, "Nowhere", token)
    pairing_code(organiser, "Revoked")
    with pytest.raises(VideoError, match=r"table .Revoked.: pairing refused \(422\): code: .*not a pairing"):
        pair(scoreboard.url, "Revoked", "guessed")
    sink = ScoreboardTable(scoreboard.url, "Revoked", token)
    device = organiser.get("/api/tables/Revoked").json()["devices"][0]["id"]
    assert organiser.post(f"/api/tables/Revoked/devices/{device}/revoke").status_code == 200
    refused = sink.send(Judged(MISSED))  # revoked during the run: each stroke refused, named, the run goes on
    assert refused.kept_out is not None and refused.kept_out.startswith("refused by the scoreboard (403): ")
    assert "revoked" in refused.kept_out
    with pytest.raises(VideoError, match=r"table 'Revoked': the device token is not paired with it \(403"):
        ScoreboardTable(scoreboard.url, "Revoked", token)
    with pytest.raises(VideoError, match=r"the device token is not paired with it \(403"):
        ScoreboardTable(scoreboard.url, "Revoked", "made-up")
