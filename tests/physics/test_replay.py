"""The replay of tracked object balls (``carom.physics.replay``) and their start model
(``carom.physics.object_ball_start``), on small made-up tracks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from carom.core.errors import InputError
from carom.physics.object_ball_start import approach, cut_sense, read_match, start_spin
from carom.physics.params import DEFAULT_PARAMS
from carom.physics.replay import load_cases, score_case, tracked_cushions

from .conftest import LARGE, R


def _case(w: list[float] | None = None) -> dict:  # type: ignore[type-arg]
    """A ball sent straight at the bottom cushion and tracked as it comes back."""
    contact = (0.5 - R) / 0.8
    samples = []
    for k in range(60):
        t = 0.02 * k
        y = 0.5 - 0.8 * t if t < contact else R + 0.4 * (t - contact)
        samples.append([t, 0.71, y])
    case = {"shot": 1, "ball": "red", "t0": 0.0, "r": [0.71, 0.5], "v": [0.0, -0.8], "samples": samples}
    if w is not None:
        case["w"] = w
    return case


def test_a_case_without_spin_starts_spinless_and_one_with_spin_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"cases": [_case(), _case([1.0, 2.0, 3.0])]}))
    plain, spun = load_cases(path)
    assert plain.w == (0.0, 0.0, 0.0)
    assert spun.w == (1.0, 2.0, 3.0)
    assert plain.cushions == spun.cushions and len(plain.cushions) == 1


def test_a_cushion_contact_is_a_close_local_minimum_of_the_distance_to_the_cushion_line() -> None:
    t = np.linspace(0.0, 1.0, 51)
    y = R + np.abs(t - 0.5)            # touches the bottom cushion line at 0.5 s
    xy = np.column_stack((np.full_like(t, 0.71), y))
    assert tracked_cushions(t, xy, LARGE) == (pytest.approx(0.5),)
    assert tracked_cushions(t, xy + np.array([0.0, 0.05]), LARGE) == ()   # never within 2 cm


def test_a_scored_case_without_a_second_cushion_has_no_error_there(tmp_path: Path) -> None:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"cases": [_case()]}))
    scored = score_case(load_cases(path)[0], DEFAULT_PARAMS)
    assert scored.after[1] is None and scored.after[0] is not None and scored.rmse >= 0.0


def test_the_cut_spins_the_object_ball_the_way_the_strikers_surface_drags_it() -> None:
    # the object ball goes up the table; the striker came from below and to the left, so
    # its surface slid across the object ball's near side towards +x: counter-clockwise
    assert cut_sense((0.0, 1.0), np.array([1.0, 1.0])) == 1.0
    assert cut_sense((0.0, 1.0), np.array([-1.0, 1.0])) == -1.0
    assert cut_sense((0.0, 1.0), np.array([0.0, 2.0])) == 0.0   # square on: no cut
    assert cut_sense((0.0, 1.0), None) == 0.0                    # no striker tracked


def test_the_start_spin_is_backspin_and_the_cuts_side_spin_in_proportion_to_the_speed() -> None:
    wx, wy, wz = start_spin((2.0, 0.0), 1.0, backspin=0.1, side=0.2, radius=R)
    assert (wx, wy) == (0.0, pytest.approx(-0.1 * 2.0 / R))     # rolling along +x would be +v/R
    assert wz == pytest.approx(0.2 * 2.0 / R)
    assert start_spin((0.0, 1.0), -1.0, 0.0, 0.2, R)[2] == pytest.approx(-0.2 / R)


def test_the_striker_is_the_ball_nearest_the_object_ball_when_it_starts() -> None:
    t = [0.0, 0.04, 0.08, 0.12, 0.16]
    stroke = {"shot": 7, "balls": {
        "white": {"t": t, "x": [0.5 + 0.5 * s for s in t], "y": [1.0] * 5},
        "yellow": {"t": t, "x": [0.1] * 5, "y": [0.1] * 5},
        "red": {"t": t, "x": [0.62] * 5, "y": [1.0] * 5}}}
    v = approach(stroke, "red", (0.62 + 0.0, 1.0), 0.16)
    assert v is not None and v[0] == pytest.approx(0.5) and v[1] == pytest.approx(0.0)
    far = {"shot": 7, "balls": {"yellow": stroke["balls"]["yellow"], "red": stroke["balls"]["red"]}}
    assert approach(far, "red", (0.62, 1.0), 0.16) is None        # no ball close enough


def test_a_match_file_line_that_is_not_a_stroke_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_text('{"shot": 1, "balls": {}}\n[1, 2]\n')
    with pytest.raises(InputError) as caught:
        read_match(path)
    assert caught.value.line == 2
