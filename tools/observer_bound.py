"""How many rulings any detector must get wrong on a camera family: an ideal-observer bound
(development tool; analysis only, nothing is chosen with it).

    .venv/bin/python tools/observer_bound.py [--family noisy] [--seed 72000000 74000000 76000000]
        [--strokes 1000] [--recording 50] [--cache DIR] [--show N] [--bootstrap 2000]

Plays each block's strokes exactly as ``benchmarks/track_families.py`` does (the same seeds,
cameras, tables and recordings; ``track_sets.first_seed``) and judges each recording as
``carom track`` judges a file, to know which rulings the detector gets wrong. Then, for every
contact of ball 1 with a resting object ball (any overlap) and every pass by one within
:data:`WIDEST_PASS` (the generator's widest ``miss``; the ideal errors at margins below
:data:`MARGIN` are given apart), it builds the counterfactual: the same
strike, table and camera, the object ball's start moved across ball 1's path just far enough
(the margin and :data:`PAST`) that the contact flips, played again. Kept when its ruling
differs from the truth's. Its separability from the truth, on the samples the camera sent
(their frames and balls) with the camera's own Gaussian noise ``σ`` of each ball, is
``d'² = Σ |μ_true(t) − μ_cf(t)|² / σ²`` (``μ``: the true centre and the camera's bias near
other balls); with equal priors an ideal observer's chance of ruling the stroke wrong is
``Φ(−d'/2)``, the smallest over the stroke's counterfactuals taken.

The d' is figured four ways: ``full``, on every sample of every ball (the observer knows the
strike, so ball 1's whole later path is evidence: the bound the issue asks for); ``local``,
on ball 1's samples from the moment to its next event and the object ball's; ``object``, on
the object ball's samples alone (whether it moved, and where it started), as if ball 1's turn
could not be read at all; ``moved``, on how far the object ball's samples lie from its own
start alone (where it started is no evidence either). An observer without the strike lies
between ``full`` and ``moved``.

Prints, per family: the strokes and the detector's wrong rulings (those decided by a ball
contact and by cushions apart); the counterfactuals built and the ones skipped and why; per
way of figuring d', the expected number of the ideal observer's errors with a bootstrap
interval over strokes and the agreement ceiling it implies, the strokes on which no
observer's posterior reaches 0.99 more often than not (``d'² / 2 < ln 99``), the d' of the
detector's wrong and right strokes, the same by kind of stroke and by the camera's noise (the
mean of its three balls' σ); the generator's close contacts on each side of the margin and
the ``full`` bound with those priors; with ``--show N``, the N strokes the ``moved`` bound
finds hardest, one by one (the margin, the shift, ball 1's turn, how far the object ball
rolled in each world, the samples whose means differ by more than σ). ``--cache DIR`` keeps
each block's results between runs. The bound ignores the sending itself as evidence (which
samples a send-on-move camera sent), any uncertainty of the strike or the table's physics
(both only make an observer worse, so it is a floor on errors for the counterfactual it
weighs), and alternatives other than the moved object ball.
"""

from __future__ import annotations

import argparse
import copy
import math
import pickle
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from track_sets import RULES, TABLE, first_seed  # noqa: E402

from carom.core.balls import Ball, object_balls  # noqa: E402
from carom.core.events import BallContact  # noqa: E402
from carom.core.records import Stroke  # noqa: E402
from carom.physics import Params, Strike, simulate  # noqa: E402
from carom.rules.referee import StrokeContext, judge  # noqa: E402
from carom.track import track_recording  # noqa: E402
from carom.track.samples import BallTrack, FloatArray, TrackedStroke  # noqa: E402
from carom.track.synthetic import CAMERAS, Camera, Family, labelled_stroke  # noqa: E402
from carom.track.synthetic.strokes import RECORDING_STREAM, SAMPLE, draw_camera, draw_params  # noqa: E402

MARGIN = 0.005
"""A contact's overlap or a pass's clearance below which it is close (the figures are given
for those apart), m."""

WIDEST_PASS = 0.021
"""Passes looked at: up to the generator's widest ``miss`` (20 mm); every contact is looked at."""

PAST = 0.0002
"""How far past the margin the object ball is moved, m."""

FURTHER = (0.0005, 0.001, 0.002)
"""Further shifts past the margin tried when :data:`PAST` does not flip the contact (ball 1's
path curves), m."""

SAME_MOMENT = 0.05
"""A counterfactual's contact counts as the flipped one within this of the truth's moment, s."""

SURE = 0.99
"""The posterior an observer's ruling must reach to be sure."""

SIGMA_BINS = ((0.001, 0.002), (0.002, 0.003), (0.003, 0.004))


class _Spy:
    """A camera that remembers the start of its frame clock before sending what the real one
    sends (its first draw of the stroke's generator, :meth:`Camera.view`)."""

    def __init__(self, camera: Camera) -> None:
        self.camera = camera
        self.lead = 0.0
        self.balls: list[Ball] = []

    def view(self, paths: dict[Ball, tuple[FloatArray, FloatArray]], stopped: float, radius: float,
             rng: np.random.Generator) -> dict[Ball, BallTrack]:
        self.lead = float(copy.deepcopy(rng).uniform(0.0, self.camera.frame_period))
        self.balls = list(paths)
        return self.camera.view(paths, stopped, radius, rng)


@dataclass(frozen=True, slots=True)
class Played:
    """A stroke as the benchmark plays it, with what the observer is told: the truth, the
    strike, the table's physics, the camera and the start of its frame clock."""

    seed: int
    kind: str
    truth: Stroke
    points: int
    fouls: tuple[str, ...]
    tracks: dict[Ball, BallTrack]
    camera: Camera
    params: Params
    lead: float
    balls: tuple[Ball, ...]


def play_recording(family: Family, first: int, size: int) -> list[Played]:
    """The strokes of one recording, as ``labelled_recording`` plays them (the same camera,
    physics and strokes, seed by seed)."""
    rng = np.random.default_rng((first, RECORDING_STREAM))
    camera = draw_camera(rng, family)
    params = draw_params(rng, family)
    assert isinstance(camera, Camera)
    out = []
    for seed in range(first, first + size):
        spy = _Spy(camera)
        s = labelled_stroke(seed, RULES, TABLE, None, family, spy, params)  # type: ignore[arg-type]
        out.append(Played(seed, s.kind, s.truth, s.verdict.points, s.verdict.fouls, dict(s.tracked.balls),
                          camera, params, spy.lead, tuple(spy.balls)))
    return out


def strike_of(truth: Stroke) -> Strike:
    """The strike the simulator recorded."""
    s = truth.extra["physics"]["strike"]
    return Strike(Ball(s["ball"]), s["speed"], s["direction"], s["side"], s["height"], s["elevation"])


def paths_of(stroke: Stroke) -> dict[Ball, tuple[FloatArray, FloatArray]]:
    assert stroke.paths is not None
    out = {}
    for ball, rows in stroke.paths.items():
        a = np.array(rows, dtype=float)
        out[ball] = (a[:, 0], a[:, 1:])
    return out


def first_contact(stroke: Stroke, a: Ball, b: Ball) -> float | None:
    """When ``a`` and ``b`` first touched (``None``: never)."""
    for e in stroke.events:
        if isinstance(e, BallContact) and e.involves(a) and e.involves(b):
            return float(e.t) if e.t is not None else 0.0
    return None


def rests_until(path: tuple[FloatArray, FloatArray]) -> float:
    """When a ball first left its start (infinity: never)."""
    t, xy = path
    moved = np.nonzero(np.hypot(*(xy - xy[0]).T) > 1e-9)[0]
    return float(t[moved[0] - 1]) if moved.size else math.inf


@dataclass(frozen=True, slots=True)
class Near:
    """A close contact of ball 1 with a resting ball, or a close pass: which ball, whether it
    was touched, by how much (the margin, m), when, and the way to move it so it flips."""

    ball: Ball
    touched: bool
    margin: float
    t: float
    away: tuple[float, float]
    """The unit vector along which moving the ball flips the contact (away from ball 1's line
    for a touch, towards its closest point for a pass)."""


def near_contacts(truth: Stroke) -> list[Near]:
    """Ball 1's contacts with a resting object ball (any overlap) and passes by one within
    :data:`WIDEST_PASS`."""
    r = TABLE.ball_radius
    cue = truth.ball
    paths = paths_of(truth)
    tc, xc = paths[cue]
    out = []
    for ball in object_balls(cue):
        still = rests_until(paths[ball])
        at = paths[ball][1][0]
        hit = first_contact(truth, cue, ball)
        if hit is not None:
            if hit > still + 1e-9:
                continue
            k = int(np.searchsorted(tc, hit - 1e-9))
            k = min(max(k, 1), len(tc) - 1)
            heading = xc[k] - xc[k - 1]
            heading /= max(float(np.hypot(*heading)), 1e-12)
            rel = at - xc[k]
            across = rel - heading * float(rel @ heading)
            offset = float(np.hypot(*across))
            out.append(Near(ball, True, 2.0 * r - offset, hit, tuple(across / max(offset, 1e-12))))
            continue
        before = tc <= still
        if before.sum() < 2:
            continue
        gap, when, toward = _closest(tc[before], xc[before], at)
        out.append(Near(ball, False, gap - 2.0 * r, when, toward))
    return [n for n in out if n.touched or n.margin < WIDEST_PASS]


def _closest(t: FloatArray, xy: FloatArray, point: FloatArray) -> tuple[float, float, tuple[float, float]]:
    """The closest distance of the polyline ``xy`` to ``point``, when, and the unit vector
    from the point towards it."""
    a, b = xy[:-1], xy[1:]
    seg = b - a
    length2 = np.maximum((seg * seg).sum(axis=1), 1e-18)
    u = np.clip(((point - a) * seg).sum(axis=1) / length2, 0.0, 1.0)
    foot = a + seg * u[:, None]
    dist = np.hypot(*(foot - point).T)
    k = int(np.argmin(dist))
    towards = (foot[k] - point) / max(float(dist[k]), 1e-12)
    return float(dist[k]), float(t[k] + u[k] * (t[k + 1] - t[k])), (float(towards[0]), float(towards[1]))


@dataclass(frozen=True, slots=True)
class Flip:
    """One counterfactual and what it gives (``reason``: why none was scored)."""

    ball: str
    touched: bool
    margin: float
    shift: float = 0.0
    dprime: float | None = None
    local: float | None = None
    """d' on :func:`local_spans`' samples alone."""
    alone: float | None = None
    """d' on the object ball's samples alone."""
    moved: float | None = None
    """d' on how far the object ball's samples lie from its start (not where it started)."""
    reason: str = ""
    deflection: float = 0.0
    """The angle between ball 1's headings 0.1 s after the moment in the two worlds, degrees."""
    travel: tuple[float, float] = (0.0, 0.0)
    """How far the object ball rolled, true and counterfactual, m."""
    samples: int = 0
    beyond: int = 0
    """Samples whose two means differ by more than the ball's σ."""


def counterfactual(p: Played, near: Near) -> Flip:
    """The stroke played again with ``near``'s ball moved across ball 1's path just far enough
    that the contact flips (:func:`flipped`), and its d' against the truth when its ruling
    differs from the truth's."""
    base = Flip(near.ball.value, near.touched, near.margin)
    cf, shift, reason = flipped(p, near)
    if cf is None:
        return replace(base, shift=shift, reason=reason)
    verdict = judge(StrokeContext.of(RULES, TABLE, cue_ball=p.truth.ball, position=cf.start), cf)
    if (verdict.points, verdict.fouls) == (p.points, p.fouls):
        return replace(base, shift=shift, reason="same ruling")
    return score_flip(p, cf, base, shift, near.t)


def moved_start(p: Played, ball: Ball, by: tuple[float, float]) -> dict[Ball | str, tuple[float, float]]:
    """The truth's start with ``ball`` moved by the vector ``by``, m."""
    assert p.truth.start is not None
    start: dict[Ball | str, tuple[float, float]] = {
        b: (float(x), float(y)) for b, (x, y) in p.truth.start.items()}
    x, y = start[ball]
    start[ball] = (x + by[0], y + by[1])
    return start


def flipped(p: Played, near: Near) -> tuple[Stroke | None, float, str]:
    """The counterfactual of ``near`` (``None`` and why, when there is none): its ball moved
    along :attr:`Near.away` by the margin and :data:`PAST` (or :data:`FURTHER`), the stroke
    played again with the same strike and physics; the shift, m."""
    shift = near.margin + PAST
    for extra in (PAST, *FURTHER):
        shift = near.margin + extra
        moved = moved_start(p, near.ball, (shift * near.away[0], shift * near.away[1]))
        if not _fits(moved, near.ball):
            return None, shift, "off the table or on a ball"
        try:
            cf = simulate(moved, strike_of(p.truth), TABLE, p.params, sample=SAMPLE)
        except ValueError:
            return None, shift, "not playable"
        hit = first_contact(cf, p.truth.ball, near.ball)
        if (hit is None or abs(hit - near.t) > SAME_MOMENT) if near.touched else \
                (hit is not None and abs(hit - near.t) <= SAME_MOMENT):
            return cf, shift, ""
    return None, shift, "no flip"


def _fits(position: dict[Ball | str, tuple[float, float]], ball: Ball) -> bool:
    r = TABLE.ball_radius
    x, y = position[ball]
    if not (r <= x <= TABLE.width - r and r <= y <= TABLE.length - r):
        return False
    return all(math.hypot(x - ox, y - oy) > 2.0 * r for b, (ox, oy) in position.items() if b is not ball)


def means(p: Played, stroke: Stroke, frames: np.ndarray) -> FloatArray:
    """Each ball's mean sample (true centre and the camera's bias near the others) at each of
    ``frames`` (indices of the camera's clock), balls in the camera's order."""
    clock = frames * p.camera.frame_period - p.lead
    paths = paths_of(stroke)
    true = np.stack([np.column_stack((np.interp(clock, t, xy[:, 0]), np.interp(clock, t, xy[:, 1])))
                     for t, xy in (paths[b] for b in p.balls)])
    seen = true.copy()
    quiet = np.random.default_rng(0)  # only a one-sided bias draws, and this family has none
    for i in range(len(p.balls)):
        for j in range(i + 1, len(p.balls)):
            p.camera._bias(seen, true, i, j, TABLE.ball_radius, quiet)
    return seen


def separability(p: Played, other: Stroke, spans: dict[Ball, tuple[float, float]] | None = None,
                 relative: bool = False) -> tuple[float, int, int]:
    """d' of ``other`` against the truth on the samples the camera sent (only those within a
    ball's span of ``spans``, when given, and only its balls; ``relative``: each ball's means
    taken from its own start, so where it started is no evidence), the samples, and those
    whose means differ by more than σ."""
    period = p.camera.frame_period
    last = max(round(float(track.t[-1]) / period) for track in p.tracks.values())
    frames = np.arange(last + 1)
    a, b = means(p, p.truth, frames), means(p, other, frames)
    if relative:
        a, b = a - a[:, :1], b - b[:, :1]
    total, count, beyond = 0.0, 0, 0
    for i, ball in enumerate(p.balls):
        sent = np.rint(np.asarray(p.tracks[ball].t) / period).astype(int)
        if spans is not None:
            if ball not in spans:
                continue
            clock = sent * period - p.lead
            sent = sent[(clock >= spans[ball][0]) & (clock <= spans[ball][1])]
        gap = np.hypot(*(a[i, sent] - b[i, sent]).T)
        sigma = p.camera.noise[i]
        total += float(((gap / sigma) ** 2).sum())
        count += int(sent.size)
        beyond += int((gap > sigma).sum())
    return math.sqrt(total), count, beyond


def local_spans(p: Played, ball: Ball, moment: float) -> dict[Ball, tuple[float, float]]:
    """The evidence a detector that knows nothing of the strike beyond the samples can weigh
    near a contact: ball 1 from the moment to its next event in the truth, the object ball
    throughout (its start, and whether it moved)."""
    cue = p.truth.ball
    later = [float(e.t) for e in p.truth.events
             if e.t is not None and float(e.t) > moment + 1e-6 and _of_ball(e, cue)]
    return {cue: (moment, min(later, default=math.inf)), ball: (-math.inf, math.inf)}


def _of_ball(event: object, ball: Ball) -> bool:
    if isinstance(event, BallContact):
        return event.involves(ball)
    return getattr(event, "ball", None) is ball


def score_flip(p: Played, cf: Stroke, base: Flip, shift: float, moment: float) -> Flip:
    dprime, count, beyond = separability(p, cf)
    ball = Ball(base.ball)
    local, _, _ = separability(p, cf, local_spans(p, ball, moment))
    alone, _, _ = separability(p, cf, {ball: (-math.inf, math.inf)})
    moved, _, _ = separability(p, cf, {ball: (-math.inf, math.inf)}, relative=True)
    truth, other = paths_of(p.truth), paths_of(cf)
    return replace(base, shift=shift, dprime=dprime, local=local, alone=alone,
                   moved=moved, samples=count, beyond=beyond,
                    deflection=_deflection(truth[p.truth.ball], other[p.truth.ball], moment),
                    travel=(_travel(truth[ball]), _travel(other[ball])))


def _travel(path: tuple[FloatArray, FloatArray]) -> float:
    return float(np.hypot(*np.diff(path[1], axis=0).T).sum())


def _deflection(a: tuple[FloatArray, FloatArray], b: tuple[FloatArray, FloatArray], moment: float) -> float:
    def heading(path: tuple[FloatArray, FloatArray]) -> float:
        t, xy = path
        at = min(moment + 0.1, float(t[-1]))
        p0 = np.array([np.interp(moment + 0.01, t, xy[:, 0]), np.interp(moment + 0.01, t, xy[:, 1])])
        p1 = np.array([np.interp(at, t, xy[:, 0]), np.interp(at, t, xy[:, 1])])
        return math.atan2(*(p1 - p0)[::-1])

    turn = math.degrees(heading(a) - heading(b))
    return abs((turn + 180.0) % 360.0 - 180.0)


@dataclass(frozen=True, slots=True)
class Result:
    """One stroke: the detector's ruling right or not (and decided by what), and its
    counterfactuals."""

    seed: int
    kind: str
    sigma: float
    """The camera's noise, the mean of its balls' σ, m."""
    right: bool
    confidence: float
    decided: str
    """For a wrong ruling: ``contact`` (ball 1's object balls differ from the truth's) or
    ``cushion`` (the same object balls, in the same order); ``""`` when right."""
    flips: tuple[Flip, ...] = field(default=())

    def flip(self, mode: str = "full") -> Flip | None:
        """The counterfactual nearest the truth (the smallest d'; ``mode``: ``full`` or ``local``)."""
        scored = [f for f in self.flips if f.dprime is not None]
        return min(scored, key=lambda f: _d(f, mode)) if scored else None

    def dprime(self, mode: str = "full") -> float | None:
        f = self.flip(mode)
        return None if f is None else _d(f, mode)

    def error(self, mode: str = "full") -> float:
        """The ideal observer's chance of ruling it wrong (0 with no counterfactual)."""
        d = self.dprime(mode)
        return 0.0 if d is None else phi(-d / 2.0)


def _d(flip: Flip, mode: str) -> float:
    d = {"full": flip.dprime, "local": flip.local, "object": flip.alone, "moved": flip.moved}[mode]
    assert d is not None
    return d


def phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def touched_in_order(stroke: Stroke) -> tuple[Ball, ...]:
    """The object balls ball 1 touched, in the order of their first contacts."""
    cue, seen = stroke.ball, []
    for e in stroke.events:
        if isinstance(e, BallContact) and e.involves(cue) and e.partner(cue) not in seen:
            seen.append(e.partner(cue))
    return tuple(seen)


def analyse_recording(played: list[Played]) -> list[Result]:
    rulings = track_recording([_tracked(p) for p in played], RULES, TABLE)
    out = []
    for p, ruling in zip(played, rulings, strict=True):
        right = (ruling.points, ruling.verdict.fouls) == (p.points, p.fouls)
        decided = "" if right else \
            ("cushion" if touched_in_order(ruling.stroke) == touched_in_order(p.truth) else "contact")
        flips = tuple(counterfactual(p, near) for near in near_contacts(p.truth))
        out.append(Result(p.seed, p.kind, float(np.mean(p.camera.noise)), right, ruling.confidence,
                          decided, flips))
    return out


def _tracked(p: Played) -> TrackedStroke:
    """The stroke as the camera sent it, as the benchmark hands it to the detector."""
    return TrackedStroke(p.seed, p.truth.ball, p.tracks, p.points > 0, 0, {"kind": p.kind})


def analyse_block(name: str, base: int, strokes: int, size: int, cache: Path | None) -> list[Result]:
    """A block's results, kept in ``cache`` between runs."""
    kept = None if cache is None else cache / f"bound-{name}-{strokes}-{size}-{base}.pkl"
    if kept is not None and kept.exists():
        with kept.open("rb") as handle:
            found: list[Result] = pickle.load(handle)
        return found
    family = CAMERAS[name]
    assert isinstance(family, Family)
    first = first_seed(name, base)
    out: list[Result] = []
    for start in range(first, first + strokes, size):
        out.extend(analyse_recording(play_recording(family, start, min(size, first + strokes - start))))
    if kept is not None:
        with kept.open("wb") as handle:
            pickle.dump(out, handle)
    return out


def bootstrap(errors: Sequence[float], rounds: int, rng: np.random.Generator) -> tuple[float, float]:
    a = np.asarray(errors)
    sums = [float(a[rng.integers(0, a.size, a.size)].sum()) for _ in range(rounds)]
    return float(np.percentile(sums, 2.5)), float(np.percentile(sums, 97.5))


def reaches(d: float) -> float:
    """The chance that an ideal observer's posterior for the truth reaches :data:`SURE`
    (equal priors): its log-likelihood ratio is normal, mean d'²/2, deviation d'."""
    if d <= 0.0:
        return 0.0
    return phi((d * d / 2.0 - math.log(SURE / (1.0 - SURE))) / d)


MODES = {"full": "every sample of every ball (the strike known)",
         "local": "ball 1 from the moment to its next event, the object ball throughout",
         "object": "the object ball's samples alone (ball 1's turn ignored)",
         "moved": "how far the object ball moved from its start alone (where it started ignored too)"}


def report(name: str, results: list[Result], rounds: int, show: int) -> Iterator[str]:
    """The figures the module's docstring lists, line by line."""
    n = len(results)
    wrong = [r for r in results if not r.right]
    yield f"{name}: {n} strokes; detector wrong {len(wrong)} ({100.0 * len(wrong) / n:.2f} %): " \
          f"decided by a ball contact {sum(r.decided == 'contact' for r in wrong)}, " \
          f"by cushions {sum(r.decided == 'cushion' for r in wrong)}"
    bare = [r for r in wrong if r.flip() is None]
    yield f"  detector wrong without a counterfactual that changes the ruling: {len(bare)} " \
          f"(by a contact {sum(r.decided == 'contact' for r in bare)}, " \
          f"by cushions {sum(r.decided == 'cushion' for r in bare)})"
    kinds = sorted({r.kind for r in wrong})
    yield "  detector wrong by kind (by a contact / by cushions): " + ", ".join(
        f"{k} {sum(r.kind == k and r.decided == 'contact' for r in wrong)} / "
        f"{sum(r.kind == k and r.decided == 'cushion' for r in wrong)}" for k in kinds)
    yield from _flips(results)
    for mode, meaning in MODES.items():
        yield f"  d' on {meaning} [{mode}]:"
        yield from _bound(results, mode, rounds)
    yield from _priors(results)
    yield from _shown(results, show)


def _flips(results: list[Result]) -> Iterator[str]:
    flips = [f for r in results for f in r.flips]
    reasons: dict[str, int] = {}
    for f in flips:
        reasons[f.reason or "scored"] = reasons.get(f.reason or "scored", 0) + 1
    further = sum(1 for f in flips if f.dprime is not None and f.shift - f.margin > PAST + 1e-9)
    yield f"  ball 1's contacts with a resting ball and passes within {1000 * WIDEST_PASS:.0f} mm: " \
          f"{len(flips)} in {sum(bool(r.flips) for r in results)} strokes; counterfactuals " + \
          ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())) + \
          f" (moved further than {1000 * PAST:.1f} mm past the margin to flip: {further}); " \
          f"strokes with one that changes the ruling {sum(r.flip() is not None for r in results)}"


def _bound(results: list[Result], mode: str, rounds: int) -> Iterator[str]:
    n = len(results)
    errors = [r.error(mode) for r in results]
    expected = sum(errors)
    lo, hi = bootstrap(errors, rounds, np.random.default_rng(39))
    spread = math.sqrt(sum(e * (1.0 - e) for e in errors))
    close = sum(r.error(mode) for r in results if (f := r.flip(mode)) is not None and f.margin < MARGIN)
    yield f"    ideal observer's expected errors {expected:.1f} (95 % over strokes {lo:.1f}–{hi:.1f}; " \
          f"a set's own spread ±{spread:.1f}; {close:.1f} at margins < {1000 * MARGIN:.0f} mm) => " \
          f"agreement ceiling {100.0 * (1 - expected / n):.2f} % " \
          f"({100.0 * (1 - hi / n):.2f}–{100.0 * (1 - lo / n):.2f}); 98.5 % allows {0.015 * n:.0f} errors"
    scored = [d for r in results if (d := r.dprime(mode)) is not None]
    sure_at = math.sqrt(2.0 * math.log(SURE / (1.0 - SURE)))
    unsure = sum(1 for d in scored if d < sure_at)
    yield f"    no observer's posterior reaches {SURE} more often than not (d' < " \
          f"{sure_at:.2f}): {unsure} strokes = " \
          f"{100.0 * unsure / n:.2f} %; expected strokes short of {SURE}: " \
          f"{sum(1.0 - reaches(d) for d in scored):.1f}"
    groups = (("wrong", [r for r in results if not r.right]), ("right", [r for r in results if r.right]))
    for label, group in groups:
        ds = [d for r in group if (d := r.dprime(mode)) is not None]
        quart = "" if not ds else ", d' min / quartiles / max " + \
            " / ".join(f"{np.percentile(ds, q):.2f}" for q in (0, 25, 50, 75, 100))
        yield f"    detector {label}: {len(ds)} of {len(group)} with a counterfactual{quart}; " \
              f"d' < 2: {sum(1 for d in ds if d < 2.0)}, < 4: {sum(1 for d in ds if d < 4.0)}; " \
              f"expected ideal errors among them {sum(r.error(mode) for r in group):.1f}"
    kinds = sorted({r.kind for r in results})
    yield "    by kind, detector wrong / ideal expected: " + ", ".join(
        f"{k} {sum(not r.right for r in results if r.kind == k)} / "
        f"{sum(r.error(mode) for r in results if r.kind == k):.1f}" for k in kinds)
    for lo_s, hi_s in SIGMA_BINS:
        part = [r for r in results if lo_s <= r.sigma < hi_s]
        if part:
            e, w = sum(r.error(mode) for r in part), sum(not r.right for r in part)
            yield f"    σ {1000 * lo_s:.0f}–{1000 * hi_s:.0f} mm: {len(part)} strokes, detector wrong {w} " \
                  f"({100.0 * (1 - w / len(part)):.2f} % right), ideal expected {e:.1f} " \
                  f"(ceiling {100.0 * (1 - e / len(part)):.2f} %)"


def _shown(results: list[Result], show: int) -> Iterator[str]:
    """The ``show`` strokes the ``moved`` bound finds hardest, their counterfactuals one by one."""
    hardest = sorted((r for r in results if r.flip() is not None), key=lambda r: -r.error("moved"))[:show]
    for r in hardest:
        for f in r.flips:
            if f.dprime is None or f.local is None or f.alone is None or f.moved is None:
                continue
            yield f"    {r.seed} {r.kind:6s} σ {1000 * r.sigma:.1f} mm {'right' if r.right else 'WRONG'} " \
                  f"({r.confidence:.3f}): {f.ball} {'touched' if f.touched else 'missed'} by " \
                  f"{1000 * f.margin:.2f} mm, moved {1000 * f.shift:.2f} mm; ball 1 turns " \
                  f"{f.deflection:.2f}°; object ball rolls {1000 * f.travel[0]:.1f} → " \
                  f"{1000 * f.travel[1]:.1f} mm; {f.beyond} of {f.samples} samples differ by > σ; " \
                  f"d' {f.dprime:.2f}, local {f.local:.2f}, object {f.alone:.2f}, moved {f.moved:.2f}; " \
                  f"errors {phi(-f.dprime / 2):.3f}, {phi(-f.local / 2):.3f}, {phi(-f.alone / 2):.3f}, " \
                  f"{phi(-f.moved / 2):.3f}"


def _priors(results: list[Result]) -> Iterator[str]:
    """How often the generator puts a contact on each side of the margin, near it."""
    margins = [(f.touched, f.margin) for r in results for f in r.flips]
    parts = []
    for width in (0.0005, 0.001, 0.002, 0.005):
        touch = sum(1 for t, m in margins if t and m <= width)
        miss = sum(1 for t, m in margins if not t and m <= width)
        parts.append(f"within {1000 * width:.1f} mm {touch} touched / {miss} missed")
    yield "  the generator's close contacts: " + "; ".join(parts)
    odds = _odds(margins, 0.002)
    if odds is None:
        return
    weighted = {mode: 0.0 for mode in MODES}
    for r in results:
        for mode in MODES:
            f = r.flip(mode)
            if f is None:
                continue
            c = math.log(odds if f.touched else 1.0 / odds)  # the prior log-odds of the truth's side
            d = max(_d(f, mode), 1e-9)
            weighted[mode] += phi((-c - d * d / 2.0) / d)
    yield f"  with those priors (touched : missed within 2 mm = {odds:.2f}) the ideal observer's " \
          "expected errors " + ", ".join(f"{mode} {e:.1f}" for mode, e in weighted.items())


def _odds(margins: list[tuple[bool, float]], width: float) -> float | None:
    touch = sum(1 for t, m in margins if t and m <= width)
    miss = sum(1 for t, m in margins if not t and m <= width)
    return touch / miss if touch and miss else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", default="noisy", choices=tuple(CAMERAS))
    parser.add_argument("--seed", type=int, nargs="+", default=[72_000_000, 74_000_000, 76_000_000])
    parser.add_argument("--strokes", type=int, default=1000)
    parser.add_argument("--recording", type=int, default=50)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--bootstrap", type=int, default=2000)
    args = parser.parse_args()
    started = time.perf_counter()
    results: list[Result] = []
    for base in args.seed:
        results.extend(analyse_block(args.family, base, args.strokes, args.recording, args.cache))
    for line in report(args.family, results, args.bootstrap, args.show):
        print(line)
    print(f"  [{time.perf_counter() - started:.0f} s]")


if __name__ == "__main__":
    main()
