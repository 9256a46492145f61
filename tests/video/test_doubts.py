"""A stroke line's ``doubts`` read back: the video's phrases beside their English, plain
strings (an older line, another tracker) as their English, anything else refused naming
the field."""

from __future__ import annotations

from typing import Any

import pytest

from carom.core.balls import Ball
from carom.notation.said import Said
from carom.track.errors import TrackFormatError
from carom.video.doubts import entry, read_doubts

COVERED = Said("%(ball)s not seen after frame %(frame)s (%(t)s s): it left the picture or was covered",
               ball=Ball.YELLOW, frame="45", t="1.500")


def test_a_doubt_is_written_as_its_english_and_its_phrase() -> None:
    written = entry(COVERED)
    assert written == {"what": "yellow not seen after frame 45 (1.500 s): it left the picture or was covered",
                       "said": {"said": COVERED.template,
                                "values": {"ball": {"ball": "yellow"}, "frame": "45", "t": "1.500"}}}


def test_both_forms_are_read_back() -> None:
    old = "red not seen after frame 120 (4.000 s): its last place before it is used"
    assert read_doubts([entry(COVERED), old, {"what": "a tracker's words"}]) == [
        entry(COVERED), {"what": old}, {"what": "a tracker's words"}]
    assert read_doubts(None) == [] and read_doubts([]) == []


@pytest.mark.parametrize(("doubts", "field", "said"), [
    ("yellow not seen", "doubts", "expected a list of doubts"),
    ([42], "doubts[0]", 'expected words or {"what": words, "said": phrase}, got 42'),
    (["fine", {"what": 42}], "doubts[1].what", "expected the doubt in words, got 42"),
    ([{"said": {}}], "doubts[0].what", "expected the doubt in words, got null"),
    ([{"what": "x", "said": "x"}], "doubts[0].said", 'expected a phrase and its values, got "x"'),
    ([{"what": "x", "why": 1}], "doubts[0]", 'no field "why" (what, said)'),
    ([["x" * 100]], "doubts[0]", "…"),
])
def test_a_malformed_doubt_is_refused_naming_the_field(doubts: Any, field: str, said: str) -> None:
    with pytest.raises(TrackFormatError) as refused:
        read_doubts(doubts, 7)
    assert refused.value.field == field and said in refused.value.reason
    assert str(refused.value).startswith(f"line 7: {field}: ")
    assert len(refused.value.reason) < 120
