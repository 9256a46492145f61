"""``carom fit FILE``: a line per stroke, the JSON lines of ``-o``, and bad input refused
before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_helpers import assert_refused, run

from .tracked import as_line, tracked_stroke

KEYS = {"shot", "line", "cue", "played", "problems", "strike", "uncertainty", "rmse", "moved", "free_run_rms",
        "first_contact", "cushions_before_ball3", "ruling", "recorded_confidence", "simulations", "seconds"}


def test_each_stroke_is_read_back_and_written_as_a_json_line(tmp_path: Path) -> None:
    tracked = tmp_path / "strokes.jsonl"
    tracked.write_text(as_line(tracked_stroke(shot="a")) + "\n")
    out = tmp_path / "fitted.jsonl"
    result = run("fit", tracked, "-o", out, "--seconds", "600")
    assert result.exit_code == 0, result.output
    assert "shot a  white  played" in result.stdout
    assert "same first contact as the recording: 1/1" in result.stdout
    (line,) = out.read_text().splitlines()
    row = json.loads(line)
    assert set(row) == KEYS
    assert row["played"] and row["problems"] == []
    assert abs(row["strike"]["speed"] - 3.2) < 0.01 and abs(row["strike"]["side"] - 0.25) < 0.01
    assert row["first_contact"] == {"fitted": "yellow", "recorded": "yellow", "same": True}
    assert row["ruling"]["same"] and row["cushions_before_ball3"]["same"]
    assert max(row["rmse"].values()) < 0.002


def test_a_stroke_with_nothing_to_fit_says_so(tmp_path: Path) -> None:
    tracked = tmp_path / "strokes.jsonl"
    still = {"white": {"t": [0, 3], "x": [0.7, 0.7], "y": [0.5, 0.5]},
             "yellow": {"t": [0, 3], "x": [1.0, 1.0], "y": [1.5, 1.5]},
             "red": {"t": [0, 3], "x": [0.4, 0.4], "y": [2.2, 2.2]}}
    tracked.write_text(json.dumps({"shot": 9, "cue": "white", "balls": still}) + "\n")
    out = tmp_path / "fitted.jsonl"
    result = run("fit", tracked, "-o", out)
    assert result.exit_code == 0, result.output
    assert "shot 9  white  not fitted" in result.stdout
    row = json.loads(out.read_text())
    assert row["played"] is False and "never left" in row["problems"][0]


def test_a_malformed_file_is_refused_with_its_line(tmp_path: Path) -> None:
    tracked = tmp_path / "strokes.jsonl"
    tracked.write_text(as_line(tracked_stroke()) + "\n{\"shot\": 2}\n")
    out = tmp_path / "fitted.jsonl"
    assert_refused(run("fit", tracked, "-o", out), "line 2")
    assert not out.exists()


def test_an_output_in_a_missing_folder_is_refused_before_any_work(tmp_path: Path) -> None:
    tracked = tmp_path / "strokes.jsonl"
    tracked.write_text(as_line(tracked_stroke()) + "\n")
    assert_refused(run("fit", tracked, "-o", tmp_path / "nowhere" / "out.jsonl"), "-o", "does not exist")


def test_a_budget_out_of_range_is_refused(tmp_path: Path) -> None:
    tracked = tmp_path / "strokes.jsonl"
    tracked.write_text(as_line(tracked_stroke()) + "\n")
    assert_refused(run("fit", tracked, "--seconds", "0"), "--seconds", "out of range")
    assert_refused(run("fit", tracked, "--simulations", "10"), "--simulations", "out of range")
