"""Carrying (§ Encumbrance): bulk against the carry limit, encumbrance, hands, worn items and
the containers that clothes provide.

A `Load` places every item a character carries: worn, held in the hands, or stored in the
containers of their clothes. The model refuses what the rules forbid (a second suit of
armour, a third hand, an item over bulk 4 in a pouch, more than the carry limit).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationError, model_validator

from tabletop.data import describe
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import Model

ItemKind = Literal["item", "weapon", "clothes", "armour", "accessory"]
Place = Literal["worn", "held", "stored"]

WEARABLE: frozenset[str] = frozenset({"clothes", "armour", "accessory"})
"""What can be worn: one outfit of clothing, one suit of armour, accessories (rings, gloves, …)."""

HANDS = 2
"""One item in each hand."""

TWO_HANDED_BULK = 3
"""Items of this bulk or more need both hands to use (CR-A03)."""

CONTAINER_BULK = 4
"""The largest bulk of one item the containers of a set of clothes can hold (CR-M09)."""

MAX_ITEM_BULK = 1_000
MAX_CARRY_LIMIT = 100_000
MAX_ITEMS = 500
"""Bounds on a load's numbers, far past anything a table tracks."""


class Item(Model):
    """One carried thing: its name, its bulk, and what sort of thing it is."""

    name: str = Field(min_length=1, max_length=80)
    bulk: int = Field(ge=0, le=MAX_ITEM_BULK)
    kind: ItemKind = "item"


class Load(Model):
    """Everything a character carries and where (CR-M06…M09, CR-A20, CR-A25)."""

    carry_limit: int = Field(ge=0, le=MAX_CARRY_LIMIT)
    """The most bulk the character can carry (CR-G02: given by the rest of the game)."""
    worn: tuple[Item, ...] = ()
    held: tuple[Item, ...] = ()
    stored: tuple[Item, ...] = ()

    @model_validator(mode="after")
    def _placed_as_the_rules_allow(self) -> Load:
        if len(self.items) > MAX_ITEMS:
            raise ValueError(f"a load holds at most {MAX_ITEMS} items")
        for item in self.worn:
            if item.kind not in WEARABLE:
                raise ValueError(
                    f"{item.name!r} is a {item.kind} and cannot be worn; "
                    "only clothes, armour and accessories are worn"
                )
        for kind in ("clothes", "armour"):
            if sum(item.kind == kind for item in self.worn) > 1:
                raise ValueError(f"a character wears at most one set of {kind}")
        if len(self.held) > HANDS:
            raise ValueError(f"a character holds at most {HANDS} items, one in each hand")
        if self.stored and not self.wearing_clothes:
            raise ValueError("items can be stored only in the containers of worn clothes")
        for item in self.stored:
            if item.bulk > CONTAINER_BULK:
                raise ValueError(
                    f"{item.name!r} (bulk {item.bulk}) is too big for containers, which take "
                    f"items of bulk {CONTAINER_BULK} or less: hold it or wear it"
                )
        if self.bulk > self.carry_limit:
            raise ValueError(
                f"the load's bulk {self.bulk} is over the carry limit of {self.carry_limit}"
            )
        return self

    @property
    def items(self) -> tuple[Item, ...]:
        """Every carried item: worn, then held, then stored."""
        return self.worn + self.held + self.stored

    @property
    def bulk(self) -> int:
        """Total bulk of everything carried, worn and held items included (CR-A25)."""
        return sum(item.bulk for item in self.items)

    @property
    def wearing_clothes(self) -> bool:
        return any(item.kind == "clothes" for item in self.worn)


def encumbered(load: Load, options: RollUnderOptions) -> bool:
    """Over half the carry limit (CR-M06, CR-A01), compared exactly: 2 × bulk against limit."""
    if options.encumbrance_threshold == "over_half":
        return 2 * load.bulk > load.carry_limit
    return 2 * load.bulk >= load.carry_limit


def needs_both_hands(item: Item, options: RollUnderOptions) -> bool:
    """Whether using the item takes both hands (CR-M08, CR-A03)."""
    if item.bulk >= TWO_HANDED_BULK:
        return True
    return options.two_handed == "weapons_and_bulk_3_or_more" and item.kind == "weapon"


def check_hands(load: Load, options: RollUnderOptions) -> Load:
    """The load, if its hands hold what the options allow: an item needing both hands is
    held alone unless `two_handed_holding="only_to_use"` (CR-A26)."""
    if options.two_handed_holding == "occupies_both_hands" and len(load.held) > 1:
        for item in load.held:
            if needs_both_hands(item, options):
                raise RollUnderError(
                    f"{item.name!r} needs both hands, so nothing else can be held with it"
                )
    return load


def check_use(load: Load, name: str, options: RollUnderOptions) -> Item:
    """The held item `name`, if the character can use it now; otherwise a clear refusal.

    An item needing both hands can be used only when nothing else is held (CR-M08)."""
    held = next((item for item in load.held if item.name == name), None)
    if held is None:
        raise RollUnderError(f"{name!r} is not held; an item must be in hand to be used")
    if needs_both_hands(held, options) and len(load.held) > 1:
        others = ", ".join(repr(item.name) for item in load.held if item is not held)
        raise RollUnderError(f"{name!r} needs both hands: put down {others} first")
    return held


def place(load: Load, item: Item, where: Place, options: RollUnderOptions) -> Load:
    """The load with `item` added where it is put, or a clear refusal if it cannot go there."""
    return check_hands(_rebuilt(load, **{where: (*getattr(load, where), item)}), options)


def remove(load: Load, name: str, place: Place | None = None) -> tuple[Load, Item]:
    """The load without the first item called `name` (worn, then held, then stored; or only
    where `place` says)."""
    for where in (place,) if place else ("worn", "held", "stored"):
        items: tuple[Item, ...] = getattr(load, where)
        for index, item in enumerate(items):
            if item.name == name:
                rest = items[:index] + items[index + 1 :]
                return _rebuilt(load, **{where: rest}), item
    raise RollUnderError(f"nothing called {name!r} is carried{f' {place}' if place else ''}")


def _rebuilt(load: Load, **changes: tuple[Item, ...]) -> Load:
    data = {
        "carry_limit": load.carry_limit,
        "worn": load.worn,
        "held": load.held,
        "stored": load.stored,
    }
    data.update(changes)
    try:
        return Load.model_validate(data)
    except ValidationError as error:
        raise RollUnderError(describe(error)) from None
