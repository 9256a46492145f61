"""Match files: reading them strictly or leniently into a :class:`Match`, and replaying
them as a stream.

Strict reading refuses a file at its first impossible record, naming the line and
the reason. Lenient reading, for tools, collects every error and goes on without
the refused lines. A file is opened once and read a line at a time, each line within
:data:`~carom.core.sources.MAX_LINE`. Replaying a file goes over it twice (a cheap pass
for ``undo``, then the match), so memory stays flat however long the file is; input
that cannot be gone over twice (a pipe, a FIFO, standard input) is first copied to a
temporary file as it is read.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast, overload

from carom.core.checks import shown
from carom.core.errors import InputError, InvalidValue, RecordError
from carom.core.inputs import decode
from carom.core.records import RECORD_TYPES, Header, Record
from carom.core.sources import MAX_LINE, Source, opened, text_lines
from carom.match.replay import Replayer, withdrawn_lines
from carom.match.state import MatchState, Ruling
from carom.notation.reader import load_json, parse_header, parse_record
from carom.rules.validity import check_header, check_record

if TYPE_CHECKING:
    from carom.notation.browse import Play
    from carom.notation.drawing import Picture

Lines = Source | Iterable[str]
"""A match file: a path, an open binary file, or its lines as text."""


def numbered_lines(source: Lines) -> Iterator[tuple[int, str]]:
    """(line number, text) for every line that is not blank. A path is opened and an
    open binary file read, lazily, a line at a time (:func:`~carom.core.sources.text_lines`:
    UTF-8 with or without a byte-order mark, each line within a bound). Bytes that are
    not UTF-8 are kept escaped (``surrogateescape``) and refused when the line is read
    (:func:`checked`), so that the error names its line."""
    if isinstance(source, (str, os.PathLike)) or _binary(source):
        with opened(cast("Source", source)) as handle:
            yield from _numbered(text_lines(handle))
    else:
        yield from _numbered(cast("Iterable[str]", source))


def _binary(source: object) -> bool:
    """An open file of bytes (not one of text, not a list of lines)."""
    return hasattr(source, "read") and not isinstance(source, io.TextIOBase)


_ESCAPED = re.compile("[\udc80-\udcff]")
"""What ``surrogateescape`` makes of a byte that is not UTF-8."""


def checked(text: str) -> str:
    """``text``, unless it holds bytes that were not UTF-8: then a :class:`RecordError`
    that names the byte and its column (the caller adds the line)."""
    if not text.isascii() and _ESCAPED.search(text):
        try:
            decode(text.encode("utf-8", "surrogateescape"))
        except InputError as error:
            raise RecordError(error.reason) from None
    return text


def _numbered(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    for number, text in enumerate(lines, start=1):
        if type(text) is not str:
            raise RecordError(f"expected a line of text, got {shown(text)}", number)
        if text and not text.isspace():
            yield number, text


def lines_of(text: str) -> list[str]:
    """The lines of a file held in memory, for :func:`numbered_lines`; they end as a
    file's do (``\n``, ``\r\n`` or ``\r``)."""
    return io.StringIO(text, newline=None).readlines()


def _header(lines: Iterator[tuple[int, str]]) -> Header:
    first = next(lines, None)
    if first is None:
        raise RecordError("the file is empty: line 1 must be the header", 1)
    number, text = first
    try:
        return parse_header(checked(text))
    except RecordError as error:
        if _tracked(text):
            raise RecordError(f"{error.reason}; this looks like a tracked file, not a match record: "
                              "carom track judges it, carom.track.read_tracked reads it", number) from None
        raise error.at(number) from None


def _tracked(text: str) -> bool:
    """Does this first line look like a tracked stroke (``shot``, ``cue``, ``balls``)?"""
    try:
        obj = load_json(text)
    except RecordError:
        return False
    return "format" not in obj and "balls" in obj and ("cue" in obj or "shot" in obj)


MEMO_LINES = 4096
"""How many distinct short lines :func:`records` remembers."""
MEMO_LENGTH = 160
"""Lines up to this length are remembered: calls, innings, openers, undos."""


def records(source: Source | Iterable[str]) -> tuple[Header, Iterator[tuple[int, Record]]]:
    """The header, and the records one by one (strict: the first bad line raises).

    Records are values and reading is a pure function of the line and the header,
    so a line seen before gives the record it gave then: a scoreboard's log is
    mostly the same few short lines, and this spares parsing them again.
    """
    lines = numbered_lines(source)
    header = _header(lines)

    def each() -> Iterator[tuple[int, Record]]:
        memo: dict[str, Record] = {}
        for number, text in lines:
            record = memo.get(text)
            if record is None:
                try:
                    record = parse_record(checked(text), header)
                except RecordError as error:
                    raise error.at(number) from None
                if len(text) <= MEMO_LENGTH and len(memo) < MEMO_LINES:
                    memo[text] = record
            yield number, record

    return header, each()


@dataclass(frozen=True, slots=True, repr=False)
class Match:
    """A match record, read and replayed: the one object of a match (FORMAT.md).

    ``header`` and ``records`` say what happened, each record with the line it stands on
    (the header is line 1); ``state`` is where the match stands after them and
    ``rulings`` are the rulings that stand (an ``undo`` withdraws one); ``errors``, of a
    lenient reading, are the records that were left out and why.

    A match is also the sequence of its plays (:class:`~carom.notation.browse.Play`:
    each record ruled on, with its ruling): ``len(match)``, ``match[i]``, ``for play in
    match``; :meth:`to_records` and :meth:`to_pandas` give them as a table. In Jupyter a
    match shows its scoresheet beside the table as it stands (:meth:`_repr_html_`).
    """

    header: Header
    records: tuple[tuple[int, Record], ...]
    state: MatchState
    rulings: tuple[Ruling, ...]
    errors: tuple[RecordError, ...] = ()

    @classmethod
    def of(cls, header: Header, records: Iterable[Record | tuple[int, Record]]) -> Match:
        """Replay records held in memory, strictly, with the reader's checks: the header's
        discipline and table, each record against them (``carom.rules.validity``), then
        against the match so far. Records given without their line are numbered from
        line 2, as in a file; lines given must rise. A refusal is the
        :class:`RecordError` reading the file would raise."""
        if type(header) is not Header:
            raise RecordError(f"header: expected a Header, got {shown(header)}", 1)
        try:
            discipline, table = check_header(header)
        except InvalidValue as error:
            raise RecordError(str(error), 1) from None
        replayer = Replayer(header)
        kept: list[tuple[int, Record]] = []
        for item in _as_records(records):
            last = kept[-1][0] if kept else 1
            if type(item) is tuple and len(item) != 2:
                raise RecordError(f"expected a record or a (line, record) pair, got {shown(item)}", last + 1)
            line, record = item if type(item) is tuple else (last + 1, item)
            if type(line) is not int or line <= last:
                raise RecordError(f"the line {shown(line)} does not come after line {last}", last)
            if type(record) not in RECORD_TYPES:
                raise RecordError(f"expected a record (stroke, call, inning, ...), got {shown(record)}", line)
            try:
                check_record(record, discipline, table)
            except InvalidValue as error:
                raise RecordError(str(error), line) from None
            replayer.feed(line, record)
            kept.append((line, record))
        return cls(header, tuple(kept), replayer.state, tuple(replayer.rulings))

    @property
    def plays(self) -> tuple[Play, ...]:
        """Every record ruled on, with its standing ruling, in order."""
        from carom.notation.browse import plays  # the browsing loads when asked for, as the pictures do

        return plays(self.records, self.rulings)

    def __len__(self) -> int:
        return len(self.rulings)

    def __iter__(self) -> Iterator[Play]:
        return iter(self.plays)

    @overload
    def __getitem__(self, index: int) -> Play: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Play, ...]: ...

    def __getitem__(self, index: int | slice) -> Play | tuple[Play, ...]:
        if type(index) is not int and type(index) is not slice:
            raise InputError(f"a match is indexed by a play's number, not {shown(index)}")
        try:
            return self.plays[index]
        except IndexError:
            raise InputError(f"no play {index}: the match has {len(self)}") from None

    def __repr__(self) -> str:
        from carom.notation.browse import short_repr

        return short_repr(self)

    def to_records(self) -> list[dict[str, Any]]:
        """The plays as rows of plain values (docs/api.md): ``line``, ``set``, ``inning``,
        ``player`` (0, 1), ``name``, ``record`` (stroke, call, inning, respot), ``ball``
        and ``events`` (of a stroke), ``points``, ``fouls``, ``cites``, ``ends_inning``."""
        from carom.notation.browse import play_rows

        return play_rows(self)

    def to_pandas(self) -> Any:
        """:meth:`to_records` as a pandas ``DataFrame`` (the extra ``carom[pandas]``)."""
        from carom.notation.browse import data_frame

        return data_frame(self.to_records())

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the match as a ``carom/1`` file (:meth:`text`): a regular file is
        replaced only once it is whole, a device or a FIFO is written through."""
        from carom.core.outputs import write_text

        if not isinstance(path, (str, os.PathLike)):
            raise InputError(f"path: expected the name of a file, got {shown(path)}")
        write_text(Path(path), self.text())

    def _repr_html_(self) -> str:
        """The scoresheet beside the table as the match left it (Jupyter)."""
        from carom.notation.browse import scoresheet_html

        return scoresheet_html(self, self._repr_svg_())

    def scoresheet(self, lang: str = "en") -> str:
        """The scoresheet a referee fills in, in English (``en``) or Slovak (``sk``)."""
        from carom.notation.scoresheet import scoresheet  # the pictures and words load when asked for

        return scoresheet(self.state, self.rulings, self.header.players, lang)

    def draw(self, line: int, which: str = "both") -> Picture:
        """The table before and/or after the record at ``line``, as SVG (``carom draw``);
        a :class:`~carom.notation.drawing.Picture`, which Jupyter shows."""
        from carom.notation.drawing import Picture, draw_record

        return Picture(draw_record(self.header, self.records, line, which))

    def text(self) -> str:
        """The match as a ``carom/1`` file: the header line, then one line per record."""
        from carom.notation.writer import format_match

        return format_match(self.header, [record for _, record in self.records])

    def _repr_svg_(self) -> str:
        """The table as the match left it: the balls where they lie (none when no
        record said), the discipline's zones."""
        from carom.notation.svg import svg_table

        rules = self.state.rules
        return svg_table(rules.table, self.state.position, discipline=rules.discipline)


def _as_records(records: object) -> Iterable[object]:
    """``records`` when they can be gone through (a list, a tuple, a generator)."""
    if isinstance(records, (str, bytes)) or not isinstance(records, Iterable):
        raise RecordError(f"records: expected records, or (line, record) pairs, got {shown(records)}")
    return records


def read_match(source: Lines | bytes, *, strict: bool = True) -> Match:
    """Read a whole match file, checking every record against the match so far, and
    keep it with its replay (``carom.read``).

    ``source``: a path, an open binary file, the file's bytes, its text (a ``str`` that
    begins with the header's ``{``, or holds a line break), or its lines. ``strict``:
    raise the first :class:`RecordError`. Otherwise collect them all in ``errors`` and
    keep the records that can happen (a bad header is always fatal).
    """
    lines = numbered_lines(_lines_source(source))
    header = _header(lines)
    replayer = Replayer(header)
    kept: list[tuple[int, Record]] = []
    errors: list[RecordError] = []
    for number, text in lines:
        try:
            record = parse_record(checked(text), header)
            replayer.feed(number, record)
        except RecordError as error:
            if strict:
                raise error.at(number) from None
            errors.append(error.at(number))
            continue
        kept.append((number, record))
    return Match(header, tuple(kept), replayer.state, tuple(replayer.rulings), tuple(errors))


def _lines_source(source: object) -> Lines:
    """What :func:`read_match` was given, as a path, a binary file or lines of text."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return io.BytesIO(bytes(source))
    if isinstance(source, str) and (any(end in source for end in "\n\r")
                                    or source.lstrip("\ufeff \t").startswith("{")):
        return lines_of(source)
    if isinstance(source, (str, os.PathLike)) or _binary(source):
        return cast("Source", source)
    if isinstance(source, Iterable) and not isinstance(source, Mapping):
        return cast("Iterable[str]", source)
    raise InputError(f"source: expected a path, the text of a match file, its bytes or its lines, "
                     f"got {shown(source)}")


def _is_undo(text: str) -> bool:
    """Cheaply: is this line an ``undo`` record? Only lines that might be are parsed."""
    if '"undo"' not in text and "\\u" not in text:
        return False
    try:
        return load_json(text).get("type") == "undo"
    except RecordError:
        return False


def _specials(handle: IO[bytes]) -> Iterator[tuple[int, bool]]:
    """The first pass: the header's line as ``(line, False)``, then the lines that are
    ``undo`` records ``(line, True)`` or blank ``(line, False)``, in order."""
    header_seen = False
    for number, text in enumerate(text_lines(handle), start=1):
        if text.isspace():
            yield number, False
        elif not header_seen:
            header_seen = True
            yield number, False
        elif _is_undo(text):
            yield number, True


def _twice_readable(handle: IO[bytes]) -> IO[bytes]:
    """``handle`` if it can be gone over again (a file); otherwise (a pipe, a FIFO, a
    terminal) a temporary file holding what it gives, copied a line at a time, each
    line within :data:`~carom.core.sources.MAX_LINE`."""
    try:
        if handle.seekable():
            handle.tell()
            return handle
    except OSError:
        pass
    import tempfile  # only for a pipe: its import costs more than a replay's start

    copy = tempfile.TemporaryFile()  # noqa: SIM115  (closed with the replay: see replay_file)
    try:
        for line in text_lines(handle, max_line=MAX_LINE):
            copy.write(line.encode("utf-8", "surrogateescape"))
    except BaseException:
        copy.close()
        raise
    copy.seek(0)
    return copy


def replay_file(source: Source, on_ruling: Callable[[Ruling], None] | None = None,
                header_seen: Callable[[Header], None] | None = None) -> MatchState:
    """Replay a match file (a path, or an open binary file such as standard input) as a
    stream, strictly: each standing ruling goes to ``on_ruling`` as it is decided; the
    final state is returned.

    Two passes over the file, opened once: the first finds the ``undo`` lines (cheaply,
    without parsing the others), so that the second knows which records will be
    withdrawn and keeps no history for the rest: memory stays flat however long the file.
    """
    with opened(source) as given:
        handle = _twice_readable(given)
        try:
            start = handle.tell()
            withdrawn = withdrawn_lines(_specials(handle), 1)
            handle.seek(start)
            header, recs = records(handle)
            if header_seen is not None:
                header_seen(header)
            replayer = Replayer(header, withdrawn)
            feed = replayer.feed
            for line, record in recs:
                ruling = feed(line, record)
                if ruling is not None and on_ruling is not None:
                    on_ruling(ruling)
            return replayer.state
        finally:
            if handle is not given:
                handle.close()
