"""The camera's colour cast: measured on the white ball, undone in the planes, and a
rendered clip under a strong cast tracked as one without."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from carom.core.balls import BALLS, Ball
from carom.video.balance import Balance, best_balance, chroma, white_gains
from carom.video.balls import PROTOTYPES
from carom.video.frames import from_bgr
from carom.video.overlay import Overlay
from carom.video.pipeline import Progress, Settings, track_video
from carom.video.render.clip import render_clip
from carom.video.render.look import draw_look
from carom.video.render.play import play_match
from tests.video.conftest import RULES, SEED, SIZE, TABLE

CASTS = {"warm": (0.45, 1.0, 1.6), "cool": (1.6, 1.0, 0.55)}
"""Gains on blue, green and red linear light: a camera balanced for daylight under warm
lamps, and for warm lamps under daylight. Without the balance undone, the tracker saw one
ball of the three in the clip under either (yellow under the warm cast, white under the
cool one)."""

COLOURS = {"white": (200, 200, 200), "yellow": (40, 190, 215), "red": (40, 40, 190)}
"""Colours of a ball's body, BGR levels."""


def _levels(bgr: tuple[float, float, float]) -> np.ndarray:
    """``(Y − 16, U − 128, V − 128)`` of a colour as the decoder gives it."""
    frame = from_bgr(0, 0.0, np.full((4, 4, 3), bgr, np.uint8))
    return np.array([float(frame.y[0, 0]) - 16.0, float(frame.u[0, 0]) - 128.0, float(frame.v[0, 0]) - 128.0])


def _cast(bgr: tuple[float, float, float], gains: tuple[float, float, float]) -> tuple[float, ...]:
    """A colour (BGR levels) seen under gains on blue, green and red levels."""
    return tuple(min(255.0, c * g) for c, g in zip(bgr, gains, strict=True))


def test_a_grey_seen_under_gains_gives_the_gains_with_luma_kept() -> None:
    gains = white_gains(_levels(_cast((160, 160, 160), (0.8, 1.0, 1.2))))
    expected = np.array([1.2, 1.0, 0.8]) / (0.299 * 1.2 + 0.587 + 0.114 * 0.8)
    assert np.allclose(gains, expected, atol=0.02)


def test_undoing_the_gains_gives_back_each_colour() -> None:
    gains = (0.8, 1.0, 1.2)  # blue, green, red
    balance = Balance.of(white_gains(_levels(_cast((160, 160, 160), gains))))
    for bgr in COLOURS.values():
        seen = _levels(_cast(bgr, gains))
        back = balance.levels(seen[None, :])[0]
        assert np.allclose(chroma(back), chroma(_levels(bgr)), atol=0.02), bgr


def test_the_undone_planes_are_the_undone_levels() -> None:
    balance = Balance.of((1.2, 1.0, 0.8))
    seen = _levels(COLOURS["yellow"])
    planes = tuple(np.full((2, 3), value + offset, np.uint8) for value, offset in zip(seen, (16, 128, 128),
                                                                                      strict=True))
    undone = balance.undo(*planes)
    expected = balance.levels(seen[None, :])[0] + (16, 128, 128)
    assert np.allclose([p[1, 2] for p in undone], expected, atol=0.5)


def test_a_panel_undone_after_the_cast_gives_the_scene_as_the_cast_undone() -> None:
    """The panel is drawn over the picture as the camera gave it; undone after the cast, its
    colour is the cast's undoing of it: the scene comes back either way round."""
    balance = Balance.of((1.2, 1.0, 0.8))
    panel = Overlay(0, 0, 8, 8, 0.3, (40.0, 140.0, 110.0), 0.5)
    offsets = np.array([16.0, 128.0, 128.0])
    scene = _levels(COLOURS["yellow"]) + offsets
    drawn = panel.alpha * scene + np.array(panel.colour)
    seen = balance.levels((drawn - offsets)[None, :])[0] + offsets
    planes = [np.full((4, 4), value, np.float32) for value in seen]
    balance.panel(panel).undo((planes[0], planes[1], planes[2]), (0, 0, 4, 4))
    expected = balance.levels((scene - offsets)[None, :])[0] + offsets
    assert np.allclose([p[0, 0] for p in planes], expected, atol=1e-3)


def test_the_white_ball_is_told_by_the_others_fitting_yellow_and_red() -> None:
    gains = (0.7, 1.0, 1.25)
    bodies = [_levels(_cast(COLOURS[name], gains)) for name in ("red", "yellow", "white")]
    balance = best_balance(bodies, {b: np.array(p) for b, p in PROTOTYPES.items()})
    assert balance is not None
    expected = np.array([1.25, 1.0, 0.7]) / (0.299 * 1.25 + 0.587 + 0.114 * 0.7)
    assert np.allclose(balance.gains, expected, atol=0.03)


def test_no_balance_is_taken_without_a_white_ball() -> None:
    bodies = [_levels(COLOURS["red"]), _levels(COLOURS["yellow"]), _levels((40, 120, 40))]
    assert best_balance(bodies, {b: np.array(p) for b, p in PROTOTYPES.items()}) is None


@pytest.mark.parametrize("cast", sorted(CASTS))
def test_a_clip_under_a_cast_is_tracked_with_the_cast_measured(cast: str, tmp_path: Path) -> None:
    path = tmp_path / f"{cast}.mp4"
    match = play_match(SEED, 1, RULES, TABLE, lead=0.8, pause=0.8, speeds=(0.8, 1.0))
    look = replace(draw_look(SEED, TABLE, "broadcast", SIZE, 25.0), cast=CASTS[cast])
    truth = render_clip(path, match, look, SEED)
    progress = Progress()
    lines = list(track_video(str(path), Settings(TABLE), progress))
    assert progress.balance is not None
    blue, green, red = np.power(CASTS[cast], 1.0 / 2.2)
    expected = np.array([red, green, blue]) / (0.299 * red + 0.587 * green + 0.114 * blue)
    # at 540p the white ball's body is clipped over most of its disc: measured within 0.15
    assert np.allclose(progress.balance.gains, expected, atol=0.15)
    assert len(lines) == 1 and lines[0]["cue"] == match.strokes[0].cue.value
    assert set(lines[0]["balls"]) == {b.value for b in BALLS}
    t0 = lines[0]["video"]["time"]
    end = t0 + max(cols["t"][-1] for cols in lines[0]["balls"].values())
    frames = int(np.sum((truth.times >= t0) & (truth.times <= end)))
    for name, cols in lines[0]["balls"].items():
        ball = Ball(name)
        assert len(cols["t"]) > 0.8 * frames, f"{ball} lost: {len(cols['t'])} samples of {frames} frames"
        for t, x, y in zip(cols["t"], cols["x"], cols["y"], strict=True):
            k = int(np.argmin(np.abs(truth.times - (t + t0))))
            distances = [np.hypot(x - truth.centres[b][k, 0], y - truth.centres[b][k, 1]) for b in BALLS]
            assert distances[BALLS.index(ball)] == min(distances), f"{ball} swapped at {t:.2f} s"
            assert distances[BALLS.index(ball)] < 0.02
