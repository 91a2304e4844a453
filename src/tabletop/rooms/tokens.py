"""Capability links: who may do what in a room is whoever holds an unguessable token.

A token is 192 random bits, shown once in a link and stored only as its SHA-256, so that a
copy of the database lets nobody in. A link names the server, the room and the token; the
token travels in the URL's fragment, which browsers never send to a server or its logs.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

from tabletop.rooms.errors import BadLink

TOKEN_BYTES = 24
"""192 bits: far past the 128 the brief asks for, and 32 characters in a link."""

MAX_LINK = 500


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the store keeps of a token: enough to recognise it, nothing to rebuild it."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_room_id() -> str:
    """A room's public name in links; not a secret (the token is)."""
    return secrets.token_hex(6)


@dataclass(frozen=True)
class Link:
    """`http://host:port/rooms/<room>#<token>`, taken apart."""

    server: str
    room: str
    token: str

    def __str__(self) -> str:
        return f"{self.server}/rooms/{self.room}#{self.token}"

    @classmethod
    def parse(cls, text: str) -> Link:
        """A link as printed by `room new` or `room join`, or `BadLink` saying what is wrong."""
        text = text.strip()
        parts = urlsplit(text[:MAX_LINK])
        prefix, _, room = parts.path.rpartition("/rooms/")
        if len(text) > MAX_LINK or parts.scheme not in ("http", "https") or not parts.netloc:
            raise BadLink(f"not a room link: {text[:60]!r} (expected http://host/rooms/ID#TOKEN)")
        if not room or "/" in room or not parts.fragment:
            raise BadLink(f"not a room link: {text[:60]!r} (expected http://host/rooms/ID#TOKEN)")
        return cls(f"{parts.scheme}://{parts.netloc}{prefix}", room, parts.fragment)
