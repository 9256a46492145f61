"""Docstrings cite the rule or the document that decides, never a numbered issue."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ISSUE = re.compile(r"\bissues? #?\d+", re.IGNORECASE)


def test_no_docstring_cites_an_issue_by_number() -> None:
    found = []
    for folder in ("src", "tests", "benchmarks", "tools"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if any(part.startswith(".") for part in path.relative_to(ROOT).parts):
                continue  # a benchmark's own environment (benchmarks/.pooltool-venv) is not ours
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                    doc = ast.get_docstring(node, clean=False)
                    if doc and ISSUE.search(doc):
                        found.append(f"{path.relative_to(ROOT)}: {ISSUE.search(doc).group()}")  # type: ignore[union-attr]
    assert found == []
