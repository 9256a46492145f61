"""Following the balls from frame to frame: identities kept by motion and colour together."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from carom.core.balls import Ball
from carom.video.balls import Blob
from carom.video.follow import Follower, Sample
from carom.video.frames import Frame
from tests.video.conftest import TABLE

FPS = 30.0
BLANK = np.zeros((4, 4), np.uint8)


def _blob(ball: Ball, x: float, y: float, streak: float = 0.0, mixed: bool = False) -> Blob:
    """A blob at table point ``(x, y)``, m (the stub camera's pixels are millimetres);
    ``mixed``: its colour is its ball's mixed with the cloth's (a streak's)."""
    return Blob(ball, np.array([x * 1000.0, y * 1000.0]), 15.0, streak, np.array([1.0, 0.0]), 1.0, 0.02,
                mixed)


def _follower(frames: list[list[Blob]], covered: tuple[float, float] | None = None, rate: float = FPS
              ) -> tuple[Follower, list[dict[Ball, Sample]]]:
    """The follower after ``frames`` (one list of blobs each, ``rate`` a second), and what it
    saw in each; the cloth is bare wherever no blob lies, except at ``covered`` (a hand, a
    ball touching it)."""
    found = iter(frames)
    now: list[list[Blob]] = [[]]

    def find(frame: Frame) -> list[Blob]:
        now[0] = next(found)
        return now[0]

    def bare(pixel: np.ndarray) -> bool:
        places = [b.centre for b in now[0]] + ([np.array(covered) * 1000.0] if covered else [])
        return all(float(np.linalg.norm(p - pixel)) > 30.0 for p in places)

    registration = SimpleNamespace(table=TABLE, to_table=lambda pixels, z: pixels / 1000.0,
                                   to_pixels=lambda points, z: points * 1000.0)
    finder = SimpleNamespace(find=find, bare=bare)
    follower = Follower(registration, finder)  # type: ignore[arg-type]
    return follower, [follower.step(Frame(k, k / rate, BLANK, BLANK, BLANK)) for k in range(len(frames))]


def _follow(frames: list[list[Blob]]) -> list[dict[Ball, Sample]]:
    return _follower(frames)[1]


def _at(sample: Sample) -> tuple[float, float]:
    return round(sample.x, 3), round(sample.y, 3)


def test_white_is_not_taken_onto_a_struck_yellows_washed_out_streak() -> None:
    """White runs into the lying yellow and is turned aside; yellow leaves fast, its streak
    over a blue cloth measured as a yellow blob and, on the same place, a white one (its
    blurred edge mixes yellow and blue into grey). The white blob on yellow's place lies
    nearer white's straight line than white itself: two balls cannot lie on one place, so
    white stays white."""
    red = _blob(Ball.RED, 0.06, 0.875)
    before = [[red, _blob(Ball.WHITE, x, y, 40.0), _blob(Ball.YELLOW, 1.095, 0.464)]
              for x, y in ((0.926, 0.909), (0.995, 0.751), (1.063, 0.596))]
    after = [[red, _blob(Ball.WHITE, 1.125, 0.525), _blob(Ball.YELLOW, 1.099, 0.382, 20.0),
              _blob(Ball.WHITE, 1.100, 0.379, 55.0)],
             [red, _blob(Ball.WHITE, 1.183, 0.525), _blob(Ball.YELLOW, 1.105, 0.232, 20.0),
              _blob(Ball.WHITE, 1.107, 0.229, 55.0)]]
    seen = _follow(before + after)
    assert [_at(s[Ball.WHITE]) for s in seen[3:]] == [(1.125, 0.525), (1.183, 0.525)]
    assert [_at(s[Ball.YELLOW]) for s in seen[3:]] == [(1.099, 0.382), (1.105, 0.232)]


def test_a_ball_with_no_blob_of_its_colour_near_it_is_left_unseen() -> None:
    seen = _follow([[_blob(Ball.WHITE, 0.5, 0.5), _blob(Ball.YELLOW, 1.0, 1.0)],
                    [_blob(Ball.WHITE, 0.5, 0.5), _blob(Ball.YELLOW, 1.0, 2.5)]])
    assert Ball.YELLOW not in seen[1] and _at(seen[1][Ball.WHITE]) == (0.5, 0.5)


def test_a_struck_ball_measured_off_its_line_once_is_kept_as_it_runs() -> None:
    """Yellow, lying still, is struck; in the frame of the cue's contact its streak merges
    with the cue's ferrule and is measured 5 cm off, so its straight line points the wrong
    way. A ball seen a moment ago may have been turned by a contact: it is looked for all
    round its last place, and kept (taken ball by ball on its line, it was lost for the
    whole stroke and the stroke was missed)."""
    white, red = _blob(Ball.WHITE, 0.097, 2.242), _blob(Ball.RED, 0.816, 2.186)
    rest = [[white, red, _blob(Ball.YELLOW, 0.475, 0.18)] for _ in range(4)]
    struck = [[white, red, _blob(Ball.YELLOW, 0.484, 0.135, 120.0)]]
    running = [(0.452, 0.28), (0.432, 0.363), (0.414, 0.443), (0.396, 0.522), (0.378, 0.6)]
    seen = _follow(rest + struck + [[white, red, _blob(Ball.YELLOW, x, y, 25.0)] for x, y in running])
    assert [_at(s[Ball.YELLOW]) for s in seen[5:]] == running


def test_a_still_ball_struck_fast_and_unseen_for_its_first_frames_is_taken_up_where_it_ran() -> None:
    """Yellow lies still; struck at 3.5 m/s, its streak is too washed out to be measured
    for 13 frames, then found 1.6 m away. Nothing but a strike moves a still ball, and a
    strike sends it at any speed up to the fastest: it is taken up there (its gate, grown
    as for a rolling ball's change of speed, fell behind it, and the stroke was taken as
    white's, which yellow ran into)."""
    white, red = _blob(Ball.WHITE, 0.122, 0.676), _blob(Ball.RED, 1.166, 2.567)
    rest = [[white, red, _blob(Ball.YELLOW, 1.345, 2.732)] for _ in range(4)]
    unseen = [[white, red] for _ in range(13)]
    running = [(0.489, 1.361), (0.433, 1.270), (0.378, 1.181)]
    seen = _follow(rest + unseen + [[white, red, _blob(Ball.YELLOW, x, y, 19.0)] for x, y in running])
    assert [_at(s[Ball.YELLOW]) for s in seen[17:]] == running


RUNNING = [(0.415, 0.297), (0.466, 0.426), (0.516, 0.552), (0.566, 0.677), (0.614, 0.799)]
"""A struck yellow's places, frame by frame, at 3.4 m/s."""


def test_a_still_ball_that_left_its_rest_takes_its_streak_of_mixed_colour() -> None:
    """Yellow lies still, then is struck: its streaks, their colour yellow mixed with the
    cloth's, are a moving yellow, and its place is bare cloth: it left it."""
    white, red = _blob(Ball.WHITE, 1.371, 2.714), _blob(Ball.RED, 1.033, 0.221)
    rest = [[white, red, _blob(Ball.YELLOW, 0.385, 0.221)] for _ in range(4)]
    seen = _follow(rest + [[white, red, _blob(Ball.YELLOW, x, y, 35.0, mixed=True)] for x, y in RUNNING])
    assert [_at(s[Ball.YELLOW]) for s in seen[4:]] == RUNNING


def test_a_blob_of_mixed_colour_is_no_still_ball_still_in_its_place_nor_a_ball_never_seen() -> None:
    """Only a ball in motion shows its colour mixed with the cloth's: a still yellow whose
    place is not bare (covered by a hand) takes no such blob beside it, and a ball not yet
    seen takes none (on a green cloth, skin lies on the line from red to the cloth)."""
    white, red = _blob(Ball.WHITE, 1.371, 2.714), _blob(Ball.RED, 1.033, 0.221)
    rest = [[white, red, _blob(Ball.YELLOW, 0.385, 0.221)] for _ in range(4)]
    hand = [[white, red, _blob(Ball.YELLOW, 0.415, 0.297, 35.0, mixed=True)] for _ in range(3)]
    _, seen = _follower(rest + hand, covered=(0.385, 0.221))
    assert all(Ball.YELLOW not in s for s in seen[4:])
    (first,) = _follow([[white, _blob(Ball.RED, 1.0, 1.0, 35.0, mixed=True)]])
    assert Ball.RED not in first and Ball.WHITE in first


def test_a_still_ball_not_seen_where_it_lies_covered_takes_no_far_blob_of_its_colour() -> None:
    """White lies against red, its image merged with red's and not measured; a white blob
    shows in a far corner of the table. White's place is not bare cloth: it is still
    there, and takes no blob far away."""
    red, yellow = _blob(Ball.RED, 0.145, 0.855), _blob(Ball.YELLOW, 0.2, 1.874)
    rest = [[red, yellow, _blob(Ball.WHITE, 0.116, 0.795)] for _ in range(4)]
    merged = [[red, yellow] for _ in range(15)]
    icon = [[red, yellow, _blob(Ball.WHITE, 0.035, 2.838)]]
    _, seen = _follower(rest + merged + icon, covered=(0.116, 0.795))
    assert Ball.WHITE not in seen[-1]


def test_a_still_ball_hidden_keeps_its_rest_over_a_far_blob_of_its_colour() -> None:
    """A still ball seen again at its rest takes it, not a blob of its colour far away."""
    white, red = _blob(Ball.WHITE, 0.122, 0.676), _blob(Ball.RED, 1.166, 2.567)
    rest = [[white, red, _blob(Ball.YELLOW, 1.345, 2.732)] for _ in range(4)]
    hidden = [[white, red] for _ in range(10)]
    back = [[white, red, _blob(Ball.YELLOW, 1.345, 2.732), _blob(Ball.YELLOW, 0.5, 1.0)]]
    seen = _follow(rest + hidden + back)
    assert _at(seen[14][Ball.YELLOW]) == (1.345, 2.732)


def test_two_blobs_of_a_balls_colour_fitting_it_equally_well_are_a_doubt_said_once() -> None:
    """White rolls along y; then two white blobs lie as far from where its motion puts it,
    on either side: which is white cannot be told, and the doubt names the frame."""
    red, yellow = _blob(Ball.RED, 0.06, 0.875), _blob(Ball.YELLOW, 1.2, 2.0)
    rolling = [[red, yellow, _blob(Ball.WHITE, 0.7, 1.0 + 0.03 * k)] for k in range(3)]
    torn = [[red, yellow, _blob(Ball.WHITE, 0.65, 1.09 + 0.03 * k), _blob(Ball.WHITE, 0.75, 1.09 + 0.03 * k)]
            for k in range(2)]
    follower, _ = _follower(rolling + torn)
    (doubt,) = follower.doubts
    assert str(doubt).startswith("white at frame 3 (0.100 s): two blobs of its colour 100 mm apart"), doubt


def test_one_blob_on_a_balls_line_raises_no_doubt() -> None:
    red, yellow = _blob(Ball.RED, 0.06, 0.875), _blob(Ball.YELLOW, 1.2, 2.0)
    frames = [[red, yellow, _blob(Ball.WHITE, 0.7, 1.0 + 0.03 * k)] for k in range(4)]
    frames.append([red, yellow, _blob(Ball.WHITE, 0.7, 1.12), _blob(Ball.WHITE, 0.9, 1.3)])
    assert _follower(frames)[0].doubts == []


def test_a_struck_ball_lost_does_not_take_a_still_blob_of_its_colour_that_lay_beside_it_all_along() -> None:
    """The broadcaster's score graphics draw a white ball icon over the table: a white blob
    that never moves, taken by no ball. White, lying 20 cm from it for a second, is struck
    and its streak is too washed out to be found: the icon lay there while white was seen
    elsewhere, so it is not white (a ball cannot be at two places at once); white stays
    unseen until it is found running, far off."""
    icon = _blob(Ball.WHITE, 1.377, 0.294)
    rest = [[_blob(Ball.WHITE, 1.223, 0.168), icon, _blob(Ball.RED, 0.8, 2.2)] for _ in range(30)]
    lost = [[icon, _blob(Ball.RED, 0.8, 2.2)] for _ in range(3)]
    runs = [[icon, _blob(Ball.WHITE, 1.0, 1.1), _blob(Ball.RED, 0.8, 2.2)]]
    seen = _follow(rest + lost + runs)
    assert _at(seen[29][Ball.WHITE]) == (1.223, 0.168)
    assert all(Ball.WHITE not in frame for frame in seen[30:33])
    assert _at(seen[33][Ball.WHITE]) == (1.0, 1.1)


def test_a_blob_that_appeared_after_a_ball_was_last_seen_may_be_that_ball() -> None:
    """A still blob that came only once the ball was gone (the ball itself, come to rest
    while it was not followed) is no fixture for it: it takes it."""
    rest = [[_blob(Ball.WHITE, 1.2, 0.2), _blob(Ball.RED, 0.8, 2.2)] for _ in range(10)]
    gone = [[_blob(Ball.RED, 0.8, 2.2)] for _ in range(5)]
    back = [[_blob(Ball.WHITE, 1.25, 0.3), _blob(Ball.RED, 0.8, 2.2)] for _ in range(30)]
    seen = _follow(rest + gone + back)
    assert _at(seen[-1][Ball.WHITE]) == (1.25, 0.3)


def test_a_ball_rolling_slowly_lies_still_at_no_rate_of_pictures() -> None:
    """White rolls at 0.12 m/s, 4 mm a thirtieth of a second: not still at 30 frames a
    second nor at 60 fields (2 mm from one field to the next, within the 3 mm of a still
    ball: compared with the field before, it was taken for still)."""
    for rate in (FPS, 60.0):
        rolling = [[_blob(Ball.WHITE, 0.5, 1.0 + 0.12 * k / rate)] for k in range(8)]
        assert not _follower(rolling, rate=rate)[0].tracks[Ball.WHITE].resting()
        lying = [[_blob(Ball.WHITE, 0.5, 1.0)] for _ in range(8)]
        assert _follower(lying, rate=rate)[0].tracks[Ball.WHITE].resting()
