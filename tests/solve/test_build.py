"""The shot finder's kernels are built at installation (``make setup`` runs
``python -m carom.solve.build``), so that a fresh installation's first search does not
compile for most of a minute."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_build_step_runs_a_search_and_says_so() -> None:
    done = subprocess.run([sys.executable, "-m", "carom.solve.build"], capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("carom: preparing the shot finder's kernels")
    assert "carom: shot finder ready (" in done.stderr and done.stdout == ""


def test_make_setup_builds_the_shot_finder_after_the_simulator() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert makefile.index("-m carom.physics.build") < makefile.index("-m carom.solve.build")
