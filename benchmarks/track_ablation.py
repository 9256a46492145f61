"""Ablation of the auto-referee: each named part switched off, the change in wrong rulings.

    .venv/bin/python benchmarks/track_ablation.py [--strokes 4000] [--family real] [--part NAME ...]
        [--recording 50] [--seed 40000000] [--cache FILE] [--list]

Judges one large synthetic set (``--strokes`` of the family ``--family``, default ``real``,
the cameras fitted to the real file's; from its block of the seeds parts are chosen on,
:data:`CHOOSING`, apart from the reported ones; in recordings of ``--recording``) and the
real match file (judged as ``carom track`` judges it) with the detector as it is, then
once per part with that part switched off: the part's function
replaced, for the one run, by what the detector does without it (:data:`PARTS`). For each
part it prints the wrong rulings on the set with the part and without, the strokes it
makes right and those it makes wrong, and the chance spread of the difference: with the
same strokes judged twice, a part that does nothing flips as many one way as the other,
so the difference ``made right - made wrong`` of ``n`` flipped strokes has a standard
deviation of ``√n`` (McNemar), and a part whose difference lies within two of them changes
less than chance. The same is counted for the wrong rulings left unflagged (a doubt
flags, it never rules) and for the wrong rulings given confidence 0.99 or more (the
confidence's calibration: a part may change how sure a ruling is and not the ruling). On
the real file, the labelled strokes ruled otherwise and every other change (a ruling, a
confidence, a doubt) are counted. A part that changes less than chance on the set and
nothing on the real file goes (docs/auto-referee.md, "Ablation").

The run with every part on watches each part's function (:func:`watched`): only the
recordings in which it gave other than its stand-in are judged again with the part off,
and the first column says in how many that was.
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from copy import deepcopy
from dataclasses import fields, is_dataclass, replace
from math import sqrt
from pathlib import Path
from typing import Any

import numpy as np
from track_sets import Case, cached, judged_recording, real_rulings, recordings

from carom.track import TrackedRuling
from carom.track.judging.camera import CameraSeen, camera_doubts
from carom.track.judging.confidence import DOUBTFUL_BELOW as SURE
from carom.track.judging.explanation import Explanation, Reading, assemble
from carom.track.synthetic import CAMERAS
from carom.track.tracker import VISIBLE_NUDGE

R, C, J = "carom.track.reconstruct.", "carom.track.contacts.", "carom.track.judging."
REST, BREAK, JOIN, MOTION = R + "rests", R + "breaks", R + "joins", R + "ballmotion"
CUSHION, DETECT, DEPART, STRUCK = C + "cushion_contacts", C + "detection", C + "departure", C + "struck"
BALLS, RULING, RECORDING, CAMERA = C + "ball_contacts", J + "ruling", J + "recording", J + "camera"


CHOOSING = 40_000_000
"""The first seed of the sets parts are kept or dropped on (a block per family, as
``track_sets.first_seed`` gives): figures on them are in-sample, so they are apart from the
reported sets (``track_sets.FRESH``)."""


def _keep_all(t: np.ndarray, *args: Any) -> np.ndarray:
    return np.ones(t.shape[0], dtype=bool)


def _no_interval(s: Any, *args: Any) -> np.ndarray:
    return np.zeros(s.t.shape[0] - 1, dtype=bool)


def _first(value: Any, *args: Any) -> Any:
    return value


def _constant(value: Any) -> Callable[..., Any]:
    return lambda *args, **kwargs: value


Patch = tuple[str, str, Callable[..., Any]]
"""A module, the name of a function in it, and what stands in for it when its part is off."""


def _not_rolling(s: Any, chord: Any, found: np.ndarray) -> np.ndarray:
    return np.zeros(s.t.shape[0], dtype=bool)


def _single_alternatives(base: Any, parts: Any, ruling: Callable[..., tuple[object, ...]]) -> Any:
    """The rule-based ruling the explanations replaced: the likeliest explanation's ruling,
    its confidence the product of ``1 - chance`` over the single alternative states that
    rule otherwise (two doubts that change the ruling only together not counted)."""
    first = tuple(0 for _ in parts)
    events, start = assemble(base, parts, first)
    probability = 1.0
    for part in parts:
        probability *= part.states[0].chance
    best = Explanation(probability, first, events, start, ruling(events, start))
    confidence, others = 1.0, []
    for i, part in enumerate(parts):
        for k in range(1, len(part.states)):
            choice = (*first[:i], k, *first[i + 1:])
            events, start = assemble(base, parts, choice)
            found = Explanation(part.states[k].chance, choice, events, start, ruling(events, start))
            if found.ruling != best.ruling:
                confidence *= 1.0 - found.probability
                others.append(found)
    others.sort(key=lambda e: -e.probability)
    return Reading(best, confidence, tuple(others))


def _no_noise_doubt(tracked: Any, motions: Any, seen: CameraSeen) -> Any:
    return camera_doubts(tracked, motions, CameraSeen(seen.sent, 0.0))


def _no_loss_doubt(tracked: Any, motions: Any, seen: CameraSeen) -> Any:
    return camera_doubts(tracked, motions, CameraSeen(replace(seen.sent, loss=()), seen.noise))


PARTS: dict[str, list[Patch]] = {
    "rests.not_outliers (a glitch set aside)": [(MOTION, "not_outliers", _keep_all)],
    "rests.biased_excursions (a resting ball's samples beside a passing ball set aside)":
        [(MOTION, "biased_excursions", _keep_all)],
    "rests._leaving": [(REST, "_leaving", _constant(False))],
    "rests.noise_sends (a still ball's sample its noise alone sent, no ball near, set aside)":
        [(MOTION, "noise_sends", _keep_all)],
    "rests._stays_moved (four still samples a side)": [(REST, "_stays_moved", _constant(True))],
    "rests._rested_longer": [(REST, "_rested_longer", _first)],
    "breaks._sped_up": [(BREAK, "_sped_up", _no_interval)],
    "breaks._rolling_turns": [(BREAK, "_rolling_turns", _no_interval)],
    "breaks._rolling (a join rolled into)": [(BREAK, "_rolling", _not_rolling)],
    "joins._rest_between (a restart)": [(JOIN, "_rest_between", _constant(None))],
    "cushion_contacts._slide_candidates": [(CUSHION, "_slide_candidates", _constant([]))],
    "cushion_contacts._stop_candidates": [(CUSHION, "_stop_candidates", _constant([]))],
    "cushion_contacts._crossing_candidates": [(CUSHION, "_crossing_candidates", _constant([]))],
    "momentum.momentum_cushions": [(DETECT, "momentum_cushions",
                                    lambda balls, departures, motions, cushions, lines: cushions)],
    "record._chatter (ball 1 back to a cushion, 5 %)": [(J + "record", "_chatter", _constant([]))],
    "departure._pushed_into": [(DEPART, "_pushed_into", _constant(None))],
    "struck._frozen_contact": [(STRUCK, "_frozen_contact", _constant(None))],
    "struck._moved_given_passes": [(STRUCK, "_moved_given_passes", lambda dep, *a: dep.moved)],
    "struck._reading_spans": [(STRUCK, "_reading_spans", _constant([]))],
    "turned._response": [(C + "turned", "_response", _constant(1.0))],
    "touch (a close pass that changed nothing)": [(BALLS, "touch", _constant(None))],
    "touch.turn_across (a ball's turn across its pass of a resting ball, weighed in the touch's and a small "
    "displacement's likelihood; off: not read)": [(C + "touch", "turn_across", _constant(None))],
    "touch.unseen_nudge (the nudge a resting ball's measured noise hides; off: 3 mm at any noise)":
        [(C + "touch", "unseen_nudge", _constant(VISIBLE_NUDGE))],
    "frozen_reading (F9)": [(RULING, "frozen_reading", _constant(None))],
    "ruling._leaving and _first_line (the frozen reading's directions)":
        [(RULING, "_leaving", _constant({})), (RULING, "_first_line", _constant(None))],
    "recording.ball_noise": [(RECORDING, "ball_noise", _constant({}))],
    "recording: the camera's bias taken out": [(RECORDING, "unbiased", _first)],
    "plausibility": [(RULING, "implausible", _constant([]))],
    "explanation (off: the rule-based ruling it replaced, 1 - chance over single alternatives)":
        [(RULING, "read", _single_alternatives)],
    "camera.hidden_moves (a ball moved unseen: a doubt)": [(CAMERA, "hidden_moves", _constant([]))],
    "camera: noise beyond the validated (a doubt)": [(RULING, "camera_doubts", _no_noise_doubt)],
    "camera: loss beyond the validated (a doubt)": [(RULING, "camera_doubts", _no_loss_doubt)],
    "recording: the camera's sending and noise measured over the recording (off: per stroke)":
        [(RECORDING, "CameraSeen", _constant(None))],
    "recording.camera_bias (the bias measured over the recording; off: none)":
        [(RECORDING, "camera_bias", _constant(None))],
}
"""Each named part, and what stands in for it when it is off."""


@contextmanager
def switched_off(part: str) -> Iterator[None]:
    """The detector with ``part`` off for the duration."""
    with _patched([(m, n, lambda original, stand_in=stand_in: stand_in) for m, n, stand_in in PARTS[part]]):
        yield


@contextmanager
def _patched(patches: list[tuple[str, str, Callable[[Any], Any]]]) -> Iterator[None]:
    """Each ``module.name`` replaced by what its function gives of the original, for the duration."""
    saved = []
    for module_name, name, make in patches:
        module = importlib.import_module(module_name)
        original = getattr(module, name)
        saved.append((module, name, original))
        setattr(module, name, make(original))
    try:
        yield
    finally:
        for module, name, original in reversed(saved):
            setattr(module, name, original)


@contextmanager
def watched(parts: list[str]) -> Iterator[set[str]]:
    """The detector as it is, every part in ``parts`` watched: the set yielded gathers the
    parts whose function gave, on some call, other than its stand-in gives on the same
    arguments. A part that never does cannot change what is judged while it is watched (the
    detector's functions and the stand-ins are functions of their arguments), so it need not
    be switched off there to know that. Empty the set between recordings."""
    fired: set[str] = set()

    def make(part: str, stand_in: Callable[..., Any]) -> Callable[[Any], Any]:
        def watch(original: Callable[..., Any]) -> Callable[..., Any]:
            def call(*args: Any, **kwargs: Any) -> Any:
                if part in fired:
                    return original(*args, **kwargs)
                expected = stand_in(*deepcopy(args), **deepcopy(kwargs))
                result = original(*args, **kwargs)
                if not _same(result, expected):
                    fired.add(part)
                return result
            return call
        return watch

    with _patched([(m, n, make(part, stand_in)) for part in parts for m, n, stand_in in PARTS[part]]):
        yield fired


def _same(a: Any, b: Any) -> bool:
    """Whether two results are the same value (arrays element by element, NaN as NaN;
    lists and tuples alike; dataclasses field by field). Unknown kinds compare by ``==``,
    and what cannot be compared is taken as different."""
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or a.shape != b.shape:
            return False
        try:
            return bool(np.array_equal(a, b, equal_nan=True))
        except TypeError:
            return bool(np.array_equal(a, b))
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(_same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _real_key(r: TrackedRuling) -> tuple[object, ...]:
    """What of a real ruling an ablation may change: the points, the faults, the events, the
    confidence (to three places), the doubts and whether the stroke is flagged."""
    doubts = tuple(d.what for d in r.doubts)
    return (r.points, r.verdict.fouls, r.stroke.events, round(r.confidence, 3), doubts, r.doubtful)


Outcome = tuple[bool, bool, bool]
"""A stroke's outcome: ruled right, flagged doubtful, ruled at confidence 0.99 or more."""


def _outcomes(cases: list[Case]) -> list[Outcome]:
    return [(j.right, j.doubtful, j.confidence >= SURE) for j in judged_recording(cases)]


def _ruled_otherwise(rulings: list[TrackedRuling]) -> int:
    """How many labelled strokes of the real file are ruled otherwise than the match."""
    return sum(1 for r in rulings if r.tracked.label is not None and (r.points > 0) != r.tracked.label)


def _flips(base: list[Outcome], now: list[Outcome],
           wrong: Callable[[Outcome], bool]) -> tuple[int, int, float]:
    """The strokes switching a part off makes right and makes wrong (by ``wrong``), and two
    standard deviations of the difference by chance (McNemar: ``2√n`` of ``n`` flipped)."""
    fixed = sum(1 for a, b in zip(base, now, strict=True) if wrong(a) and not wrong(b))
    broken = sum(1 for a, b in zip(base, now, strict=True) if wrong(b) and not wrong(a))
    return fixed, broken, 2.0 * sqrt(fixed + broken)


def _is_wrong(o: Outcome) -> bool:
    return not o[0]


def _is_silent(o: Outcome) -> bool:
    """Wrong and not flagged: the error a human never sees."""
    return not o[0] and not o[1]


def _is_sure_wrong(o: Outcome) -> bool:
    """Wrong at confidence :data:`SURE` or more: the error the confidence hides."""
    return not o[0] and o[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strokes", type=int, default=4000)
    parser.add_argument("--family", choices=tuple(CAMERAS), default="real")
    parser.add_argument("--recording", type=int, default=50)
    parser.add_argument("--seed", type=int, default=CHOOSING,
                        help="the first seed of the first family's block (default: the choosing set)")
    parser.add_argument("--part", nargs="*", choices=tuple(PARTS), default=list(PARTS))
    parser.add_argument("--list", action="store_true", help="list the parts and stop")
    parser.add_argument("--cache", type=Path, default=None,
                        help="a file to keep the set's strokes in between runs (made when missing)")
    args = parser.parse_args()
    if args.list:
        print("\n".join(PARTS))
        return
    started = time.perf_counter()
    sets = cached(args.cache, lambda: list(recordings(args.family, args.strokes, args.recording, args.seed)))
    base: list[list[Outcome]] = []
    fired_in: dict[str, set[int]] = {part: set() for part in args.part}
    with watched(args.part) as fired:
        for index, cases in enumerate(sets):
            fired.clear()
            base.append(_outcomes(cases))
            for part in fired:
                fired_in[part].add(index)
        fired.clear()
        real = real_rulings()
        fired_real = set(fired)
    flat = [o for outcomes in base for o in outcomes]
    wrong_real = _ruled_otherwise(real)
    print(f"{args.family}: {len(flat)} strokes, {sum(map(_is_wrong, flat))} wrong with every part, "
          f"{sum(map(_is_silent, flat))} of them not flagged, {sum(map(_is_sure_wrong, flat))} at confidence "
          f">= 0.99; real file: {wrong_real} labelled strokes ruled otherwise "
          f"({time.perf_counter() - started:.0f} s)")
    print("part: recordings where it gave other than its stand-in; wrong on the set without it (made right / "
          "made wrong by switching it off, 2 sd of chance), wrong and not flagged likewise, wrong at "
          "confidence >= 0.99 likewise; real file: ruled "
          "otherwise, other changes; verdict")
    for part in args.part:
        now = [list(outcomes) for outcomes in base]
        real_now = real
        with switched_off(part):
            for index in sorted(fired_in[part]):
                now[index] = _outcomes(sets[index])
            if part in fired_real:
                real_now = real_rulings()
        flat_now = [o for outcomes in now for o in outcomes]
        fixed, broken, chance = _flips(flat, flat_now, _is_wrong)
        quiet_fixed, quiet_broken, quiet_chance = _flips(flat, flat_now, _is_silent)
        wrong_now = _ruled_otherwise(real_now)
        changed = sum(1 for a, b in zip(real, real_now, strict=True) if _real_key(a) != _real_key(b))
        sure_fixed, sure_broken, sure_chance = _flips(flat, flat_now, _is_sure_wrong)
        within = (abs(broken - fixed) <= chance and abs(quiet_broken - quiet_fixed) <= quiet_chance
                  and abs(sure_broken - sure_fixed) <= sure_chance)
        verdict = "changes less than chance: goes" if within and not changed and wrong_now <= wrong_real \
            else "keeps its place"
        print(f"{part}: {len(fired_in[part])} of {len(sets)}; {sum(map(_is_wrong, flat_now))} wrong "
              f"({fixed} / {broken}, ±{chance:.1f}), {sum(map(_is_silent, flat_now))} not flagged "
              f"({quiet_fixed} / {quiet_broken}, ±{quiet_chance:.1f}), {sum(map(_is_sure_wrong, flat_now))} "
              f"wrong at >= 0.99 ({sure_fixed} / {sure_broken}, ±{sure_chance:.1f}); real file: {wrong_now}, "
              f"{changed} other change(s); {verdict}", flush=True)


if __name__ == "__main__":
    main()
