"""Match files: reading them strictly or leniently into a :class:`Match`, and replaying
them as a stream.

Strict reading refuses a file at its first impossible record, naming the line and
the reason. Lenient reading, for tools, collects every error and goes on without
the refused lines. Replaying a file streams it twice (a cheap pass for ``undo``,
then the match), so memory stays flat however long the file is.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO

from carom.core.errors import InputError, RecordError
from carom.core.inputs import decode
from carom.core.records import Header, Record
from carom.match.replay import Replayer, withdrawn_lines
from carom.match.state import MatchState, Ruling
from carom.notation.reader import load_json, parse_header, parse_record

Source = str | os.PathLike[str]


def numbered_lines(source: Source | Iterable[str]) -> Iterator[tuple[int, str]]:
    """(line number, text) for every line that is not blank; a path is opened and
    read lazily, as UTF-8 with or without a byte-order mark. Bytes that are not UTF-8
    are kept escaped (``surrogateescape``) and refused when the line is read
    (:func:`checked`), so that the error names its line."""
    if isinstance(source, (str, os.PathLike)):
        with _open(source) as handle:
            yield from _numbered(handle)
    else:
        yield from _numbered(source)


def _open(path: Source) -> TextIO:
    return open(path, encoding="utf-8-sig", errors="surrogateescape", newline=None)


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
        raise error.at(number) from None


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


@dataclass(frozen=True, slots=True)
class Match:
    """A match record, read and replayed: the one object of a match (FORMAT.md).

    ``header`` and ``records`` say what happened, each record with the line it stands on
    (the header is line 1); ``state`` is where the match stands after them and
    ``rulings`` are the rulings that stand (an ``undo`` withdraws one); ``errors``, of a
    lenient reading, are the records that were left out and why. In Jupyter a match
    shows the table as it stands (:meth:`_repr_svg_`).
    """

    header: Header
    records: tuple[tuple[int, Record], ...]
    state: MatchState
    rulings: tuple[Ruling, ...]
    errors: tuple[RecordError, ...] = ()

    @classmethod
    def of(cls, header: Header, records: Iterable[Record | tuple[int, Record]]) -> Match:
        """Replay records held in memory, strictly; records given without their line
        are numbered from line 2, as in a file."""
        replayer = Replayer(header)
        kept: list[tuple[int, Record]] = []
        for item in records:
            line, record = item if isinstance(item, tuple) else (len(kept) + 2, item)
            replayer.feed(line, record)
            kept.append((line, record))
        return cls(header, tuple(kept), replayer.state, tuple(replayer.rulings))

    def scoresheet(self, lang: str = "en") -> str:
        """The scoresheet a referee fills in, in English (``en``) or Slovak (``sk``)."""
        from carom.notation.scoresheet import scoresheet  # the pictures and words load when asked for

        return scoresheet(self.state, self.rulings, self.header.players, lang)

    def draw(self, line: int, which: str = "both") -> str:
        """The table before and/or after the record at ``line``, as SVG (``carom draw``);
        in Jupyter, ``IPython.display.SVG(match.draw(line))`` shows it."""
        from carom.notation.drawing import draw_record

        return draw_record(self.header, self.records, line, which)

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


def read_match(source: Source | Iterable[str], *, strict: bool = True) -> Match:
    """Read a whole match file, checking every record against the match so far, and
    keep it with its replay (``carom.read``).

    ``strict``: raise the first :class:`RecordError`. Otherwise collect them all in
    ``errors`` and keep the records that can happen (a bad header is always fatal).
    """
    lines = numbered_lines(source)
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


def _is_undo(text: str) -> bool:
    """Cheaply: is this line an ``undo`` record? Only lines that might be are parsed."""
    if '"undo"' not in text and "\\u" not in text:
        return False
    try:
        return load_json(text).get("type") == "undo"
    except RecordError:
        return False


def _specials(path: Source) -> Iterator[tuple[int, bool]]:
    """The first pass: the header's line as ``(line, False)``, then the lines that are
    ``undo`` records ``(line, True)`` or blank ``(line, False)``, in order."""
    header_seen = False
    with _open(path) as handle:
        for number, text in enumerate(handle, start=1):
            if text.isspace():
                yield number, False
            elif not header_seen:
                header_seen = True
                yield number, False
            elif _is_undo(text):
                yield number, True


def replay_file(source: Source, on_ruling: Callable[[Ruling], None] | None = None,
                header_seen: Callable[[Header], None] | None = None) -> MatchState:
    """Replay a match file as a stream, strictly: each standing ruling goes to
    ``on_ruling`` as it is decided; the final state is returned.

    Two passes over the file: the first finds the ``undo`` lines (cheaply, without
    parsing the others), so that the second knows which records will be withdrawn
    and keeps no history for the rest: memory stays flat however long the file.
    """
    withdrawn = withdrawn_lines(_specials(source), 1)
    header, recs = records(source)
    if header_seen is not None:
        header_seen(header)
    replayer = Replayer(header, withdrawn)
    feed = replayer.feed
    for line, record in recs:
        ruling = feed(line, record)
        if ruling is not None and on_ruling is not None:
            on_ruling(ruling)
    return replayer.state
