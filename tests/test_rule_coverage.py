"""Register it and it gets tested (ARCHITECTURE.md, 12): every rule of the package's own
catalogue (``carom.rules.catalog``) is cited by a test the runner collects and runs (a
``rule`` marker, a parametrised id or the test's name; ``tests/rule_citations.py``), and
every registered discipline has scenario rows. The catalogue is checked against the
rulebook, ``../shared/RULES.md``, where a checkout has it beside it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from carom.rules.catalog import RULES
from carom.rules.competition import COMPETITION_RULES
from carom.rules.disciplines import DISCIPLINES
from tests.rule_citations import CITATIONS, ENV, MARKED
from tests.rules.scenarios import SCENARIOS

TESTS = Path(__file__).resolve().parent
RULEBOOK = TESTS.parent.parent / "shared" / "RULES.md"
"""The shared rulebook, when this checkout sits beside it (never needed to pass)."""


def collected(config: pytest.Config, tmp_path: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """What the whole suite cites: this session's collection when it collected every test
    file, else a fresh ``pytest --collect-only`` of the tests folder."""
    citations, marks = config.stash.get(CITATIONS, {}), config.stash.get(MARKED, {})
    files = {node.split("::")[0] for node in marks}
    if {str(p) for p in TESTS.rglob("test_*.py")} <= files:
        return citations, marks
    out = tmp_path / "citations.json"
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          str(TESTS)], cwd=TESTS.parent, capture_output=True, text=True,
                         env={**os.environ, ENV: str(out)})
    assert run.returncode == 0, run.stdout[-2000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    return data["citations"], data["marked"]


def test_every_rule_of_the_catalogue_is_cited_by_a_test_that_runs(pytestconfig: pytest.Config,
                                                                  tmp_path: Path) -> None:
    citations, _ = collected(pytestconfig, tmp_path)
    cited = {rule for ids in citations.values() for rule in ids}
    assert [rule for rule in (*RULES, *COMPETITION_RULES) if rule not in cited] == []


def test_every_rule_marker_names_a_rule_of_the_catalogue(pytestconfig: pytest.Config,
                                                         tmp_path: Path) -> None:
    _, marks = collected(pytestconfig, tmp_path)
    unknown = {node: ids for node, ids in marks.items() if set(ids) - {*RULES, *COMPETITION_RULES}}
    assert unknown == {}


def test_the_catalogue_has_the_67_rules_in_rulebook_order_and_is_the_rulebook_where_at_hand() -> None:
    """The rulebook beside the checkout (``../shared/RULES.md``) is not needed to pass;
    where it is there, the catalogue must hold exactly its ids, in its order."""
    families = ["C", "L", "E", "Q", "F", "Z", "O", "S", "K", "1C", "3C"]
    assert len(RULES) == 67
    order = [re.match(r"(1C|3C|[A-Z])(\d+)$", rule) for rule in RULES]
    keys = [(families.index(m.group(1)), int(m.group(2))) for m in order if m]
    assert len(keys) == len(RULES) and keys == sorted(keys)
    if RULEBOOK.exists():
        ids = re.findall(r"^- \*\*([A-Z0-9]{1,3}[0-9]{0,2})\*\*", RULEBOOK.read_text(encoding="utf-8"), re.M)
        assert ids == list(RULES)


def test_every_registered_discipline_has_scenarios() -> None:
    covered = {s.discipline for s in SCENARIOS}
    assert set(DISCIPLINES) <= covered, set(DISCIPLINES) - covered
