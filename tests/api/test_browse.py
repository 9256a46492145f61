"""A match to browse in a notebook: the sequence of its plays, a short repr,
an HTML scoresheet, the plays as records and a data frame, pictures of a position and a
stroke, writing it, and reading it from a path, its text, its bytes or an open file."""

from __future__ import annotations

import builtins
import io
import json
from pathlib import Path
from typing import Any

import pytest

import carom
from carom.core.errors import CaromError, InputError, MissingExtra, RecordError
from carom.notation.browse import Play
from carom.notation.matchfile import lines_of, read_match
from tests.helpers import header, text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
THREE_CUSHION = EXAMPLES / "three-cushion.carom.jsonl"


@pytest.fixture(scope="module")
def match() -> carom.Match:
    return carom.read(THREE_CUSHION)


def test_a_match_is_the_sequence_of_its_plays(match: carom.Match) -> None:
    assert len(match) == len(match.rulings) > 10
    first = match[0]
    assert isinstance(first, Play) and first.ruling == match.rulings[0]
    assert dict(match.records)[first.line] is first.record and first.line == first.ruling.line
    assert [play.ruling for play in match] == list(match.rulings)
    assert match[-1] == match.plays[-1] and match[1:3] == match.plays[1:3]
    with pytest.raises(CaromError, match=rf"no play {10**6}: the match has {len(match)}"):
        match[10**6]
    with pytest.raises(CaromError, match='indexed by a play\'s number, not "x"'):
        match["x"]  # type: ignore[call-overload]


def test_a_match_shows_itself_in_a_line(match: carom.Match) -> None:
    shown = repr(match)
    assert shown == ("<Match three-cushion, large: 'Daniel Šimko' – 'Barbora Hrušková', 25 points, "
                     f"50 innings, 21:25, finished, {len(match)} plays>")
    assert len(shown) < 120


def test_a_name_with_escape_codes_is_shown_not_obeyed() -> None:
    match = read_match(lines_of(text(header(players=("\x1b[2JEve", "Bob\x07")), "opener 0", "carom")))
    assert "\x1b" not in repr(match) and "\\x1b[2JEve" in repr(match)
    assert "\x1b" not in match.scoresheet() and "\\x1b[2JEve" in match.scoresheet()
    assert "\x07" not in match._repr_html_()


def test_the_html_scoresheet_escapes_names_and_holds_the_table(match: carom.Match) -> None:
    html = match._repr_html_()
    assert html.count("<table") == 1 and html.count("<svg") == 1 and "Daniel Šimko" in html
    attack = read_match(lines_of(text(header(players=("<script>x</script>", "B")), "opener 0", "carom")))
    assert "<script>" not in attack._repr_html_() and "&lt;script&gt;" in attack._repr_html_()


def test_the_plays_as_records_and_as_a_data_frame(match: carom.Match) -> None:
    rows = match.to_records()
    assert len(rows) == len(match) and json.loads(json.dumps(rows)) == rows
    assert rows[0] == {"line": 5, "set": 1, "inning": 1, "player": 1, "name": "Barbora Hrušková",
                       "record": "stroke", "ball": "white", "events": 3, "points": 0, "fouls": [],
                       "cites": ["C1", "F1", "3C1"], "ends_inning": True}
    frame = match.to_pandas()
    assert list(frame.columns) == list(rows[0]) and len(frame) == len(match)
    assert int(frame.points.sum()) == sum(match.state.points_total)


def test_to_pandas_says_how_to_install_pandas_when_it_is_missing(match: carom.Match,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def without_pandas(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pandas":
            raise ModuleNotFoundError("No module named 'pandas'")
        return real(name, *args, **kwargs)

    monkeypatch.delitem(__import__("sys").modules, "pandas", raising=False)
    monkeypatch.setattr(builtins, "__import__", without_pandas)
    with pytest.raises(MissingExtra, match=r"pip install 'carom\[pandas\]'") as missing:
        match.to_pandas()
    assert isinstance(missing.value, ImportError) and isinstance(missing.value, CaromError)


def test_a_position_and_a_stroke_are_drawn_as_svg(match: carom.Match) -> None:
    start = carom.starting_position("large", "white")
    picture = carom.draw(start)
    assert picture.startswith("<svg") and picture._repr_svg_() == picture
    assert picture.count('class="ball ') == 3
    _, stroke = match.records[3]
    drawn = carom.draw(stroke, "large", discipline="three-cushion")
    assert drawn._repr_svg_().count('class="ball ') == 6  # where they were, faint, and where they stopped
    assert match.draw(5)._repr_svg_().startswith("<svg")
    with pytest.raises(CaromError, match=r"position: white at \(1.2, 0.7\) is off the small table"):
        carom.draw({"white": (1.2, 0.7)}, "small")
    with pytest.raises(CaromError, match="value: expected a Position or a Stroke, got 42"):
        carom.draw(42)  # type: ignore[arg-type]


def test_a_match_is_written_and_read_back(match: carom.Match, tmp_path: Path) -> None:
    path = tmp_path / "copy.carom.jsonl"
    match.write(path)
    assert carom.read(path) == match and path.read_text(encoding="utf-8") == match.text()
    with pytest.raises(CaromError, match="path: expected the name of a file, got 3"):
        match.write(3)  # type: ignore[arg-type]


def test_read_takes_a_path_the_text_the_bytes_an_open_file_or_the_lines(match: carom.Match) -> None:
    data = THREE_CUSHION.read_bytes()
    content = data.decode("utf-8")
    for source in (str(THREE_CUSHION), THREE_CUSHION, content, data, bytearray(data), io.BytesIO(data),
                   content.splitlines(keepends=True)):
        assert carom.read(source) == match, type(source)
    with THREE_CUSHION.open("rb") as handle:
        assert carom.read(handle) == match


@pytest.mark.parametrize("source", [None, 42, {"format": "carom/1"}])
def test_read_refuses_what_is_no_match_file_naming_the_argument(source: object) -> None:
    with pytest.raises(InputError, match=r"^source: expected a path, the text of a match file"):
        carom.read(source)  # type: ignore[arg-type]


def test_read_refuses_lines_that_are_not_text() -> None:
    with pytest.raises(RecordError, match=r"^line 2: expected a line of text, got 7"):
        carom.read([json.dumps(header()) + "\n", 7])  # type: ignore[list-item]


def test_a_tracked_file_read_as_a_match_says_what_reads_it() -> None:
    tracked = Path(__file__).resolve().parents[1] / "data" / "real-3c-match-part1.jsonl"
    with pytest.raises(RecordError, match=r"^line 1: header: format must be .*carom track judges it, "
                                          r"carom.track.read_tracked reads it"):
        carom.read(tracked)


def test_a_file_of_one_endless_line_is_refused_at_its_bound(tmp_path: Path) -> None:
    from carom.core import sources

    path = tmp_path / "long.carom.jsonl"
    path.write_text(json.dumps(header()) + "\n" + " " * 5000 + "\n", encoding="utf-8")
    lines = list(sources.text_lines(path.open("rb"), max_line=6000))
    assert len(lines) == 2
    with pytest.raises(InputError, match=r"^line 2: the line is longer than 4,000 characters"):
        list(sources.text_lines(path.open("rb"), max_line=4000))
