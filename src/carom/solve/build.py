"""``python -m carom.solve.build``: compile (or load from numba's cache) everything the shot
finder runs, at installation, so that the first ``find_shots`` of a fresh installation
does not spend most of a minute compiling (``make setup`` runs it after
``python -m carom.physics.build``).

It runs one small search from the starting position, through the very calls a search
makes (the batch form on broadcast positions, the judging, the one-stroke simulation
with paths), and says on standard error what it did and how long it took.
"""

from __future__ import annotations

import sys
import time


def main() -> int:
    from carom.core.balls import Ball
    from carom.core.position import starting_position
    from carom.core.table import TABLES
    from carom.physics.build.notice import compile_notice
    from carom.rules.disciplines import DISCIPLINES
    from carom.solve.finder import Budget, find_shots

    started = time.perf_counter()
    sys.stderr.write("carom: preparing the shot finder's kernels (numba, cached)...\n")
    table = TABLES["large"]
    small = Budget(explore=64, explore_rounds=1, screen_candidates=4, screen_trials=2, settle_shots=1,
                   settle_steps=1, rank_trials=2)
    with compile_notice("the shot finder"):
        find_shots(starting_position(table, Ball.WHITE), Ball.WHITE, DISCIPLINES["three-cushion"], table,
                   count=1, budget=small)
    sys.stderr.write(f"carom: shot finder ready ({time.perf_counter() - started:.0f} s)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
