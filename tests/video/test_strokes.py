"""Cutting followed balls into strokes: start, end, cue ball, innings, and the doubts."""

from __future__ import annotations

import numpy as np
import pytest

from carom.core.balls import Ball
from carom.video.follow import Sample
from carom.video.strokes import Cutter
from carom.web.shared.i18n import PageWords
from carom.web.shared.said_words import said_words

STILL = {Ball.WHITE: (0.3, 0.5), Ball.YELLOW: (1.0, 2.0), Ball.RED: (0.7, 2.5)}
FPS = 30.0


def _words(line: dict) -> list[str]:
    """The English of a stroke line's doubts."""
    return [d["what"] for d in line["doubts"]]


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
    named = [d for d in _words(line) if d.startswith("yellow not seen after frame 45 (1.500 s)")]
    assert named, line["doubts"]


def test_red_moving_first_is_a_doubt() -> None:
    (line,) = _frames(Ball.RED)
    assert "red moved first" in line["doubts"][0]["what"]


def test_a_video_ending_before_the_balls_stop_keeps_the_stroke_doubtful() -> None:
    (line,) = _frames(Ball.WHITE, frames=50)
    assert "the video ended at frame 49" in line["doubts"][0]["what"]


def _at_rate(rate: float) -> list[dict]:
    """Samples ``rate`` a second (a progressive video's frames, or an interlaced one's fields):
    white measured 6 mm off its rest for a thirtieth of a second at 0.5 s (a hand over it),
    then yellow rolling 0.3 m from 1 s to 2 s and lying still."""
    lines: list[dict] = []
    cutter = Cutter("clip.mp4")
    for k in range(round(4.0 * rate)):
        t = k / rate
        seen = {}
        for ball, (x, y) in STILL.items():
            if ball is Ball.YELLOW:
                y += 0.3 * min(max(t - 1.0, 0.0), 1.0)
            if ball is Ball.WHITE and 0.5 <= t < 0.5 + 1.0 / 30.0:
                x += 0.006
            seen[ball] = Sample(k, t, x, y, 0.0005, 0.0)
        lines.extend(cutter.push(k, t, seen))
    lines.extend(cutter.close())
    return lines


@pytest.mark.parametrize("rate", [25.0, 50.0, 59.94, 60.0])
def test_a_stroke_is_cut_alike_at_any_rate_of_pictures(rate: float) -> None:
    """The same motion sampled 30 times a second and ``rate`` times: the same one stroke,
    starting and ending within a thirtieth of a second of each other (at 50 or 60 fields a
    second, counts of samples made the hand a stroke of white and the stroke's end 50 ms
    early)."""
    (ours,) = _at_rate(FPS)
    (theirs,) = _at_rate(rate)
    assert ours["cue"] == theirs["cue"] == "yellow" and ours["doubts"] == theirs["doubts"] == []
    assert abs(theirs["video"]["time"] - ours["video"]["time"]) <= 1.0 / FPS
    ends = [line["video"]["time"] + line["balls"]["yellow"]["t"][-1] for line in (ours, theirs)]
    assert abs(ends[1] - ends[0]) <= 1.0 / FPS


def test_a_cue_ball_that_struck_a_ball_near_it_both_unseen_at_the_contact_is_the_cue_ball() -> None:
    """Yellow, struck at 4.3 m/s, runs into white 10 cm away within 10 ms; neither is seen
    in the next frame, and both are seen away from their rests in the same frame after it:
    their departures are made in the same frame, white's first in the balls' order. Yellow
    lies behind white on the line white left along: yellow struck white."""
    white, yellow = np.array([0.93, 1.4144]), np.array([1.0233, 1.3677])
    towards = (white - yellow) / np.linalg.norm(white - yellow)
    lines: list[dict] = []
    cutter = Cutter("clip.mp4")
    for k in range(150):
        t = k / FPS
        run = max(t - 1.0, 0.0)
        hit = min(run, 0.01)
        seen = {Ball.RED: Sample(k, t, 0.7, 2.5, 0.0005, 0.0)}
        if k != 31:
            w = white + towards * 3.5 * min(max(run - 0.01, 0.0), 0.15)
            y = yellow + towards * 4.3 * hit + np.array([0.0, 1.5]) * min(max(run - 0.01, 0.0), 0.15)
            seen[Ball.WHITE] = Sample(k, t, *w, 0.0005, 0.0)
            seen[Ball.YELLOW] = Sample(k, t, *y, 0.0005, 0.0)
        lines.extend(cutter.push(k, t, seen))
    lines.extend(cutter.close())
    (line,) = lines
    assert line["cue"] == "yellow" and line["player"] == 2 and line["doubts"] == []


def test_a_ball_lost_in_the_frame_it_met_another_makes_the_stroke_doubtful() -> None:
    """White runs at 1.4 m/s into red lying near the bottom-right corner, turns at the contact
    and is not seen in its frame (the two balls' images touch); its samples on either side
    show one turn, which may have been two contacts (red and a cushion) within that frame."""
    lines: list[dict] = []
    cutter = Cutter("clip.mp4")
    for k in range(150):
        t = k / FPS
        moved = min(max(t - 1.0, 0.0), 0.3)
        white = (1.0 + moved, 0.6 - moved) if moved < 0.25 else (1.5 - moved, 0.6 - moved)
        seen = {Ball.YELLOW: Sample(k, t, 0.4, 2.0, 0.0005, 0.0),
                Ball.RED: Sample(k, t, 1.2935, 0.3065, 0.0005, 0.0)}
        if k != 37:
            seen[Ball.WHITE] = Sample(k, t, *white, 0.0005, 0.0)
        lines.extend(cutter.push(k, t, seen))
    lines.extend(cutter.close())
    (line,) = lines
    assert any(d.startswith("white not seen at frame 37 (1.233 s) as it met red") for d in _words(line)), \
        line["doubts"]


def test_a_ball_lost_for_a_frame_far_from_the_others_raises_no_doubt() -> None:
    lines: list[dict] = []
    cutter = Cutter("clip.mp4")
    for k in range(150):
        t = k / FPS
        seen = {Ball.YELLOW: Sample(k, t, 0.4, 2.0, 0.0005, 0.0),
                Ball.RED: Sample(k, t, 1.2935, 0.3065, 0.0005, 0.0)}
        if k != 37:
            seen[Ball.WHITE] = Sample(k, t, 0.5, 1.0 + 0.5 * min(max(t - 1.0, 0.0), 0.6), 0.0005, 0.0)
        lines.extend(cutter.push(k, t, seen))
    (line,) = lines
    assert line["doubts"] == []


def _unseen_yellow(yellow_back: float) -> list[dict]:
    """White rolls from 1 s; yellow, last seen lying still at 0.8 s, is next seen at
    ``yellow_back`` s, 0.4 m from its rest (rolling 1 m/s from 1.2 s)."""
    lines: list[dict] = []
    cutter = Cutter("clip.mp4")
    for k in range(240):
        t = k / FPS
        seen = {Ball.RED: Sample(k, t, 0.7, 2.5, 0.0005, 0.0),
                Ball.WHITE: Sample(k, t, 0.3, 0.5 + 0.3 * min(max(t - 1.0, 0.0), 1.0), 0.0005, 0.0)}
        if not 0.8 < t < yellow_back:
            seen[Ball.YELLOW] = Sample(k, t, 1.0, 2.0 - min(max(t - 1.2, 0.0), 0.6), 0.0005, 0.0)
        lines.extend(cutter.push(k, t, seen))
    lines.extend(cutter.close())
    return lines


def test_a_ball_that_left_its_rest_unseen_before_the_cue_ball_moved_makes_the_cue_ball_a_guess() -> None:
    """Yellow was not seen from before white left its rest until it was already rolling:
    it may have moved first (white then moved by it), so white as the cue ball is a guess."""
    (line,) = _unseen_yellow(1.6)
    assert line["cue"] == "white"
    assert any(d.startswith("yellow left its rest unseen between frame 24 (0.800 s) and frame 48 (1.600 s)")
               for d in _words(line)), line["doubts"]


def test_a_ball_seen_at_rest_after_the_cue_ball_moved_raises_no_such_doubt() -> None:
    (line,) = _unseen_yellow(1.1)
    assert line["cue"] == "white" and line["doubts"] == []


def _struck_unseen(cue: Ball, cue_rest: tuple[float, float], other_rest: tuple[float, float], speed: float,
                   hidden: tuple[float, float], hidden_ball: Ball) -> list[dict]:
    """``cue`` lies at ``cue_rest`` and is struck at 1 s at ``speed`` (m/s) straight at the
    other ball of a player, lying at ``other_rest``; full ball: at the contact the cue ball
    goes on at a fifth of its speed and the other leaves at four fifths, both along the
    line of centres, each for at most 0.4 m. ``hidden_ball`` is not seen between
    ``hidden`` (s); red lies far from both."""
    other = Ball.YELLOW if cue is Ball.WHITE else Ball.WHITE
    a, b = np.array(cue_rest), np.array(other_rest)
    along = (b - a) / float(np.linalg.norm(b - a))
    contact = b - 2.0 * 0.03075 * along
    met = 1.0 + float(np.linalg.norm(contact - a)) / speed
    lines: list[dict] = []
    cutter = Cutter("clip.mp4")
    for k in range(240):
        t = k / FPS
        places = {
            cue: a + along * speed * min(max(t - 1.0, 0.0), met - 1.0)
            + along * min(0.2 * speed * max(t - met, 0.0), 0.4),
            other: b + along * min(0.8 * speed * max(t - met, 0.0), 0.4),
            Ball.RED: np.array([1.2, 0.3]),
        }
        seen = {ball: Sample(k, t, float(p[0]), float(p[1]), 0.0005, 0.0) for ball, p in places.items()
                if not (ball is hidden_ball and hidden[0] < t < hidden[1])}
        lines.extend(cutter.push(k, t, seen))
    lines.extend(cutter.close())
    return lines


def test_a_cue_ball_unseen_from_its_strike_that_ran_into_the_first_ball_seen_moving_is_the_cue_ball() -> None:
    """Yellow, 0.8 m from white, is struck at 6 m/s and not seen for the 4 frames it runs
    to white; white, seen to leave first, left along the line from yellow and no moving
    ball came near yellow before it was seen away: yellow was struck, white was not the
    cue ball (it was taken as such, doubtful)."""
    (line,) = _struck_unseen(Ball.YELLOW, (0.05, 1.629), (0.302, 2.395), 6.0, (1.01, 1.16), Ball.YELLOW)
    assert line["cue"] == "yellow" and line["player"] == 2
    assert abs(line["video"]["time"] - (1.0 - 0.3)) < 0.05
    assert not any("cue ball is a guess" in d for d in _words(line)), line["doubts"]


def test_a_ball_hidden_while_the_cue_ball_ran_into_it_leaves_the_cue_ball_sure() -> None:
    """White is struck at 2 m/s into yellow, which a hand covers from before white's strike
    until after the contact: white's path reached yellow's place, and yellow, behind
    white's way, could not have struck it: white is the cue ball, no guess."""
    (line,) = _struck_unseen(Ball.WHITE, (0.6, 0.5), (0.6, 1.0), 2.0, (0.9, 1.4), Ball.YELLOW)
    assert line["cue"] == "white" and line["player"] == 1
    assert not any("cue ball is a guess" in d for d in _words(line)), line["doubts"]


def test_when_the_paths_cannot_tell_which_ball_was_struck_the_doubt_says_so() -> None:
    """White rolls away from yellow, and yellow, unseen as it left, away from white: neither
    set the other going, as far as the samples show."""
    (line,) = _unseen_yellow(1.6)
    assert line["cue"] == "white"
    said = "the balls' paths do not tell which was struck first"
    assert any(said in d for d in _words(line)), line["doubts"]


def test_a_still_ball_measured_off_under_an_arm_and_seen_at_its_rest_again_never_left_it() -> None:
    """Yellow, covered from 0.8 s, is measured 55 mm off its place at 1.5 s (partly
    covered), then seen lying where it lay: it never left its rest, so white, struck at
    1 s away from it, is the cue ball and no doubt is raised (it was taken as yellow's
    stroke, started at 0.8 s)."""
    lines: list[dict] = []
    cutter = Cutter("clip.mp4")
    for k in range(240):
        t = k / FPS
        seen = {Ball.RED: Sample(k, t, 0.7, 2.5, 0.0005, 0.0),
                Ball.WHITE: Sample(k, t, 0.3, 0.5 - 0.3 * min(max(t - 1.0, 0.0), 1.0), 0.0005, 0.0)}
        if not 0.8 < t < 1.5:
            seen[Ball.YELLOW] = Sample(k, t, 1.0 - (0.055 if 1.4 < t < 1.55 else 0.0), 1.0, 0.0005, 0.0)
        lines.extend(cutter.push(k, t, seen))
    lines.extend(cutter.close())
    (line,) = lines
    assert line["cue"] == "white" and line["doubts"] == [], line["doubts"]


def test_a_doubt_keeps_its_words_as_a_phrase_the_readers_language_says() -> None:
    """Yellow covered from 1.5 s: the doubt's English, and the same words as a phrase of the
    catalogues (a ball, a frame, a time) that a Slovak or German page says in its words."""
    (line,) = _frames(Ball.WHITE, hide_after=Ball.YELLOW)
    doubt = next(d for d in line["doubts"] if d["what"].startswith("yellow not seen after frame 45"))
    assert doubt["said"] == {
        "said": "%(ball)s not seen after frame %(frame)s (%(t)s s): it left the picture or was covered",
        "values": {"ball": {"ball": "yellow"}, "frame": "45", "t": "1.500"}}
    assert said_words(doubt, PageWords("sk")).startswith("žltá nebola viditeľná po snímke 45 (1,500 s)")
    assert said_words(doubt, PageWords("de")).startswith("gelb nach Bild 45 (1,500 s) nicht mehr gesehen")


@pytest.mark.parametrize("lang", ["sk", "de"])
def test_every_kind_of_the_videos_doubt_is_said_in_the_language(lang: str) -> None:
    """A red first mover, a video ending mid-stroke, a ball covered at the end, one that left
    its rest unseen: each doubt's phrase is its English, and the language says all of it."""
    lines = [*_frames(Ball.RED), *_frames(Ball.WHITE, frames=50),
             *_frames(Ball.WHITE, hide_after=Ball.YELLOW), *_unseen_yellow(1.6)]
    doubts = [d for line in lines for d in line["doubts"]]
    assert len({d["said"]["said"] for d in doubts}) >= 4
    t = PageWords(lang)
    for doubt in doubts:
        said = doubt["said"]
        assert said["said"] % {k: v["ball"] if isinstance(v, dict) else v
                               for k, v in said["values"].items()} == doubt["what"]
        assert t.translations.pgettext("tracked", said["said"]) != said["said"], doubt["what"]
        assert said_words(doubt, t) != doubt["what"]
