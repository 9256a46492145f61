"""The tasks an application's simulation pool runs, counted (what a test of "printed in
the pool" looks at)."""

from __future__ import annotations

from typing import Any


def counted_jobs(app: Any) -> list[Any]:
    """A list that gets each task the app's pool runs from now on (the pool still runs it)."""
    pool = app.state.services.jobs()
    jobs: list[Any] = []
    run = pool.run

    async def counted(client: str, task: Any, args: Any, seconds: float, gone: Any = None) -> bytes:
        jobs.append(task)
        return await run(client, task, args, seconds, gone)

    pool.run = counted
    return jobs
