"""``/review`` of a video whose tracker left a stroke without a ball (the review is made of
the others and the page says which stroke was left out and why) and whose strokes carry the
video's own doubts (shown with the stroke, in the page's language, the stroke doubtful)."""

from __future__ import annotations

import html
import json
import pickle
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from carom.core.balls import Ball
from carom.notation.said import Said
from carom.video.doubts import entry
from carom.web.review import video_work
from carom.web.review.log import parsed, tracked_strokes

REAL = Path(__file__).resolve().parents[2] / "data" / "real-3c-match-part1.jsonl"
NEVER_SEEN = Said("%(ball)s never seen: the stroke cannot be judged", ball=Ball.YELLOW)
LEFT = Said("%(ball)s not seen after frame %(frame)s (%(t)s s): it left the picture or was covered",
            ball=Ball.RED, frame="212", t="3.520")


def _lines(count: int) -> list[dict[str, Any]]:
    """The real match's first strokes as the video writes them: the second without yellow
    (the video never saw it), the third with a doubt of the video's."""
    lines = [json.loads(text) for text in REAL.read_text().splitlines()[:count]]
    for number, line in enumerate(lines):
        line["doubts"] = []
        line["video"] = {"time": 10.0 * number}
    lines[1] = dict(lines[1], balls={k: v for k, v in lines[1]["balls"].items() if k != "yellow"},
                    doubts=[entry(NEVER_SEEN)])
    lines[2]["doubts"] = [entry(LEFT)]
    return lines


def _track(lines: list[dict[str, Any]], folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """The review ``video_work.track`` makes of a "video" whose tracker gives ``lines``."""
    def track_video(*args: Any, **kwargs: Any) -> Iterator[dict[str, Any]]:
        yield from lines

    monkeypatch.setattr("carom.video.pipeline.track_video", track_video)
    cut: list[list[dict[str, Any]]] = []
    monkeypatch.setattr(video_work, "cut_stills", lambda path, where, strokes, records: cut.append(strokes))
    folder.mkdir(exist_ok=True)
    made = video_work.track(str(folder / "video"), str(folder), "clip.mp4", "three-cushion", "",
                            ("Anna", "Boris"), "0" * 32, 60.0)
    header, records = pickle.loads(made)
    assert [line["shot"] for line in cut[0]] == [line["shot"] for line in lines if "yellow" in line["balls"]]
    return header, records


@pytest.fixture
def lines() -> list[dict[str, Any]]:
    return _lines(6)


@pytest.fixture
def review(app: Any, organiser: Any, lines: list[dict[str, Any]], tmp_path: Path,
           monkeypatch: pytest.MonkeyPatch) -> int:
    from carom.web.shared import auth

    header, records = _track(lines, tmp_path / "job", monkeypatch)
    return int(app.state.services.book.create(header, auth.new_token(), records, by=None))


def test_the_stroke_without_a_ball_is_left_out_and_the_others_judged(lines: list[dict[str, Any]],
                                                                     tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    header, records = _track(lines, tmp_path / "job", monkeypatch)
    strokes = tracked_strokes(parsed(records))
    assert [s["shot"] for s in strokes] == [line["shot"] for k, line in enumerate(lines) if k != 1]
    left = header.extra["not_judged"]
    assert len(left) == 1
    assert left[0]["shot"] == lines[1]["shot"] and left[0]["line"] == 2
    assert left[0]["why"] == "line 2: balls: no track for yellow"
    assert [d["what"] for d in left[0]["doubts"]] == ["yellow never seen: the stroke cannot be judged"]


def test_no_stroke_judged_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blind = [dict(line, balls={k: v for k, v in line["balls"].items() if k != "yellow"})
             for line in _lines(3)]
    said = r"clip.mp4: no stroke could be judged \(line 1: balls: .*; 3 stroke"
    with pytest.raises(video_work.Unreadable, match=said):
        _track(blind, tmp_path / "job", monkeypatch)


def test_a_video_doubt_makes_the_stroke_doubtful_and_is_kept_beside_the_rulings(
        lines: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, records = _track(lines, tmp_path / "job", monkeypatch)
    third = next(s for s in tracked_strokes(parsed(records)) if s["shot"] == lines[2]["shot"])
    assert third["doubtful"] is True
    assert third["video_doubts"] == [entry(LEFT)]
    others = [s for s in tracked_strokes(parsed(records)) if s["shot"] != lines[2]["shot"]]
    assert all(s["video_doubts"] == [] for s in others)


@pytest.mark.parametrize(("lang", "heading", "left_out", "seen"), [
    ("en", "1 stroke of the video was not judged", "yellow never seen: the stroke cannot be judged",
     "red not seen after frame 212 (3.520 s): it left the picture or was covered"),
    ("sk", "1 úder videa nebol posúdený", "žltá nebola ani raz viditeľná: úder nemožno posúdiť",
     "červená nebola viditeľná po snímke 212 (3,520 s): opustila obraz alebo bola zakrytá"),
])
def test_the_page_says_the_stroke_not_judged_and_the_videos_doubts_in_its_language(
        organiser: Any, review: int, lines: list[dict[str, Any]], lang: str, heading: str,
        left_out: str, seen: str) -> None:
    page = organiser.get(f"/review/{review}", headers={"Accept-Language": lang})
    assert page.status_code == 200
    text = html.unescape(page.text)
    notice = re.search(r'<div class="not-judged" id="not-judged".*?</div>', text, re.S)
    assert notice, text[:3000]
    assert f'<li data-shot="{lines[1]["shot"]}">' in notice.group(0)
    assert heading in notice.group(0) and left_out in notice.group(0)
    shots = re.findall(r'<li class="([^"]*)" data-index="(\d+)" data-shot="(\d+)"', text)
    assert len(shots) == len(lines) - 1 and str(lines[1]["shot"]) not in [s for _, _, s in shots]
    cls, index, _ = next(s for s in shots if s[2] == str(lines[2]["shot"]))
    assert "doubtful" in cls
    chosen = html.unescape(organiser.get(f"/review/{review}?stroke={index}",
                                         headers={"Accept-Language": lang}).text)
    doubts = re.search(r'<dd id="video-doubts">(.*?)</dd>', chosen, re.S)
    assert doubts and seen in doubts.group(1)
    data = organiser.get(f"/review/{review}/strokes/{index}.json").json()
    assert data["video_doubts"] == [entry(LEFT)] and data["doubtful"] is True


def test_a_tracked_file_without_a_ball_is_still_refused_with_its_line(organiser: Any,
                                                                      lines: list[dict[str, Any]]) -> None:
    content = "".join(json.dumps(line) + "\n" for line in lines).encode()
    response = organiser.post("/review", files={"file": ("tracked.jsonl", content, "application/x-ndjson")},
                              data={"discipline": "three-cushion"}, follow_redirects=False)
    assert response.status_code == 422
    assert "line 2: balls: no track for yellow" in html.unescape(response.text)


def test_a_tracked_file_with_malformed_doubts_is_refused_with_line_and_field(
        organiser: Any, lines: list[dict[str, Any]]) -> None:
    good = [line for k, line in enumerate(lines) if k != 1]
    good[1]["doubts"] = [7]
    content = "".join(json.dumps(line) + "\n" for line in good).encode()
    response = organiser.post("/review", files={"file": ("tracked.jsonl", content, "application/x-ndjson")},
                              data={"discipline": "three-cushion"}, follow_redirects=False)
    assert response.status_code == 422
    assert "line 2: doubts[0]:" in html.unescape(response.text)
