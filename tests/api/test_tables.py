"""Tables registered like disciplines: a table added in one row of ``TABLES`` is played
through every command, with no list of tables to edit anywhere else."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from carom.cli.main import app
from carom.core.balls import Ball
from carom.core.table import TABLES, TableSpec
from carom.notation import words
from carom.rules.disciplines import DISCIPLINES
from carom.track.samples import TrackedStroke
from tests.track.synthetic import sample, simulate, to_jsonl
from tests.web.server import ORGANISER, PASSWORD

CLUB = TableSpec("club", 1.270, 2.540, 0.163)
"""A 2.54 m table, between the small and the large one: no such row exists in carom."""
runner = CliRunner()


SHOWN = "2.54 m"
"""The table's name in the words of each language, where the words module takes one."""


@pytest.fixture
def club(monkeypatch: pytest.MonkeyPatch) -> TableSpec:
    """The table registered in one row, with its name in the words of each language (a
    words module without a table of words shows the table's own name)."""
    monkeypatch.setitem(TABLES, CLUB.name, CLUB)
    for language in getattr(words, "WORDS", {}):
        monkeypatch.setitem(words.WORDS[language], CLUB.name, SHOWN)
    return CLUB


def shown() -> str:
    return SHOWN if hasattr(words, "WORDS") else CLUB.name


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def match_file(tmp_path: Path) -> Path:
    head = {"format": "carom/1", "discipline": "three-cushion", "table": "club", "players": ["A", "B"],
            "points": 2, "innings": None, "sets": None, "equalizing_inning": False}
    cushions = [{"kind": "cushion", "ball": "white", "cushion": c} for c in ("top", "left", "bottom")]
    stroke = {"type": "stroke", "ball": "white",
              "start": {"white": [0.4, 0.6], "yellow": [0.9, 0.6], "red": [0.635, 1.9]},
              "events": [{"kind": "ball", "ball": "white", "other": "red"},
                         *cushions,
                         {"kind": "ball", "ball": "white", "other": "yellow"}],
              "end": {"white": [0.3, 0.9], "yellow": [1.0, 0.8], "red": [0.7, 2.3]}}
    lines = [head, {"type": "opener", "player": 0}, stroke, {"type": "call", "result": "carom"}]
    path = tmp_path / "club.carom.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_every_discipline_not_bound_to_a_table_is_played_on_a_new_one(club: TableSpec) -> None:
    free = [d.id for d in DISCIPLINES.values() if d.fixed_table is None]
    assert free == ["straight-rail", "one-cushion", "three-cushion"]
    assert all(club.name in DISCIPLINES[d].tables for d in free)
    assert all(DISCIPLINES[d].tables == (DISCIPLINES[d].fixed_table,) for d in DISCIPLINES if d not in free)


def test_replay_and_draw_a_match_on_a_new_table(club: TableSpec, tmp_path: Path) -> None:
    path = match_file(tmp_path)
    assert f"three-cushion · {shown()}" in run("replay", str(path))
    assert json.loads(run("replay", str(path), "--json"))["winner"] == 0
    assert "wrote" in run("draw", str(path), "--line", "3", "-o", str(tmp_path / "t.svg"))


def test_play_and_simulate_on_a_new_table(club: TableSpec, tmp_path: Path) -> None:
    out = json.loads(run("play", "--direction", "80", "--table", "club", "--json"))
    assert out["stroke"]["start"]["white"] == [0.798, 0.635]  # its starting spot (O2)
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"table": "club", "balls": {"white": {"r": [0.6, 0.6]}},
                                "strike": {"ball": "white", "speed": 1.0, "direction": 90.0}}))
    stroke = json.loads(run("simulate", str(spec)))
    assert stroke["physics"]["table"] == "club"
    assert [e["cushion"] for e in stroke["events"]][:1] == ["top"] and stroke["end"]["white"][1] < 2.54


def test_solve_and_batch_on_a_new_table(club: TableSpec, tmp_path: Path) -> None:
    position = tmp_path / "position.json"
    position.write_text(json.dumps({"table": "club", "ball": "white", "start": {
        "white": [0.4, 1.9], "yellow": [0.2, 1.7], "red": [0.2, 2.1]}}))
    assert json.loads(run("solve", str(position), "--json", "--count", "1"))
    spec = tmp_path / "batch.json"
    spec.write_text(json.dumps({"table": "club", "discipline": "three-cushion", "ball": "white",
                                "strokes": 64, "seed": 1, "chunk": 32, "positions": {"kind": "random"},
                                "strikes": {"kind": "random", "speed": [1, 6], "direction": [0, 360]}}))
    run("batch", str(spec), "-o", str(tmp_path / "out"), "--formats", "csv")
    assert len((tmp_path / "out.csv").read_text().splitlines()) == 65


def test_track_on_a_new_table(club: TableSpec, tmp_path: Path) -> None:
    paths, _ = simulate({Ball.WHITE: (0.6, 0.6), Ball.YELLOW: (1.0, 2.2), Ball.RED: (0.3, 2.2)},
                        {Ball.WHITE: (0.0, 0.8)}, duration=3.0, table=club)
    tracked = TrackedStroke("club-1", Ball.WHITE, sample(paths))
    path = tmp_path / "tracked.jsonl"
    path.write_text(to_jsonl([tracked]), encoding="utf-8")
    carom_out = tmp_path / "tracked.carom.jsonl"
    rows = run("track", str(path), "--table", "club", "--json", "--carom-out", str(carom_out))
    assert json.loads(rows.splitlines()[0])["points"] == 0
    assert json.loads(carom_out.read_text().splitlines()[0])["table"] == "club"
    run("replay", str(carom_out))


@pytest.fixture
def organiser(tmp_path: Path) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from carom.storage import open_store
    from carom.storage.accounts import Accounts
    from carom.storage.book import MatchBook
    from carom.storage.roles import Role
    from carom.web.app import create_app
    from carom.web.shared.auth import hash_password

    store = open_store(tmp_path / "data")
    Accounts(store).create(ORGANISER, Role.ORGANISER, hash_password(PASSWORD), by=None)
    with TestClient(create_app(MatchBook(store), setup_code="let-me-in")) as client:
        assert client.post("/login", data={"name": ORGANISER, "password": PASSWORD},
                           follow_redirects=False).status_code == 303
        client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]  # the session's token
        yield client
    store.close()


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
def test_serve_creates_and_shows_a_match_on_a_new_table(club: TableSpec, organiser: Any) -> None:
    assert 'value="club"' in organiser.get("/organiser").text
    created = organiser.post("/api/matches", json={"discipline": "three-cushion", "table": "club",
                                                   "players": ["A", "B"], "points": 3})
    assert created.status_code == 201, created.text
    match_id, token = created.json()["id"], created.json()["referee_token"]
    posted = organiser.post(f"/api/matches/{match_id}/records", headers={"X-Referee-Token": token},
                            json={"after": 0, "record": {"type": "opener", "player": 0}})
    assert posted.status_code == 201, posted.text
    assert organiser.get(f"/api/matches/{match_id}").json()["header"]["table"] == "club"
    for page in ("", "/scoresheet", "/scoresheet.txt", f"/tablet?t={token}"):
        assert organiser.get(f"/m/{match_id}{page}").status_code == 200, page
    assert shown() in organiser.get(f"/m/{match_id}/scoresheet.txt").text
