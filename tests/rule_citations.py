"""Which rules a test cites, as the test runner sees it (docs/development.md).

A test cites a rule id of the catalogue (``carom.rules.catalog``) through its marker,
``@pytest.mark.rule("Z4", "Z7")``, through its parametrised id (``test_x[F3-...]``) or
through its name (``test_z4_...``). Comments and docstrings cite nothing: the coverage
check (``tests/test_rule_coverage.py``) counts only what runs.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from carom.rules.catalog import RULES
from carom.rules.competition import COMPETITION_RULES

KNOWN = frozenset((*RULES, *COMPETITION_RULES))
"""The rulebook's ids and carom's competition rules (``carom.rules.competition``)."""

CITATIONS = pytest.StashKey[dict[str, list[str]]]()
"""The session's collected tests and the rule ids each cites, keyed by node id."""
MARKED = pytest.StashKey[dict[str, list[str]]]()
"""The ids each test's ``rule`` markers name, known to the catalogue or not."""
ENV = "CAROM_RULE_CITATIONS"
"""When set, the collection's citations are also written there, as JSON."""
_WORD = re.compile(r"[A-Za-z0-9]+")


def marked(item: pytest.Item) -> list[str]:
    return [str(arg) for mark in item.iter_markers("rule") for arg in mark.args]


def cited(item: pytest.Item) -> list[str]:
    """The rule ids ``item`` cites: its markers, and the words of its name (the
    parametrised id included) that are rule ids."""
    ids = {i for i in marked(item) if i in KNOWN}
    ids |= {w.upper() for w in _WORD.findall(item.name) if w.upper() in KNOWN}
    return sorted(ids)


def runs(item: pytest.Item) -> bool:
    """False for a test that is skipped whatever happens (a ``skip`` marker, or a
    ``skipif`` whose condition is already true)."""
    if any(True for _ in item.iter_markers("skip")):
        return False
    return not any(mark.args and mark.args[0] is True for mark in item.iter_markers("skipif"))


def record(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep what ``items`` cite in the session (and write it where :data:`ENV` says)."""
    citations = {f"{item.path}::{item.name}": cited(item) for item in items if runs(item)}
    config.stash[CITATIONS] = citations
    config.stash[MARKED] = {f"{item.path}::{item.name}": marked(item) for item in items}
    target = os.environ.get(ENV)
    if target:
        Path(target).write_text(json.dumps({"citations": citations, "marked": config.stash[MARKED]}),
                                encoding="utf-8")
