"""A record's update is made into bytes once for all the boards that show it: each board's
feed hands the same fragment to :func:`event` (or :func:`message`), which answers the bytes
it made for the first."""

from __future__ import annotations

from carom.web.shared.live import event, message


def test_the_boards_of_one_fragment_share_its_events_bytes() -> None:
    fragment = "<section>\n<p>12 : 7</p>\n</section>"
    first = event("board", 12, fragment)
    assert first == b"event: board\nid: 12\ndata: <section>\ndata: <p>12 : 7</p>\ndata: </section>\n\n"
    assert event("board", 12, fragment) is first
    assert message("board", 12, fragment) is message("board", 12, fragment)
    assert event("board", 13, fragment) != first
