"""Reads of a room's log in pages: bounded pieces, each one step of the room's shard and one
read of its reader's allowance, so that reading a long log never stalls the other rooms of a
shard nor fills a server's memory (docs/rooms.md, "Reads that cost what they read").

A log's seqs run 1 … head without a gap, so a page is a range of seqs: the first
`PAGE_ENTRIES` after a seq, or the last ones before a seq, cut short once its lines pass
`PAGE_BYTES` (an entry larger than that is a page of its own). An entry the reader receives
nothing of takes a seq of the page and no line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tabletop.rooms.log import Entry
from tabletop.rooms.messages import Page
from tabletop.session import Member

if TYPE_CHECKING:
    from tabletop.rooms.hall import Hall

PAGE_ENTRIES = 200
"""Entries one page reads at most: a step of a few milliseconds (bench/rooms_reads.py)."""

PAGE_BYTES = 256 * 1024
"""Bytes of lines after which a page takes no further entry."""

BATCH = 50
"""Entries a page reads from the store at once."""


def read_page(hall: Hall, room: str, member: Member, after: int = 0, before: int = 0) -> Page:
    """`member`'s lines of one page of the room's log: the first entries after seq `after`,
    or (with `before`) the last ones before seq `before`; read `BATCH` entries at a time,
    so that a page cut short by its bytes reads little more than it holds."""
    head = hall.table(room).head
    if before:
        upto = min(before - 1, head)
        start = max(after, upto - PAGE_ENTRIES)
    else:
        start, upto = min(after, head), min(after + PAGE_ENTRIES, head)
    lines: list[tuple[int, str | None]] = []
    size = 0
    for low, high in _batches(start, upto, backwards=bool(before)):
        found = hall.texts(room, low, high)
        for text in reversed(found) if before else found:
            if size > PAGE_BYTES:
                break
            seq, line = _line(hall, room, text, member)
            lines.append((seq, line))
            size += len(line) + 1 if line is not None else 0
        if size > PAGE_BYTES:
            break
    lines.sort(key=lambda seen: seen[0])
    if not lines:
        return Page([], upto + 1 if before else start + 1, upto if before else start, head)
    shown = [line for _, line in lines if line is not None]
    return Page(shown, lines[0][0], lines[-1][0], head)


def _line(hall: Hall, room: str, text: str, member: Member) -> tuple[int, str | None]:
    """An entry's seq and the line `member` receives of it: the stored text itself when
    everyone receives all of it (most entries, read without building the event), else
    what `lines.project` makes of it."""
    header = json.loads(text)
    if header["public"] == "all":
        return int(header["seq"]), text
    entry = Entry.from_text(text)
    return entry.seq, hall.project(room, entry, member)


def _batches(start: int, upto: int, backwards: bool) -> Iterator[tuple[int, int]]:
    """The ranges (after, upto] of seqs from `start` to `upto`, `BATCH` at a time, from
    either end."""
    if backwards:
        for high in range(upto, start, -BATCH):
            yield max(start, high - BATCH), high
    else:
        for low in range(start, upto, BATCH):
            yield low, min(upto, low + BATCH)
