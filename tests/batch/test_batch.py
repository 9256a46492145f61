"""carom batch: specs, deterministic chunks, identical tables in one process and on Dask."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from carom.batch.run import run_batch
from carom.batch.spec import SpecError, read_spec, spec_from
from carom.cli.main import app

SPEC = {"table": "large", "discipline": "three-cushion", "ball": "white", "strokes": 3000, "seed": 11,
        "chunk": 500, "positions": {"kind": "random"}, "strikes": {"kind": "random"}}


def write(tmp_path: Path, spec: dict[str, object]) -> Path:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    return path


def test_identical_tables_in_one_process_and_on_a_two_worker_dask_cluster(tmp_path: Path) -> None:
    spec = read_spec(write(tmp_path, SPEC))
    one = run_batch(spec, tmp_path / "one")
    two = run_batch(spec, tmp_path / "two", workers=2)
    a, b = pq.read_table(one["parquet"]), pq.read_table(two["parquet"])
    assert a.num_rows == 3000 and a.equals(b)
    assert (tmp_path / "one.csv").read_bytes() == (tmp_path / "two.csv").read_bytes()
    assert a.column("stroke").to_pylist() == list(range(3000))
    assert 0 < int(np.sum(a.column("points").to_numpy())) < 3000


def test_chunks_depend_only_on_the_spec_and_their_index(tmp_path: Path) -> None:
    spec = read_spec(write(tmp_path, SPEC))
    p1, s1 = spec.inputs(3)
    spec.inputs(0)
    p2, s2 = spec.inputs(3)
    assert np.array_equal(p1, p2) and np.array_equal(s1, s2)


def test_grid_spec_and_the_command_with_its_progress(tmp_path: Path) -> None:
    grid = {"discipline": "one-cushion", "positions": {"kind": "starting"}, "chunk": 40,
            "strikes": {"kind": "grid", "speed": {"from": 2, "to": 4, "steps": 3},
                        "direction": {"from": 80, "to": 100, "steps": 21}, "side": 0.2}}
    result = CliRunner().invoke(app, ["batch", str(write(tmp_path, grid)), "-o", str(tmp_path / "g")])
    assert result.exit_code == 0, result.output
    table = pq.read_table(tmp_path / "g.parquet")
    assert table.num_rows == 63
    assert sorted(set(table.column("speed").to_pylist())) == [2.0, 3.0, 4.0]
    assert set(table.column("side").to_pylist()) == {0.2}
    assert (tmp_path / "g.csv").read_text().startswith('"stroke","white_x"')


@pytest.mark.parametrize(("change", "message"), [
    ({"table": "huge"}, "table: expected one of"),
    ({"discipline": "pool"}, "discipline: expected"),
    ({"strokes": 0}, "strokes: expected a whole number from 1 to 1,000,000,000"),
    ({"strokes": 10**12}, "strokes: expected a whole number from 1 to 1,000,000,000"),
    ({"chunk": 0}, "chunk: expected a whole number from 1 to 200,000"),
    ({"seed": -1}, "seed: expected a whole number from 0"),
    ({"positions": {"kind": "anywhere"}}, "positions: expected"),
    ({"positions": {"kind": "fixed", "start": {"white": [0.5, 0.5]}}}, "positions.start: expected"),
    ({"strikes": {"kind": "random", "spin": [0, 1]}}, "strikes: unknown field 'spin'"),
    ({"strikes": {"kind": "random", "speed": [1, 16]}},
     "strikes.speed: 16 is out of range: from 0 to 15 m/s"),
    ({"strikes": {"kind": "random", "speed": [5, 1]}}, "strikes.speed: the range [5, 1] is upside down"),
    ({"params": {"mu_roll": -1}}, "params: physics parameter mu_roll: -1 is out of range"),
    ({"params": 0}, "params: physics parameters must be an object"),
    ({"discipline": "balkline-47/2", "table": "small"}, "table: balkline-47/2 is played on the large table"),
    ({"stroke": 10}, "the spec: unknown field 'stroke'"),
    pytest.param({"ball": "red"}, "ball: red is never a cue ball (O1", id="O1 red is never the cue ball"),
])
def test_spec_errors_name_the_field(change: dict[str, object], message: str) -> None:
    with pytest.raises(SpecError) as refused:
        spec_from({**SPEC, **change})
    assert message in str(refused.value)


def test_yellow_may_be_the_struck_ball_from_the_starting_position(tmp_path: Path) -> None:
    spec = spec_from({**SPEC, "ball": "yellow", "positions": {"kind": "starting"}, "strokes": 20})
    table = pq.read_table(run_batch(spec, tmp_path / "y", formats=("parquet",))["parquet"])
    assert table.num_rows == 20 and set(table.column("status").to_pylist()) == {0}
