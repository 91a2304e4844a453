"""Which resolutions of a room's log are in force: what undo takes back, what a retried
request is answered with, and which events an undo's refold applies again.

A table asks its `Ledger` instead of keeping its history: a log folded whole (verify,
import) keeps it in memory (`MemoryLedger`); a room a hall keeps loaded reads it from the
store (snapshots.py), so its memory stays bounded however long its log grows. `marks` says
what one appended group adds to the index, the same for both.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel

from tabletop.errors import DataError
from tabletop.rooms.log import Entry
from tabletop.session import Event

UNDO = "room.undo"


def groups(entries: list[Entry]) -> list[list[Entry]]:
    """Entries split into what was appended together: each resolution of an intent (its
    first event carries the cause; the others follow it) and each room event alone."""
    found: list[list[Entry]] = []
    for entry in entries:
        follows = (
            found
            and not entry.is_room_event
            and entry.event.cause is None
            and not found[-1][0].is_room_event
        )
        if follows:
            found[-1].append(entry)
        else:
            found.append([entry])
    return found


@dataclass(frozen=True)
class Span:
    """Where one resolution of an intent lies in the log."""

    first: int
    last: int
    counts: bool
    """False for a refusal on the record: folding skips it and undo never takes it back."""


@dataclass(frozen=True)
class Marks:
    """What one appended group adds to the index: a resolution's span, or an undo."""

    span: Span | None = None
    undone: int | None = None
    """The first seq of the resolution an undo took back."""
    at: int = 0
    """The group's first seq (the undo's own seq)."""


def marks(group: list[Entry]) -> Marks:
    """The index marks of one group as `groups` splits a log."""
    first = group[0]
    if first.is_room_event:
        if first.event.type != UNDO:
            return Marks(at=first.seq)
        try:
            return Marks(undone=int(first.event.data["undoes"][0]), at=first.seq)
        except (KeyError, IndexError, TypeError, ValueError):
            raise DataError(f"entry {first.seq}: an undo names the entries it takes back") from None
    cause = first.event.cause
    counts = cause is not None and cause.refused is None
    return Marks(Span(first.seq, group[-1].seq, counts), at=first.seq)


class Ledger(Protocol):
    """A table's history, asked instead of kept: what is in force and where it lies."""

    def note(self, group: list[Entry]) -> None:
        """Take in a group the table has just folded."""

    def latest(self, as_of: int) -> tuple[int, int] | None:
        """The first and last seq of the latest resolution in force just after seq `as_of`."""

    def last_of(self, first: int) -> int:
        """The last seq of what was appended together from seq `first` (a retry's answer)."""

    def base(self, before: int) -> tuple[BaseModel | None, int]:
        """Where a refold that must not hold seq `before` starts: a snapshot's state and
        its seq, or None and 0 for the empty table."""

    def in_force(self, after: int, before: int, as_of: int) -> Iterator[list[Event]]:
        """The events of each resolution in force just after seq `as_of` whose first seq is
        after `after` and before `before`, in order."""


class MemoryLedger:
    """The history of a log folded whole, kept in memory: always at the table's head."""

    def __init__(self) -> None:
        self._played: list[tuple[int, int, list[Event]]] = []
        """Each resolution in force: its first and last seq, and its events."""
        self._lasts: dict[int, int] = {}

    def note(self, group: list[Entry]) -> None:
        found = marks(group)
        if found.span is not None:
            span = found.span
            self._lasts[span.first] = span.last
            if span.counts:
                self._played.append((span.first, span.last, [e.event for e in group]))
        if found.undone is not None:
            if not self._played or self._played[-1][0] != found.undone:
                raise DataError(f"entry {found.at} takes back what is not the latest in force")
            self._played.pop()

    def latest(self, as_of: int) -> tuple[int, int] | None:
        return self._played[-1][:2] if self._played else None

    def last_of(self, first: int) -> int:
        return self._lasts.get(first, first)

    def base(self, before: int) -> tuple[BaseModel | None, int]:
        return None, 0

    def in_force(self, after: int, before: int, as_of: int) -> Iterator[list[Event]]:
        for first, _, events in self._played:
            if after < first < before:
                yield events
