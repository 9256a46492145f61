"""Replaying a log: the records in order, ``undo`` included (FORMAT.md).

An ``undo`` withdraws the latest record not already withdrawn. :class:`Replayer`
keeps the state before each record that may be withdrawn, so it can go back.
Fed a whole log at once, it is told beforehand which records a later ``undo``
withdraws (:func:`withdrawn_lines`, one cheap pass), and then keeps only those
states: memory stays flat however long the log, and rulings stream out.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass

from carom.core.errors import RecordError
from carom.core.records import Header, Record, Undo
from carom.match.engine import apply
from carom.match.state import MatchState, Ruling, initial_state


def withdrawn_lines(kinds: Iterable[tuple[int, bool]]) -> set[int]:
    """The lines of the records that a later ``undo`` withdraws.

    ``kinds`` gives each record's line and whether it is an ``undo``. The records
    still standing form a stack that ``undo`` pops; it is kept as runs of
    consecutive lines, so its size grows with the number of undos, not of records.
    """
    runs: list[list[int]] = []
    gone: set[int] = set()
    for line, is_undo in kinds:
        if not is_undo:
            if runs and runs[-1][1] == line - 1:
                runs[-1][1] = line
            else:
                runs.append([line, line])
        elif runs:
            top = runs[-1]
            gone.add(top[1])
            if top[0] == top[1]:
                runs.pop()
            else:
                top[1] -= 1
    return gone


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


@dataclass(frozen=True, slots=True)
class Replay:
    """A whole log replayed: the final state and the rulings that stand."""

    state: MatchState
    rulings: tuple[Ruling, ...]


def replay(header: Header, records: Iterable[tuple[int, Record]]) -> Replay:
    """Replay numbered records (line, record) from the header's initial state."""
    replayer = Replayer(header)
    for line, record in records:
        replayer.feed(line, record)
    return Replay(replayer.state, tuple(replayer.rulings))


def stream(header: Header, records: Iterable[tuple[int, Record]],
           withdrawn: Container[int]) -> Iterator[Ruling | MatchState]:
    """Replay a log whose withdrawn lines are known: yield each standing ruling as it
    is decided, and the final state last."""
    replayer = Replayer(header, withdrawn)
    for line, record in records:
        ruling = replayer.feed(line, record)
        if ruling is not None:
            yield ruling
    yield replayer.state
