"""``tools/docs_screenshots.py`` parses its arguments without a server or a browser (the
screenshots themselves are taken by hand, not in CI)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "tools" / "docs_screenshots.py"


def test_help_exits_0_and_names_the_options() -> None:
    answer = subprocess.run([sys.executable, str(TOOL), "--help"], capture_output=True, text=True, timeout=60,
                            check=False)
    assert answer.returncode == 0, answer.stderr
    for option in ("--out", "--width", "--height", "--max-kb", "--chromium"):
        assert option in answer.stdout


def test_an_unknown_option_is_refused_by_name() -> None:
    answer = subprocess.run([sys.executable, str(TOOL), "--colour", "red"], capture_output=True, text=True,
                            timeout=60, check=False)
    assert answer.returncode == 2 and "--colour" in answer.stderr
