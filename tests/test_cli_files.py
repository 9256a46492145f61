"""Output files: a failed or interrupted run never leaves a partial or empty file over an
earlier one; batch's bounded work (workers, scheduler, disk room, row groups, names)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from carom.batch.plan import BatchError, check_runner, output_paths, plan, room_problem
from carom.batch.run import run_batch
from carom.batch.spec import MAX_STROKES, SpecError, spec_from
from carom.core.balls import Ball
from carom.core.errors import CaromError
from carom.core.outputs import PARTIAL, replacing, write_text
from carom.core.position import starting_position
from carom.core.table import TABLES
from carom.rules.disciplines import DISCIPLINES
from carom.solve import find_shots
from tests.cli_helpers import EXAMPLES, assert_refused, files_in, run, write_json

CAROM = [sys.executable, "-c", "from carom.cli.main import main; main()"]
SPEC = {"strokes": 400, "chunk": 100, "seed": 3, "positions": {"kind": "random"},
        "strikes": {"kind": "random"}}


def test_replacing_leaves_the_target_as_it_was_when_the_block_fails(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("earlier")
    with pytest.raises(KeyboardInterrupt), replacing(target) as (partial,):
        partial.write_text("half")
        raise KeyboardInterrupt
    assert files_in(tmp_path) == {"out.txt": b"earlier"}
    write_text(target, "new")
    assert files_in(tmp_path) == {"out.txt": b"new"}


def test_a_bad_batch_after_a_good_one_keeps_the_results(tmp_path: Path) -> None:
    good = run("batch", write_json(tmp_path / "good.json", SPEC), "-o", tmp_path / "res")
    assert good.exit_code == 0, good.output
    before = files_in(tmp_path)
    assert pq.read_table(tmp_path / "res.parquet").num_rows == 400
    bad = write_json(tmp_path / "bad.json", {**SPEC, "strikes": {"kind": "random", "speed": [1, 99]}})
    assert_refused(run("batch", bad, "-o", tmp_path / "res"), "strikes.speed")
    assert files_in(tmp_path) == {**before, "bad.json": bad.read_bytes()}


def _wait_for_partial(folder: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while not any(p.name.endswith(PARTIAL) for p in folder.iterdir()):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the batch never started writing"
        time.sleep(0.05)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_an_interrupted_batch_leaves_the_earlier_files_and_no_broken_one(tmp_path: Path, stop: int) -> None:
    (tmp_path / "res.parquet").write_bytes(b"earlier parquet")
    (tmp_path / "res.csv").write_bytes(b"earlier csv")
    # long enough to be stopped midway, small enough for the batch's free-space check
    # (some 3 GB of outcomes estimated; 50,000,000 strokes asked for 29 GB, refused on a fuller disk)
    spec = write_json(tmp_path / "spec.json", {**SPEC, "strokes": 5_000_000, "chunk": 2000})
    before = files_in(tmp_path)
    process = subprocess.Popen([*CAROM, "batch", str(spec), "-o", str(tmp_path / "res")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for_partial(tmp_path, process)
    process.send_signal(stop)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert b"Traceback" not in err and b"interrupted; no file was written or replaced" in err
    assert files_in(tmp_path) == before


def test_output_names_add_the_suffix(tmp_path: Path) -> None:
    formats = ("parquet", "csv")
    assert output_paths(tmp_path / "results.v1", formats) == {
        "parquet": tmp_path / "results.v1.parquet", "csv": tmp_path / "results.v1.csv"}
    assert output_paths(tmp_path / "out.parquet", formats) == {
        "parquet": tmp_path / "out.parquet", "csv": tmp_path / "out.csv"}
    result = run("batch", write_json(tmp_path / "s.json", {**SPEC, "strokes": 20}), "-o",
                 tmp_path / "results.v1", "--formats", "parquet")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "results.v1.parquet").exists() and not (tmp_path / "results.parquet").exists()


def test_tiny_chunks_are_written_in_large_row_groups(tmp_path: Path) -> None:
    grid = {"kind": "grid", "speed": {"from": 1, "to": 5, "steps": 10},
            "direction": {"from": 0, "to": 359, "steps": 100}}  # a grid's strokes do not depend on chunks
    tiny = spec_from({"strikes": grid, "chunk": 1})
    whole = spec_from({"strikes": grid, "chunk": 1000})
    a = run_batch(tiny, tmp_path / "tiny", formats=("parquet",))["parquet"]
    b = run_batch(whole, tmp_path / "whole", formats=("parquet",))["parquet"]
    assert pq.ParquetFile(a).metadata.num_row_groups == 1
    assert a.stat().st_size < 1.2 * b.stat().st_size
    assert pq.read_table(a).equals(pq.read_table(b))


@pytest.mark.parametrize(("workers", "scheduler"), [(0, None), (-1, None), (10_000, None), (2, "tcp://x:1")])
def test_workers_below_one_or_too_many_are_refused(workers: int, scheduler: str | None) -> None:
    with pytest.raises(BatchError, match="--workers"):
        check_runner(workers, scheduler)


def test_an_unreachable_scheduler_is_refused_with_its_address(tmp_path: Path) -> None:
    spec = spec_from(SPEC)
    for address in ("tcp://127.0.0.1:1", "nonsense", "foo://x:1"):
        with pytest.raises(BatchError, match=f"--scheduler {address}"):
            run_batch(spec, tmp_path / "res", scheduler=address)
    assert list(tmp_path.iterdir()) == []


def test_a_batch_that_cannot_fit_on_the_disk_is_refused_before_it_starts(tmp_path: Path) -> None:
    assert room_problem(10**12, 10**9, tmp_path) is not None
    assert room_problem(10**6, 10**9, tmp_path) is None
    huge = spec_from({**SPEC, "strokes": MAX_STROKES})
    per_stroke = sum(plan(spec_from(SPEC), tmp_path / "r", ("parquet", "csv")).bytes.values()) // 400
    needed = per_stroke * MAX_STROKES
    if needed > os.statvfs(tmp_path).f_bavail * os.statvfs(tmp_path).f_frsize:
        with pytest.raises(BatchError, match="free"):
            plan(huge, tmp_path / "r", ("parquet", "csv"))


def test_the_plan_says_how_much_will_be_written(tmp_path: Path) -> None:
    result = run("batch", write_json(tmp_path / "s.json", {**SPEC, "strokes": 40}), "-o", tmp_path / "r")
    assert result.exit_code == 0
    assert "40 strokes in 1 chunk(s): about " in result.stderr and "of Parquet and" in result.stderr


def test_params_must_be_an_object() -> None:
    with pytest.raises(SpecError, match="params: physics parameters must be an object"):
        spec_from({**SPEC, "params": 0})


def test_solve_count_zero_is_refused_by_the_finder_and_the_command(tmp_path: Path) -> None:
    large = TABLES["large"]
    with pytest.raises(CaromError, match="count: 0 is out of range"):
        find_shots(starting_position(large, Ball.WHITE), Ball.WHITE, DISCIPLINES["three-cushion"], large,
                   count=0)
    assert_refused(run("solve", EXAMPLES / "position.json", "--count", "0"), "--count")


@pytest.mark.parametrize(("args", "words"), [
    (["play", "--direction", "80", "--ball", "red"], "O1"),
    (["play", "--direction", "80", "--speed", "1e155"], "--speed"),
    (["solve", "POSITION", "--seed", "-1"], "--seed"),
    (["simulate", "DEEP"], "nested deeper than 64 levels"),
    (["inspect", "LATIN1"], "line 2: not UTF-8"),
], ids=["play red", "play fast", "solve seed", "simulate deep", "inspect latin-1"])
def test_real_processes_refuse_with_status_2_and_no_traceback(tmp_path: Path, args: list[str],
                                                              words: str) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "venue.toml").write_bytes("[table]\nlength = 2.84 # längd\n".encode("latin-1"))
    names = {"DEEP": tmp_path / "deep.json", "LATIN1": tmp_path / "venue.toml",
             "POSITION": EXAMPLES / "position.json"}
    done = subprocess.run([*CAROM, *(str(names.get(a, a)) for a in args)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr and words in done.stderr


def test_the_json_of_play_and_simulate_is_strict_json(tmp_path: Path) -> None:
    spec = write_json(tmp_path / "s.json", {"balls": {"white": {"r": [0.5, 0.5]}}, "strike": {
        "ball": "white", "speed": 15, "direction": 45, "side": 0.5, "elevation": 89}})
    for result in (run("simulate", spec), run("play", "--direction", "45", "--speed", "15", "--json")):
        assert result.exit_code == 0, result.output
        json.loads(result.stdout, parse_constant=lambda name: pytest.fail(f"{name} in the output"))
