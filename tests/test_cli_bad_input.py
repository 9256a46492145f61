"""Every command under generated bad input: exit status 2, a message that names the
option, field or line, nothing on standard output, no traceback, and no output file
written or changed (docs/limits.md lists the limits these inputs break)."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carom.batch.plan import MAX_WORKERS
from carom.core.table import TABLES
from carom.rules.disciplines import DISCIPLINES
from tests.cli_helpers import (
    EXAMPLES,
    HUGE,
    NOT_FINITE,
    NOT_NUMBERS,
    assert_refused,
    bad_document_text,
    files_in,
    folder,
    not_one_of,
    outside,
    run,
    write_json,
)

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
Mutation = tuple[tuple[str, ...], st.SearchStrategy[Any]]


def mutated(base: dict[str, Any], mutations: list[Mutation]) -> st.SearchStrategy[dict[str, Any]]:
    """``base`` with one field (a path of keys) set to a bad value."""

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        path, values = draw(st.sampled_from(mutations))
        doc = copy.deepcopy(base)
        target = doc
        for key in path[:-1]:
            target = target.setdefault(key, {})
        target[path[-1]] = draw(values)
        return doc

    return build()


def unknown_name(known: set[str]) -> st.SearchStrategy[str]:
    return st.text(min_size=1, max_size=10).filter(lambda t: t not in known)


def dumped(doc: Any) -> bytes:
    """JSON as Python writes it: NaN and Infinity included (which the reader refuses)."""
    return json.dumps(doc).encode()


# --- carom simulate ---------------------------------------------------------------------------

SIMULATION = {"balls": {"white": {"r": [0.5, 0.5]}, "red": {"r": [0.9, 1.9]}},
              "strike": {"ball": "white", "speed": 3.0, "direction": 80.0}}
VECTOR_2 = st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=2)
SIMULATION_MUTATIONS: list[Mutation] = [
    (("table",), not_one_of(list(TABLES))),
    (("balls",), st.one_of(st.just({}), st.integers(), st.text(), st.just({"blue": {"r": [0.5, 0.5]}}))),
    (("balls", "white"), st.one_of(st.integers(), st.just({}), st.just({"v": [0, 1]}))),
    (("balls", "white", "r"), st.one_of(NOT_NUMBERS, st.lists(outside(0.0, 1.42), min_size=2, max_size=2),
                                        st.lists(st.floats(0.1, 1.0), min_size=3, max_size=3))),
    (("balls", "white", "v"), st.one_of(NOT_NUMBERS, st.tuples(outside(-30, 30), st.just(0.0)).map(list))),
    (("balls", "white", "w"), st.tuples(st.just(0.0), outside(-2000, 2000), st.just(0.0)).map(list)),
    (("balls", "white", "spin"), st.integers()),
    (("strike", "ball"), st.one_of(st.just("red"), not_one_of(["white", "yellow", "red"]))),
    (("strike", "speed"), st.one_of(outside(0, 15), NOT_NUMBERS, HUGE)),
    (("strike", "direction"), st.one_of(outside(-360, 360), NOT_NUMBERS)),
    (("strike", "side"), outside(-0.5, 0.5)),
    (("strike", "height"), outside(-0.5, 0.5)),
    (("strike", "elevation"), outside(0, 89)),
    (("strike", "english"), st.integers()),
    (("strike",), st.one_of(st.integers(min_value=1), st.text(min_size=1), st.just({"ball": "white"}))),
    (("params",), st.one_of(st.integers(), st.text(), st.lists(st.integers(), min_size=1))),
    (("params", "mu_roll"), st.one_of(outside(0.001, 0.05), NOT_NUMBERS)),
    (("params", "mathavan_steps"), st.one_of(st.integers(min_value=5001), st.integers(max_value=9),
                                             st.floats(10.5, 20.5).filter(lambda v: v != int(v)))),
    (("params", "cushion_model"), not_one_of(["han2005", "mathavan2010"])),
    (("params", "gravity"), outside(9.7, 9.9)),
    (("sample",), st.one_of(outside(0.001, 10), st.text(), st.booleans())),
    (("extra",), st.integers()),
]


@FAST
@given(spec=mutated(SIMULATION, SIMULATION_MUTATIONS))
def test_simulate_refuses_every_bad_spec(spec: dict[str, Any]) -> None:
    with folder() as tmp:
        path = tmp / "spec.json"
        path.write_bytes(dumped(spec))
        assert_refused(run("simulate", path), "spec.json")


@FAST
@given(data=bad_document_text())
def test_simulate_refuses_files_it_cannot_read(data: bytes) -> None:
    with folder() as tmp:
        path = tmp / "spec.json"
        path.write_bytes(data)
        assert_refused(run("simulate", path), "spec.json")


# --- carom play --------------------------------------------------------------------------------

def text_of(values: st.SearchStrategy[float]) -> st.SearchStrategy[str]:
    return values.map(repr)


PLAY_OPTIONS: list[tuple[str, st.SearchStrategy[str]]] = [
    ("--speed", text_of(outside(0, 15))),
    ("--direction", text_of(outside(-360, 360))),
    ("--side", text_of(outside(-0.5, 0.5))),
    ("--height", text_of(outside(-0.5, 0.5))),
    ("--elevation", text_of(outside(0, 89))),
    ("--speed", st.sampled_from(["x", "", "1,5", "1e400x"])),
    ("--ball", st.one_of(st.just("red"), st.text(max_size=8).filter(lambda t: t not in ("white", "yellow")))),
    ("--discipline", st.text(max_size=12).filter(lambda t: t not in DISCIPLINES)),
    ("--table", st.text(max_size=12).filter(lambda t: t not in TABLES)),
    ("--at", st.one_of(st.sampled_from(["white", "white=", "white=0.3", "blue=0.3,0.3", "white=x,0.5",
                                        "white=0.71,0.71", "red=nan,1", "white=0.3,inf"]),
                       st.tuples(st.sampled_from(["white", "yellow", "red"]), outside(0, 1.42),
                                 st.floats(0.1, 2.7)).map(lambda t: f"{t[0]}={t[1]!r},{t[2]!r}"))),
    ("--param", st.one_of(st.sampled_from(["mu_roll", "mu_roll=", "mu_roll=x", "nothing=1",
                                           "mathavan_steps=1e9", "mathavan_steps=10.5", "e_ball=1.5",
                                           "cushion_model=rubber", "gravity=inf", "mu_roll=nan"]),
                          outside(0.001, 0.05).map(lambda v: f"mu_roll={v!r}"))),
]


@FAST
@given(option=st.sampled_from(PLAY_OPTIONS).flatmap(lambda o: st.tuples(st.just(o[0]), o[1])))
def test_play_refuses_every_bad_option(option: tuple[str, str]) -> None:
    name, value = option
    with folder() as tmp:
        svg = tmp / "stroke.svg"
        svg.write_text("earlier drawing")
        args = ["play", "--svg", str(svg)] + ([] if name == "--direction" else ["--direction", "80"])
        assert_refused(run(*args, f"{name}={value}"))
        assert files_in(tmp) == {"stroke.svg": b"earlier drawing"}


# --- carom solve -------------------------------------------------------------------------------

POSITION = json.loads((EXAMPLES / "position.json").read_text())
POSITION_MUTATIONS: list[Mutation] = [
    (("table",), not_one_of(list(TABLES))),
    (("ball",), st.one_of(st.just("red"), not_one_of(["white", "yellow"]))),
    (("opening",), st.one_of(st.integers(), st.text(), st.just([True]))),
    (("start",), st.one_of(NOT_NUMBERS, st.just({"white": [0.5, 0.5]}))),
    (("start", "white"), st.one_of(NOT_NUMBERS, st.lists(outside(0, 1.42), min_size=2, max_size=2))),
    (("start", "red"), st.just([0.443, 2.578])),
    (("extra",), st.integers()),
]
SOLVE_OPTIONS: list[tuple[str, st.SearchStrategy[str]]] = [
    ("--count", st.one_of(st.integers(max_value=0), st.integers(min_value=21)).map(str)),
    ("--seed", st.one_of(st.integers(max_value=-1), st.integers(min_value=10**18)).map(str)),
    ("--sigma-direction", text_of(outside(0, 10))),
    ("--sigma-speed", text_of(outside(0, 0.5))),
    ("--sigma-tip", text_of(outside(0, 0.2))),
    ("--discipline", st.text(max_size=12).filter(
        lambda t: t not in ("three-cushion", "one-cushion", "straight-rail"))),
]


@FAST
@given(position=mutated(POSITION, POSITION_MUTATIONS))
def test_solve_refuses_every_bad_position(position: dict[str, Any]) -> None:
    with folder() as tmp:
        assert_refused(run("solve", write_json(tmp / "p.json", position)), "p.json")


@FAST
@given(option=st.sampled_from(SOLVE_OPTIONS).flatmap(lambda o: st.tuples(st.just(o[0]), o[1])),
       data=st.one_of(st.none(), bad_document_text()))
def test_solve_refuses_every_bad_option_and_file(option: tuple[str, str], data: bytes | None) -> None:
    with folder() as tmp:
        path = tmp / "p.json"
        if data is None:
            write_json(path, POSITION)
            args = [f"{option[0]}={option[1]}"]
        else:
            path.write_bytes(data)
            args = []
        svg = tmp / "shot-1.svg"
        svg.write_text("earlier")
        assert_refused(run("solve", path, "--svg", tmp / "shot", *args))
        assert (tmp / "shot-1.svg").read_text() == "earlier"


# --- carom batch -------------------------------------------------------------------------------

BATCH = {"strokes": 50, "chunk": 25, "positions": {"kind": "random"}, "strikes": {"kind": "random"}}
RANGE = st.one_of(st.tuples(st.floats(2, 5), st.floats(0, 1)).map(list),  # upside down
                  st.lists(st.integers(), min_size=3, max_size=3), st.just([]),
                  NOT_FINITE.map(lambda v: [v, 1]))
BATCH_MUTATIONS: list[Mutation] = [
    (("table",), not_one_of(list(TABLES))),
    (("discipline",), not_one_of(list(DISCIPLINES))),
    (("ball",), st.one_of(st.just("red"), not_one_of(["white", "yellow", "red"]))),
    (("strokes",), st.one_of(st.integers(max_value=0), st.integers(min_value=10**9 + 1), HUGE, NOT_NUMBERS,
                             st.floats(0.5, 100.5).filter(lambda v: v != int(v)))),
    (("seed",), st.one_of(st.integers(max_value=-1), st.just(10**18),
                          NOT_NUMBERS.filter(lambda v: v is not None))),
    (("chunk",), st.one_of(st.integers(max_value=0), st.integers(min_value=200_001), st.text())),
    (("positions",), st.one_of(NOT_NUMBERS, st.just({"kind": "anywhere"}),
                               st.just({"kind": "random", "x": 1}))),
    (("positions",), st.just({"kind": "fixed", "start": {"white": [0.5, 0.5]}})),
    (("positions",), st.fixed_dictionaries({"kind": st.just("fixed"), "start": st.fixed_dictionaries({
        "white": st.lists(outside(0, 1.42), min_size=2, max_size=2), "yellow": st.just([0.3, 0.3]),
        "red": st.just([0.9, 1.9])})})),
    (("strikes",), st.one_of(NOT_NUMBERS, st.just({"kind": "spiral"}),
                             st.just({"kind": "random", "spin": 1}))),
    (("strikes", "speed"), st.one_of(outside(0, 15), RANGE, st.tuples(st.just(1), outside(0, 15)).map(list))),
    (("strikes", "direction"), st.tuples(outside(-360, 360), st.just(0)).map(list)),
    (("strikes", "side"), outside(-0.5, 0.5)),
    (("strikes", "elevation"), st.tuples(st.just(0), outside(0, 89)).map(list)),
    (("params",), st.one_of(st.integers(), st.text(), st.lists(st.integers(), min_size=1))),
    (("params", "e_ball"), st.one_of(outside(0, 1), NOT_NUMBERS)),
    (("params", "nothing"), st.integers()),
    (("output",), st.integers()),
]
GRID_MUTATIONS: list[Mutation] = [
    (("strikes", "speed"), st.one_of(st.just({"from": 1, "to": 2}),
                                     st.just({"from": 1, "to": 20, "steps": 3}),
                                     st.fixed_dictionaries({"from": st.just(1), "to": st.just(2),
                                                            "steps": st.integers(max_value=0)}))),
    (("strikes", "direction"), st.just({"from": 0, "to": 360, "steps": 10**9})),  # a grid too large
    (("strokes",), st.integers(min_value=1).filter(lambda n: n != 6)),  # not the grid's size
]
GRID = {"strikes": {"kind": "grid", "speed": {"from": 1, "to": 2, "steps": 3},
                    "direction": {"from": 80, "to": 90, "steps": 2}, "side": 0.1}}
BATCH_OPTIONS: list[tuple[str, ...]] = [
    ("--workers", "0"), ("--workers", "-1"), ("--workers", str(MAX_WORKERS + 1)),
    ("--workers", "2", "--scheduler", "tcp://127.0.0.1:1"),
    ("--scheduler", "tcp://127.0.0.1:1"), ("--scheduler", "nonsense"), ("--scheduler", "foo://x:1"),
    ("--formats", "xlsx"), ("--formats", ","), ("--formats", "parquet,json"),
]


def batch_refused(spec: dict[str, Any] | None, *options: str, data: bytes | None = None) -> None:
    """The batch is refused, the earlier results stay as they were and no file is added."""
    with folder() as tmp:
        path = tmp / "spec.json"
        if data is None:
            path.write_bytes(dumped(spec))
        else:
            path.write_bytes(data)
        (tmp / "res.parquet").write_bytes(b"earlier parquet")
        (tmp / "res.csv").write_bytes(b"earlier csv")
        before = files_in(tmp)
        assert_refused(run("batch", path, "-o", tmp / "res", *options))
        assert files_in(tmp) == before


@FAST
@given(spec=st.one_of(mutated(BATCH, BATCH_MUTATIONS), mutated(GRID, GRID_MUTATIONS)))
def test_batch_refuses_every_bad_spec_before_touching_the_results(spec: dict[str, Any]) -> None:
    batch_refused(spec)


@FAST
@given(data=bad_document_text())
def test_batch_refuses_files_it_cannot_read(data: bytes) -> None:
    batch_refused(None, data=data)


@pytest.mark.parametrize("options", BATCH_OPTIONS, ids=" ".join)
def test_batch_refuses_every_bad_option(options: tuple[str, ...]) -> None:
    batch_refused(BATCH, *options)


def test_batch_refuses_an_output_in_a_missing_folder_or_under_a_file(tmp_path: Path) -> None:
    spec = write_json(tmp_path / "spec.json", BATCH)
    (tmp_path / "file").write_text("a file")
    for output in (tmp_path / "missing" / "res", tmp_path / "file" / "res", tmp_path):
        assert_refused(run("batch", spec, "-o", output), "--output")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "spec.json"]


# --- carom inspect -----------------------------------------------------------------------------

VENUE = tomllib.loads((EXAMPLES / "venue.toml").read_text(encoding="utf-8"))


def toml_of(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_of(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_of(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def venue_toml(venue: dict[str, Any]) -> str:
    lines: list[str] = []
    for section, part in venue.items():
        if not isinstance(part, dict):
            lines.insert(0, f"{json.dumps(section)} = {toml_of(part)}")
            continue
        lines.append(f"[{json.dumps(section)}]")
        lines.extend(f"{json.dumps(k)} = {toml_of(v)}" for k, v in part.items() if v is not None)
    return "\n".join(lines) + "\n"


NOT_NUMBERS_TOML = st.one_of(st.text(max_size=8), st.booleans(), st.lists(st.integers(), max_size=2))
VENUE_MUTATIONS: list[Mutation] = [
    (("table", "length"), st.one_of(NOT_NUMBERS_TOML, NOT_FINITE, outside(0.1, 5.0), st.just(284.2))),
    (("table", "width"), st.sampled_from([142.1, 1421.0, -1.42, 0.0])),
    (("table", "height"), st.sampled_from([79.5, 795.0])),
    (("table", "cushion_height"), st.one_of(outside(0.01, 0.2), st.just(36.5))),
    (("table", "bed_temperature"), st.one_of(outside(-10, 60), st.just(77.0), st.just(298.0))),
    (("balls", "discipline"), st.one_of(st.text(max_size=10).filter(lambda t: t not in DISCIPLINES),
                                         st.integers(), st.booleans())),
    (("balls", "diameters"), st.one_of(st.just([61.5, 61.5, 61.5]), st.lists(st.floats(0.0610, 0.0615),
                                       max_size=2), st.just([0.0615, "big", 0.0615]), st.just(0.0615))),
    (("balls", "masses"), st.one_of(st.just([210.0, 211.0, 209.0]), st.lists(outside(0.05, 1.0), min_size=3,
                                                                              max_size=3))),
    (("lighting", "surface_lux"), st.one_of(NOT_FINITE, outside(0, 200_000), NOT_NUMBERS_TOML)),
    (("lighting", "lamp_height"), st.just(100.0)),
    (("lighting", "room_lux"), st.just(-5.0)),
    (("venue", "wall_distance"), outside(0, 100)),
    (("venue", "non_slip_floor"), st.one_of(st.text(max_size=5), st.integers(), st.floats(allow_nan=False))),
    (("venue", "colour"), st.text(max_size=5)),
    (("lights",), st.just({"lux": 600})),
    (("table",), st.integers()),
]


@FAST
@given(venue=mutated(VENUE, VENUE_MUTATIONS))
def test_inspect_refuses_every_bad_venue(venue: dict[str, Any]) -> None:
    with folder() as tmp:
        path = tmp / "venue.toml"
        path.write_text(venue_toml(venue), encoding="utf-8")
        assert_refused(run("inspect", path), "venue.toml")


@FAST
@given(data=bad_document_text())
def test_inspect_refuses_files_it_cannot_read(data: bytes) -> None:
    with folder() as tmp:
        path = tmp / "venue.toml"
        path.write_bytes(data + b"\n[table\n")
        assert_refused(run("inspect", path), "venue.toml")


# --- carom draw, replay, serve -------------------------------------------------------------------

MATCH = EXAMPLES / "three-cushion.carom.jsonl"


@FAST
@given(option=st.one_of(
    st.tuples(st.just("--line"), st.integers(max_value=0).map(str)),
    st.tuples(st.just("--line"), st.integers(min_value=10_000).map(str)),
    st.tuples(st.just("--which"), st.text(max_size=8).filter(lambda t: t not in ("before", "after", "both"))),
    st.tuples(st.just("--output"), st.sampled_from(["missing/t.svg", "file/t.svg", "."])),
))
def test_draw_refuses_every_bad_option_and_keeps_the_earlier_drawing(option: tuple[str, str]) -> None:
    with folder() as tmp:
        (tmp / "file").write_text("a file")
        (tmp / "t.svg").write_text("earlier drawing")
        name, value = option
        value = str(tmp / value) if name == "--output" else value
        args = ["--line", "5"] if name != "--line" else []
        output = [] if name == "--output" else ["--output", str(tmp / "t.svg")]
        assert_refused(run("draw", MATCH, *args, *output, f"{name}={value}"))
        assert files_in(tmp) == {"file": b"a file", "t.svg": b"earlier drawing"}


@FAST
@given(data=bad_document_text(), command=st.sampled_from(["draw", "replay"]))
def test_draw_and_replay_refuse_files_they_cannot_read(data: bytes, command: str) -> None:
    with folder() as tmp:
        path = tmp / "m.carom.jsonl"
        path.write_bytes(data)
        args = ["--line", "2", "--output", str(tmp / "t.svg")] if command == "draw" else ["--json"]
        assert_refused(run(command, path, *args), "m.carom.jsonl")
        assert not (tmp / "t.svg").exists()


@pytest.mark.parametrize("options", [
    ("--lang", "fr"), ("--lang", ""),
], ids=" ".join)
def test_replay_refuses_a_bad_option(options: tuple[str, ...]) -> None:
    assert_refused(run("replay", MATCH, *options), options[0])


@pytest.mark.parametrize("options", [
    ("--port", "0"), ("--port", "65536"), ("--port", "-1"), ("--port", "http"),
    ("--log-level", "loud"), ("--host", ""), ("--organiser-password", ""),
    ("--database", "nonsense"), ("--database", "sqlite:////no/such/folder/carom.sqlite3"),
], ids=" ".join)
def test_serve_refuses_a_bad_option_before_serving(options: tuple[str, ...]) -> None:
    port = () if options[0] == "--port" else ("--port", str(free_port()))  # 8000 may be taken here
    assert_refused(run("serve", *options, *port), options[0] if options[0] != "--port" else "port")


def test_serve_refuses_a_data_folder_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("a file")
    assert_refused(run("serve", "--data", tmp_path / "data", "--port", str(free_port())), "--data")


def free_port() -> int:
    """A port nothing listens on now."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])

