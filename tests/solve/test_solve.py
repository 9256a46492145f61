"""The shot finder: solved strokes score when played again, chances are reproducible."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carom.cli.main import app
from carom.core.balls import Ball
from carom.core.position import starting_position
from carom.core.table import TABLES
from carom.physics import simulate
from carom.rules.disciplines import DISCIPLINES
from carom.rules.referee import StrokeContext, judge
from carom.solve import find_shots
from carom.solve.finder import Budget
from carom.solve.position_file import PositionError, read_position

LARGE = TABLES["large"]
START = starting_position(LARGE, Ball.WHITE)
SMALL = Budget(explore=1024, explore_rounds=3, screen_candidates=24, screen_trials=8, settle_shots=2,
               settle_steps=4, rank_trials=32)


@pytest.mark.parametrize("name", ["three-cushion", "one-cushion", "straight-rail"])
def test_a_solved_stroke_played_again_is_judged_a_point(name: str) -> None:
    d = DISCIPLINES[name]
    shots = find_shots(START, Ball.WHITE, d, LARGE, seed=1, budget=SMALL, count=2)
    assert shots, "no stroke found from the starting position"
    for shot in shots:
        stroke = simulate(START, shot.strike, LARGE)
        verdict = judge(StrokeContext(d, LARGE, Ball.WHITE, False, START, (0,) * len(d.zones(LARGE))), stroke)
        assert verdict.points == 1
        assert 0.0 < shot.chance <= 1.0
        assert shot.route[-1] in ("yellow", "red")
    assert [s.chance for s in shots] == sorted((s.chance for s in shots), reverse=True)


def test_the_search_and_its_chances_are_reproducible_with_a_seed() -> None:
    d = DISCIPLINES["three-cushion"]
    a = find_shots(START, Ball.WHITE, d, LARGE, seed=5, budget=SMALL)
    b = find_shots(START, Ball.WHITE, d, LARGE, seed=5, budget=SMALL)
    assert [(s.strike, s.chance, s.route) for s in a] == [(s.strike, s.chance, s.route) for s in b]


def test_o3_opening_stroke_solutions_hit_red_first() -> None:
    shots = find_shots(START, Ball.WHITE, DISCIPLINES["three-cushion"], LARGE, seed=2, budget=SMALL,
                       opening=True)
    assert shots and all(next(p for p in s.route if p in ("red", "yellow")) == "red" for s in shots)


def test_solve_command_prints_json_and_svg(tmp_path: Path) -> None:
    position = tmp_path / "p.json"
    position.write_text(json.dumps({"table": "large", "ball": "white", "start": {
        "white": [0.892, 0.71], "yellow": [0.71, 0.71], "red": [0.71, 2.13]}}))
    result = CliRunner().invoke(app, ["solve", str(position), "--json", "--count", "2",
                                      "--svg", str(tmp_path / "shot")])
    assert result.exit_code == 0, result.output
    items = json.loads(result.stdout)
    assert 1 <= len(items) <= 2
    assert set(items[0]) >= {"strike", "chance", "stroke"}
    assert set(items[0]["strike"]) == {"ball", "speed", "direction", "side", "height", "elevation"}
    assert items[0]["stroke"]["type"] == "stroke"
    assert (tmp_path / "shot-1.svg").read_text().startswith("<svg")


@pytest.mark.parametrize(("content", "message"), [
    ("[]", "a position file is a JSON object"),
    ('{"table": "huge"}', "table: unknown 'huge'"),
    ('{"ball": "blue"}', "ball: unknown 'blue'"),
    ('{"start": {"white": [0.5, 0.5]}}', "start: expected"),
    ('{"start": {"white": [0.5, 0.5], "yellow": [0.52, 0.5], "red": [1, 1]}}', "overlap"),
    ('{"start": {"white": [0.5, "x"], "yellow": [0.9, 0.5], "red": [1, 1]}}',
     "start: white: expected [x, y]"),
])
def test_position_file_errors_name_the_field(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(content)
    with pytest.raises(PositionError, match=message.replace("[", r"\[").replace("]", r"\]")):
        read_position(path)
