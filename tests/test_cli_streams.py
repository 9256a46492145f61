"""Every command's files, a second time: standard input as ``-``, a file read once (a pipe,
a FIFO), every read bounded (``/dev/zero``), outputs written through to a FIFO and through
a link to its target, names too long, standard output that cannot be written, duplicate
JSON keys, escape codes in names, and ``serve``'s checks before it creates anything."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.cli_helpers import EXAMPLES, assert_refused, run, write_json
from tests.helpers import header, text

CAROM = [sys.executable, "-c", "from carom.cli.main import main; main()"]
MATCH = EXAMPLES / "three-cushion.carom.jsonl"
TRACKED = Path(__file__).resolve().parent / "data" / "real-3c-match-part1.jsonl"


def carom(*args: str | Path, stdin: bytes | None = None, stdout: object = subprocess.PIPE,
          timeout: float = 300) -> subprocess.CompletedProcess[bytes]:
    """``carom ARGS`` as its own process (standard input and output are real files)."""
    return subprocess.run([*CAROM, *map(str, args)], input=stdin, stdout=stdout, stderr=subprocess.PIPE,
                          timeout=timeout, check=False)


NOTICE = "carom: compiling the physics kernels"
"""The notice a slow first use of the kernels prints (on a busy machine, loading them can be)."""


def assert_clean_refusal(done: subprocess.CompletedProcess[bytes], status: int, *words: str) -> None:
    err = "".join(line for line in done.stderr.decode("utf-8", "replace").splitlines(keepends=True)
                  if not line.startswith(NOTICE))
    assert done.returncode == status, err
    assert "Traceback" not in err and err.startswith("carom: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, (word, err)


# --- standard input, read once --------------------------------------------------------------


def test_replay_reads_standard_input_as_dash_and_through_dev_stdin() -> None:
    expected = carom("replay", MATCH).stdout
    assert b"Average" in expected
    data = MATCH.read_bytes()
    assert carom("replay", "-", stdin=data).stdout == expected
    piped = subprocess.run(f"cat {MATCH} | {' '.join(CAROM[:2])} '{CAROM[2]}' replay /dev/stdin", shell=True,
                           capture_output=True, timeout=120, check=False)
    assert piped.returncode == 0 and piped.stdout == expected, piped.stderr


def test_a_fifo_is_read_once(tmp_path: Path) -> None:
    fifo = tmp_path / "match.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with fifo.open("wb") as out:
            out.write(MATCH.read_bytes())

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    done = carom("replay", fifo, "--json", timeout=120)
    writer.join(timeout=10)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winner"] == 1


@pytest.mark.parametrize(("command", "source"), [
    (["draw", "-", "-n", "5", "-o", "OUT"], MATCH),
    (["inspect", "-"], EXAMPLES / "venue.toml"),
    (["simulate", "-"], EXAMPLES / "simulate.json"),
    (["solve", "-", "--count", "1"], EXAMPLES / "position.json"),
], ids=["draw", "inspect", "simulate", "solve"])
def test_every_command_that_reads_takes_standard_input(tmp_path: Path, command: list[str],
                                                       source: Path) -> None:
    args = [str(tmp_path / "out.svg") if a == "OUT" else a for a in command]
    done = carom(*args, stdin=source.read_bytes())
    assert done.returncode == 0, done.stderr


def test_track_and_batch_take_standard_input(tmp_path: Path) -> None:
    first = TRACKED.read_bytes().split(b"\n", 1)[0] + b"\n"
    done = carom("track", "-", "--json", stdin=first)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["shot"] == json.loads(first)["shot"]
    spec = json.dumps({"strokes": 20, "chunk": 10, "seed": 1}).encode()
    done = carom("batch", "-", "-o", tmp_path / "res", "--formats", "csv", stdin=spec)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "res.csv").read_text().count("\n") == 21


# --- every read bounded ---------------------------------------------------------------------


@pytest.mark.parametrize(("command", "words"), [
    (["replay", "/dev/zero"], "line 1: the line is longer than"),
    (["draw", "/dev/zero", "-n", "2"], "line 1: the line is longer than"),
    (["track", "/dev/zero"], "line 1: the line is longer than"),
    (["inspect", "/dev/zero"], "more than 65,536 bytes"),
    (["simulate", "/dev/zero"], "more than 1,048,576 bytes"),
    (["solve", "/dev/zero"], "more than 65,536 bytes"),
    (["batch", "/dev/zero"], "more than 1,048,576 bytes"),
], ids=lambda a: a if isinstance(a, str) else a[0])
def test_dev_zero_is_refused_at_a_bound_not_read_without_end(command: list[str], words: str) -> None:
    assert_clean_refusal(carom(*command, timeout=120), 2, "/dev/zero: ", words)


def test_the_python_api_bounds_its_reads_too() -> None:
    import carom as api
    from carom.core.errors import InputError

    with pytest.raises(InputError, match=r"^line 1: the line is longer than 67,108,864 characters"):
        api.read("/dev/zero")


# --- outputs: written through, through links, named as typed ---------------------------------


def test_an_output_fifo_is_written_through_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "out.svg"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    done = carom("draw", MATCH, "-n", "5", "-o", fifo)
    reader.join(timeout=30)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and got and got[0].startswith(b"<svg")
    assert done.stdout == b""  # what went through the FIFO is all: no "wrote" line on the picture's way


def test_an_output_link_keeps_its_link_and_replaces_its_target(tmp_path: Path) -> None:
    target = tmp_path / "real.svg"
    target.write_text("earlier")
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    result = run("draw", MATCH, "-n", "5", "-o", link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and target.read_text().startswith("<svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.svg", "real.svg"]


def test_an_output_named_as_a_folder_is_refused(tmp_path: Path) -> None:
    assert_refused(run("draw", MATCH, "-n", "5", "-o", f"{tmp_path}/out.svg/"), "--output", "ends in /")
    assert_refused(run("play", "--direction", "80", "--svg", f"{tmp_path}/p.svg/"), "--svg", "ends in /")
    assert list(tmp_path.iterdir()) == []


def test_names_too_long_are_refused_in_words_and_the_longest_name_is_written(tmp_path: Path) -> None:
    missing = "m" * 5000
    assert_clean_refusal(carom("replay", missing), 2, "the name is too long")
    spec = write_json(tmp_path / "s.json", {"strokes": 10, "chunk": 10})
    assert_refused(run("batch", spec, "-o", tmp_path / ("b" * 251)), "--output",
                   "the name is 259 bytes, more than the 255")
    longest = tmp_path / ("d" * 251 + ".svg")
    result = run("draw", MATCH, "-n", "5", "-o", longest)
    assert result.exit_code == 0, result.output
    assert longest.read_text().startswith("<svg") and len(list(tmp_path.iterdir())) == 2


# --- standard output that cannot be written --------------------------------------------------


@pytest.mark.parametrize("command", [
    ["replay", MATCH], ["replay", MATCH, "--json"], ["draw", MATCH, "-n", "5", "-o", "OUT"],
    ["simulate", EXAMPLES / "simulate.json"], ["solve", EXAMPLES / "position.json", "--count", "1"],
    ["--help"], ["replay", "--help"],
], ids=lambda c: " ".join(str(a) for a in c if "/" not in str(a)))
def test_a_full_standard_output_ends_the_command_in_one_line(tmp_path: Path, command: list[object]) -> None:
    args = [tmp_path / "out.svg" if a == "OUT" else a for a in command]
    with open("/dev/full", "wb") as full:
        done = carom(*args, stdout=full)  # type: ignore[arg-type]
    assert_clean_refusal(done, 1, "cannot write to standard output: No space left on device")


# --- duplicate JSON keys ----------------------------------------------------------------------


def test_a_key_given_twice_is_refused_naming_it(tmp_path: Path) -> None:
    head = json.dumps(header())
    doubled = head[:-1] + ', "players": ["Eve", "Mallory"]}'
    path = tmp_path / "m.carom.jsonl"
    path.write_text(doubled + "\n", encoding="utf-8")
    assert_refused(run("replay", path), 'line 1: "players" is given twice in one object')
    path.write_text(head + '\n{"type": "opener", "player": 0}\n{"type": "stroke", "ball": "white", '
                    '"events": [], "type": "call", "result": "carom"}\n', encoding="utf-8")
    assert_refused(run("replay", path), 'line 3: "type" is given twice in one object')
    spec = tmp_path / "s.json"
    spec.write_text('{"strike": {"ball": "white", "speed": 3, "speed": 14, "direction": 0}, '
                    '"balls": {"white": {"r": [0.5, 0.5]}}}', encoding="utf-8")
    assert_refused(run("simulate", spec), '"speed" is given twice')
    spec.write_text('{"strokes": 10, "strokes": 99999999999}', encoding="utf-8")
    assert_refused(run("batch", spec, "-o", tmp_path / "r"), '"strokes" is given twice')
    first = json.loads(TRACKED.read_text().split("\n", 1)[0])
    tracked = tmp_path / "t.jsonl"
    tracked.write_text(json.dumps(first)[:-1] + ', "cue": "yellow"}\n', encoding="utf-8")
    assert_refused(run("track", tracked), '"cue" is given twice')


# --- names as a terminal prints them ---------------------------------------------------------


def test_replay_shows_escape_codes_in_names_instead_of_obeying_them(tmp_path: Path) -> None:
    path = tmp_path / "m.carom.jsonl"
    names = ("\x1b]0;owned\x07Eve", "Bob")
    path.write_text(text(header(players=names), "opener 0", "carom"), encoding="utf-8")
    done = carom("replay", path)
    assert done.returncode == 0 and b"\x1b" not in done.stdout and b"\\x1b]0;owned\\x07Eve" in done.stdout


# --- serve checks before it starts --------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_refuses_a_bad_host_or_a_busy_port_before_it_creates_anything(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for host in ("256.1.1.1", "no-such-host.invalid"):
        done = carom("serve", "--host", host, "--port", str(free_port()), "--data", data, timeout=60)
        assert_clean_refusal(done, 2, f"--host {host}: ")
        assert done.stdout == b"" and not data.exists()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = carom("serve", "--port", str(port), "--data", data, timeout=60)
    assert_clean_refusal(done, 2, f"--port {port}: in use")
    assert done.stdout == b"" and not data.exists()


def test_batch_refuses_an_empty_scheduler_before_it_starts(tmp_path: Path) -> None:
    spec = write_json(tmp_path / "s.json", {"strokes": 10, "chunk": 10})
    result = run("batch", spec, "-o", tmp_path / "r", "--scheduler", "")
    assert_refused(result, "--scheduler: an address is needed")
    assert "simulating" not in result.stderr and sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_a_database_that_cannot_be_opened_is_refused_in_one_line(tmp_path: Path) -> None:
    url = "postgresql+psycopg://carom:secret@127.0.0.1:1/carom"  # nothing listens on port 1 here
    done = carom("serve", "--database", url, "--port", str(free_port()), timeout=120)
    assert_clean_refusal(done, 2, "--database: cannot open the database: ")
