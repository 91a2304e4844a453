"""What every table's GM-kept lists share (issue 30, item 3): where a book leaves a list to
the group (Dead Weight's backgrounds, 2d6's skills, Constitution's spells), the GM keeps the
group's in the room, and takes an entry off one with the same pick and the same line."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

from tabletop.errors import TabletopError
from tabletop.offers import Choice, Offer, offer
from tabletop.session import Event, note

Entry = TypeVar("Entry")


NAMED = Choice(help="its name")


def write_offer(kind: str, what: str, name: Choice | None = NAMED, **fields: Choice) -> Offer:
    """The GM's form to write `what` ("a skill") on its list: its name (None: an entry named
    otherwise, a school's spells by the school), and what else it asks."""
    named = {"name": name, **fields} if name is not None else fields
    return offer(kind, f"write {what} on the table's list", **named)


def gm_offers(lists: Mapping[str, Iterable[str]], *writes: Offer) -> list[Offer]:
    """The GM's forms to write an entry on each list, and the pick to take one off."""
    taken = drop_offer(lists)
    return [*writes, *([taken] if taken else [])]


def drop_offer(lists: Mapping[str, Iterable[str]]) -> Offer | None:
    """The GM's standing pick of an entry to take off a list (None when every list is empty):
    an open offer, as a GM action among the others, never a choice asked of the GM now."""
    kept = {which: tuple(names) for which, names in lists.items()}
    kept = {which: names for which, names in kept.items() if names}
    if not kept:
        return None
    names = tuple(dict.fromkeys(name for listed in kept.values() for name in listed))
    return offer(
        "drop-listed",
        "take an entry off a list",
        list=Choice(values=tuple(kept)),
        name=Choice(values=names, help="the entry to take off"),
    )


def dropped(
    kept: Mapping[str, Entry], which: str, name: str, error: type[TabletopError]
) -> tuple[dict[str, Entry], Event]:
    """The list without `name`, and the line that says so; `error` if it is not on it."""
    if name not in kept:
        raise error(f"{name} is not on the table's {which} list")
    rest = {listed: entry for listed, entry in kept.items() if listed != name}
    return rest, note("list kept", f"the GM takes {name} off the table's {which} list")
