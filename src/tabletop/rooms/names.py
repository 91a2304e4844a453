"""Members' names that cannot pass for one another: each is NFC-normalised and stripped,
holds no character that is invisible or rearranges text, and no two current members' names
look alike (tabletop.names says how), so `Ann`, `ANN`, `Аnn` (Cyrillic А) and `Ann` with a
zero-width space are one name at a table.

The hall checks a name before it appends a join or a rename, and `roomevents` checks the
name a log records when it rebuilds the event, so `verify` refuses a log that breaks these
rules as the server would have refused the request.
"""

from __future__ import annotations

from collections.abc import Iterable

from tabletop.errors import DataError
from tabletop.names import hiding, look_alike, normalised, skeletons
from tabletop.rooms.errors import RoomError
from tabletop.session import MAX_NAME

__all__ = ["BadName", "check_unlike", "checked", "normalised", "skeletons"]


class BadName(RoomError, DataError):
    """A name a room refuses, with the one-line reason (a refused request, or a log that
    does not hold what the server would have kept)."""


def checked(name: str, what: str = "a name") -> str:
    """`name` normalised, or `BadName` saying what is wrong with it: empty, longer than
    `MAX_NAME`, or holding a character that could hide or fake text."""
    kept = normalised(name)
    if not kept or len(kept) > MAX_NAME:
        raise BadName(f"{what} has 1 to {MAX_NAME} characters")
    hidden = hiding(kept)
    if hidden is not None:
        raise BadName(f"{what} may not hold {hidden}: it could hide or fake text")
    return kept


def check_unlike(name: str, others: Iterable[str]) -> None:
    """Refuse `name` when it looks like one of `others` (the names of the room's current
    members), naming which."""
    other = look_alike(name, others)
    if other is None:
        return
    if other == name:
        raise BadName(f"a member is already called {name!r}; choose another name")
    raise BadName(
        f"{name!r} looks like {other!r}, a member's name (letters that look or fold "
        "alike count as one); choose another name"
    )
