"""A tracked recording's camera, measured from its samples (docs/auto-referee.md, "The camera").

    .venv/bin/python tools/track_camera.py [FILE ...] [--format NAME] [--table large]

For each FILE (default ``tests/data/real-3c-match-part1.jsonl``), read as one recording,
prints what its camera does to the balls (:func:`carom.track.sampling.measure_sampling`):
the frame period and the time stamps' jitter about the frame clock, the send step, the
noise on a moving ball (along and across its motion), the resting jitter, the frames lost
by speed and how many of them whole frames, and the bias near other balls
(:func:`carom.track.judging.recording.camera_bias`, measured from the samples of moving
balls passing resting ones). No label is read.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from carom.core.table import TABLES
from carom.track import read_tracked
from carom.track.contacts.detection import own_noise, read_motion, stroke_noise
from carom.track.judging.recording import ball_noise, camera_bias
from carom.track.sampling import measure_sampling

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-3c-match-part1.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--format", default=None, help="the reader's name (default: from the file)")
    parser.add_argument("--table", default="large", choices=sorted(TABLES))
    args = parser.parse_args()
    table = TABLES[args.table]
    for path in args.files:
        strokes = list(read_tracked(path, args.format))
        print(f"{path}:")
        for line in measure_sampling(strokes).lines():
            print(f"  {line}")
        own = [own_noise(tracked) for tracked in strokes]
        measured = ball_noise(own)
        read = [(tracked, read_motion(tracked, table, stroke_noise(estimates, measured)))
                for tracked, estimates in zip(strokes, own, strict=True)]
        bias = camera_bias(read, table)
        print("  bias near other balls: " + (bias.describe() if bias is not None
                                             else "too few samples of a ball passing a resting one"))


if __name__ == "__main__":
    main()
