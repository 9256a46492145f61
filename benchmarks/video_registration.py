"""The table's registration alone on the family's clips: each clip's first seconds are
rendered (the frames the table is found in, players, referee and score graphics
included), the table found as ``carom video`` finds it, and points all over the table at
a ball's centre height read back through the registration against the renderer's own
camera (median and largest error, mm); a clip whose table is not found is said, with the
reason.

It measures the registration without tracking a ball, so many clips are measured in the
time one is tracked; the clips' balls and rulings are :mod:`video_accuracy`'s.

    .venv/bin/python benchmarks/video_registration.py --first 1000000 --clips 20
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from carom.core.table import TABLES
from carom.rules.disciplines import DISCIPLINES
from carom.video.errors import VideoError
from carom.video.frames import read_frames
from carom.video.pipeline import REGISTER_SPAN, _registration_frames
from carom.video.render.clip import render_clip
from carom.video.render.look import FAMILY_FIRST, draw_look
from carom.video.render.play import play_match
from carom.video.table import find_table

TABLE = TABLES["large"]
RULES = DISCIPLINES["three-cushion"]


def registration_errors(path: Path, camera_seen: object) -> np.ndarray:
    """Errors (mm) of table points at a ball's centre height read back through the
    registration found in the clip at ``path``."""
    frames, _ = _registration_frames(read_frames(str(path), False, 1), str(path))
    registration = find_table(frames, TABLE)
    xs, ys = np.meshgrid(np.linspace(0.05, TABLE.width - 0.05, 15),
                         np.linspace(0.05, TABLE.length - 0.05, 29))
    points = np.column_stack((xs.ravel(), ys.ravel(), np.full(xs.size, TABLE.ball_radius)))
    read = registration.to_table(camera_seen.project(points), TABLE.ball_radius)  # type: ignore[attr-defined]
    return np.asarray(np.hypot(*(read - points[:, :2]).T) * 1000.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", type=int, default=10)
    parser.add_argument("--first", type=int, default=FAMILY_FIRST)
    parser.add_argument("--seeds", help="the seeds, comma-separated (instead of --first and --clips)")
    parser.add_argument("--style", default="broadcast")
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--fps", type=float, default=30.0)
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    seeds = [int(v) for v in args.seeds.split(",")] if args.seeds else list(range(args.first,
                                                                                 args.first + args.clips))
    medians: list[float] = []
    worst: list[float] = []
    refused = 0
    cpu = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for seed in seeds:
            look = draw_look(seed, TABLE, args.style, size, args.fps)  # type: ignore[arg-type]
            path = Path(folder) / f"{seed}.mp4"
            render_clip(path, play_match(seed, 1, RULES, TABLE), look, seed, seconds=REGISTER_SPAN + 0.2)
            started = time.process_time()
            try:
                errors = registration_errors(path, look.camera)
            except VideoError as error:
                refused += 1
                print(f"seed {seed}: {error.reason}", flush=True)
                continue
            finally:
                cpu += time.process_time() - started
                path.unlink()
            medians.append(float(np.median(errors)))
            worst.append(float(errors.max()))
            print(f"seed {seed}: median {medians[-1]:.2f} mm, max {worst[-1]:.2f} mm (camera "
                  f"{look.camera.centre[2]:.2f} m up, noise {look.noise:.1f})", flush=True)
    print(f"\n{len(seeds)} clips ({args.style}, {args.size}): {refused} refused; per clip, the median error "
          f"{np.median(medians) if medians else float('nan'):.2f} mm at the median clip, "
          f"{max(medians, default=float('nan')):.2f} mm at the worst; the largest error "
          f"{max(worst, default=float('nan')):.2f} mm; {cpu / len(seeds):.1f} CPU s a search "
          f"(load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
