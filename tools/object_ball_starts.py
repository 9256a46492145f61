"""Write a replay file's starts with the spin the impact gives each object ball
(``carom.physics.object_ball_start``; docs/physics.md, "Where the error comes from").

Usage: ``.venv/bin/python tools/object_ball_starts.py REPLAY.json MATCH.jsonl [--backspin
b] [--side k] > REPLAY-with-spin.json``: the same file with each case's ``w`` from the
start model (its fitted values by default), ready for ``carom simulate``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from carom.core.inputs import read_document
from carom.physics.object_ball_start import BACKSPIN, SIDE, approach, cut_sense, read_match, start_spin


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("replay", type=Path)
    ap.add_argument("match", type=Path)
    ap.add_argument("--backspin", type=float, default=BACKSPIN)
    ap.add_argument("--side", type=float, default=SIDE)
    args = ap.parse_args(argv)
    document = read_document(args.replay)
    strokes = read_match(args.match)
    for case in document["cases"]:
        stroke = strokes.get(int(case["shot"]))
        striker = approach(stroke, case["ball"], tuple(case["r"]), float(case["t0"])) if stroke else None
        v = (float(case["v"][0]), float(case["v"][1]))
        case["w"] = [round(w, 6) for w in start_spin(v, cut_sense(v, striker), args.backspin, args.side)]
    document.setdefault("meta", {})["w"] = (
        f"start spin from tools/object_ball_starts.py: backspin {args.backspin} and cut side spin "
        f"{args.side} of the speed (R·ω / |v|)")
    json.dump(document, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
