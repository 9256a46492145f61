"""``carom video --live``'s scoreboard options: checked together before anything is read,
the table's device token paired once and kept readable by its user alone, found again in
its file or the environment, and each stroke's fate said and counted."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from carom.core.balls import Ball
from carom.core.records import Header
from carom.core.table import TABLES
from carom.notation.reader import record_from_json
from carom.rules.disciplines import DISCIPLINES
from carom.video.errors import VideoError
from carom.video.live import Judge, Sent
from tests.cli_helpers import assert_refused, run
from tests.storage.postgres import free_port
from tests.track.synthetic import stroke, to_jsonl
from tests.web.server import Server
from tests.web.tables.helpers import add_table, pairing_code

LIVE = ("video", "--live", "rtsp://127.0.0.1:9/x")
SERVER = ("--server", "http://127.0.0.1:9")


def test_the_scoreboard_options_are_checked_together(tmp_path: Path) -> None:
    assert_refused(run(*LIVE, "--table", "1"), "--live needs --server URL")
    assert_refused(run(*LIVE, *SERVER), "either --table NAME (the match the hall's table plays now) or")
    assert_refused(run(*LIVE, *SERVER, "--match", "1", "--table", "1", "--token", "t"),
                   "--match and --table: give one of them")
    assert_refused(run(*LIVE, *SERVER, "--match", "1"), "--match needs --token")
    assert_refused(run(*LIVE, *SERVER, "--match", "1", "--token", "t", "--pair", "c"),
                   "--pair: a table's device token goes with --table NAME, not with --match")
    assert_refused(run(*LIVE, *SERVER, "--table", "1", "--token", "t"), "--token is one match's referee")
    assert_refused(run(*LIVE, *SERVER, "--table", "1", "--pair", "c", "--device-token", "t"),
                   "--pair and --device-token: give one of them")
    assert_refused(run(*LIVE, *SERVER, "--table", "1", "--device-token", "t", "--device-token-file",
                       tmp_path / "t"), "--device-token and --device-token-file: give one of them")
    assert_refused(run(*LIVE, "--server", "ftp://host", "--table", "1"), "--server ftp://host: expected http://")
    assert_refused(run("video", "clip.mp4", *SERVER, "--table", "1", "--pair", "c"),
                   "--server, --pair: these go with --live")
    assert_refused(run("video", "--table", "1", "--pair", "c"), "--pair CODE needs --server URL and --table")


def test_a_table_without_a_device_token_says_how_to_pair(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("CAROM_DEVICE_TOKEN", raising=False)
    kept = tmp_path / "carom" / "devices" / "127.0.0.1%3A9--St%C3%B4l%201.token"
    assert_refused(run(*LIVE, *SERVER, "--table", "Stôl 1"),
                   f"table 'Stôl 1': no device token (none kept in {kept}): pair once with --pair CODE")
    empty = tmp_path / "empty.token"
    empty.write_text("\n")
    assert_refused(run(*LIVE, *SERVER, "--table", "1", "--device-token-file", empty),
                   "empty.token: expected one device token on one line")
    assert_refused(run(*LIVE, *SERVER, "--table", "1", "--device-token-file", tmp_path / "absent"),
                   "absent: no device token can be read there (No such file or directory)")


@pytest.fixture(scope="module")
def scoreboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("live-options") / "data").start()
    organiser = running.organiser()
    add_table(organiser, "Cam")
    organiser.close()
    yield running
    running.stop()


def _code(scoreboard: Server) -> str:
    organiser = scoreboard.organiser()
    try:
        return pairing_code(organiser, "Cam")
    finally:
        organiser.close()


def test_pairing_once_keeps_the_token_for_its_user_alone(scoreboard: Server, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    code = _code(scoreboard)
    paired = run("video", "--server", scoreboard.url, "--table", "Cam", "--pair", code)
    assert paired.exit_code == 0, paired.output
    kept = tmp_path / "carom" / "devices" / f"127.0.0.1%3A{scoreboard.port}--Cam.token"
    token = kept.read_text().strip()
    assert "paired with table Cam as device " in paired.stderr
    assert f"its device token {token} is kept in {kept} (readable by you alone" in paired.stderr
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    again = run("video", "--server", scoreboard.url, "--table", "Cam", "--pair", code)
    assert_refused(again, "table 'Cam': pairing refused (422): code: ")
    assert kept.read_text().strip() == token  # a refused pairing keeps the token it had
    assert_refused(run("video", "--server", scoreboard.url, "--table", "Nowhere", "--pair", code),
                   "table 'Nowhere': the scoreboard at", "has no such table (404")


def test_the_environments_token_is_taken_and_a_wrong_one_is_named(scoreboard: Server,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    kept = tmp_path / "cam.token"
    assert run("video", "--server", scoreboard.url, "--table", "Cam", "--pair", _code(scoreboard),
               "--device-token-file", kept).exit_code == 0
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    camera = f"http://127.0.0.1:{free_port()}/none.ts"
    monkeypatch.setenv("CAROM_DEVICE_TOKEN", kept.read_text().strip())
    # the token is good: what stops the run is the camera that is not there
    assert_refused(run("video", "--live", camera, "--server", scoreboard.url, "--table", "Cam"),
                   "none.ts: cannot be read as a video")
    monkeypatch.setenv("CAROM_DEVICE_TOKEN", "made-up")
    assert_refused(run("video", "--live", camera, "--server", scoreboard.url, "--table", "Cam"),
                   "table 'Cam': the device token is not paired with it (403")
    # a file named on the command line comes before the environment
    assert_refused(run("video", "--live", camera, "--server", scoreboard.url, "--table", "Cam",
                       "--device-token-file", kept), "none.ts: cannot be read as a video")
    assert_refused(run("video", "--live", camera, "--server", scoreboard.url, "--table", "Nowhere"),
                   "table 'Nowhere': the scoreboard at", "no such table (404")
    assert_refused(run("video", "--live", camera, "--server", scoreboard.url, "--match", "999", "--token",
                       "t"), "match 999: the scoreboard answered 404")


class Answers:
    """A sink that gives its answers in turn, judging the stroke by three-cushion when
    it writes."""

    size = "large"

    def __init__(self, *answers: Sent | VideoError) -> None:
        self.answers = list(answers)

    def send(self, judge: Judge) -> Sent:
        answer = self.answers.pop(0)
        if isinstance(answer, VideoError):
            raise answer
        if answer.discipline is not None:
            assert judge(answer.discipline)["type"] == "stroke"
        return answer


def test_each_stroke_is_said_and_those_not_written_are_counted_by_their_reason(
        capsys: pytest.CaptureFixture[str]) -> None:
    from carom.cli.video_live import LiveLog

    tracked, _ = stroke({Ball.WHITE: (0.5, 0.7), Ball.YELLOW: (0.7, 0.7), Ball.RED: (0.7, 2.1)},
                        {Ball.WHITE: (0.0, 0.8)}, Ball.WHITE)
    line = json.loads(to_jsonl([tracked]))
    nothing = "table 1 plays nothing now"
    log = LiveLog(Answers(Sent(f"not written: {nothing}", nothing), Sent("match 3 record 2 written: {}",
                                                                         discipline="three-cushion"),
                          Sent(f"not written: {nothing}", nothing), Sent("refused (422)", "refused (422)"),
                          VideoError("the scoreboard at http://x cannot be reached")),
                  DISCIPLINES["three-cushion"], TABLES["large"])
    assert log.summary() == "carom: 0 stroke(s) written, none kept out"
    for _ in range(5):
        log.send(line)  # the scoreboard out of reach for the last: said, counted, the run goes on
    said = capsys.readouterr().err.splitlines()
    assert said[0].startswith("stroke 1 (white): ") and said[0].endswith(f"; not written: {nothing}")
    assert said[1].endswith("; match 3 record 2 written: {}")
    assert said[4].endswith("; not written: the scoreboard at http://x cannot be reached")
    assert log.summary() == ("carom: 4 of 5 stroke(s) not written: 2 × table 1 plays nothing now; "
                             "1 × refused (422); 1 × the scoreboard at http://x cannot be reached")


class Kept:
    """A sink that keeps the record it was given, judged by three-cushion."""

    size = "large"

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def send(self, judge: Judge) -> Sent:
        self.records.append(judge("three-cushion"))
        return Sent("match 3 record 2 written: {}", discipline="three-cushion")


def test_a_stroke_the_video_doubts_carries_its_doubt_to_the_tablet() -> None:
    from carom.cli.video_live import LiveLog

    tracked, _ = stroke({Ball.WHITE: (0.5, 0.7), Ball.YELLOW: (0.7, 0.7), Ball.RED: (0.7, 2.1)},
                        {Ball.WHITE: (0.0, 0.8)}, Ball.WHITE)
    line = json.loads(to_jsonl([tracked]))
    kept = Kept()
    log = LiveLog(kept, DISCIPLINES["three-cushion"], TABLES["large"])
    log.send(line)
    assert "doubt" not in kept.records[0]  # a clean stroke goes as it was judged
    seen = "red not seen after frame 120 (4.000 s): its last place before it is used"
    log.send({**line, "doubts": [seen, "x" * 900]})
    doubt = kept.records[1]["doubt"]
    assert doubt["reasons"][0] == {"what": seen}
    assert len(doubt["reasons"][1]["what"]) == 500  # cut to what a record may carry
    assert 0.0 <= doubt["confidence"] <= 1.0
    record_from_json(kept.records[1], Header("three-cushion", "large", ("A", "B"), 10, None))  # readable


def test_the_videos_doubt_goes_to_the_tablet_with_its_phrase() -> None:
    """A stroke line's doubt kept as a phrase: the record's reason carries it beside the
    English (the tablet says it in its language); a plain string beside it goes as words."""
    from carom.cli.video_live import LiveLog
    from carom.notation.said import Said
    from carom.video.doubts import entry

    tracked, _ = stroke({Ball.WHITE: (0.5, 0.7), Ball.YELLOW: (0.7, 0.7), Ball.RED: (0.7, 2.1)},
                        {Ball.WHITE: (0.0, 0.8)}, Ball.WHITE)
    line = json.loads(to_jsonl([tracked]))
    covered = Said("%(ball)s not seen after frame %(frame)s (%(t)s s): it left the picture or was covered",
                   ball=Ball.RED, frame="120", t="4.000")
    kept = Kept()
    LiveLog(kept, DISCIPLINES["three-cushion"], TABLES["large"]).send(
        {**line, "doubts": [entry(covered), "an older tracker's words", {"what": "  "}]})
    reasons = kept.records[0]["doubt"]["reasons"]
    assert reasons[0] == {"what": str(covered), "said": covered.as_json()}
    assert reasons[1] == {"what": "an older tracker's words"}
    assert all(r["what"].strip() for r in reasons)  # blank words left out
    record_from_json(kept.records[0], Header("three-cushion", "large", ("A", "B"), 10, None))  # readable


def test_a_malformed_doubt_of_the_stroke_line_is_refused_naming_the_field() -> None:
    from carom.cli.video_live import LiveLog
    from carom.track.errors import TrackFormatError

    tracked, _ = stroke({Ball.WHITE: (0.5, 0.7), Ball.YELLOW: (0.7, 0.7), Ball.RED: (0.7, 2.1)},
                        {Ball.WHITE: (0.0, 0.8)}, Ball.WHITE)
    kept = Kept()
    with pytest.raises(TrackFormatError, match=r"doubts\[0\]\.what: expected the doubt in words"):
        LiveLog(kept, DISCIPLINES["three-cushion"], TABLES["large"]).send(
            {**json.loads(to_jsonl([tracked])), "doubts": [{"what": 3}]})
    assert kept.records == []
