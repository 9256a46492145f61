"""The public API: ``import carom`` is light and lazy, and a match is one object."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import carom
from carom.core.balls import Ball
from carom.core.errors import RecordError
from carom.notation.matchfile import Match, lines_of, read_match, replay_file
from carom.notation.scoresheet import scoresheet
from carom.rules.disciplines import discipline
from carom.rules.referee import StrokeContext, judge
from tests.helpers import header, stroke, text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HEAVY = ("numpy", "numba", "typer", "rich", "fastapi", "starlette", "sqlalchemy", "jinja2", "gymnasium")


def _imported_after(code: str) -> list[str]:
    probe = f"import sys\n{code}\nprint(__import__('json').dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return list(json.loads(out.stdout))


def test_import_carom_and_its_light_api_import_no_numpy_nor_the_web_stack() -> None:
    assert _imported_after("import carom") == []
    assert _imported_after("import carom; carom.read, carom.judge, carom.Match, carom.Position") == []
    assert "numpy" in _imported_after("import carom; carom.simulate")


def test_every_public_name_loads_and_the_track_package_is_not_shadowed() -> None:
    for name in carom.__all__:
        assert getattr(carom, name) is not None
    track = importlib.import_module("carom.track")
    assert carom.track_stroke is track.track_stroke and carom.track is track
    assert set(carom.__all__) == set(carom._PUBLIC) and set(carom.__all__) <= set(dir(carom))
    with pytest.raises(AttributeError, match="no attribute 'snooker'"):
        carom.snooker  # noqa: B018


def test_a_match_is_read_replayed_and_written_back_as_one_object() -> None:
    path = EXAMPLES / "three-cushion.carom.jsonl"
    match = carom.read(path)
    rulings: list[object] = []
    assert replay_file(path, rulings.append) == match.state and list(match.rulings) == rulings
    assert match.scoresheet() == scoresheet(match.state, match.rulings, match.header.players)
    again = read_match(lines_of(match.text()))
    assert again == match
    assert Match.of(match.header, [r for _, r in match.records]) == match
    assert match._repr_svg_().count('class="ball ') == 3


def test_a_lenient_reading_keeps_its_errors_on_the_match() -> None:
    lines = text(header(points=2, equalizing=False), "opener 0", "carom", "inning 5", "carom")
    match = carom.read(lines_of(lines), strict=False)
    assert [e.line for e in match.errors] == [4] and match.state.finished
    with pytest.raises(RecordError, match=r"^line 4: "):
        carom.read(lines_of(lines))


def test_the_context_builder_has_the_defaults_of_an_inning_s_first_stroke_z2_o3() -> None:
    balkline = discipline("balkline-47/2")
    built = StrokeContext.of("balkline-47/2")
    assert built == StrokeContext(balkline, carom.table("large"), Ball.WHITE, False, None,
                                  (0,) * len(balkline.zones(carom.table("large"))))
    s = stroke(Ball.WHITE, "red top left right yellow")
    assert carom.judge(s) == judge(StrokeContext.of("three-cushion"), s)
    assert carom.judge(s).points == 1 and carom.judge(s, opening=True).points == 1
    assert carom.judge(stroke(Ball.WHITE, "yellow top left right red"), opening=True).fouls == ("O3",)
    assert carom.judge(s, cue_ball=Ball.YELLOW).fouls == ("F13",)
