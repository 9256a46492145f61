"""Where the replay error comes from (docs/physics.md, "Where the error comes from").

Replays the object balls of a replay file (``carom.physics.replay``) and breaks the
error down, printing Markdown tables:

1. **Along the track**: the error 0.5 s after each cushion contact, split into its
   part along the tracked direction of travel (distance) and across it (direction).
2. **By what the ball met**: the same at the first cushion, by the incoming speed and the
   angle into the cushion (the track's own, from a quadratic fit to the 0.35 s before).
3. **One bounce at a time**: each tracked cushion contact replayed from the tracked
   state 0.12 s before it (position and velocity from the track, rolling spin, the side
   spin the full replay carries there), the outgoing direction once rolling again
   (0.3–0.55 s after) against the track's: by cushion number and by the sense of the
   side spin the cut gave the ball (``carom.physics.object_ball_start``).
4. **The contacts themselves**: every simulated cushion contact of the replays (the first;
   the second and third) and of check 16's corner-5 strokes (the first three), by what a
   cushion law could depend on (the variants of docs/physics.md, "Third round").
5. **The start**: the tracked rolling speed before the first cushion against the
   simulated one, and the slide of the track fitted with the sliding friction free
   (spinless start) or with backspin free (μs = 0.21).

Usage: ``.venv/bin/python tools/error_breakdown.py [--starts spin|zero] [--param NAME=VALUE]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from calibrate import CORNER_FIVE, corner_run  # tools/calibrate.py, beside this script
from scipy.optimize import least_squares

from carom.core.balls import Ball
from carom.physics.build.choice import stroke_kernels
from carom.physics.motion import evolve
from carom.physics.object_ball_start import approach, cut_sense, read_match, start_spin
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.replay import TABLE, Case, load_cases, replay, start_of, tracked_at
from carom.physics.simulate import Motion, Run, play

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
R, W, L = TABLE.ball_radius, TABLE.width, TABLE.length
NORMALS = ((0.0, -1.0), (0.0, 1.0), (-1.0, 0.0), (1.0, 0.0))
"""Bottom, top, left, right: the normal into each cushion."""


def direction_at(case: Case, t: float) -> np.ndarray:
    i = int(np.searchsorted(case.t, t))
    a, b = max(i - 2, 0), min(i + 2, len(case.t) - 1)
    d = case.xy[b] - case.xy[a]
    return d / np.hypot(*d)  # type: ignore[no-any-return]


def split(case: Case, params: Params, t: float) -> tuple[float, float] | None:
    """The error at ``t``: along the tracked direction of travel, and across it."""
    seen = tracked_at(case, t)
    if seen is None:
        return None
    d = direction_at(case, t)
    e = replay(case, params, np.array([t]))[0] - seen
    return float(e @ d), float(e @ np.array([-d[1], d[0]]))


@dataclasses.dataclass
class Bounce:
    case: Case
    number: int
    t: float
    cushion: int
    r: np.ndarray
    v: np.ndarray
    speed: float
    angle: float
    sliding: bool


def bounces(case: Case, mu_slide: float, lead: float = 0.12) -> list[Bounce]:
    """The tracked cushion contacts with the incoming state fitted to the track."""
    out = []
    bounds = [case.t0, *case.cushions]
    for j, tc in enumerate(case.cushions):
        q = int(np.argmin(abs(case.t - tc)))
        x, y = case.xy[q]
        cushion = int(np.argmin([y - R, L - R - y, x - R, W - R - x]))
        n = np.array(NORMALS[cushion])
        sel = (case.t >= max(bounds[j] + (0.25 if j else 0.05), tc - 0.35)) & (case.t <= tc - 0.03)
        if sel.sum() < 5:
            continue
        tt = case.t[sel] - tc
        deg = 2 if sel.sum() > 8 else 1
        px, py = np.polyfit(tt, case.xy[sel, 0], deg), np.polyfit(tt, case.xy[sel, 1], deg)
        r = np.array([np.polyval(px, -lead), np.polyval(py, -lead)])
        v = np.array([np.polyval(np.polyder(px), -lead), np.polyval(np.polyder(py), -lead)])
        speed = float(np.hypot(*v))
        if v @ n <= 0.05:
            continue
        slide = 2.0 * math.hypot(*case.v) / (7.0 * mu_slide * 9.81)
        out.append(Bounce(case, j + 1, tc, cushion, r, v, speed,
                          math.degrees(math.acos(min(1.0, float(v @ n) / speed))),
                          j == 0 and tc - lead - case.t0 < slide))
    return out


def spin_before(b: Bounce, params: Params, lead: float = 0.12) -> np.ndarray:
    """The full replay's spin 0.12 s before the bounce."""
    c = b.case
    run = play({Ball.RED: start_of(c, params)}, None, TABLE, params, {Ball.RED: Motion(c.v, c.w)})
    t = b.t - lead - c.t0
    k = int(np.searchsorted(run.log_t[:run.n_log], t, side="right") - 1)
    state, _ = evolve(run.log_state[k, 0].copy(), int(run.log_mode[k, 0]), t - run.log_t[k], run.vector)
    return state[4:7]  # type: ignore[no-any-return]


def out_angles(b: Bounce, params: Params, lead: float = 0.12) -> tuple[float, float] | None:
    """Outgoing direction (degrees from the normal, positive onwards along the cushion)
    of the track and of the one-bounce replay, 0.3–0.55 s after the contact."""
    c = b.case
    sel = (c.t >= b.t + 0.3) & (c.t <= b.t + 0.55)
    if c.cushions.index(b.t) + 1 < len(c.cushions):
        sel &= c.t < c.cushions[c.cushions.index(b.t) + 1] - 0.05
    if sel.sum() < 4 or c.t[sel][-1] - c.t[sel][0] < 0.12:
        return None
    spin = spin_before(b, params, lead)
    w = spin if b.sliding else np.array([-b.v[1] / R, b.v[0] / R, spin[2]])
    r = np.clip(b.r, R + 1e-6, [W - R - 1e-6, L - R - 1e-6])
    run = play({Ball.RED: (float(r[0]), float(r[1]))}, None, TABLE, params,
               {Ball.RED: Motion((float(b.v[0]), float(b.v[1])), (float(w[0]), float(w[1]), float(w[2])))})
    _, sample = stroke_kernels()
    tt = c.t[sel]
    sim = sample(run.log_t, run.log_state, run.log_mode, run.n_log,
                 np.ascontiguousarray(tt - (b.t - lead)), run.vector)[:, 0]
    n = np.array(NORMALS[b.cushion])
    along = np.array([-n[1], n[0]]) * (1.0 if b.v @ np.array([-n[1], n[0]]) >= 0 else -1.0)

    def angle(xy: np.ndarray) -> float:
        v = np.polyfit(tt - tt[0], xy, 1)[0]
        return math.degrees(math.atan2(float(v @ along), float(-(v @ n))))

    return angle(c.xy[sel]), angle(sim)


def table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def cm(values: Sequence[float]) -> str:
    return f"{100 * float(np.median(values)):.1f}" if len(values) else "–"


def along_across(cases: Sequence[Case], params: Params) -> None:
    rows = []
    for k in range(4):
        parts = [p for c in cases if len(c.cushions) > k
                 for p in [split(c, params, c.cushions[k] + 0.5)] if p is not None]
        a = [abs(p[0]) for p in parts]
        x = [abs(p[1]) for p in parts]
        rows.append([f"{k + 1}", f"{len(parts)}", cm([math.hypot(*p) for p in parts]), cm(a), cm(x),
                     f"{100 * float(np.median([p[0] for p in parts])):+.1f}"])
    table("Error 0.5 s after cushion k (cm, medians)",
          ["cushion", "cases", "error", "along the track", "across it", "along, signed (+ ahead)"], rows)


def by_first_cushion(cases: Sequence[Case], params: Params, found: list[Bounce]) -> None:
    first = {id(b.case): b for b in found if b.number == 1}
    rows = []
    groups: list[tuple[str, Callable[[Bounce], bool]]] = [
        ("speed < 1 m/s", lambda b: b.speed < 1.0), ("1–2 m/s", lambda b: 1.0 <= b.speed < 2.0),
        ("≥ 2 m/s", lambda b: b.speed >= 2.0), ("angle < 20°", lambda b: b.angle < 20),
        ("20–40°", lambda b: 20 <= b.angle < 40), ("≥ 40°", lambda b: b.angle >= 40),
        ("still sliding", lambda b: b.sliding), ("rolling", lambda b: not b.sliding)]
    for label, test in groups:
        chosen = [c for c in cases if id(c) in first and test(first[id(c)])]
        parts = [p for c in chosen for p in [split(c, params, c.cushions[0] + 0.5)] if p is not None]
        rows.append([label, f"{len(parts)}", cm([math.hypot(*p) for p in parts]),
                     cm([abs(p[0]) for p in parts]), cm([abs(p[1]) for p in parts])])
    table("Error 0.5 s after the first cushion, by the ball that met it (cm, medians)",
          ["first cushion met", "cases", "error", "along", "across"], rows)


def one_bounce(found: list[Bounce], params: Params, senses: dict[int, float]) -> None:
    rows = []
    measured = [(b, out_angles(b, params)) for b in found]
    measured = [(b, m) for b, m in measured if m is not None]

    def row(label: str, test: Callable[[Bounce], bool]) -> None:
        d = [m[1] - m[0] for b, m in measured if test(b)]
        if d:
            rows.append([label, f"{len(d)}", f"{np.median(d):+.1f}", f"{np.median(np.abs(d)):.1f}"])

    for k in (1, 2, 3):
        row(f"cushion {k}" + (" or later" if k == 3 else ""), lambda b, k=k: min(b.number, 3) == k)
    row("first, still sliding", lambda b: b.number == 1 and b.sliding)
    row("first, rolling", lambda b: b.number == 1 and not b.sliding)
    row("first, the cut's side spin running", lambda b: b.number == 1 and running(b, senses) > 0)
    row("first, the cut's side spin reverse", lambda b: b.number == 1 and running(b, senses) < 0)
    table("One bounce at a time: outgoing direction, simulated minus tracked (degrees; + wider)",
          ["bounces", "n", "median", "median size"], rows)


def running(b: Bounce, senses: dict[int, float]) -> float:
    """+1 when the cut's side spin is running english at this cushion, −1 reverse, 0 none."""
    sense = senses.get(id(b.case), 0.0)
    n = np.array(NORMALS[b.cushion])
    onward = b.v - (b.v @ n) * n
    return float(np.sign(-(np.array([-n[1], n[0]]) @ onward) * sense))


def contact_features(run: Run, params: Params, ball: int, first: int, last: int) -> list[dict[str, float]]:
    """Cushion contacts ``first``..``last`` (counted from 1) of ``ball`` in ``run``, each
    described as it meets the cushion (the state brought from the event before)."""
    sin = (params.cushion_height - params.ball_radius) / params.ball_radius
    cos = math.sqrt(1.0 - sin * sin)
    out = []
    hits = [k for k in range(1, run.n_log) if run.log_kind[k] == 2 and run.log_a[k] == ball]
    for k in hits[first - 1:last]:
        s, _ = evolve(run.log_state[k - 1, ball].copy(), int(run.log_mode[k - 1, ball]),
                      run.log_t[k] - run.log_t[k - 1], run.vector)
        n = np.array(NORMALS[int(run.log_b[k])])
        t = np.array([-n[1], n[0]])
        v, w = s[2:4], s[4:7]
        vn, vt, speed = float(v @ n), float(v @ t), float(np.hypot(*v))
        if vn <= 0.0:
            continue
        wn, wt = float(w[:2] @ n), float(w[:2] @ t)
        along = vt + R * (w[2] * cos - wn * sin)
        down = -vn * sin - R * wt
        stop = 2.0 / 7.0 * math.hypot((1.0 + params.han_grip) * along, down)
        out.append({"v⊥ (m/s)": vn, "angle of incidence (°)": math.degrees(math.atan2(abs(vt), vn)),
                    "slip on the cloth into the cushion / v⊥, q": min(max((vn - R * wt) / vn, 0.0), 1.0),
                    "slip along the cushion at the nose / v⊥": abs(along) / vn,
                    "twist (spin about the contact's normal), R·ω·n / v":
                        R * abs(wn * cos + w[2] * sin) / speed,
                    "side spin, R·ωz / v": R * abs(w[2]) / speed,
                    "slip-stopping impulse / μN (< 1: grips)":
                        stop / (params.han_mu * (1 + params.han_e) * vn * cos)})
    return out


def contacts(cases: Sequence[Case], params: Params) -> None:
    groups: dict[str, list[dict[str, float]]] = {"replays, cushion 1": [], "replays, cushions 2–3": [],
                                                 "check 16, cushions 1–3": []}
    for c in cases:
        run = play({Ball.RED: start_of(c, params)}, None, TABLE, params, {Ball.RED: Motion(c.v, c.w)})
        groups["replays, cushion 1"] += contact_features(run, params, 0, 1, 1)
        groups["replays, cushions 2–3"] += contact_features(run, params, 0, 2, 3)
    for speed, side, height in CORNER_FIVE:
        groups["check 16, cushions 1–3"] += contact_features(corner_run(params, speed, side, height), params,
                                                             0, 1, 3)
    names = list(next(iter(groups.values()))[0])

    def cell(rows: list[dict[str, float]], name: str) -> str:
        a = np.array([r[name] for r in rows])
        return f"{np.median(a):.2f} ({np.percentile(a, 10):.2f}–{np.percentile(a, 90):.2f})"

    table("The contacts, as each ball meets the cushion (sizes: medians, 10th–90th percentile)",
          ["at the contact", *(f"{g} ({len(rows)})" for g, rows in groups.items())],
          [[name, *(cell(rows, name) for rows in groups.values())] for name in names])


def the_start(cases: Sequence[Case], params: Params) -> None:
    ratios, fits = [], []
    g, mu = params.gravity, params.mu_slide
    for c in cases:
        v0 = math.hypot(*c.v)
        slide = 2.0 * v0 / (7.0 * mu * g)
        end = c.cushions[0] - 0.08 if c.cushions else c.t[-1]
        sel = (c.t >= c.t0 + 1.4 * slide + 0.05) & (c.t <= end)
        if sel.sum() >= 6 and c.t[sel][-1] - c.t[sel][0] >= 0.2:
            t = c.t[sel]

            def speed(xy: np.ndarray, t: np.ndarray = t) -> float:
                s = np.concatenate(([0.0], np.cumsum(np.hypot(*np.diff(xy, axis=0).T))))
                return float(np.polyfit(t - t.mean(), s, 1)[0])

            spinless = dataclasses.replace(c, w=(0.0, 0.0, 0.0))
            ratios.append(speed(c.xy[sel]) / speed(replay(spinless, params, t)))
        fit = slide_fit(c, params)
        if fit is not None:
            fits.append(fit)
    f = np.array(fits)
    table("The start: the first slide of the track (medians)", ["measure", "cases", "value"], [
        ["tracked / simulated rolling speed before cushion 1 (spinless start)", f"{len(ratios)}",
         f"{np.median(ratios):.3f}"],
        ["μs fitted, spinless start: μs; RMS residual", f"{len(f)}", f"{np.median(f[:, 0]):.3f}; "
         f"{np.median(f[:, 1]):.2f} mm"],
        ["backspin fitted, μs = 0.21: R·ω/|v|; RMS residual", f"{len(f)}", f"{np.median(f[:, 2]):.3f}; "
         f"{np.median(f[:, 3]):.2f} mm"],
    ])


def slide_fit(c: Case, params: Params) -> tuple[float, float, float, float] | None:
    """The track before the first cushion (at most 2 s) fitted along its line, start speed
    and offset free, with μs free (no spin) and with backspin free (the simulator's μs)."""
    g, mu_roll = params.gravity, params.mu_roll
    v0 = math.hypot(*c.v)
    end = c.cushions[0] - 0.06 if c.cushions else c.t[-1]
    sel = (c.t >= c.t0) & (c.t <= min(end, c.t0 + 2.0))
    t = c.t[sel] - c.t0
    if len(t) < 12 or t[-1] < 1.3 * 2.0 * v0 / (7.0 * params.mu_slide * g):
        return None
    s = (c.xy[sel] - np.array(c.r)) @ (np.array(c.v) / v0)

    def path(v: float, mu: float, back: float) -> np.ndarray:
        tau = 2.0 * v * (1.0 + back) / (7.0 * mu * g)
        rolled = 5.0 / 7.0 * v * (1.0 - 0.4 * back)
        at = np.minimum(t, tau)
        after = np.maximum(t - tau, 0.0)
        return v * at - 0.5 * mu * g * at**2 + rolled * after - 0.5 * mu_roll * g * after**2  # type: ignore[no-any-return]

    a = least_squares(lambda p: path(p[0], p[1], 0.0) + p[2] - s, [v0, 0.21, 0.0],
                      bounds=([0.1, 0.05, -0.05], [8.0, 0.6, 0.05]))
    b = least_squares(lambda p: path(p[0], params.mu_slide, p[1]) + p[2] - s, [v0, 0.0, 0.0],
                      bounds=([0.1, -0.5, -0.05], [8.0, 1.0, 0.05]))
    rms = lambda f: 1000.0 * float(np.sqrt(np.mean(f.fun**2)))  # noqa: E731
    return float(a.x[1]), rms(a), float(b.x[1]), rms(b)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA / "object-ball-replay-part1.json")
    ap.add_argument("--match", type=Path, default=DATA / "real-3c-match-part1.jsonl")
    ap.add_argument("--starts", choices=("spin", "zero"), default="spin")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args(argv)
    params = DEFAULT_PARAMS.with_overrides(
        {k: (v if k == "cushion_model" else float(v)) for k, v in (p.split("=", 1) for p in args.param)})
    strokes = read_match(args.match)
    cases = load_cases(args.data)
    senses = {}
    for i, c in enumerate(cases):
        sense = cut_sense(c.v, approach(strokes[c.shot], c.ball, c.r, c.t0) if c.shot in strokes else None)
        if args.starts == "spin":
            cases[i] = c = dataclasses.replace(c, w=start_spin(c.v, sense))
        senses[id(c)] = sense
    print(f"{len(cases)} cases, starts {args.starts}, physics version {params.version}")
    found = [b for c in cases for b in bounces(c, params.mu_slide)]
    along_across(cases, params)
    by_first_cushion(cases, params, found)
    one_bounce(found, params, senses)
    contacts(cases, params)
    the_start(cases, params)
    return 0


if __name__ == "__main__":
    sys.exit(main())
