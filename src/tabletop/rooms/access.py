"""Who may open rooms on a server (`POST /rooms`) and import one (`POST /import`).

Three answers, chosen by `tabletop serve`:

- **local**: the server listens on, and answers to, this machine alone: whoever can reach it
  may open rooms (there is nobody else);
- **open** (`--open`): anyone who can reach it may, within a server-wide quota of new rooms
  an hour (`--room-quota`, `ROOM_QUOTA` by default), so a stranger cannot fill its disk;
- **key** (`--key-file PATH`): a request must carry `Authorization: Bearer <server key>`;
  `tabletop serve --lan` makes the file (`own_key_file`) or reuses its own.

Joining, playing and verifying need no server key: a room's own links decide those.
"""

from __future__ import annotations

import collections
import hmac
import math
import os
import secrets
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tabletop.errors import DataError
from tabletop.rooms.errors import BadLink, TooMuch
from tabletop.words import counted

ROOM_QUOTA = 60
"""New rooms (opened or imported) an hour on an `--open` server, by default: a club's
evenings many times over, and a bound on what a stranger can make it store."""

QUOTA_WINDOW = 3600.0
"""Seconds the quota counts over (a sliding hour)."""

MIN_KEY = 16
"""Characters a server key has at least: it is the only thing between a stranger and the
server's disk."""


def own_key_file(path: Path) -> bool:
    """Make a new server key in `path` that only this user can read, or keep the one there
    if only this user can read or change it: True when made. `DataError` when it cannot, or
    when someone else could read the key (and so open rooms) or swap it for one they know."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as problem:
        why = f"cannot make the folder {path.parent} for the server key: {problem.strerror}"
        raise DataError(why) from None
    try:
        # O_EXCL: never through a link someone left at `path`; 0o600 before a byte is written
        made = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        _only_mine(path)
        return False
    except OSError as problem:
        raise DataError(f"cannot make the server key {path}: {problem.strerror}") from None
    try:
        with os.fdopen(made, "w", encoding="utf-8") as file:
            file.write(secrets.token_urlsafe(32) + "\n")
    except OSError as problem:  # a full disk: no half-written key stays to be reused
        path.unlink(missing_ok=True)
        raise DataError(f"cannot write the server key {path}: {problem.strerror}") from None
    return True


def _only_mine(path: Path) -> None:
    """Refuse a key file that is a link, not a file, someone else's, or open to others."""
    try:
        found = path.lstat()
    except OSError as problem:
        raise DataError(f"cannot read the server key {path}: {problem.strerror}") from None
    if not stat.S_ISREG(found.st_mode):
        raise DataError(
            f"the server key {path} is not a plain file (a link or a folder): remove it for a "
            "new key, or give --key-file another path"
        )
    if os.name != "posix":  # permission bits mean nothing elsewhere; the file's ACL decides
        return
    if found.st_uid != os.getuid():
        raise DataError(
            f"the server key {path} belongs to another user, who could open rooms with it: "
            "remove it for a new key, or give --key-file a key of your own"
        )
    if found.st_mode & 0o077:
        mode = stat.S_IMODE(found.st_mode)
        raise DataError(
            f"others can read or change the server key {path} (mode {mode:o}): "
            f"chmod 600 {path}, or remove it for a new key"
        )


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
        if not path.is_file():  # a named pipe would wait for ever
            raise DataError(f"cannot read the server key {path}: not a file")
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
                    f"{counted(wait, 'minute')}"
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
