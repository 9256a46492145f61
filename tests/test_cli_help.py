"""The command line starts at once and reads well: every help fits 80 columns and keeps
its square brackets, messages print the user's text as it is, and ``carom --help`` and
``carom replay`` load none of the heavy libraries (``benchmarks/cli_startup.py`` times it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from carom.cli.main import app
from tests.cli_helpers import EXAMPLES, assert_refused, run, runner, write_json

COMMANDS = ["replay", "draw", "inspect", "serve", "simulate", "play", "solve", "batch", "track"]
HEAVY = ("numba", "numpy", "dask", "distributed", "pyarrow", "rich", "fastapi", "starlette", "uvicorn",
         "sqlalchemy", "jinja2", "scipy")


def help_of(*args: str) -> str:
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_every_help_fits_80_columns(command: str) -> None:
    text = help_of(*([command] if command else []))
    assert max(len(line) for line in text.splitlines()) <= 80, text


def test_the_command_list_shows_each_summary_whole() -> None:
    text = help_of()
    listed = text.split("Commands:")[1]
    for command in COMMANDS:
        assert f"  {command} " in listed
    assert "..." not in listed


def test_square_brackets_stay_in_help_and_messages(tmp_path: Path) -> None:
    assert "[table] (length, width, height" in help_of("inspect") and "[venue]" in help_of("inspect")
    spec = write_json(tmp_path / "s.json", {"balls": {"white": {"v": [0, 1]}}})
    assert_refused(run("simulate", spec), 'needs "r": [x, y]')
    position = write_json(tmp_path / "p.json", {"start": {"white": [0.5, 0.5]}})
    assert_refused(run("solve", position), 'expected {"white": [x, y], "yellow": [x, y], "red": [x, y]}')
    assert_refused(run("play", "--direction", "0", "--at", "[white]=1,1"), "'[white]'")


def _modules_after(code: str) -> list[str]:
    probe = (f"import sys\n{code}\n"
             f"print([m for m in sys.modules if m.split('.')[0] in {HEAVY!r}])")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"'))


def test_help_and_replay_load_no_heavy_library() -> None:
    assert _modules_after("import carom.cli.main") == []
    run_app = ("from carom.cli.main import app\ntry:\n    app(args)\nexcept SystemExit as stop:\n"
               "    assert stop.code == 0, stop.code")
    match = EXAMPLES / "three-cushion.carom.jsonl"
    assert _modules_after(f"args = ['--help']\n{run_app}") == []
    assert _modules_after(f"args = ['replay', {str(match)!r}, '--json']\n{run_app}") == []
    assert _modules_after(f"args = ['replay', {str(match)!r}]\n{run_app}") == []
