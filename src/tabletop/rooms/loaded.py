"""The rooms a hall keeps in memory, each of bounded size: its table (the state and the
members; its history stays in the store), the latest `WINDOW` entries (sockets resuming
read them from here, older ones from the store), and when it was last used. A room idle
for `IDLE_SECONDS`, or the least recently used one past `MAX_LOADED`, is let go; asked for
again, it is loaded from its latest snapshot and the entries after it.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass, field

from tabletop.rooms.log import Entry
from tabletop.rooms.store import Credential
from tabletop.rooms.table import Table
from tabletop.rooms.texts import Typed

IDLE_SECONDS = 600.0
"""A loaded room nobody has used for this long is let go (ten minutes)."""

MAX_LOADED = 256
"""Rooms one hall (one shard) keeps loaded at once; past it, the least recently used goes."""

WINDOW = 128
"""Entries a loaded room keeps in memory, the latest: enough for a socket that dropped for
a moment to resume without reading the store."""


@dataclass
class Loaded:
    """One room in memory."""

    table: Table
    base: int
    """The seq of the room's latest snapshot this hall knows of (0: none)."""
    used: float
    recent: deque[Entry] = field(default_factory=lambda: deque(maxlen=WINDOW))
    typed: Typed | None = None
    """What its members typed and its text allowance, read from the store when first
    needed (texts.py)."""
    links: dict[str, Credential] = field(default_factory=dict)
    """What the room's links opened when last asked (by token hash), kept only while this
    hall is the room's one writer (`Store.sole_writer`): every change to them is its own."""

    def remember(self, entries: list[Entry]) -> None:
        """Keep the latest entries; ones that do not follow the window restart it."""
        for entry in entries:
            if self.recent and self.recent[-1].seq + 1 != entry.seq:
                self.recent.clear()
            self.recent.append(entry)

    def between(self, after: int, upto: int) -> list[Entry] | None:
        """The entries after seq `after` up to `upto` if the window holds them all."""
        if upto <= after:
            return []
        if not self.recent or self.recent[0].seq > after + 1 or self.recent[-1].seq < upto:
            return None
        start = self.recent[0].seq
        return [self.recent[seq - start] for seq in range(after + 1, upto + 1)]


class Residents:
    """The loaded rooms, least recently used first."""

    def __init__(self, idle: float = IDLE_SECONDS, most: int = MAX_LOADED) -> None:
        if most < 1:
            raise ValueError("a hall keeps at least one room loaded")
        self.idle = idle
        self.most = most
        self._rooms: OrderedDict[str, Loaded] = OrderedDict()

    def __contains__(self, room: str) -> bool:
        return room in self._rooms

    def __len__(self) -> int:
        return len(self._rooms)

    def peek(self, room: str) -> Loaded | None:
        """The room if loaded, without counting it as used."""
        return self._rooms.get(room)

    def use(self, room: str, now: float) -> Loaded | None:
        """The room if loaded, now its most recently used."""
        found = self._rooms.get(room)
        if found is not None:
            found.used = now
            self._rooms.move_to_end(room)
        return found

    def add(self, room: str, loaded: Loaded) -> None:
        self._rooms[room] = loaded
        self._rooms.move_to_end(room)

    def due(self, now: float, keep: str = "") -> list[str]:
        """The rooms to let go now, least recently used first: those idle too long, then
        as many as the count is past its bound; never `keep`."""
        going: list[str] = []
        over = len(self._rooms) - self.most
        for room, loaded in self._rooms.items():
            if room == keep:
                continue
            if over > len(going) or now - loaded.used >= self.idle:
                going.append(room)
            else:
                break  # the rest were used more recently still
        return going

    def pop(self, room: str) -> Loaded | None:
        return self._rooms.pop(room, None)

    def rooms(self) -> list[str]:
        return list(self._rooms)
