"""The command line starts at once and reads well: every help fits 80 columns and keeps
its square brackets, messages print the user's text as it is, and ``carom --help`` and
``carom replay`` load none of the heavy libraries (``benchmarks/cli_startup.py`` times it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from carom.cli.fast import run_plain
from carom.cli.main import app
from tests.cli_helpers import EXAMPLES, assert_refused, run, runner, write_json

COMMANDS = ["replay", "draw", "inspect", "serve", "simulate", "play", "solve", "batch", "track", "video",
            "fit"]
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


MATCH = EXAMPLES / "three-cushion.carom.jsonl"


@pytest.mark.parametrize("args", [["--help"], ["replay", str(MATCH), "--json"], ["replay", str(MATCH)],
                                  ["replay", "--help"], ["play", "--help"], ["batch", "--help"]],
                         ids=" ".join)
def test_help_and_replay_load_no_heavy_library(args: list[str]) -> None:
    assert _modules_after("import carom.cli.main") == []
    main = ("from carom.cli.main import main\ntry:\n    main()\nexcept SystemExit as stop:\n"
            "    assert stop.code in (0, None), stop.code")
    assert _modules_after(f"sys.argv = ['carom', *{args!r}]\n{main}") == []


@pytest.mark.parametrize("args", [
    [str(MATCH)], [str(MATCH), "--json"], ["--json", str(MATCH)], [str(MATCH), "--lang", "sk"],
    [str(MATCH), "--lang=sk", "--json"], [str(EXAMPLES / "venue.toml"), "--json"],
    ["missing.carom.jsonl"], [str(EXAMPLES)],
], ids=" ".join)
def test_the_plain_replay_answers_as_the_typer_command_does(args: list[str],
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    status = run_plain(["replay", *args])
    plain = capsys.readouterr()
    typed = run("replay", *args)
    assert (status, plain.out, plain.err) == (typed.exit_code, typed.stdout, typed.stderr)


@pytest.mark.parametrize("args", [
    ["replay"], ["replay", "--help"], ["replay", str(MATCH), "--lang", "fr"],
    ["replay", str(MATCH), "--lang"],
    ["replay", str(MATCH), str(MATCH)],
    ["replay", str(MATCH), "--jsn"], ["draw", str(MATCH)], [],
], ids=lambda a: " ".join(a) or "nothing")
def test_every_other_form_is_left_to_typer(args: list[str]) -> None:
    assert run_plain(args) is None
