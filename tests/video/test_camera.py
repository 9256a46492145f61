"""The camera model and its estimate from the table's homography."""

from __future__ import annotations

import numpy as np
import pytest

from carom.video.camera import Camera, apply_homography, from_plane_homography, homography

CORNERS = np.array([[0.0, 0.0], [1.42, 0.0], [1.42, 2.84], [0.0, 2.84]])


def test_an_oblique_camera_is_read_back_from_the_table_it_sees() -> None:
    camera = Camera.look_at(1920, 1080, (0.7, -1.5, 2.4), (0.71, 1.3, 0.0), 1300.0)
    seen = apply_homography(camera.plane_homography(0.037), CORNERS)
    found = from_plane_homography(homography(CORNERS, seen), 0.037, 1920, 1080, 0.0, 3.5)
    assert found.f == pytest.approx(1300.0, rel=1e-6)
    assert np.allclose(found.centre, camera.centre, atol=1e-6)
    ball = np.array([[0.4, 2.1, 0.03075]])
    assert np.allclose(found.to_plane(camera.project(ball), 0.03075), ball[:, :2], atol=1e-9)


def test_a_camera_looking_straight_down_takes_its_height_from_the_prior() -> None:
    camera = Camera.look_at(1920, 1080, (0.71, 1.42, 2.8), (0.71, 1.42, 0.0), 1500.0, up=(-1.0, 0.0, 0.0))
    seen = apply_homography(camera.plane_homography(0.037), CORNERS)
    found = from_plane_homography(homography(CORNERS, seen), 0.037, 1920, 1080, 0.0, 3.5)
    assert found.centre[2] - 0.037 == pytest.approx(3.5, rel=1e-6)
    # the table's plane itself is seen right whatever the height
    assert np.allclose(apply_homography(found.plane_homography(0.037), CORNERS), seen, atol=1e-6)


def test_undistorting_undoes_the_lens() -> None:
    camera = Camera.look_at(1280, 720, (0.7, -1.0, 2.0), (0.7, 1.4, 0.0), 900.0, k1=-0.12)
    points = np.array([[0.1, 0.2, 0.0], [1.3, 2.7, 0.03], [0.7, 1.4, 0.0]])
    pixels = camera.project(points)
    assert np.allclose(camera.to_plane(pixels[:1], 0.0), points[:1, :2], atol=1e-9)
    assert np.allclose(camera.to_pixels(camera.undistort(pixels)), pixels, atol=1e-6)


def test_a_camera_looking_straight_down_keeps_the_prior_whatever_its_corners_noise() -> None:
    # the perspective of a table seen square on is below a pixel: a corner measured half
    # a pixel off can make the orthogonality conditions give a camera hundreds of metres up
    camera = Camera.look_at(1920, 1080, (0.69, 1.48, 3.1), (0.69, 1.48, 0.0), 1672.0, up=(-1.0, 0.0, 0.0))
    seen = apply_homography(camera.plane_homography(0.037), CORNERS)
    noise = np.random.default_rng(0).normal(0.0, 0.7, (200, 4, 2))
    heights = [from_plane_homography(homography(CORNERS, seen + n), 0.037, 1920, 1080, 0.0, 3.5).centre[2]
               for n in noise]
    assert np.allclose(heights, 3.5 + 0.037, atol=0.05)
