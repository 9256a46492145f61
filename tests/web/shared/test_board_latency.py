"""A record reaches the boards of a single process on SQLite at once too (the several
processes' case is in ``test_processes``)."""

from __future__ import annotations

from pathlib import Path

from tests.web.server import Server
from tests.web.shared.test_processes import LATE, _board, _post, slowest_board


def test_every_record_reaches_the_boards_of_one_sqlite_process_within_two_seconds(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    try:
        client = server.organiser()
        match = server.create(client, points=100_000)
        client.close()
        assert _post(server.url, match, 0).status_code == 201
        boards = [_board(server.port, match[0], view=view) for view in ("board", "board", "seq")]
        try:
            assert slowest_board(server.url, match, boards, records=40) < LATE
        finally:
            for board in boards:
                board.close()
    finally:
        server.stop()
