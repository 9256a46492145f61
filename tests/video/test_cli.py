"""``carom video``: its output read by ``carom track``, its judgement, its refusals."""

from __future__ import annotations

import json
from pathlib import Path

from carom.video.render.clip import Truth
from tests.cli_helpers import assert_refused, run


def test_the_tracked_file_is_read_and_judged_by_carom_track(clip: tuple[Path, Truth], tmp_path: Path) -> None:
    out = tmp_path / "tracked.jsonl"
    result = run("video", clip[0], "-o", out)
    assert result.exit_code == 0, result.output
    line = json.loads(out.read_text().splitlines()[0])
    assert set(line["balls"]) == {"white", "yellow", "red"} and line["cue"] == "white"
    assert set(line["balls"]["red"]) == {"t", "x", "y", "sd"}
    judged = run("track", out)
    assert judged.exit_code == 0, judged.output
    assert "1 strokes" in judged.stdout


def test_judge_prints_each_ruling_and_writes_the_match(clip: tuple[Path, Truth], tmp_path: Path) -> None:
    match = tmp_path / "match.carom.jsonl"
    result = run("video", clip[0], "--judge", "--carom-out", match)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("shot 1  white")
    assert "strokes the video itself makes doubtful: 0" in result.stdout
    assert run("replay", match).exit_code == 0


def test_bad_input_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    assert_refused(run("video", text), "notes.txt: cannot be read as a video")
    assert_refused(run("video"), "give a video FILE or --live")
    assert_refused(run("video", text, "--corners", "1,2 3,4"), "--corners 1,2 3,4: expected four")
    assert_refused(run("video", text, "--camera-height", "90"), "--camera-height 90.0: expected 0.5 to 20 m")
    assert_refused(run("video", "--live", "rtsp://127.0.0.1:9/x"),
                   "--live needs --server URL")


def test_what_was_undone_in_the_picture_is_said() -> None:
    """A colour coding other than the tracker's, a colour cast and a score box undone are
    said on the error stream, with their figures; nothing undone, nothing said."""
    from carom.cli.video import camera_notes
    from carom.video.balance import Balance
    from carom.video.colours import Coding
    from carom.video.overlay import Overlay
    from carom.video.pipeline import Progress

    notes = camera_notes(Progress(overlay=Overlay(20, 930, 560, 1050, 0.3, (30.0, 99.0, 82.0), 0.5),
                                  balance=Balance.of((1.2, 1.0, 0.8))))
    assert notes[0] == ("the camera's colour cast was undone (its gains, measured on the white ball: "
                        "red 1.16, green 0.96, blue 0.77)")
    assert notes[1] == ("a score box over the table (x 20-560, y 930-1050, 30% of the light through) "
                        "was undone while drawn")
    assert camera_notes(Progress()) == []
    assert camera_notes(Progress(coding=Coding("BT.709", False))) == [
        "the stream's colours, coded BT.709 limited range, were read as BT.601 limited range"]
