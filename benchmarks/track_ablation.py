"""Ablation of the auto-referee: each named part switched off, the change in wrong rulings.

    .venv/bin/python benchmarks/track_ablation.py [--strokes 4000] [--family real] [--part NAME ...]
        [--recording 50] [--seed 40000000] [--list]

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
less than chance. On the real file, the labelled strokes ruled otherwise and every other
change (a ruling, a confidence, a doubt) are counted. A part that changes less than chance
on the set and nothing on the real file goes (docs/auto-referee.md, "Ablation").
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from math import sqrt
from pathlib import Path
from typing import Any

import numpy as np
from track_sets import Case, cached, judged_recording, real_rulings, recordings

from carom.track import TrackedRuling
from carom.track.synthetic import CAMERAS

R, C, J = "carom.track.reconstruct.", "carom.track.contacts.", "carom.track.judging."
REST, BREAK, JOIN, MOTION = R + "rests", R + "breaks", R + "joins", R + "ballmotion"
CUSHION, DETECT, DEPART, STRUCK = C + "cushion_contacts", C + "detection", C + "departure", C + "struck"
BALLS, RULING, RECORDING = C + "ball_contacts", J + "ruling", J + "recording"


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


def _no_gaps(t: np.ndarray, *args: Any) -> np.ndarray:
    return np.zeros(max(t.shape[0] - 1, 0), dtype=bool)


def _not_rolling(s: Any, chord: Any, found: np.ndarray) -> np.ndarray:
    return np.zeros(s.t.shape[0], dtype=bool)


PARTS: dict[str, list[Patch]] = {
    "rests.not_outliers (a glitch set aside)": [(MOTION, "not_outliers", _keep_all)],
    "rests.biased_excursions (a resting ball's samples beside a passing ball set aside)":
        [(MOTION, "biased_excursions", _keep_all)],
    "rests._biased_start": [(REST, "_biased_start", _constant(0))],
    "rests._episodes": [(REST, "_episodes", _first)],
    "rests._rolled_to_rest": [(REST, "_rolled_to_rest", lambda t, p, k: (p[k][0], p[k][1]))],
    "rests._leaving": [(REST, "_leaving", _constant(False))],
    "rests._came_to_rest_away": [(REST, "_came_to_rest_away", _constant(False))],
    "rests.resumed (a burst after a silence)": [(MOTION, "resumed", _constant([]))],
    "rests._stays_moved (four still samples a side)": [(REST, "_stays_moved", _constant(True))],
    "rests._moved_across_gaps": [(REST, "_moved_across_gaps", _no_gaps)],
    "rests._one_place": [(REST, "_one_place", _constant(False))],
    "rests._leads_into": [(REST, "_leads_into", _constant(False))],
    "rests._tails_joined": [(REST, "_tails_joined", _first)],
    "rests._rested_longer": [(REST, "_rested_longer", _first)],
    "rests._crept_on": [(REST, "_crept_on", _first)],
    "breaks._sped_up": [(BREAK, "_sped_up", _no_interval)],
    "breaks._rolling_turns": [(BREAK, "_rolling_turns", _no_interval)],
    "breaks._straight_turns": [(BREAK, "_straight_turns", _no_interval)],
    "breaks._rolling (a join rolled into)": [(BREAK, "_rolling", _not_rolling)],
    "joins._rest_between (a restart)": [(JOIN, "_rest_between", _constant(None))],
    "cushion_contacts._slide_candidates": [(CUSHION, "_slide_candidates", _constant([]))],
    "cushion_contacts._stop_candidates": [(CUSHION, "_stop_candidates", _constant([]))],
    "cushion_contacts._crossing_candidates": [(CUSHION, "_crossing_candidates", _constant([]))],
    "momentum.momentum_cushions": [(DETECT, "momentum_cushions",
                                    lambda balls, departures, motions, cushions, lines: cushions)],
    "momentum.chatter_cushions": [(DETECT, "chatter_cushions", _constant([]))],
    "record._chatter (ball 1 back to a cushion, 5 %)": [(J + "record", "_chatter", _constant([]))],
    "departure.crawled_on": [(DEPART, "crawled_on", _constant(0.0))],
    "departure._returned": [(DEPART, "_returned", _constant(None))],
    "departure._pushed_into": [(DEPART, "_pushed_into", _constant(None))],
    "departure._runs_into_neighbour": [(DEPART, "_runs_into_neighbour", _constant(False))],
    "struck._frozen_contact": [(STRUCK, "_frozen_contact", _constant(None))],
    "struck._moved_given_passes": [(STRUCK, "_moved_given_passes", lambda dep, *a: dep.moved)],
    "struck._reading_spans": [(STRUCK, "_reading_spans", _constant([]))],
    "turned._response": [(C + "turned", "_response", _constant(1.0))],
    "ball_contacts._rested_where_it_hit": [(BALLS, "_rested_where_it_hit", _first)],
    "touch (a close pass that changed nothing)": [(BALLS, "touch", _constant(None))],
    "frozen_reading (F9)": [(RULING, "frozen_reading", _constant(None))],
    "ruling._leaving and _first_line (the frozen reading's directions)":
        [(RULING, "_leaving", _constant({})), (RULING, "_first_line", _constant(None))],
    "recording.ball_noise": [(RECORDING, "ball_noise", _constant({}))],
    "recording: the camera's bias taken out": [(RECORDING, "unbiased", _first)],
    "plausibility": [(RULING, "implausible", _constant([]))],
}
"""Each named part, and what stands in for it when it is off."""


@contextmanager
def switched_off(part: str) -> Iterator[None]:
    """The detector with ``part`` off for the duration."""
    saved = []
    for module_name, name, stand_in in PARTS[part]:
        module = importlib.import_module(module_name)
        saved.append((module, name, getattr(module, name)))
        setattr(module, name, stand_in)
    try:
        yield
    finally:
        for module, name, original in reversed(saved):
            setattr(module, name, original)


def _real_key(r: TrackedRuling) -> tuple[object, ...]:
    """What of a real ruling an ablation may change: the points, the faults, the events, the
    confidence (to three places), the doubts and whether the stroke is flagged."""
    doubts = tuple(d.what for d in r.doubts)
    return (r.points, r.verdict.fouls, r.stroke.events, round(r.confidence, 3), doubts, r.doubtful)


def _right(sets: list[list[Case]]) -> list[bool]:
    """Per stroke of the set, whether it was ruled right."""
    return [j.right for cases in sets for j in judged_recording(cases)]


def _ruled_otherwise(rulings: list[TrackedRuling]) -> int:
    """How many labelled strokes of the real file are ruled otherwise than the match."""
    return sum(1 for r in rulings if r.tracked.label is not None and (r.points > 0) != r.tracked.label)


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
    base = _right(sets)
    real = real_rulings()
    wrong_real = _ruled_otherwise(real)
    print(f"{args.family}: {len(base)} strokes, {len(base) - sum(base)} wrong with every part; real file: "
          f"{wrong_real} labelled strokes ruled otherwise ({time.perf_counter() - started:.0f} s)")
    print("part: wrong on the set without it (made right / made wrong by switching it off, 2 sd of chance); "
          "real file: ruled otherwise, other changes; verdict")
    for part in args.part:
        with switched_off(part):
            now = _right(sets)
            real_now = real_rulings()
        fixed = sum(1 for a, b in zip(base, now, strict=True) if b and not a)
        broken = sum(1 for a, b in zip(base, now, strict=True) if a and not b)
        chance = 2.0 * sqrt(fixed + broken)
        wrong_now = _ruled_otherwise(real_now)
        changed = sum(1 for a, b in zip(real, real_now, strict=True) if _real_key(a) != _real_key(b))
        within = abs(broken - fixed) <= chance
        verdict = "changes less than chance: goes" if within and not changed and wrong_now <= wrong_real \
            else "keeps its place"
        print(f"{part}: {len(now) - sum(now)} wrong ({fixed} / {broken}, ±{chance:.1f}); real file: "
              f"{wrong_now}, {changed} other change(s); {verdict}", flush=True)


if __name__ == "__main__":
    main()
