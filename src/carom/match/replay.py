"""Replaying a log: the records in order, ``undo`` included (FORMAT.md).

An ``undo`` withdraws the latest record not already withdrawn. :class:`Replayer`
keeps the state before each record that may be withdrawn, so it can go back.
Fed a whole log at once, it is told beforehand which records a later ``undo``
withdraws (:func:`withdrawn_lines`, one cheap pass), and then keeps only those
states: memory stays flat however long the log, and rulings stream out.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Container, Iterable

from carom.core.errors import RecordError
from carom.core.records import Header, Record, Undo
from carom.match.engine import apply
from carom.match.state import MatchState, Ruling, initial_state


class Lines:
    """A sorted, compact set of line numbers (4 bytes each): the withdrawn records."""

    __slots__ = ("_lines",)

    def __init__(self, lines: Iterable[int]) -> None:
        self._lines = array("l", sorted(lines))  # sorted() makes a list for a moment

    def __contains__(self, line: object) -> bool:
        if not isinstance(line, int):
            return False
        i = bisect_left(self._lines, line)
        return i < len(self._lines) and self._lines[i] == line

    def __len__(self) -> int:
        return len(self._lines)


def withdrawn_lines(specials: Iterable[tuple[int, bool]], first: int) -> Lines:
    """The lines of the records that a later ``undo`` withdraws.

    Every line from ``first`` on is a record, except the ``specials``: ``(line, True)``
    for an ``undo``, ``(line, False)`` for a line that is no record (blank), in order.
    The records still standing form a stack that ``undo`` pops; it is kept as runs of
    consecutive lines, so its size grows with the number of undos, not of records.
    """
    starts, ends = array("l"), array("l")  # the runs, compact: 16 bytes each
    gone = array("l")
    pending = first
    for line, is_undo in specials:
        if line > pending:
            starts.append(pending)
            ends.append(line - 1)
        pending = line + 1
        if is_undo and ends:
            gone.append(ends[-1])
            if starts[-1] == ends[-1]:
                starts.pop()
                ends.pop()
            else:
                ends[-1] -= 1
    return Lines(gone)


class Replayer:
    """Applies records one by one and withdraws them on ``undo``.

    With ``withdrawn=None`` every record may later be withdrawn (a live match: the
    scoreboard appends as the referee enters). With the set of lines a later undo
    withdraws, only those are remembered, and their rulings are never reported.
    """

    def __init__(self, header: Header, withdrawn: Container[int] | None = None) -> None:
        self.header = header
        self.state: MatchState = initial_state(header)
        self._withdrawn = withdrawn
        self._saved: list[tuple[MatchState, int]] = []
        self.rulings: list[Ruling] = []
        """The rulings standing (not kept when streaming: see :meth:`feed`)."""
        self.keep_rulings = withdrawn is None

    def feed(self, line: int, record: Record) -> Ruling | None:
        """Apply one record; return its ruling if it stands.

        Raises :class:`RecordError` (with ``line``) for a record that cannot happen;
        the replayer is then as it was before the call.
        """
        if isinstance(record, Undo):
            if not self._saved:
                raise RecordError("an undo with nothing left to withdraw", line)
            self.state, kept = self._saved.pop()
            if self.keep_rulings:
                del self.rulings[kept:]
            return None
        remember = self._withdrawn is None or line in self._withdrawn
        try:
            state, ruling = apply(self.state, record, line)
        except RecordError as error:
            raise error.at(line) from None
        if remember:
            self._saved.append((self.state, len(self.rulings)))
        self.state = state
        if ruling is None:
            return None
        if self.keep_rulings:
            self.rulings.append(ruling)
            return ruling
        return None if remember else ruling
