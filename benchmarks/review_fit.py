"""The review page's "Play what was played" and "What if": how long a click waits
(docs/review.md, "What was played").

    .venv/bin/python benchmarks/review_fit.py [--strokes 6]

Uploads the real match (``tests/data/real-3c-match-part1.jsonl``) to a fresh SQLite data
folder through the application in this process (its test client, the simulation pool's
processes as ``carom serve`` makes them), then, for ``--strokes`` strokes spread over the
recording (the 4 that ``carom fit`` reads back as played among them), times the first
"Play what was played" (the fit in the pool), the second (kept) and one what-if (the side
changed), after one stroke of the training table has started the pool. Wall-clock
seconds, with the load average: the fit itself stops after 1 s of processor time at the
most, and the pool runs at a lower priority than the server.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent.parent))
from carom.storage import open_store
from carom.storage.accounts import Accounts
from carom.storage.book import MatchBook
from carom.storage.roles import Role
from carom.web.app import create_app
from carom.web.shared.auth import hash_password

DATA = Path(__file__).parent.parent / "tests" / "data" / "real-3c-match-part1.jsonl"
PLAYED = (545611, 545649, 545672, 545683)


def click(client: TestClient, url: str, body: dict[str, Any] | None = None) -> tuple[float, dict[str, Any]]:
    """Seconds one POST waits, and its answer."""
    began = time.perf_counter()
    answer = client.post(url, json=body)
    assert answer.status_code == 200, answer.text
    return time.perf_counter() - began, answer.json()


def measure(client: TestClient, review: int, index: dict[int, int], shots: list[int]) -> None:
    first, kept, what_if = [], [], []
    for shot in shots:
        url = f"/review/{review}/strokes/{index[shot]}"
        waited, fit = click(client, f"{url}/fit")
        first.append(waited)
        kept.append(click(client, f"{url}/fit")[0])
        line = (f"shot {shot}: first {first[-1]:.2f} s, kept {1000 * kept[-1]:.1f} ms, "
                f"{'played' if fit['played'] else 'not played'}, {fit.get('simulations', 0)} simulations, "
                f"{fit.get('seconds', 0):.2f} processor s")
        if fit["played"]:
            side = -0.2 if fit["strike"]["side"] > 0 else 0.2
            what_if.append(click(client, f"{url}/what-if", {"field": "side", "value": side})[0])
            line += f", what-if {1000 * what_if[-1]:.0f} ms"
        print(line)
    print(f"first click: median {statistics.median(first):.2f} s, most {max(first):.2f} s "
          f"({len(first)} strokes)")
    print(f"second click (kept): median {1000 * statistics.median(kept):.1f} ms")
    print(f"what-if: median {1000 * statistics.median(what_if):.0f} ms ({len(what_if)} strokes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strokes", type=int, default=6)
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "data")
        Accounts(store).create("bench", Role.ORGANISER, hash_password("bench-password-1"), by=None)
        with TestClient(create_app(MatchBook(store), setup_code="x")) as client:
            client.post("/login", data={"name": "bench", "password": "bench-password-1"})
            client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
            made = client.post("/review", files={"file": ("real.jsonl", DATA.read_bytes())},
                               data={"discipline": "three-cushion"}, follow_redirects=False)
            review = int(made.headers["location"].rsplit("/", 1)[1])
            page = client.get(f"/review/{review}").text
            index = {int(s): int(i) for i, s in re.findall(r'data-index="(\d+)" data-shot="(\d+)"', page)}
            others = [s for s in sorted(index) if s not in PLAYED]
            step = max(1, len(others) // max(1, args.strokes - len(PLAYED)))
            shots = [*PLAYED, *others[::step]][:max(args.strokes, len(PLAYED))]
            start = {"white": {"r": [0.892, 0.71]}, "yellow": {"r": [0.71, 0.71]}, "red": {"r": [0.71, 2.13]}}
            strike = {"ball": "white", "speed": 3.0, "direction": 80.0}
            waited, _ = click(client, "/api/simulate", {"balls": start, "strike": strike})
            print(f"the pool's first stroke (its process started): {waited:.2f} s")
            measure(client, review, index, shots)
        store.close()
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
