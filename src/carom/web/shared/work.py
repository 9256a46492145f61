"""What the simulation pool's processes run (:mod:`carom.web.shared.pool`): each task
takes plain values (a request's body, a language, a snapshot) and returns the bytes of
the answer, written in the process that computed it.

:func:`serve` is a process's life: lower its priority, keep the shot finder's parallel
kernels to one thread (the pool's size says how many cores the web's computations get),
say :data:`READY`, then run one task after another (the finder's kernels load at the
first search, about a second). A task that refuses its
input (a :class:`ValueError`, which names the field) is answered as a refusal; anything
else as a failure; a process killed in the middle of a task is replaced by the pool.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from multiprocessing.connection import Connection
from typing import Any

READY = "ready"
FITTED = b"\0"
"""What parts :func:`fit_review_stroke`'s answer (JSON never holds a raw NUL byte)."""
NICE = 10
"""How much lower than the server the pool's processes run: the event loop and the
writer get a core first."""


def serve(pipe: Connection) -> None:
    """A pool process: warm up, then run each task sent down ``pipe``."""
    os.nice(NICE)
    _one_thread()
    pipe.send(READY)
    while True:
        try:
            task, args = pipe.recv()
        except (EOFError, OSError):
            return
        try:
            pipe.send(("done", task(*args)))
        except ValueError as error:  # CaromError and the readers' errors name the field
            pipe.send(("refused", str(error)))
        except Exception as error:
            pipe.send(("failed", f"{type(error).__name__}: {error}"))


def simulate(body: dict[str, Any], lang: str) -> bytes:
    """``POST /api/simulate``'s answer (:func:`carom.web.training.simulator.simulate_spec`)."""
    from carom.web.shared.i18n import PageWords
    from carom.web.training.simulator import simulate_spec

    return _json(simulate_spec(body, PageWords(lang).rule))


def solve(body: dict[str, Any], lang: str) -> bytes:
    """``POST /api/solve``'s answer (:func:`carom.web.training.simulator.solve_body`)."""
    from carom.web.shared.i18n import PageWords
    from carom.web.training.simulator import solve_body

    return _json(solve_body(body, PageWords(lang).rule))


def fit_review_stroke(record: dict[str, Any], header: Any) -> bytes:
    """A review's stroke read back (:func:`carom.web.review.fitting.fit_record`): what the
    page shows of it as JSON, then a NUL byte, then the fitted stroke pickled for the
    what-ifs (nothing after the NUL when there was nothing to fit)."""
    import pickle

    from carom.web.review.fitting import fit_record

    data, fitted = fit_record(record, header)
    return _json(data) + FITTED + (b"" if fitted is None else pickle.dumps(fitted))


def what_if_review(fitted: bytes, field: str, value: float, header: Any) -> bytes:
    """A review's stroke read back, played again with one field of its strike changed
    (:func:`carom.web.review.fitting.what_if_record`); ``fitted`` as
    :func:`fit_review_stroke` pickled it."""
    import pickle

    from carom.web.review.fitting import what_if_record

    return _json(what_if_record(pickle.loads(fitted), field, value, header))  # the pool's own bytes


def scoresheet_pdf(snap: Any, lang: str, place: str | None = None) -> bytes:
    """A match's scoresheet as PDF (:func:`carom.web.shared.reports.scoresheet_pdf`)."""
    from carom.web.shared.reports import scoresheet_pdf as pdf

    return pdf(snap, lang, place)


def results_pdf(tournament: Any, lang: str) -> bytes:
    """A tournament's results as PDF (:func:`carom.web.tournaments.reports.results_pdf`)."""
    from carom.web.tournaments.reports import results_pdf as pdf

    return pdf(tournament, lang)


def meeting_pdf(title: str, sections: list[Any], lang: str, subtitle: str) -> bytes:
    """A league meeting's report as PDF (:func:`carom.web.leagues.reports.print_report`)."""
    from carom.web.leagues.reports import print_report

    return print_report(title, sections, lang, subtitle)


def fit_available() -> bool:
    """Whether this installation can read strokes back (``carom.fit`` needs SciPy, the
    ``fit`` extra)."""
    return importlib.util.find_spec("scipy") is not None


def warm_simulator() -> None:
    """Load the simulator's kernels and the PDF's fonts (what the fork server does once)."""
    from carom.core.balls import BALLS, Ball
    from carom.core.position import starting_position
    from carom.core.table import TABLES
    from carom.web.training.simulator import simulate_spec

    start = starting_position(TABLES["large"], Ball.WHITE)
    simulate_spec({"balls": {b.value: {"r": list(start[b])} for b in BALLS},
                   "strike": {"ball": "white", "speed": 3.0, "direction": 80.0}}, str)
    # loaded, not run: the shot finder's parallel kernels would start threads before the fork
    for module in ("carom.solve.finder", "carom.web.shared.reports", "carom.web.tournaments.reports"):
        importlib.import_module(module)
    if fit_available():  # the review's fit: 0.6 s, once
        importlib.import_module("carom.web.review.fitting")


def _one_thread() -> None:
    import numba

    numba.set_num_threads(1)


def _json(value: Any) -> bytes:
    import orjson

    return orjson.dumps(value)
