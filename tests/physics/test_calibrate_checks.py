"""``tools/calibrate.py`` holds every fit to check 16 (docs/physics.md, "Second round"):
its corner-5 strokes are the test's, and its penalty is zero exactly where the test passes."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from carom.physics.params import DEFAULT_PARAMS
from tests.helpers import script_module

from .test_checks_real_table import corner_five

TOOL = Path(__file__).resolve().parents[2] / "tools" / "calibrate.py"


@pytest.fixture(scope="module")
def calibrate() -> ModuleType:
    return script_module(TOOL, "carom_tools_calibrate")


def test_the_fit_plays_check_16_s_strokes_as_the_test_does(calibrate: ModuleType) -> None:
    for speed, side, height in calibrate.CORNER_FIVE:
        mine = calibrate.corner_five(DEFAULT_PARAMS, speed, side, height)
        theirs = corner_five(3.0, speed, side, height)
        assert len(mine) == len(theirs)
        for (x, y), (_, tx, ty) in zip(mine, theirs, strict=True):
            # the test reads positions from paths sampled every 2 ms: within 0.03 diamond
            assert x == pytest.approx(tx, abs=0.03) and y == pytest.approx(ty, abs=0.03)


def test_the_defaults_keep_check_16_and_a_grippier_cushion_does_not(calibrate: ModuleType) -> None:
    assert calibrate.corner_penalty(DEFAULT_PARAMS) == 0.0
    # version 3's values with a grip of 0.35: the 3 m/s stroke runs short of the corner
    assert calibrate.corner_penalty(DEFAULT_PARAMS.replace(han_grip=0.35)) > 0.0


def test_free_and_fix_choose_the_values_fitted(calibrate: ModuleType,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # a value held is refused unless it is one the model fits, a value freed unless listed
    for argv in (["--fix", "mu_slide=0.2", "--no-fit"], ["--fix", "han_grip=x", "--no-fit"],
                 ["--fix", "han_grip=2", "--no-fit"], ["--free", "han_e", "--no-fit"]):
        with pytest.raises(SystemExit) as stop:
            calibrate.main(argv)
        assert stop.value.code == 2
    assert "han_grip" in capsys.readouterr().err
    assert calibrate.main(["--fix", "han_grip=0", "--free", "mu_slide", "--no-fit"]) == 0
    assert "grip = 0.0000" in capsys.readouterr().out
