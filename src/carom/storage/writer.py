"""Group commit: one thread writes, many wait, each batch is one durable commit.

A commit costs an ``fsync`` (milliseconds on a real disk), and SQLite lets only
one writer in at a time. So every write is a *job* handed to a single writer
thread, which runs all the jobs waiting at that moment in one transaction, commits
once, and only then answers every caller: a record is on disk before it is
acknowledged, and fifty tables share one ``fsync`` instead of queueing for fifty.

A job given to :meth:`Writer.run` runs in a savepoint of its own: when it refuses
(raises) after it wrote, what it wrote is rolled back and the rest of the batch is
committed, so a request is one transaction (a refused entry of 300 players keeps none
of them). A job given to :meth:`Writer.submit` (a record's one insert) must refuse
before it writes. A job that meets a database error (another process wrote the same
row first), or refuses because of one, spoils the transaction on PostgreSQL, so the
batch is then run again the careful way, each job in its own savepoint, and only that
job fails.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

T = TypeVar("T")
Job = Callable[[Connection], Any]
Item = tuple[Job, "Future[Any]"]

MAX_BATCH = 256


class Writer:
    """The single writer of a database."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._jobs: queue.SimpleQueue[Item | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="carom-writer", daemon=True)
        self._thread.start()

    def run(self, job: Callable[[Connection], T]) -> T:
        """Run ``job`` in a transaction and return its result once it is committed; all
        of it or, when it raises, none of it (its savepoint is rolled back).

        An exception raised by the job, or by the commit, is raised here.
        """
        def whole(connection: Connection) -> T:
            with connection.begin_nested():
                return job(connection)

        return self.submit(whole).result()

    def submit(self, job: Callable[[Connection], T]) -> Future[T]:
        """Queue ``job``; the future is settled once its batch is committed."""
        future: Future[T] = Future()
        self._jobs.put((job, future))
        return future

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    item = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._jobs.put(None)
                    break
                batch.append(item)
            self._commit(batch)

    def _commit(self, batch: list[Item]) -> None:
        outcomes: list[tuple[Future[Any], Any, BaseException | None]] = []
        try:
            with self._engine.begin() as connection:
                for job, future in batch:
                    try:
                        outcomes.append((future, job(connection), None))
                    except Exception as error:
                        if isinstance(error, SQLAlchemyError) or isinstance(error.__cause__, SQLAlchemyError):
                            raise _Spoiled from error
                        outcomes.append((future, None, error))  # the job's refusal, before it wrote
        except _Spoiled:
            self._commit_carefully(batch)
            return
        except Exception as error:  # the commit failed: nothing of the batch is stored
            _settle([(future, None, error) for _, future in batch])
            return
        _settle(outcomes)

    def _commit_carefully(self, batch: list[Item]) -> None:
        outcomes: list[tuple[Future[Any], Any, BaseException | None]] = []
        try:
            with self._engine.begin() as connection:
                for job, future in batch:
                    try:
                        with connection.begin_nested():
                            outcomes.append((future, job(connection), None))
                    except Exception as error:
                        outcomes.append((future, None, error))
        except Exception as error:
            outcomes = [(future, None, error) for _, future in batch]
        _settle(outcomes)


class _Spoiled(Exception):
    """A job met a database error: the transaction may be unusable (PostgreSQL)."""


def _settle(outcomes: list[tuple[Future[Any], Any, BaseException | None]]) -> None:
    for future, result, error in outcomes:
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
