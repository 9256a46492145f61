"""``/static/x`` serves ``x`` from whichever area has it (:data:`carom.web.shared.deps.STATIC_AREAS`):
two areas with a file of one name would serve one of them on both areas' pages (the
tables' devices once loaded the training table's script)."""

from __future__ import annotations

from collections import Counter

from carom.web.shared.deps import STATIC_AREAS, WEB


def test_no_two_areas_have_a_static_file_of_one_name() -> None:
    names = Counter(path.name for area in STATIC_AREAS for path in (WEB / area / "static").iterdir())
    assert [name for name, count in names.items() if count > 1] == []
