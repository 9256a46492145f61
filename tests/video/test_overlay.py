"""A half-transparent score box over the table: found, measured, and undone before the balls
are looked for, in made-up frames."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from carom.core.balls import Ball
from carom.video.balls import PROTOTYPES, BallFinder
from carom.video.follow import Follower
from carom.video.frames import Frame, from_bgr
from carom.video.overlay import Overlay, find_overlay
from carom.video.pipeline import PanelWatch
from carom.video.table import Cloth
from tests.video.conftest import TABLE

SIZE = (360, 640)
"""The made-up picture's rows and columns."""
CLOTH_QUAD = np.array([[70.0, 60.0], [570.0, 60.0], [570.0, 300.0], [70.0, 300.0]])
BOX = (20, 270, 260, 346)
"""The score box: x0, y0, x1, y1, over the cloth's bottom-left corner, the rail and the floor."""


def _hall(seed: int) -> np.ndarray:
    """A table seen from above, square in the picture (its edges as straight and level as
    a score box's): floor, rail, blue cloth, the lamps' falloff, sensor noise."""
    picture = np.full((*SIZE, 3), 45.0)
    picture[30:331, 40:601] = (40, 70, 120)
    picture[60:301, 70:571] = (190, 120, 40)
    picture *= np.linspace(0.8, 1.0, SIZE[1])[None, :, None]
    picture += np.random.default_rng(seed).normal(0.0, 1.5, picture.shape)
    return picture


def _boxed(picture: np.ndarray, alpha: float, colour: tuple[int, int, int]) -> np.ndarray:
    """The picture with the score box drawn over it: ``alpha`` of the scene's light plus
    ``colour`` (BGR)."""
    out = picture.copy()
    x0, y0, x1, y1 = BOX
    out[y0:y1, x0:x1] = alpha * out[y0:y1, x0:x1] + np.array(colour, float)
    return np.clip(np.round(out), 0, 255).astype(np.uint8)


def _frames(alpha: float | None, colour: tuple[int, int, int] = (30, 20, 50)) -> list[Frame]:
    pictures = [_hall(seed) for seed in range(3)]
    if alpha is None:
        return [from_bgr(k, k / 2.0, np.clip(np.round(p), 0, 255).astype(np.uint8))
                for k, p in enumerate(pictures)]
    return [from_bgr(k, k / 2.0, _boxed(p, alpha, colour)) for k, p in enumerate(pictures)]


def _colour_in_planes(alpha: float, colour: tuple[int, int, int]) -> np.ndarray:
    """The box's own light in Y, U and V levels: the planes of the box over a black scene,
    less ``alpha`` times the black's."""
    def planes(bgr: tuple[float, float, float]) -> np.ndarray:
        frame = from_bgr(0, 0.0, np.full((4, 4, 3), bgr, np.uint8))
        return np.array([frame.y.mean(), frame.u.mean(), frame.v.mean()])
    return planes(colour) - alpha * planes((0, 0, 0))


def test_a_half_transparent_box_is_found_and_its_light_measured() -> None:
    overlay = find_overlay(_frames(0.45), CLOTH_QUAD)
    assert overlay is not None
    assert (overlay.x0, overlay.y0, overlay.x1, overlay.y1) == BOX
    assert overlay.alpha == pytest.approx(0.45, rel=0.03)
    assert np.allclose(overlay.colour, _colour_in_planes(0.45, (30, 20, 50)), atol=2.5)


def test_a_strip_along_a_whole_side_of_the_table_is_the_tables_own() -> None:
    """A rectangle as long as the table (its cushion and rail along a side, seen straight
    down) is no panel, however well its light fits one: the same box is refused once the
    table is hardly wider than it."""
    narrow = CLOTH_QUAD.copy()
    narrow[1:3, 0] = BOX[2] + 20.0  # the cloth's right edge 20 pixels beyond the box's
    assert find_overlay(_frames(0.45), CLOTH_QUAD) is not None
    assert find_overlay(_frames(0.45), narrow) is None


def test_no_box_no_overlay() -> None:
    assert find_overlay(_frames(None), CLOTH_QUAD) is None


def test_an_opaque_box_is_left_as_it_is() -> None:
    """A box that lets almost nothing through (alpha 0.05) hides what is under it."""
    assert find_overlay(_frames(0.05, (60, 40, 20)), CLOTH_QUAD) is None


def test_a_box_beside_the_table_is_none_of_its_business() -> None:
    assert find_overlay(_frames(0.45), CLOTH_QUAD - np.array([0.0, 200.0])) is None


# --- a ball under the box ---

CLOTH = Cloth(0.27, -0.277, 0.02, 105.0)
"""A blue cloth (chroma over luma, spread, luma), as in test_balls."""
RADIUS = 16.0
"""A ball's radius, full-resolution pixels."""
HALF = (80, 120)
"""Half-resolution rows and columns of the made-up frames."""
YELLOW_AT = (150.3, 118.7)
"""Yellow's true centre, full-resolution pixels: under the box, near its top edge."""
WHITE_AT = (60.0, 60.0)
UNDER = Overlay(100, 100, 240, 160, 0.3, (30.0, 99.0, 82.0), 0.5)
"""A score box as the renderer draws it (30 % of the scene's light, a dark blue of its own),
over the bottom of the made-up frame."""


def _disc(centre: tuple[float, float]) -> np.ndarray:
    """Each half-resolution pixel's share under a still ball at ``centre`` (full resolution),
    from 4 × 4 samples a pixel."""
    rows, cols = np.mgrid[0:HALF[0] * 4, 0:HALF[1] * 4].astype(float)
    inside = np.hypot((cols + 0.5) / 2.0 - centre[0], (rows + 0.5) / 2.0 - centre[1]) <= RADIUS
    return inside.reshape(HALF[0], 4, HALF[1], 4).mean(axis=(1, 3))


def _scene() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Half-resolution Y, U and V of the cloth with a still yellow and a still white."""
    cloth_luma = CLOTH.luma + 16.0
    luma = np.full(HALF, cloth_luma)
    u, v = np.full(HALF, CLOTH.u * cloth_luma), np.full(HALF, CLOTH.v * cloth_luma)
    for centre, ball_luma, ball in ((YELLOW_AT, 200.0, Ball.YELLOW), (WHITE_AT, 225.0, Ball.WHITE)):
        share = _disc(centre)
        bu, bv = PROTOTYPES[ball]
        luma += share * (ball_luma + 16.0 - luma)
        u += share * (bu * (ball_luma + 16.0) - u)
        v += share * (bv * (ball_luma + 16.0) - v)
    return luma - 16.0, u + 128.0, v + 128.0


def _dimmed_frame(k: int, drawn: bool = True) -> Frame:
    """The scene under the box: ``alpha`` of its light plus the box's, each plane, with the
    sensor's noise after (the box is drawn over the picture, the codec's noise on top);
    not ``drawn``: the scene alone."""
    y, u, v = _scene()
    x0, y0, x1, y1 = (c // 2 for c in (UNDER.x0, UNDER.y0, UNDER.x1, UNDER.y1))
    noise = np.random.default_rng(k)
    planes = []
    for plane, g in zip((y, u, v), UNDER.colour, strict=True):
        plane = plane.copy()
        if drawn:
            plane[y0:y1, x0:x1] = UNDER.alpha * plane[y0:y1, x0:x1] + g
        planes.append(np.clip(np.round(plane + noise.normal(0.0, 0.7, HALF)), 0, 255).astype(np.uint8))
    luma = np.repeat(np.repeat(planes[0], 2, axis=0), 2, axis=1)
    return Frame(k, k / 30.0, luma, planes[1], planes[2])


def _registration() -> SimpleNamespace:
    """A stub camera looking straight down: a pixel is a millimetre, a ball as wide everywhere."""
    return SimpleNamespace(table=TABLE, cloth=CLOTH, to_table=lambda pixels, z: pixels / 1000.0,
                           to_pixels=lambda points, z: points * 1000.0,
                           ball_radius_pixels=lambda points: np.full(len(points), RADIUS))


def _follower(overlay: Overlay | None) -> Follower:
    finder = BallFinder(_registration(), (0, 0, HALF[1], HALF[0]), np.ones(HALF, np.uint8),  # type: ignore[arg-type]
                        RADIUS / 2.0, {b: np.array(p) for b, p in PROTOTYPES.items()}, overlay=overlay)
    return Follower(_registration(), finder)  # type: ignore[arg-type]


def test_a_ball_under_the_box_is_seen_where_it_lies_once_the_box_is_undone() -> None:
    """Yellow under the box is an olive no ball's colour is: with the box undone it is
    yellow, within a pixel of where it lies, its sample the less sure by 1 / alpha."""
    follower = _follower(UNDER)
    seen = [follower.step(_dimmed_frame(k)) for k in range(3)]
    for frame in seen:
        assert np.hypot(frame[Ball.YELLOW].x * 1000.0 - YELLOW_AT[0],
                        frame[Ball.YELLOW].y * 1000.0 - YELLOW_AT[1]) < 1.0
        assert frame[Ball.YELLOW].sd > 2.5 * frame[Ball.WHITE].sd
    noise = {b.ball: b.noise for b in follower.finder.find(_dimmed_frame(3))}
    assert noise == {Ball.YELLOW: pytest.approx(1.0 / UNDER.alpha), Ball.WHITE: 1.0}


def test_a_ball_under_the_box_is_not_seen_without_the_undo() -> None:
    follower = _follower(None)
    seen = [follower.step(_dimmed_frame(k)) for k in range(3)]
    assert all(Ball.YELLOW not in frame and Ball.WHITE in frame for frame in seen)


def test_undo_restores_the_scene_inside_the_box_and_leaves_the_rest() -> None:
    """The planes undone equal the scene's within the noise times 1 / alpha; outside the box
    they are not touched. A box edge at an odd pixel leaves its half-covered pixels half undone."""
    y, u, v = (p.astype(np.float32) for p in _scene())
    dimmed = [p.copy() for p in (y, u, v)]
    odd = Overlay(101, 99, 239, 161, 0.3, (30.0, 99.0, 82.0), 0.5)
    for plane, g in zip(dimmed, odd.colour, strict=True):
        plane[50:80, 51:119] = 0.3 * plane[50:80, 51:119] + g
        plane[49, 51:119] = 0.5 * plane[49, 51:119] + 0.5 * (0.3 * plane[49, 51:119] + g)
        plane[49:80, 50] = 0.5 * plane[49:80, 50] + 0.5 * (0.3 * plane[49:80, 50] + g)
    plane_copy = [p.copy() for p in dimmed]
    odd.undo((dimmed[0], dimmed[1], dimmed[2]), (0, 0, HALF[1], HALF[0]))
    for before, after, original in zip(plane_copy, dimmed, (y, u, v), strict=True):
        assert np.allclose(after[50:80, 51:119], np.clip(original[50:80, 51:119], 0, 255), atol=1e-3)
        assert np.allclose(after[:49], before[:49]) and np.allclose(after[:, :50], before[:, :50])
    assert np.abs(dimmed[0][49, 51:119] - y[49, 51:119]).max() < 1e-3


def test_a_panel_that_went_is_told_from_one_still_drawn() -> None:
    """A broadcaster's score box comes and goes: the frames that draw it fit its light
    across its edges, those that do not fit no panel (undoing it there would blind the
    ball finder under it)."""
    overlay = find_overlay(_frames(0.45), CLOTH_QUAD)
    assert overlay is not None
    drawn, bare = _frames(0.45)[2], _frames(None)[2]
    assert overlay.shown_in(drawn) and not overlay.shown_in(bare)


def test_the_watch_undoes_the_panel_only_while_it_is_drawn() -> None:
    """Its going, and its coming back, are believed after two checks in a row (a player
    passing over its edge for one check is not its going)."""
    overlay = find_overlay(_frames(0.45), CLOTH_QUAD)
    drawn, bare = _frames(0.45)[0], _frames(None)[0]
    watch = PanelWatch(overlay)
    shown = []
    for frame in (drawn, bare, drawn, bare, bare, bare, drawn, drawn):
        watch.check(frame, CLOTH_QUAD)
        shown.append(watch.shown is not None)
    assert shown == [True, True, True, True, False, False, False, True]
    assert PanelWatch(None).check(drawn, CLOTH_QUAD) is False and PanelWatch(None).shown is None


def test_a_panel_undone_once_it_went_blinds_the_finder_until_it_is_let_go() -> None:
    """The box no longer drawn, undoing it brightens the cloth 1 / alpha times and yellow
    under it is no ball; let go (:class:`PanelWatch`'s word), yellow is seen where it lies."""
    follower = _follower(UNDER)
    assert Ball.YELLOW not in follower.step(_dimmed_frame(0, drawn=False))
    follower.finder.show(None)
    seen = follower.step(_dimmed_frame(1, drawn=False))
    yellow = seen[Ball.YELLOW]
    assert np.hypot(yellow.x * 1000.0 - YELLOW_AT[0], yellow.y * 1000.0 - YELLOW_AT[1]) < 1.0
    follower.finder.show(UNDER)
    assert Ball.YELLOW in follower.step(_dimmed_frame(2))


def test_a_panel_first_drawn_later_is_found_at_the_next_search() -> None:
    """Graphics shown after the first seconds: looked for every thirty seconds on the median
    of the last five frames checked, as at the start."""
    bare, drawn = _frames(None), _frames(0.45)
    watch = PanelWatch(None)
    shown = bare * 10 + drawn * 12  # a frame a second, the box drawn from 30 s
    checks = [Frame(k, float(k), f.y, f.u, f.v) for k, f in enumerate(shown)]
    found = [watch.check(frame, CLOTH_QUAD) for frame in checks]
    assert found == [False] * 60 + [True] + [False] * 5  # at 30 s the median is bare; at 60 s the box
    assert watch.shown is not None and (watch.shown.x0, watch.shown.y0, watch.shown.x1, watch.shown.y1) == BOX
