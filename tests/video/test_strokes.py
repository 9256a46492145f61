"""Cutting followed balls into strokes: start, end, cue ball, innings, and the doubts."""

from __future__ import annotations

from carom.core.balls import Ball
from carom.video.follow import Sample
from carom.video.strokes import Cutter

STILL = {Ball.WHITE: (0.3, 0.5), Ball.YELLOW: (1.0, 2.0), Ball.RED: (0.7, 2.5)}
FPS = 30.0


def _frames(mover: Ball, hide_after: Ball | None = None, frames: int = 240) -> list[dict]:
    """``mover`` rolls 0.3 m from 1 s to 2 s and stops; the others lie still."""
    lines: list[dict] = []
    cutter = Cutter("clip.mp4")
    for k in range(frames):
        t = k / FPS
        seen = {}
        for ball, (x, y) in STILL.items():
            if ball is mover:
                y += 0.3 * min(max(t - 1.0, 0.0), 1.0)
            if ball is hide_after and t > 1.5:
                continue
            seen[ball] = Sample(k, t, x, y, 0.0005, 0.0)
        lines.extend(cutter.push(k, t, seen))
    lines.extend(cutter.close())
    return lines


def test_a_stroke_runs_from_the_cue_balls_departure_to_the_last_rest() -> None:
    (line,) = _frames(Ball.YELLOW)
    assert line["cue"] == "yellow" and line["player"] == 2 and line["inning"] == 1
    assert abs(line["video"]["time"] - (1.0 - 0.3)) < 0.05
    assert line["balls"]["yellow"]["t"][0] == 0.0 and line["doubts"] == []
    assert line["balls"]["red"]["x"][0] == 0.7


def test_a_ball_not_seen_at_the_end_makes_the_stroke_doubtful_naming_the_frame() -> None:
    (line,) = _frames(Ball.WHITE, hide_after=Ball.YELLOW)
    named = [d for d in line["doubts"] if d.startswith("yellow not seen after frame 45 (1.500 s)")]
    assert named, line["doubts"]


def test_red_moving_first_is_a_doubt() -> None:
    (line,) = _frames(Ball.RED)
    assert "red moved first" in line["doubts"][0]


def test_a_video_ending_before_the_balls_stop_keeps_the_stroke_doubtful() -> None:
    (line,) = _frames(Ball.WHITE, frames=50)
    assert "the video ended at frame 49" in line["doubts"][0]
