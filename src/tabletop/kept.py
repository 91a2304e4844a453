"""Lines that keep part of what they say from the players: a hidden NPC's numbers and
verdicts inside a line that is otherwise theirs to read.

A rule writes its line as usual and wraps what belongs to someone whose numbers the players
may not see — an NPC the GM keeps hidden, a secret character — in `secret(owner, value)`:
the target's AC in an attack on it, its side of a contest, its whole initiative line.
`Session.resolve` settles the marks before anything is stored (`tabletop.session`): the
GM's line reads whole, and the players read the same line with each hidden owner's part as
`?`, or, when the whole line is that owner's, what the event's hint says (by default its
name and what kind of thing happened). The marks are private-use characters that no name a
person types may hold (docs/rooms.md, "What a member sees of an NPC's line").
"""

from __future__ import annotations

import re
from collections.abc import Mapping

OPEN, BETWEEN, CLOSE = "\ue000", "\ue001", "\ue002"

MARKS = frozenset((OPEN, BETWEEN, CLOSE))
"""The characters a mark is made of; text a person types may not hold them."""

_PART = re.compile(f"{OPEN}([^{BETWEEN}{CLOSE}]*){BETWEEN}([^{OPEN}{CLOSE}]*){CLOSE}")

SHOWN = "?"
"""What the players read in place of a hidden owner's part."""

GM_KEEPS = "the GM's difficulty"
"""The owner of what the GM keeps at every table: a DC the GM asked a roll against without
showing it, and the verdict it decides (`tabletop.asks`)."""

KEPT_BY_THE_GM = {GM_KEEPS: "the GM"}
"""What every session keeps from the players besides its own (`Session.resolve`), with the
name a line's hint gives it."""


def secret(owner: str, value: object) -> str:
    """`value` as `owner`'s part of a line (`owner` an NPC's or a character's id)."""
    return f"{OPEN}{owner}{BETWEEN}{value}{CLOSE}"


def owners(text: str) -> set[str]:
    """Whose parts the line marks."""
    return {found.group(1) for found in _PART.finditer(text)} if OPEN in text else set()


def plain(text: str) -> str:
    """The line as the GM reads it: every part in place, the marks gone."""
    return _PART.sub(r"\2", text) if OPEN in text else text


def masked(text: str, hidden: Mapping[str, str]) -> str:
    """The line as the players read it: each part of an owner in `hidden` shown as `?`."""
    if OPEN not in text:
        return text
    return _PART.sub(lambda found: SHOWN if found.group(1) in hidden else found.group(2), text)


def whole_owner(text: str) -> str | None:
    """The owner whose part the whole line is, if it is one owner's part and nothing else."""
    found = _PART.fullmatch(text)
    return found.group(1) if found else None
