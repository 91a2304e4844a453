"""Who is listening: each open socket of this front, by room, and its queue of lines, filled
in log order from the shards' fan-out, so every member receives their view of every new
entry once.

A socket is bounded: a member may hold `MAX_SOCKETS` at once in a room, and a socket whose
client stops reading while more than `MAX_QUEUED` bytes wait for it is closed (the client
resumes from its last seq): a reader that does not read is dropped, not buffered. A socket
that said hello from far back *catches up* a page at a time (reading.py), the front asking
for each next page once the socket has room for it (`roomy`); meanwhile it takes no live
line (the page that reaches the head holds them). What a member may send is their
allowance (allowances.py), shared by all their sockets and HTTP requests.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from tabletop.rooms.errors import TooMuch
from tabletop.rooms.messages import Fanout, Page
from tabletop.rooms.reading import PAGE_BYTES

MAX_SOCKETS = 4
"""Open sockets per member: a phone, a laptop and a spare, not a flood."""

MAX_QUEUED = 1024 * 1024
"""Bytes of lines waiting for one socket before it is closed as too slow."""

CLOSE = "\x00close"
"""Put in a queue to make its socket say goodbye and close."""

RETRY = 1013
"""The close code of a socket whose client should connect again ("try again later"): the
room moved to another process, or the server restarted a worker or is stopping."""


@dataclass(eq=False)
class Socket:
    room: str
    member: str = ""
    """Whom the socket said hello as (empty until the room's shard said who)."""
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    reason: str = ""
    """Why the server closes it, once it does."""
    retry: bool = False
    """Whether its client should connect again (the room moved, the server restarted a
    worker or is stopping), rather than stop (a kick, a new link)."""
    after: int = 0
    """The seq of the last entry given to it (a live line at or before it is not given
    again)."""
    catching: bool = False
    """Catching up a page at a time: live lines wait in the pages still to come."""
    queued: int = 0
    """Bytes waiting in its queue."""
    roomy: asyncio.Event = field(default_factory=asyncio.Event)
    """Set while fewer than a page's bytes wait: room for the next page of a catch-up."""

    def put(self, line: str) -> None:
        if self.reason:
            return
        if self.queued + len(line) > MAX_QUEUED:
            self.close("too far behind: reconnect and resume from your last seq", True)
            return
        self.queue.put_nowait(line)
        self.queued += len(line)
        if self.queued >= PAGE_BYTES:
            self.roomy.clear()

    def sent(self, line: str) -> None:
        """A line left the queue for the client."""
        self.queued -= len(line)
        if self.queued < PAGE_BYTES:
            self.roomy.set()

    def take(self, page: Page) -> None:
        """A page of its catch-up: its lines, then live ones once it reached the head."""
        for line in page.lines:
            self.put(line)
        self.after = max(self.after, page.last)
        self.catching = page.more
        if self.queued < PAGE_BYTES:  # a page of nothing this member sees: the next at once
            self.roomy.set()

    def close(self, reason: str, retry: bool = False) -> None:
        if not self.reason:
            self.reason = reason
            self.retry = retry
            self.queue.put_nowait(CLOSE)
            self.roomy.set()  # a catch-up waiting for room stops


class Listeners:
    """Every open socket of this front, by room."""

    def __init__(self) -> None:
        self.rooms: dict[str, list[Socket]] = {}

    def open(self, socket: Socket, member: str, backlog: Page) -> None:
        """Listen as `member` from now on, after the first page of backlog the shard gave
        (no await in between: the next fan-out of the room comes after it)."""
        sockets = self.rooms.setdefault(socket.room, [])
        if sum(s.member == member for s in sockets) >= MAX_SOCKETS:
            raise TooMuch(f"a member may have {MAX_SOCKETS} sockets open at once")
        socket.member = member
        socket.take(backlog)
        before = self.connected(socket.room)
        sockets.append(socket)
        self._presence(socket.room, before, also=socket)

    def close(self, socket: Socket) -> bool:
        """Stop listening; whether the socket was listening."""
        sockets = self.rooms.get(socket.room, [])
        if socket not in sockets:
            return False
        before = self.connected(socket.room)
        sockets.remove(socket)
        self._presence(socket.room, before)
        if not sockets:
            del self.rooms[socket.room]
        return True

    def connected(self, room: str) -> list[str]:
        """The members with a socket open to this front, by id."""
        return sorted({socket.member for socket in self.rooms.get(room, [])})

    def _presence(self, room: str, before: list[str], also: Socket | None = None) -> None:
        """Tell every socket of the room who is connected when that changed (and a new
        socket always), so everyone's page shows who is here live."""
        now = self.connected(room)
        frame = json.dumps({"type": "presence", "connected": now})
        for socket in self.rooms.get(room, []):
            if now != before or socket is also:
                socket.put(frame)

    def deliver(self, fanout: Fanout) -> list[str]:
        """A shard appended: give each socket its line of each entry; close the sockets of
        members an entry removed or gave a new link. The members whose links ended."""
        ended = []
        sockets = self.rooms.get(fanout.room, [])
        for delivery in fanout.deliveries:
            lines = {member: line for line, members in delivery.lines for member in members}
            if delivery.ends is not None:
                ended.append(delivery.ends)
            for socket in sockets:
                if socket.member == delivery.ends:
                    socket.close(f"{delivery.why}: this link no longer opens the room")
                elif socket.catching or delivery.seq <= socket.after:
                    continue
                elif socket.member in lines:
                    socket.put(lines[socket.member])
                    socket.after = delivery.seq
        return ended

    def notify(self, room: str, members: tuple[str, ...], text: str) -> None:
        """Tell these members' sockets something (a `notice` frame)."""
        frame = json.dumps({"type": "notice", "text": text})
        for socket in self.rooms.get(room, []):
            if socket.member in members:
                socket.put(frame)

    def stop(self) -> None:
        for sockets in self.rooms.values():
            for socket in sockets:
                socket.close("the server is stopping", retry=True)
