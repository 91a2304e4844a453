"""What members type into a room, bounded by the room: its text allowance.

Besides play, what a member adds to a room's log is text they type: chat and whispers, and
every text of an intent (a roll's label, a sheet's notes, a character's name). Each room
has an allowance for it (`ROOM_TEXT` by default, `tabletop serve --room-text`; the GM may
raise or lower it): the UTF-8 bytes of every text its members other than its GMs send,
counted when appended; and the members who joined through one invite share `INVITE_SHARE`
of it, so that one invite handed around cannot spend what the others need. Past either, a
request is refused before anything is drawn or appended, and the GM is told. The counts are
kept with the members in the store (`members.typed`) and, while a room is loaded, here.
Every such text is also checked: no control but a newline or a tab, no bidi embedding,
override or isolate (tabletop.names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletop.names import disguising, texts
from tabletop.rooms.errors import RoomError, TooMuch

MIB = 1024 * 1024

ROOM_TEXT = 8 * MIB
"""A room's text allowance by default: years of a table's chat and notes."""

INVITE_SHARE = 0.5
"""The part of the allowance the members who joined through one invite share."""

MOST_TEXT = 1024 * MIB
"""The largest allowance a GM may give a room."""

LEAST_TEXT = MIB
"""The smallest allowance a GM may give a room."""


class TextSpent(TooMuch):
    """A member's text past the room's allowance (or their invite's share): the GM is told."""


@dataclass
class Typed:
    """What a loaded room's members have typed, and its allowance."""

    allowance: int | None
    """The GM's allowance for the room; None: the server's (`default`)."""
    members: dict[str, tuple[str | None, int]] = field(default_factory=dict)
    """Each member's invite (token hash) and the bytes they typed."""
    default: int = ROOM_TEXT

    @property
    def limit(self) -> int:
        return self.default if self.allowance is None else self.allowance

    def used(self, invite: str | None = None) -> int:
        """Bytes typed in the room, or by the members of one invite."""
        return sum(
            typed for joined, typed in self.members.values() if invite is None or joined == invite
        )

    def check(self, member: str, size: int) -> None:
        """Refuse `size` more bytes from `member` past the room's allowance or their
        invite's share, in one line."""
        limit = self.limit
        if self.used() + size > limit:
            raise TextSpent(
                f"this room's allowance for what members type (chat, notes, labels: "
                f"{_mib(limit)}) is spent; the GM can raise it"
            )
        invite = self.members.get(member, (None, 0))[0]
        share = int(limit * INVITE_SHARE)
        if invite is not None and self.used(invite) + size > share:
            raise TextSpent(
                f"the members who joined through this invite have typed their share "
                f"({_mib(share)}) of this room's allowance for what members type; the GM "
                "can raise it"
            )

    def add(self, member: str, size: int) -> None:
        invite, typed = self.members.get(member, (None, 0))
        self.members[member] = (invite, typed + size)

    def shown(self) -> dict[str, Any]:
        """What the GM's view says of it."""
        invites = sorted({joined for joined, _ in self.members.values() if joined is not None})
        return {
            "used": self.used(),
            "limit": self.limit,
            "share": int(self.limit * INVITE_SHARE),
            "invites": [self.used(invite) for invite in invites],
        }


def typed_size(value: Any) -> int:
    """The bytes of every text in a chat line or an intent, refused in one line if one
    could make a line read as another."""
    size = 0
    for text in texts(value):
        found = disguising(text)
        if found is not None:
            raise RoomError(f"a text may not hold {found}: it could make a line read as another")
        size += len(text.encode("utf-8"))
    return size


def allowance_of(size: int) -> int:
    """A GM's allowance for a room, within its bounds."""
    if not LEAST_TEXT <= size <= MOST_TEXT:
        raise RoomError(
            f"a room's allowance for what members type is {_mib(LEAST_TEXT)} to {_mib(MOST_TEXT)}"
        )
    return size


def _mib(size: int) -> str:
    return f"{size / MIB:g} MiB"
