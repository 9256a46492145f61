"""The training table's animation in Chromium: its frame rate, from requestAnimationFrame's
own timestamps (docs/table.md).

    .venv/bin/python benchmarks/table_animation.py [--strokes 3] [--viewport 1920x1080] [--slow]

Starts ``carom serve``, opens ``/table`` in Debian's Chromium (headless, as the browser
tests do) and plays ``--strokes`` strokes from the starting position (the first a
three-cushion point, the next ones faster strokes of more cushions), each animated in
real time (``--slow``: at a quarter of it). For each: the frames drawn, the frame rate,
the median and worst interval between frames, the frames later than 1.5 intervals of the
display's rate, and the script's own work per frame (median and worst). The display's
rate is what Chromium gives an empty requestAnimationFrame loop on the same page for 10 s;
what any animation costs on this machine (its other processes included) is what one ball
moved to and fro for 10 s gets, measured next: compare the strokes' figures with both.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import itertools

from playwright.sync_api import sync_playwright
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.server import Server
from tests.web.training.table_page import SCORING, play

STROKES = [SCORING, "s=5&a=100&sd=0.3&h=0.2", "s=7&a=40&sd=-0.35&h=0.1", "s=6&a=250&sd=0.2&h=-0.2"]

IDLE = """(ms) => new Promise((done) => {
  const t = []; function f(now) { t.push(now); if (now - t[0] < ms) requestAnimationFrame(f); else done(t); }
  requestAnimationFrame(f);
})"""


ONE_BALL = """(ms) => new Promise((done) => {
  const ball = document.querySelector("#table-svg circle[data-ball=white]"), x = +ball.getAttribute("cx");
  const t = []; function f(now) {
    t.push(now); ball.setAttribute("cx", String(x + 200 * Math.sin((now - t[0]) / 300)));
    if (now - t[0] < ms) requestAnimationFrame(f); else { ball.setAttribute("cx", String(x)); done(t); }
  }
  requestAnimationFrame(f);
})"""
"""The least animation there is: one ball moved to and fro for ``ms`` (no trace, no list)."""


def summary(frames: list[float], display: float) -> str:
    gaps = intervals(frames)
    late = sum(g > 1.5 * display for g in gaps)
    return (f"{len(frames)} frames in {(frames[-1] - frames[0]) / 1000:.2f} s = "
            f"{(len(frames) - 1) / ((frames[-1] - frames[0]) / 1000):.1f} frames/s; interval median "
            f"{statistics.median(gaps):.2f} ms, worst {max(gaps):.1f} ms; "
            f"{late} late ({100 * late / len(gaps):.1f} %)")


def intervals(frames: list[float]) -> list[float]:
    return [b - a for a, b in itertools.pairwise(frames)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strokes", type=int, default=3, choices=range(1, len(STROKES) + 1))
    parser.add_argument("--viewport", default="1920x1080")
    parser.add_argument("--slow", action="store_true")
    args = parser.parse_args()
    width, height = (int(v) for v in args.viewport.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "data").start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                     args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"{server.url}/table")
                idle = page.evaluate(IDLE, 10_000)
                display = statistics.median(intervals(idle))
                print(f"Chromium {browser.version}, {width}×{height}")
                print(f"  an empty requestAnimationFrame loop, 10 s: {summary(idle, display)}")
                one = page.evaluate(ONE_BALL, 10_000)
                print(f"  one ball moved to and fro, 10 s: {summary(one, display)}")
                for query in STROKES[:args.strokes]:
                    page.goto(f"{server.url}/table?{query}")
                    if args.slow:
                        page.check("#slow")
                    result: dict[str, Any] = play(page, timeout=240_000)
                    frames = result["frames"]
                    work = page.evaluate("window.caromTable.work.slice()")
                    print(f"  {query}: {summary(frames, display)}; script per frame median "
                          f"{statistics.median(work):.2f} ms, worst {max(work):.2f} ms "
                          f"({len(result['contacts'])} contacts)")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
