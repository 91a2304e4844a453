"""Who is listening: each open socket's queue of lines, filled in log order as the hall
appends or catches up, so every member receives their view of every new entry once.

A socket is bounded three ways: a member may hold `MAX_SOCKETS` at once, a queue that a
client stops reading past `MAX_BEHIND` lines is closed (the client resumes from its last
seq), and each socket may send `RATE` messages a second (bursts to twice that).
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field

from tabletop.rooms.errors import TooMuch
from tabletop.rooms.hall import Hall
from tabletop.rooms.log import Entry

MAX_SOCKETS = 4
"""Open sockets per member: a phone, a laptop and a spare, not a flood."""

MAX_BEHIND = 5_000
"""Lines waiting for one socket before it is closed as too slow."""

RATE = 20.0
"""Messages a second, on average, from one socket (and requests from one member)."""

CLOSE = "\x00close"
"""Put in a queue to make its socket say goodbye and close."""


class Bucket:
    """A token bucket: `rate` requests a second on average, `burst` at once."""

    def __init__(self, rate: float = RATE, burst: float = 2 * RATE) -> None:
        self.rate, self.burst = rate, burst
        self._tokens = burst
        self._at = time.monotonic()

    def take(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1:
            raise TooMuch(f"slow down: at most {self.rate:g} messages a second")
        self._tokens -= 1


@dataclass(eq=False)
class Socket:
    room: str
    member: str
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    reason: str = ""
    """Why the server closes it, once it does."""

    def put(self, line: str) -> None:
        if self.reason:
            return
        if self.queue.qsize() >= MAX_BEHIND:
            self.close("too far behind: reconnect and resume from your last seq")
        else:
            self.queue.put_nowait(line)

    def close(self, reason: str) -> None:
        if not self.reason:
            self.reason = reason
            self.queue.put_nowait(CLOSE)


class Listeners:
    """Every open socket of this process, by room."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.rooms: dict[str, list[Socket]] = {}
        hall.listeners.append(self.tell)

    def open(self, room: str, member: str, after: int) -> Socket:
        """A socket that receives every entry after `after` this member sees, in order:
        the backlog now, then each new entry as it is appended (no await in between)."""
        sockets = self.rooms.setdefault(room, [])
        if sum(s.member == member for s in sockets) >= MAX_SOCKETS:
            raise TooMuch(f"a member may have {MAX_SOCKETS} sockets open at once")
        socket = Socket(room, member)
        table = self.hall.table(room)
        for entry in self.hall.entries(room, after, table.head):
            self._put(socket, entry)
        before = self.connected(room)
        sockets.append(socket)
        self._presence(room, before, also=socket)
        return socket

    def close(self, socket: Socket) -> None:
        sockets = self.rooms.get(socket.room, [])
        if socket in sockets:
            before = self.connected(socket.room)
            sockets.remove(socket)
            self._presence(socket.room, before)

    def connected(self, room: str) -> list[str]:
        """The members with a socket open to this process, by id."""
        return sorted({socket.member for socket in self.rooms.get(room, [])})

    def _presence(self, room: str, before: list[str], also: Socket | None = None) -> None:
        """Tell every socket of the room who is connected when that changed (and a new
        socket always), so everyone's page shows who is here live."""
        now = self.connected(room)
        frame = json.dumps({"type": "presence", "connected": now})
        for socket in self.rooms.get(room, []):
            if now != before or socket is also:
                socket.put(frame)

    def tell(self, room: str, entries: list[Entry]) -> None:
        """The hall appended: give each socket its view; close the sockets of members the
        entries removed or gave a new link."""
        for entry in entries:
            gone = _removes(entry)
            for socket in self.rooms.get(room, []):
                if socket.member == gone:
                    socket.close(f"{entry.event.text}: this link no longer opens the room")
                else:
                    self._put(socket, entry)

    def _put(self, socket: Socket, entry: Entry) -> None:
        member = self.hall.table(socket.room).member(socket.member)
        line = self.hall.project(socket.room, entry, member)
        if line is not None:
            socket.put(line)


def _removes(entry: Entry) -> str | None:
    """The member whose link an entry ends (a kick, a rotated link), if any."""
    if entry.event.type in ("room.kicked", "room.link-rotated"):
        return str(entry.event.data["member"])
    return None
