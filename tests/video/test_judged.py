"""A video's strokes judged when one of them lacks a ball the video never saw
(``carom.video.judged``, ``carom video --judge``): that stroke is said in its place and the
others are judged; nothing of them is lost."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from carom.core.table import TABLES
from carom.rules.disciplines import DISCIPLINES
from carom.track import TrackedRuling
from carom.video.judged import NotJudged, apart, judge_strokes
from tests.cli_helpers import run

REAL = Path(__file__).resolve().parents[1] / "data" / "real-3c-match-part1.jsonl"
RULES, TABLE = DISCIPLINES["three-cushion"], TABLES["large"]


def _strokes(count: int) -> list[dict[str, Any]]:
    lines = [json.loads(text) for text in REAL.read_text().splitlines()[:count]]
    for line in lines:
        line["doubts"] = []
    return lines


def _without_yellow(line: dict[str, Any]) -> dict[str, Any]:
    blind = dict(line, balls={k: v for k, v in line["balls"].items() if k != "yellow"})
    blind["doubts"] = ["yellow never seen: the stroke cannot be judged"]
    return blind


def test_a_stroke_without_a_ball_is_set_apart_and_the_others_judged_as_without_it() -> None:
    lines = _strokes(3)
    alone = judge_strokes([lines[0], lines[2]], RULES, TABLE)
    judged = judge_strokes([lines[0], _without_yellow(lines[1]), lines[2]], RULES, TABLE)
    assert isinstance(judged[1], NotJudged)
    assert judged[1].shot == lines[1]["shot"]
    assert judged[1].why == "line 2: balls: no track for yellow"
    first, last = judged[0], judged[2]
    assert isinstance(first, TrackedRuling) and isinstance(last, TrackedRuling)
    assert [first.tracked.shot, last.tracked.shot] == [lines[0]["shot"], lines[2]["shot"]]
    assert [(r.verdict, r.confidence) for r in (first, last)] == [
        (r.verdict, r.confidence) for r in alone if isinstance(r, TrackedRuling)]
    rulings, left = apart(judged)
    assert rulings == [first, last]
    assert left == [(2, judged[1])]


def test_no_stroke_readable_gives_only_their_reasons() -> None:
    judged = judge_strokes([_without_yellow(line) for line in _strokes(2)], RULES, TABLE)
    assert [type(entry) for entry in judged] == [NotJudged, NotJudged]


@pytest.fixture
def blind_video(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A "video" whose tracker gives three strokes, yellow never seen in the second."""
    lines = _strokes(3)
    lines[1] = _without_yellow(lines[1])

    def track_video(source: str, settings: object, progress: object = None) -> Iterator[dict[str, Any]]:
        yield from lines

    monkeypatch.setattr("carom.video.pipeline.track_video", track_video)
    path = tmp_path / "clip.mp4"
    path.write_bytes(b"")
    return path


def test_judge_says_the_stroke_not_judged_judges_the_others_and_exits_1(blind_video: Path,
                                                                        tmp_path: Path) -> None:
    out, match = tmp_path / "tracked.jsonl", tmp_path / "match.carom.jsonl"
    result = run("video", blind_video, "--judge", "-o", out, "--carom-out", match)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    shots = [json.loads(text)["shot"] for text in REAL.read_text().splitlines()[:3]]
    assert f"shot {shots[1]}  not judged: line 2: balls: no track for yellow" in result.stdout
    ruled = [text for text in result.stdout.splitlines() if text.startswith("shot ") and "confidence" in text]
    assert len(ruled) == 2
    assert "2 strokes:" in result.stdout
    assert f"shot {shots[1]} cannot be judged" in result.stderr
    assert "not written: 1 stroke(s) not judged" in result.stderr
    assert not match.exists()  # a match missing a stroke would put the score wrong
    assert len(out.read_text().splitlines()) == 3  # every tracked stroke kept
