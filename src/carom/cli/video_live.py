"""``carom video --live``'s scoreboard side: which sink the strokes go to (one match with
its referee token, or the match a table of the hall plays now with the table's device
token), the device token found or paired, each stroke judged and sent, and at the end how
many strokes were not written and why."""

from __future__ import annotations

import dataclasses
import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from carom.cli.app import fail

if TYPE_CHECKING:
    from carom.core.records import Doubt
    from carom.core.table import TableSpec
    from carom.rules.disciplines import Discipline
    from carom.track.judging.ruling import TrackedRuling
    from carom.video.live import StrokeSink


@dataclass(frozen=True, slots=True)
class Scoreboarding:
    """The live mode's scoreboard options as given (``table``: the hall's table's name)."""

    server: str | None
    match: int | None
    token: str | None
    table: str | None
    pair: str | None
    device_token: str | None
    token_file: Path | None

    @property
    def given(self) -> list[str]:
        """The options given, by their names on the command line."""
        values = {"--server": self.server, "--match": self.match, "--token": self.token,
                  "--pair": self.pair, "--device-token": self.device_token,
                  "--device-token-file": self.token_file}
        return [name for name, value in values.items() if value is not None]


def pair_only(options: Scoreboarding) -> None:
    """``--server URL --table NAME --pair CODE`` without a video: pair, keep the token, stop."""
    if not options.server or options.table is None:
        fail("--pair CODE needs --server URL and --table NAME (the hall's table the camera is paired with)")
    _server(options)
    _paired_token(options, options.server or "", options.table, options.pair or "")


def sink(live: str | None, options: Scoreboarding) -> StrokeSink | None:
    """The sink of a ``--live`` run (``None`` for a file), its options checked together."""
    from carom.video.errors import VideoError

    if live is None:
        if options.given:
            fail(f"{', '.join(options.given)}: these go with --live (a camera writing to a scoreboard)")
        return None
    server = _server(options)
    try:
        if options.match is not None:
            return _match_sink(server, options)
        if options.table is None:
            fail("--live needs --server URL and either --table NAME (the match the hall's table plays now) "
                 "or --match ID with --token")
        return _table_sink(server, options.table, options)
    except VideoError as error:
        fail(str(error))


def _server(options: Scoreboarding) -> str:
    server = options.server
    if not server:
        fail("--live needs --server URL (the scoreboard, http://HOST:PORT) and --table NAME or --match ID")
    if not server.startswith(("http://", "https://")):
        fail(f"--server {server}: expected http://HOST:PORT")
    return server


def _match_sink(server: str, options: Scoreboarding) -> StrokeSink:
    from carom.video.live import ScoreboardMatch

    if options.table is not None:
        fail("--match and --table: give one of them (--match ID writes to one match with its --token; "
             "--table NAME to whatever match the hall's table NAME plays now, with its device token)")
    device = [name for name in options.given if name in ("--pair", "--device-token", "--device-token-file")]
    if device:
        fail(f"{', '.join(device)}: a table's device token goes with --table NAME, not with --match")
    if not options.token:
        fail("--match needs --token (the match's referee token)")
    assert options.match is not None
    written = ScoreboardMatch(server, options.match, options.token)
    written.size = str(written.header().get("table") or "large")
    return written


def _table_sink(server: str, table: str, options: Scoreboarding) -> StrokeSink:
    from carom.video.live_table import ScoreboardTable

    if options.token is not None:
        fail("--token is one match's referee token: with --table give the table's device token "
             "(CAROM_DEVICE_TOKEN, --device-token-file, --device-token, or --pair CODE once)")
    if options.pair is not None and options.device_token is not None:
        fail("--pair and --device-token: give one of them (--pair CODE gets a new device token)")
    if options.device_token is not None and options.token_file is not None:
        fail("--device-token and --device-token-file: give one of them")
    if options.pair is not None:
        token = _paired_token(options, server, table, options.pair)
    else:
        token = _device_token(server, table, options)
    return ScoreboardTable(server, table, token)


def _device_token(server: str, table: str, options: Scoreboarding) -> str:
    """The device token: ``--device-token``, else ``--device-token-file``, else the
    environment's ``CAROM_DEVICE_TOKEN``, else the file kept for the table when it paired."""
    from carom.video import device_tokens

    if options.device_token is not None:
        return options.device_token
    if options.token_file is None and os.environ.get(device_tokens.ENVIRONMENT):
        return os.environ[device_tokens.ENVIRONMENT].strip()
    path = options.token_file or device_tokens.default_file(server, table)
    if options.token_file is None and not path.exists():
        fail(f"table {table!r}: no device token (none kept in {path}): pair once with --pair CODE (the "
             f"organiser's code from /tables), or give {device_tokens.ENVIRONMENT} or --device-token-file")
    return device_tokens.read(path)


def _paired_token(options: Scoreboarding, server: str, table: str, code: str) -> str:
    """Pair with ``code``, keep the token in its file (0600) and say where."""
    from carom.video import device_tokens
    from carom.video.errors import VideoError
    from carom.video.live_table import pair

    path = options.token_file or device_tokens.default_file(server, table)
    try:
        device, token = pair(server, table, code)
        device_tokens.keep(path, token)
    except VideoError as error:
        fail(str(error))
    typer.echo(f"carom: paired with table {table} as device {device}; its device token {token} is kept in "
               f"{path} (readable by you alone; the organiser revokes it on /tables)", err=True)
    return token


def stroke_doubt(ruling: TrackedRuling, seen: Sequence[Mapping[str, Any]]) -> Doubt | None:
    """What the referee's tablet shows of a stroke in doubt (docs/format.md, "A stroke in
    doubt"): the video's doubts (``seen``: what the frames could not show, as
    :func:`carom.video.doubts.read_doubts` reads them, their phrase passed on so that the
    tablet says them in its language) and the auto-referee's, likeliest first, with its
    confidence; ``None`` when neither doubts it. Blank words are left out."""
    from carom.core.records import MAX_REASON_CHARACTERS, MAX_REASONS, Doubt

    video = [_reason(d["what"][:MAX_REASON_CHARACTERS], d.get("said")) for d in seen if d["what"].strip()]
    if not video and not ruling.doubtful:
        return None
    judged = [_reason(d.what[:MAX_REASON_CHARACTERS], d.said.as_json()) for d in ruling.doubts]
    return Doubt(round(ruling.confidence, 4), tuple((video + judged)[:MAX_REASONS]))


def _reason(what: str, said: Any) -> dict[str, Any]:
    """One reason of a doubt: its English, and its phrase when it has one."""
    return {"what": what} if said is None else {"what": what, "said": said}


@dataclass(slots=True)
class LiveLog:
    """Each stroke judged, sent and said on standard error; the strokes not written
    counted by their reason. A scoreboard out of reach keeps that stroke out, and the
    camera goes on (the next stroke tries again)."""

    sink: StrokeSink
    rules: Discipline
    spec: TableSpec
    sent: int = 0
    kept_out: Counter[str] = field(default_factory=Counter)

    def send(self, line: dict[str, Any]) -> None:
        """Judge one stroke by the discipline of the match it goes to and write it there."""
        from carom.core.checks import printable
        from carom.notation.writer import record_json
        from carom.track import read_lines, track_stroke
        from carom.video.doubts import read_doubts
        from carom.video.errors import VideoError
        from carom.video.live import Sent

        tracked = next(read_lines([json.dumps(line)]))
        seen = read_doubts(line.get("doubts"))
        judged: dict[str, TrackedRuling] = {}

        def judge(discipline: str) -> dict[str, Any]:
            ruling = judged[discipline] = track_stroke(tracked, discipline, self.spec)
            # the tracker's own fields stay out; a doubt goes with the stroke, for the referee
            return record_json(dataclasses.replace(ruling.stroke, extra={}, paths=None,
                                                   doubt=stroke_doubt(ruling, seen)))

        self.sent += 1
        try:
            sent = self.sink.send(judge)
        except VideoError as error:  # the scoreboard out of reach for a moment: the camera goes on
            sent = Sent(f"not written: {error.reason}", error.reason)
        if sent.kept_out is not None:
            self.kept_out[sent.kept_out] += 1
        ruling = judged.get(sent.discipline or "") or track_stroke(tracked, self.rules, self.spec)
        flag = " DOUBTFUL" if ruling.doubtful or seen else ""
        typer.echo(f"stroke {line['shot']} ({line['cue']}): {ruling.points} point(s){flag}; "
                   f"{printable(sent.note)}", err=True)  # a scoreboard's words shown, never obeyed

    def summary(self) -> str:
        """How many strokes were written, and how many not and why."""
        missed = sum(self.kept_out.values())
        if not missed:
            return f"carom: {self.sent} stroke(s) written, none kept out"
        from carom.core.checks import printable

        reasons = "; ".join(f"{count} × {printable(reason)}" for reason, count in self.kept_out.most_common())
        return f"carom: {missed} of {self.sent} stroke(s) not written: {reasons}"
