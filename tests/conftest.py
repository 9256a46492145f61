"""Test settings shared by every part of the suite.

Hypothesis explores new random examples on every local run; CI (``.ci/run`` sets
``HYPOTHESIS_PROFILE=ci``) replays a fixed derandomized set, so that a landing
depends on the code, not on the luck of the draw. Examples that once found a bug
stay in the tests as ``@example``.

The rules each collected test cites are kept for ``tests/test_rule_coverage.py``
(``tests/rule_citations.py``).

The review's stroke read back is guarded by one processor second (``CAROM_FIT_SECONDS``),
which a busy machine stretches: the tests, and the servers they start, give it a minute,
so that what they check (the same fit each time, a stroke read back as played) does not
hang on the machine's load. The simulations still end every fit they make.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tests.rule_citations import record

os.environ.setdefault("CAROM_FIT_SECONDS", "60")
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


LONG_FIRST = ("web", "video")
"""The directories of ``tests/`` whose tests are the longest (a real server, a browser, a
rendered video), run first: on the workers of ``pytest -n``, the short tests then fill
the end instead of one worker finishing a minute-long browser test while the other idles."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Before any deselection (``-k``, ``-m``): every test collected, with its citations;
    then the tests of :data:`LONG_FIRST` put first, each directory's in the order collected."""
    record(config, items)
    items.sort(key=_rank)


def _rank(item: pytest.Item) -> int:
    tests = Path(__file__).parent
    path = Path(item.path)
    top = path.relative_to(tests).parts[0] if path.is_relative_to(tests) else ""
    return LONG_FIRST.index(top) if top in LONG_FIRST else len(LONG_FIRST)
