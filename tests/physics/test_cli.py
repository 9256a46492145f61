"""``carom simulate SPEC.json`` as PHYSICS.md describes it, and ``carom play``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carom.cli.main import app
from carom.core.records import Header, Stroke
from carom.notation.reader import record_from_json

SPEC = {"table": "large",
        "balls": {"white": {"r": [0.528, 0.71]},
                  "yellow": {"r": [0.71, 0.71]},
                  "red": {"r": [0.71, 2.13], "v": [0.0, 0.0], "w": [0.0, 0.0, 0.0]}},
        "strike": {"ball": "white", "speed": 3.0, "direction": 80.0, "side": 0.3, "height": 0.2,
                   "elevation": 0.0},
        "params": {"mu_roll": 0.0045},
        "sample": 0.02}
HEADER = Header("three-cushion", "large", ("A", "B"), 10, None)


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_simulate_prints_one_stroke_record(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    code, out, _ = _run("simulate", str(spec))
    assert code == 0
    assert out.count("\n") == 1
    obj = json.loads(out)
    stroke = record_from_json(obj, HEADER)
    assert isinstance(stroke, Stroke)
    assert stroke.ball.value == "white" and stroke.events and stroke.end is not None
    assert obj["physics"]["params"]["mu_roll"] == 0.0045
    assert obj["physics"]["params"]["version"] >= 1
    assert set(obj["paths"]) == {"white", "yellow", "red"}
    times = [t for t, _, _ in obj["paths"]["white"]]
    assert times == sorted(times) and times[1] - times[0] <= 0.02 + 1e-12
    event_times = {e["t"] for e in obj["events"]}
    assert event_times <= set(times)


def test_simulate_without_a_strike_moves_the_balls_given_motion(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"balls": {"red": {"r": [0.7, 1.0], "v": [0.0, 2.0]}}}))
    code, out, _ = _run("simulate", str(spec))
    assert code == 0
    obj = json.loads(out)
    assert obj["ball"] == "red" and obj["events"][0] == {"kind": "cushion", "ball": "red", "cushion": "top",
                                                         "t": obj["events"][0]["t"]}


def test_a_bad_spec_is_refused_with_status_2(tmp_path: Path) -> None:
    for bad in ({"balls": {"blue": {"r": [0.5, 0.5]}}},
                {"balls": {"white": {"r": [0.5, 0.5]}}, "params": {"mu_rol": 0.1}},
                {"balls": {"white": {"r": [0.5, 0.5]}, "red": {"r": [0.52, 0.5]}}},
                {"balls": {"white": {"r": [0.5, 0.5]}}, "strike": {"ball": "white", "speed": 3,
                                                                   "direction": 0, "side": 0.6}}):
        spec = tmp_path / "bad.json"
        spec.write_text(json.dumps(bad))
        code, out, err = _run("simulate", str(spec))
        assert code == 2 and out == "" and "bad.json" in err


def test_play_prints_the_ruling_and_draws_the_path(tmp_path: Path) -> None:
    svg = tmp_path / "stroke.svg"
    code, out, _ = _run("play", "--direction", "71.63", "--speed", "3.445", "--side", "-0.0656",
                        "--height", "0.0372", "--svg", str(svg))
    assert code == 0
    assert "ruling:" in out and "meets" in out
    assert svg.read_text().lstrip().startswith("<svg")
    assert "polyline" in svg.read_text()


def test_play_json_and_a_moved_ball(tmp_path: Path) -> None:
    code, out, _ = _run("play", "--direction", "90", "--at", "white=0.3,0.4", "--at", "red=0.3,1.0",
                        "--json", "--opening")
    assert code == 0
    obj = json.loads(out)
    assert obj["stroke"]["start"]["white"] == [0.3, 0.4]
    assert obj["stroke"]["events"][0] == {"kind": "ball", "ball": "white", "other": "red",
                                          "t": obj["stroke"]["events"][0]["t"]}
    assert obj["ruling"]["fouls"] == []


def test_play_refuses_a_miscue() -> None:
    code, _, err = _run("play", "--direction", "90", "--side", "0.45", "--height", "0.3")
    assert code == 2 and "miscue" in err


def test_o1_red_is_never_struck_by_play_simulate_or_solve(tmp_path: Path) -> None:
    code, out, err = _run("play", "--direction", "90", "--ball", "red")
    assert code == 2 and out == "" and "--ball: red is never a cue ball (O1" in err
    spec = tmp_path / "red.json"
    spec.write_text(json.dumps({"balls": {"red": {"r": [0.5, 0.5]}},
                                "strike": {"ball": "red", "speed": 2, "direction": 0}}))
    code, out, err = _run("simulate", str(spec))
    assert code == 2 and out == "" and '"strike.ball": red is never a cue ball (O1' in err
    position = tmp_path / "p.json"
    position.write_text(json.dumps({"ball": "red", "start": {
        "white": [0.892, 0.71], "yellow": [0.71, 0.71], "red": [0.71, 2.13]}}))
    code, out, err = _run("solve", str(position))
    assert code == 2 and out == "" and "ball: red is never a cue ball (O1" in err


def test_play_with_yellow_keeps_all_three_balls_on_the_table() -> None:
    code, out, _ = _run("play", "--direction", "90", "--ball", "yellow", "--json")
    assert code == 0
    assert set(json.loads(out)["stroke"]["start"]) == {"white", "yellow", "red"}


@pytest.mark.parametrize(("change", "message"), [
    ({"sample": 1e-9}, '"sample": 1e-09 is out of range: from 0.001 to 10 seconds'),
    ({"params": {"mathavan_steps": 1e9}}, "mathavan_steps: 1e+09 is out of range: from 10 to 5000 steps"),
    ({"params": {"mu_roll": 1e300}}, "mu_roll: 1e+300 is out of range"),
    ({"params": 0}, '"params": physics parameters must be an object'),
    ({"strike": {"ball": "white", "speed": 1e154, "direction": 0}}, '"strike.speed": 1e+154 is out of range'),
    ({"strike": {"ball": "white", "speed": 3, "direction": 0, "elevation": 90}}, '"strike.elevation": 90 is'),
    ({"balls": {"white": {"r": [0.5, 0.5], "v": [40, 0]}}}, '"balls.white".v: 40 m/s is more than the limit'),
    ({"balls": {"white": {"r": [0.5, 0.5], "w": [0, 0, 5000]}}}, '"balls.white".w: 5000 rad/s is more than'),
])
def test_simulate_refuses_numbers_out_of_their_range(tmp_path: Path, change: dict[str, object],
                                                     message: str) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({**SPEC, **change}))
    code, out, err = _run("simulate", str(spec))
    assert code == 2 and out == "" and message in err, err


@pytest.mark.parametrize(("args", "message"), [
    (["--side", "nan"], "--side: nan is out of range: from -0.5 to 0.5 R"),
    (["--speed", "16"], "--speed: 16 is out of range: from 0 to 15 m/s"),
    (["--param", "mu_roll=inf"], "--param: physics parameter mu_roll must be a finite number, not inf"),
    (["--at", "white=0.3"], "--at white=0.3: expected BALL=X,Y in metres"),
    (["--discipline", "balkline-47/2", "--table", "small"],
     "--table: balkline-47/2 is not played on the small"),
])
def test_play_names_the_option_at_fault(args: list[str], message: str) -> None:
    code, out, err = _run("play", "--direction", "80", *args)
    assert code == 2 and out == "" and message in err, err
