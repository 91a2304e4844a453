"""Who may open rooms on a server (`POST /rooms`) and import one (`POST /import`).

Three answers, chosen by `tabletop serve`:

- **local**: the server listens on, and answers to, this machine alone: whoever can reach it
  may open rooms (there is nobody else);
- **open** (`--open`): anyone who can reach it may, within a server-wide quota of new rooms
  an hour (`--room-quota`, `ROOM_QUOTA` by default), so a stranger cannot fill its disk;
- **key** (`--key-file PATH`): a request must carry `Authorization: Bearer <server key>`.

Joining, playing and verifying need no server key: a room's own links decide those.
"""

from __future__ import annotations

import collections
import hmac
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tabletop.errors import DataError
from tabletop.rooms.errors import BadLink, TooMuch

ROOM_QUOTA = 60
"""New rooms (opened or imported) an hour on an `--open` server, by default: a club's
evenings many times over, and a bound on what a stranger can make it store."""

QUOTA_WINDOW = 3600.0
"""Seconds the quota counts over (a sliding hour)."""

MIN_KEY = 16
"""Characters a server key has at least: it is the only thing between a stranger and the
server's disk."""


@dataclass
class Access:
    """Whether a request may open or import a room."""

    mode: str = "local"
    """"local", "open" or "key"."""
    key: str = ""
    quota: int = ROOM_QUOTA
    clock: Callable[[], float] = time.monotonic
    _opened: collections.deque[float] = field(default_factory=collections.deque)
    _making: int = 0
    """Rooms allowed and still being made (the front awaits their shard): they count
    against the quota until made or refused."""

    @classmethod
    def from_key_file(cls, path: Path) -> Access:
        """A server that asks for the key in `path`, or `DataError` saying why it cannot."""
        try:
            key = path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as problem:
            raise DataError(f"cannot read the server key {path}: {problem}") from None
        if len(key) < MIN_KEY or any(char.isspace() for char in key):
            raise DataError(
                f"the server key in {path} must be one word of at least {MIN_KEY} characters "
                "(make one: python -c 'import secrets; print(secrets.token_urlsafe(32))')"
            )
        return cls("key", key=key)

    def allow_new_room(self, bearer: str | None) -> None:
        """Refuse a new room (opened or imported) that this request may not make: 401
        without the server's key, 429 past the open server's quota."""
        if self.mode == "key":
            given = (bearer or "").encode("utf-8")
            if not hmac.compare_digest(given, self.key.encode("utf-8")):
                raise BadLink(
                    "this server opens and imports rooms for holders of its key only: send "
                    "'Authorization: Bearer <server key>' (tabletop room new --key-file)"
                )
        elif self.mode == "open":
            now = self.clock()
            while self._opened and now - self._opened[0] >= QUOTA_WINDOW:
                self._opened.popleft()
            if len(self._opened) + self._making >= self.quota:
                left = QUOTA_WINDOW - (now - self._opened[0]) if self._opened else 60.0
                wait = math.ceil(left / 60)
                raise TooMuch(
                    f"this server opens at most {self.quota} rooms an hour; try again in "
                    f"{wait} minute(s)"
                )

    def opened(self) -> None:
        """Count a room made (a refused request counts nothing)."""
        if self.mode == "open":
            self._opened.append(self.clock())

    @contextmanager
    def new_room(self, bearer: str | None) -> Iterator[None]:
        """Allow a new room (`allow_new_room`) while it is made, and count it once made: a
        room being made holds its place in the quota, so requests waiting on their shards
        side by side cannot pass it together."""
        self.allow_new_room(bearer)
        self._making += 1
        try:
            yield
        finally:
            self._making -= 1
        self.opened()
