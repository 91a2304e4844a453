"""Items and where they are carried: containers, torso and hands, and encumbrance.

Two limits apply (DW-A33): each place holds only so many slots (a belt 1, a bag 4, the torso
4, each hand 2, ...), and a character carrying more slots than 7 + 3 × STR score is
encumbered. Items that fit nowhere are carried anyway, as overflow, and also encumber.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tabletop.dice import USAGE_DIE_SIZES


class ItemTag(StrEnum):
    """What an item is for, where a rule asks for such an item."""

    CONDUCTOR = "conductor"
    GRIMOIRE = "grimoire"
    HOLY_SYMBOL = "holy symbol"
    LIGHT = "light"
    FOOD = "food"
    WATER = "water"
    COFFEE = "coffee"
    ALCOHOL = "alcohol"
    BANDAGE = "bandage"
    FIRST_AID = "first aid"
    CAMPING_SUPPLY = "camping supply"
    HOLY_WATER = "holy water"


class ArmourPart(BaseModel):
    """One part of a piece of armour: its armour points now and when repaired."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    points: int = Field(ge=0)
    maximum: int = Field(ge=0)

    @model_validator(mode="after")
    def _points_within_maximum(self) -> ArmourPart:
        if self.points > self.maximum:
            raise ValueError(f"armour points {self.points} above the part's {self.maximum}")
        return self


class Item(BaseModel):
    """Anything carried. Very small items and everyday clothes take no slot."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    slots: int = Field(default=1, ge=0, le=20)
    awkward: tuple[str, ...] = ()
    """Characteristics such as oversized, fragile or unstable: one extra slot each."""
    liquid: bool = False
    tags: tuple[ItemTag, ...] = ()
    armour: tuple[ArmourPart, ...] = ()
    """Armour points by part ("2, 2 AP" is two parts, rolled and broken separately)."""
    weapon: str | None = None
    """The weapon's notation as printed (e.g. "STR 1B+1"); its letters are another book's."""
    usage: int | None = None
    """The size of the item's usage die, if it is used up die by die."""
    note: str = ""
    assumption: str = ""
    """Set when a property was assumed to make the engine runnable (listed in the docs)."""

    @model_validator(mode="after")
    def _usage_die_is_on_the_chain(self) -> Item:
        if self.usage is not None and self.usage not in USAGE_DIE_SIZES:
            raise ValueError(f"a usage die is a d4, d6, d8, d10, d12 or d20, not d{self.usage}")
        return self

    @property
    def slots_used(self) -> int:
        """Slots taken: its own plus one per awkward characteristic (DW-M55)."""
        return self.slots + len(self.awkward) if self.slots else 0

    def has(self, tag: ItemTag) -> bool:
        return tag in self.tags


class PlaceKind(StrEnum):
    """Places items go, with their capacity in slots (DW-M56)."""

    BELT = "belt"
    SMALL_POUCH = "small pouch"
    BAG = "bag"
    BACKPACK = "backpack"
    SMALL_BAG = "small bag"
    CANTEEN = "canteen"
    SKIN = "skin"
    TORSO = "torso"
    LEFT_HAND = "left hand"
    RIGHT_HAND = "right hand"

    @property
    def capacity(self) -> int:
        return _CAPACITY[self]

    @property
    def liquids_only(self) -> bool:
        return self in (PlaceKind.CANTEEN, PlaceKind.SKIN)

    @property
    def body(self) -> bool:
        """The torso and hands: every character has them."""
        return self in BODY


_CAPACITY = {
    PlaceKind.BELT: 1,
    PlaceKind.SMALL_POUCH: 2,
    PlaceKind.BAG: 4,
    PlaceKind.BACKPACK: 7,
    PlaceKind.SMALL_BAG: 3,
    PlaceKind.CANTEEN: 1,
    PlaceKind.SKIN: 2,
    PlaceKind.TORSO: 4,
    PlaceKind.LEFT_HAND: 2,
    PlaceKind.RIGHT_HAND: 2,
}
BODY = (PlaceKind.TORSO, PlaceKind.LEFT_HAND, PlaceKind.RIGHT_HAND)
STARTING_CONTAINERS = (PlaceKind.BELT, PlaceKind.CANTEEN, PlaceKind.BAG)
"""The bag, canteen and belt every character starts with (DW-M05)."""
FILL_ORDER = (
    PlaceKind.CANTEEN,
    PlaceKind.SKIN,
    PlaceKind.BELT,
    PlaceKind.SMALL_POUCH,
    PlaceKind.BACKPACK,
    PlaceKind.BAG,
    PlaceKind.SMALL_BAG,
    PlaceKind.TORSO,
    PlaceKind.RIGHT_HAND,
    PlaceKind.LEFT_HAND,
)
"""Where `stow` tries to put an item when no place is named."""


class Place(BaseModel):
    """A container or a body place, and the items in it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: PlaceKind
    items: tuple[Item, ...] = ()

    @model_validator(mode="after")
    def _items_fit(self) -> Place:
        if self.kind.liquids_only and any(not item.liquid for item in self.items):
            raise ValueError(f"a {self.kind} holds only liquids")
        if self.used > self.kind.capacity:
            raise ValueError(
                f"the {self.kind} holds {self.kind.capacity} slots, not {self.used} "
                f"({', '.join(item.name for item in self.items)})"
            )
        return self

    @property
    def used(self) -> int:
        return sum(item.slots_used for item in self.items)

    @property
    def free(self) -> int:
        return self.kind.capacity - self.used


class Inventory(BaseModel):
    """Everything a character carries, place by place."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    places: tuple[Place, ...] = Field(
        default_factory=lambda: tuple(Place(kind=kind) for kind in STARTING_CONTAINERS + BODY)
    )
    loose: tuple[Item, ...] = ()
    """Items that take no slot: very small things and everyday clothes (the sheet's notes)."""
    overflow: tuple[Item, ...] = ()
    """Items carried with no room for them: the character is encumbered."""

    @model_validator(mode="after")
    def _places_make_sense(self) -> Inventory:
        kinds = [place.kind for place in self.places]
        for kind in BODY:
            if kinds.count(kind) != 1:
                raise ValueError(f"an inventory has exactly one {kind}")
        if any(item.slots_used for item in self.loose):
            raise ValueError("only items that take no slot go with the loose items")
        return self

    def items(self) -> list[Item]:
        """Every item carried, wherever it is."""
        return [item for place in self.places for item in place.items] + [
            *self.loose,
            *self.overflow,
        ]

    def has(self, tag: ItemTag) -> bool:
        return any(item.has(tag) for item in self.items())

    def counted_items(self) -> list[Item]:
        """The items counted against the carrying limit (liquids in canteens and skins are
        not: DW-A33)."""
        in_places = [i for p in self.places if not p.kind.liquids_only for i in p.items]
        return in_places + list(self.overflow)

    @property
    def slots_carried(self) -> int:
        """Slots counted against the carrying limit."""
        return sum(item.slots_used for item in self.counted_items())

    def place(self, kind: PlaceKind) -> Place:
        for place in self.places:
            if place.kind == kind:
                return place
        raise KeyError(kind)


def carrying_capacity(strength_score: int) -> int:
    """Items a character carries unencumbered: 7 + 3 per STR score (DW-M55)."""
    return 7 + 3 * strength_score


def is_encumbered(inventory: Inventory, strength_score: int) -> bool:
    """More slots than the carrying capacity, or items with no room to stow them."""
    return bool(inventory.overflow) or (inventory.slots_carried > carrying_capacity(strength_score))


def stow(inventory: Inventory, item: Item, where: PlaceKind | None = None) -> Inventory:
    """The inventory with `item` added: in `where` if given (which must have room), else in
    the first place with room (liquids go to a canteen or skin first), else as overflow."""
    if item.slots_used == 0:
        return inventory.model_copy(update={"loose": (*inventory.loose, item)})
    places = list(inventory.places)
    candidates = [where] if where is not None else list(FILL_ORDER)
    for kind in candidates:
        for i, place in enumerate(places):
            if place.kind != kind or place.free < item.slots_used:
                continue
            if kind.liquids_only and not item.liquid:
                continue
            places[i] = Place(kind=kind, items=(*place.items, item))
            return inventory.model_copy(update={"places": tuple(places)})
    if where is not None:
        raise ValueError(f"no room in the {where} for {item.name}")
    return inventory.model_copy(update={"overflow": (*inventory.overflow, item)})


def add_container(inventory: Inventory, kind: PlaceKind) -> Inventory:
    """The inventory with one more container (a backpack, a small bag, a skin...)."""
    if kind.body:
        raise ValueError(f"the {kind} is part of the body, not a container")
    return inventory.model_copy(update={"places": (*inventory.places, Place(kind=kind))})


def remove_item(inventory: Inventory, name: str) -> tuple[Inventory, Item]:
    """The inventory without the first item called `name`, and that item."""
    for i, place in enumerate(inventory.places):
        for j, item in enumerate(place.items):
            if item.name == name:
                kept = place.items[:j] + place.items[j + 1 :]
                places = list(inventory.places)
                places[i] = Place(kind=place.kind, items=kept)
                return inventory.model_copy(update={"places": tuple(places)}), item
    for field in ("overflow", "loose"):
        items: tuple[Item, ...] = getattr(inventory, field)
        for j, item in enumerate(items):
            if item.name == name:
                return inventory.model_copy(update={field: items[:j] + items[j + 1 :]}), item
    raise ValueError(f"no item called {name!r} is carried")
