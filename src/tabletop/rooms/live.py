"""Who is listening: each open socket of this front, by room, and its queue of lines, filled
in log order from the shards' fan-out, so every member receives their view of every new
entry once.

A socket is bounded: a member may hold `MAX_SOCKETS` at once in a room, and a queue that a
client stops reading past `MAX_BEHIND` lines is closed (the client resumes from its last
seq). What a member may send is their allowance (allowances.py), shared by all their
sockets and HTTP requests.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from tabletop.rooms.errors import TooMuch
from tabletop.rooms.messages import Fanout

MAX_SOCKETS = 4
"""Open sockets per member: a phone, a laptop and a spare, not a flood."""

MAX_BEHIND = 5_000
"""Lines waiting for one socket before it is closed as too slow."""

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

    def put(self, line: str) -> None:
        if self.reason:
            return
        if self.queue.qsize() >= MAX_BEHIND:
            self.close("too far behind: reconnect and resume from your last seq", True)
        else:
            self.queue.put_nowait(line)

    def close(self, reason: str, retry: bool = False) -> None:
        if not self.reason:
            self.reason = reason
            self.retry = retry
            self.queue.put_nowait(CLOSE)


class Listeners:
    """Every open socket of this front, by room."""

    def __init__(self) -> None:
        self.rooms: dict[str, list[Socket]] = {}

    def open(self, socket: Socket, member: str, backlog: list[str]) -> None:
        """Listen as `member` from now on, after the backlog the shard gave (no await in
        between: the next fan-out of the room comes after it)."""
        sockets = self.rooms.setdefault(socket.room, [])
        if sum(s.member == member for s in sockets) >= MAX_SOCKETS:
            raise TooMuch(f"a member may have {MAX_SOCKETS} sockets open at once")
        socket.member = member
        for line in backlog:
            socket.put(line)
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
                elif socket.member in lines:
                    socket.put(lines[socket.member])
        return ended

    def stop(self) -> None:
        for sockets in self.rooms.values():
            for socket in sockets:
                socket.close("the server is stopping", retry=True)
