"""Small builders shared by the tests: match files in memory, events in shorthand."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from carom.core.balls import Ball, Cushion
from carom.core.events import BallContact, CushionContact, Event, Jump
from carom.core.records import Header, Stroke
from carom.notation.matchfile import Match, lines_of, read_match

T = TypeVar("T")


def header(discipline: str = "three-cushion", table: str | None = None, points: int | None = 10,
           innings: int | None = None, sets: int | None = None, equalizing: bool = True,
           players: tuple[str, str] = ("Anna", "Boris")) -> dict[str, Any]:
    """A header object; the table defaults to the one the discipline is played on."""
    obj: dict[str, Any] = {
        "format": "carom/1", "discipline": discipline, "players": list(players),
        "points": points, "innings": innings, "sets": None if sets is None else {"to_win": sets},
        "equalizing_inning": equalizing,
    }
    if table is not None:
        obj["table"] = table
    elif not discipline.startswith("balkline"):
        obj["table"] = "large"
    return obj


def text(head: dict[str, Any], *records: dict[str, Any] | str) -> str:
    """A match file: the header and records, objects or shorthand (see :func:`rec`)."""
    lines = [json.dumps(head)]
    lines += [json.dumps(rec(r) if isinstance(r, str) else r) for r in records]
    return "\n".join(lines) + "\n"


def rec(short: str) -> dict[str, Any]:
    """Shorthand records: ``carom``, ``miss``, ``foul F4``, ``inning 7``, ``inning 3 F2``,
    ``opener 0``, ``respot``, ``undo``."""
    words = short.split()
    if words[0] in ("carom", "miss"):
        return {"type": "call", "result": words[0]}
    if words[0] == "foul":
        return {"type": "call", "result": "foul", "rule": words[1]}
    if words[0] == "inning":
        out: dict[str, Any] = {"type": "inning", "points": int(words[1])}
        if len(words) > 2:
            out["foul"] = words[2]
        return out
    if words[0] == "opener":
        return {"type": "opener", "player": int(words[1])}
    if words[0] in ("respot", "undo"):
        return {"type": words[0]}
    raise ValueError(short)


def lag(y0: float = 0.2, y1: float = 0.4, *, top: tuple[bool, bool] = (True, True),
        red: tuple[bool, bool] = (False, False), crossed: tuple[bool, bool] = (False, False),
        collided: bool = False) -> dict[str, Any]:
    return {"type": "lag", "collided": collided, "results": [
        {"top": top[i], "red": red[i], "y": (y0, y1)[i], "crossed": crossed[i]} for i in (0, 1)
    ]}


def play(head: dict[str, Any], *records: dict[str, Any] | str) -> Match:
    """Read strictly and replay a match given as header and records."""
    return read_match(lines_of(text(head, *records)))


def parse_header(head: dict[str, Any]) -> Header:
    return read_match(lines_of(text(head))).header


def events(ball1: Ball, spec: str) -> tuple[Event, ...]:
    """Events in shorthand, ball 1 moving unless said: ``top`` (ball 1 on the top
    cushion), ``red`` (ball 1 hits red), ``yellow>red`` (yellow moving hits red),
    ``red@left`` (red on the left cushion), ``jump:red``."""
    out: list[Event] = []
    for word in spec.split():
        if word.startswith("jump:"):
            out.append(Jump(Ball(word[5:])))
        elif ">" in word:
            a, b = word.split(">")
            out.append(BallContact(Ball(a), Ball(b)))
        elif "@" in word:
            a, c = word.split("@")
            out.append(CushionContact(Ball(a), Cushion(c)))
        elif word in Cushion.__members__.values() or word in {c.value for c in Cushion}:
            out.append(CushionContact(ball1, Cushion(word)))
        else:
            out.append(BallContact(ball1, Ball(word)))
    return tuple(out)


def stroke_json(ball: str, spec: str, *, start: dict[str, list[float]] | None = None,
                end: dict[str, list[float]] | None = None, fouls: tuple[str, ...] = (),
                exits: tuple[tuple[str, str], ...] = ()) -> dict[str, Any]:
    """A stroke record object with events in shorthand."""
    from carom.notation.writer import event_json

    obj: dict[str, Any] = {"type": "stroke", "ball": ball,
                           "events": [event_json(e) for e in events(Ball(ball), spec)]}
    if start is not None:
        obj["start"] = start
    if end is not None:
        obj["end"] = end
    obj["exits"] = [{"ball": b, "zone": z} for b, z in exits]
    obj["fouls"] = list(fouls)
    return obj


def stroke(ball: Ball, spec: str, **kw: Any) -> Stroke:
    return Stroke(ball, events(ball, spec), **kw)


def run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own: a test before it in the same
    worker may have left an event loop running in this one (a browser's)."""
    with ThreadPoolExecutor(max_workers=1) as apart:
        return apart.submit(asyncio.run, coroutine).result()


def script_module(path: Path, name: str) -> ModuleType:
    """The script at ``path`` (a tool or benchmark, not a package module) loaded as the module
    ``name``, registered in ``sys.modules`` (its dataclasses and pickles look it up there)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
