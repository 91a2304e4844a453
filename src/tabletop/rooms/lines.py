"""What a member receives of the log: each entry's line as they may see it, and the export.

Pure functions of the system's session, the entries and the member, so that a shard worker
(live lines, `GET …/log`) and a pool worker (an export, read from the store on its own)
make exactly the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tabletop.rooms.log import Entry, canonical
from tabletop.session import Member, Session


def project(session: Session[Any], entry: Entry, member: Member) -> str | None:
    """The line `member` receives of `entry`: all of it, the parts they may see, or
    nothing. Whoever asked always receives its `asked` part (their nonce). Every member
    receives at least what the entry's `public` says everyone does: all of it, for most.
    A witness a roll lists receives at least its stub, to see that its value was used."""
    if entry.public == "all":
        return entry.text
    shown = session.view_event(entry.event, member)
    if shown is None:
        witnessed = entry.witnessed or {}
        return entry.stub() if member.id in witnessed.get("witnesses", ()) else None
    cause = entry.event.cause
    asker = cause.member.id if cause is not None else entry.event.actor
    return entry.line(shown, member.id == asker)


def exported(
    session: Session[Any], room: str, system: str, entries: Iterable[Entry], member: Member
) -> Iterable[str]:
    """The log as `member` may have it, one line an entry (stubs for what they do not
    receive, so the chain's links stay checkable), then a trailer naming the head."""
    count, head = 0, ""
    for entry in entries:
        count, head = count + 1, entry.hash
        yield exported_line(session, entry, member)
    yield trailer(room, system, member, count, head)


def exported_line(session: Session[Any], entry: Entry, member: Member) -> str:
    """An entry's line in `member`'s export: their line, or a stub that links the chain."""
    return project(session, entry, member) or entry.stub()


def trailer(room: str, system: str, member: Member, count: int, head: str) -> str:
    """An export's last line: what it is of, how many entries it holds and the last hash."""
    view = "full" if member.is_gm else member.id
    return canonical(
        {"export": {"room": room, "system": system, "view": view, "count": count, "head": head}}
    )
