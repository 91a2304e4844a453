"""Encumbrance in encs: what each storage space holds, its [encumbered] threshold and its
maximum, and the [encumbered] status (§ Encumbrance).

A character has a personal space (everything carried that is not itself a storage space:
threshold 3 + STR, maximum 6 + STR) and usually one bag (RU-M50). Past any threshold they are
[encumbered] (RU-M51); all together they carry no more than their single largest maximum
(RU-M52).
"""

from __future__ import annotations

import math
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from tabletop.systems.ap2d6.datafiles import read_file
from tabletop.systems.ap2d6.errors import Ap2d6Error, validated
from tabletop.systems.ap2d6.events import Event
from tabletop.systems.ap2d6.gear import MAX_BAGS_IN_USE, Bag, Item
from tabletop.systems.ap2d6.sheet import Character
from tabletop.systems.ap2d6.statuses import StatusCatalogue, shipped_statuses
from tabletop.words import counted

PERSONAL_THRESHOLD = 3
PERSONAL_MAXIMUM = 6
"""Personal space: [encumbered] past 3 + STR encs, at most 6 + STR (RU-M50)."""

SMALL_ITEMS_PER_ENC = 3
"""Three small items (a book, a dagger, bandages) make 1 enc (RU-M49, RU-A29)."""


def space_encs(items: tuple[Item, ...] | list[Item]) -> int:
    """Encs in one storage space: priced items plus small items rounded up by threes."""
    small = sum(item.count for item in items if item.kind == "small")
    priced = sum(item.each() * item.count for item in items if item.kind != "small")
    return priced + math.ceil(small / SMALL_ITEMS_PER_ENC)


def load_bags(path: str | Path) -> dict[str, Bag]:
    """A group's bag file: one table per bag, keyed by its name."""
    return {
        name: validated(Bag, {"name": name, **entry}, f"{path}: {name}")
        for name, entry in read_file(path).items()
    }


class SpaceLoad(BaseModel):
    """One storage space's load against its limits."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    encs: int
    threshold: int | None
    maximum: int

    @property
    def past_threshold(self) -> bool:
        """Strictly more than the threshold (RU-A29)."""
        return self.threshold is not None and self.encs > self.threshold


class Encumbrance(BaseModel):
    """The whole load: each space, whether the character is [encumbered], and the total."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    spaces: tuple[SpaceLoad, ...]

    @property
    def encumbered(self) -> bool:
        return any(space.past_threshold for space in self.spaces)

    @property
    def total(self) -> int:
        return sum(space.encs for space in self.spaces)

    @property
    def capacity(self) -> int:
        """The most the character can carry in all: their largest single maximum (RU-M52)."""
        return max(space.maximum for space in self.spaces)


def carry(
    strength: int,
    personal: list[Item] | tuple[Item, ...] = (),
    bags: list[tuple[Bag, list[Item]]] | tuple[tuple[Bag, list[Item]], ...] = (),
    *,
    bags_allowed: int = MAX_BAGS_IN_USE,
) -> Encumbrance:
    """Weigh a load. Refuses one that is over any space's maximum or, all together, over the
    largest maximum (RU-M52), and more bags than allowed."""
    if len(bags) > bags_allowed:
        raise Ap2d6Error(f"only {counted(bags_allowed, 'bag')} can be used at a time")
    spaces = [
        SpaceLoad(
            name="personal",
            encs=space_encs(personal),
            threshold=PERSONAL_THRESHOLD + strength,
            maximum=PERSONAL_MAXIMUM + strength,
        )
    ]
    spaces += [
        SpaceLoad(
            name=bag.name, encs=space_encs(items), threshold=bag.threshold, maximum=bag.maximum
        )
        for bag, items in bags
    ]
    for space in spaces:
        if space.encs > space.maximum:
            raise Ap2d6Error(
                f"{space.name} holds {space.encs} encs, more than its maximum of {space.maximum}"
            )
    load = Encumbrance(spaces=tuple(spaces))
    if load.total > load.capacity:
        raise Ap2d6Error(
            f"{load.total} encs in all is more than the {load.capacity} the largest single "
            "maximum allows"
        )
    return load


def apply_encumbrance(
    character: Character, load: Encumbrance, statuses: StatusCatalogue | None = None
) -> tuple[Character, list[Event]]:
    """Give or take away [encumbered] to match the load (RU-M51)."""
    if load.encumbered == character.has("encumbered"):
        return character, []
    if load.encumbered:
        spec = (statuses or shipped_statuses()).spec("encumbered")
        changed = character.with_status("encumbered", spec)
        return changed, [Event(kind="encumbered", summary=f"{character.name} is [encumbered]")]
    kept = {name: s for name, s in character.statuses.items() if name != "encumbered"}
    changed = character.model_copy(update={"statuses": kept})
    return changed, [
        Event(kind="unencumbered", summary=f"{character.name} is no longer [encumbered]")
    ]
