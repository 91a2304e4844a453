"""Reads of a room's log in pages: bounded pieces, each one step of the room's shard and one
read of its reader's allowance, so that reading a long log never stalls the other rooms of a
shard nor fills a server's memory (docs/rooms.md, "Reads that cost what they read").

A log's seqs run 1 … head without a gap, so a page is a range of seqs: the first
`PAGE_ENTRIES` after a seq, or the last ones before a seq, cut short once its lines pass
`PAGE_BYTES` (an entry larger than that is a page of its own). An entry the reader receives
nothing of takes a seq of the page and no line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.rooms.messages import Page
from tabletop.session import Member

if TYPE_CHECKING:
    from tabletop.rooms.hall import Hall

PAGE_ENTRIES = 200
"""Entries one page reads at most: a step of a few milliseconds (bench/rooms_reads.py)."""

PAGE_BYTES = 256 * 1024
"""Bytes of lines after which a page takes no further entry."""


def read_page(hall: Hall, room: str, member: Member, after: int = 0, before: int = 0) -> Page:
    """`member`'s lines of one page of the room's log: the first entries after seq `after`,
    or (with `before`) the last ones before seq `before`."""
    head = hall.table(room).head
    if before:
        upto = min(before - 1, head)
        start = max(after, upto - PAGE_ENTRIES)
        entries = hall.entries(room, start, upto) if upto > start else []
        entries.reverse()  # the latest first, so a cut keeps the latest
    else:
        start, upto = min(after, head), min(after + PAGE_ENTRIES, head)
        entries = hall.entries(room, start, upto) if upto > start else []
    lines, size, seqs = [], 0, []
    for entry in entries:
        if size > PAGE_BYTES:
            break
        seqs.append(entry.seq)
        line = hall.project(room, entry, member)
        if line is not None:
            lines.append(line)
            size += len(line) + 1
    if before:
        lines.reverse()
        seqs.reverse()
    first = seqs[0] if seqs else (upto + 1 if before else start + 1)
    last = seqs[-1] if seqs else (upto if before else start)
    return Page(lines, first, last, head)
