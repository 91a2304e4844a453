"""What a player writes in the Trappings and coins of a sheet between rolls: items stowed,
dropped, moved and used, containers, silver and gold (DW-X25, DW-X26).

Every change builds a new sheet through `revise`, so the sheet's own limits hold: a place
holds its slots, a canteen only liquids, a broken arm one hand. Places are named by their
kind, with a number for a second one of the same kind ("small bag 2"); items that take no
slot are `loose`, items carried with no room for them `overflow` (DW-X09).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tabletop.dice import DiceSource
from tabletop.session import first_problem
from tabletop.sheet_edits import coins_line, counted
from tabletop.systems.dead_weight.afflictions import CURES, Remedy, drink_coffee, remove_affliction
from tabletop.systems.dead_weight.character import Character, revise
from tabletop.systems.dead_weight.errors import DeadWeightError, SheetError
from tabletop.systems.dead_weight.events import Event, event
from tabletop.systems.dead_weight.inventory import (
    ArmourPart,
    Inventory,
    Item,
    ItemTag,
    Place,
    PlaceKind,
)
from tabletop.systems.dead_weight.trackers import UsageDie

Change = tuple[Character, list[Event]]

LOOSE = "loose"
OVERFLOW = "overflow"
MAX_COINS = 10**9
MAX_CONTAINERS = 12
"""Containers beyond the body's places; far past what a character straps on."""

CONSUMED: dict[ItemTag, Remedy] = {
    ItemTag.FOOD: Remedy.EAT_FOOD,
    ItemTag.WATER: Remedy.DRINK_WATER,
    ItemTag.COFFEE: Remedy.COFFEE,
    ItemTag.ALCOHOL: Remedy.ALCOHOL,
    ItemTag.BANDAGE: Remedy.FIRST_AID,
    ItemTag.FIRST_AID: Remedy.FIRST_AID,
}
"""Items used up by using them, and the remedy of the afflictions table each one is."""


class NewItem(BaseModel):
    """An item as a player writes it in the Trappings (DW-M55, M56)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    slots: int = Field(default=1, ge=0, le=20)
    awkward: tuple[str, ...] = Field(default=(), max_length=5)
    """Oversized, fragile, unstable…: one more slot each."""
    liquid: bool = False
    usage: int | None = None
    """Its usage die (4, 6, 8, 10, 12 or 20), if it is used up die by die."""
    tags: tuple[ItemTag, ...] = ()
    armour: tuple[int, ...] = Field(default=(), max_length=4)
    """Armour points of each part ("2, 2 AP" is two parts), all whole when written down."""
    weapon: str | None = Field(default=None, max_length=30)
    note: str = Field(default="", max_length=200)

    def item(self) -> Item:
        """The engine's item, checked like every item on a sheet."""
        try:
            return Item(
                name=self.name.strip() or self.name,
                slots=self.slots,
                awkward=self.awkward,
                liquid=self.liquid,
                usage=self.usage,
                tags=tuple(dict.fromkeys(self.tags)),
                armour=tuple(ArmourPart(points=p, maximum=p) for p in self.armour),
                weapon=self.weapon,
                note=self.note,
            )
        except ValidationError as problem:
            raise DeadWeightError(f"{self.name}: {first_problem(problem)}") from None


def place_labels(inventory: Inventory) -> list[str]:
    """Each place's name, in the order of the sheet: its kind, numbered from the second of
    a kind on ("small bag", "small bag 2")."""
    seen: dict[PlaceKind, int] = {}
    labels = []
    for place in inventory.places:
        seen[place.kind] = seen.get(place.kind, 0) + 1
        labels.append(place.kind.value + (f" {seen[place.kind]}" if seen[place.kind] > 1 else ""))
    return labels


def carried(inventory: Inventory) -> list[tuple[str, int, Item]]:
    """Every item with the place it is in and its place there."""
    found = []
    for label, place in zip(place_labels(inventory), inventory.places, strict=True):
        found += [(label, index, item) for index, item in enumerate(place.items)]
    found += [(LOOSE, index, item) for index, item in enumerate(inventory.loose)]
    found += [(OVERFLOW, index, item) for index, item in enumerate(inventory.overflow)]
    return found


def rooms_for(inventory: Inventory, item: Item, source: str | None = None) -> list[str]:
    """The places `item` fits now (besides where it is): room enough, liquids in liquid
    places only."""
    fits = []
    for label, place in zip(place_labels(inventory), inventory.places, strict=True):
        if label == source or (place.kind.liquids_only and not item.liquid):
            continue
        if place.free >= item.slots_used:
            fits.append(label)
    return fits


def stow(character: Character, new: NewItem, where: str | None) -> Change:
    """Write an item in: where the player puts it (which must have room), else the first
    place with room, else carried with no room (encumbered)."""
    item = new.item()
    inventory = character.inventory
    if item.slots_used == 0:
        inventory = inventory.model_copy(update={"loose": (*inventory.loose, item)})
        spot = "with the loose things"
    elif where is None:
        room = rooms_for(inventory, item)
        spot = f"in the {room[0]}" if room else "with no room for it (encumbered)"
        inventory = _put(inventory, item, room[0]) if room else _overflowing(inventory, item)
    else:
        inventory, spot = _put(inventory, item, where), f"in the {where}"
    return _revised(character, inventory), [
        event("item stowed", f"{character.label} stows {item.name} {spot}", item=item.name)
    ]


def drop(character: Character, where: str, index: int) -> Change:
    """Cross an item off the sheet."""
    inventory, item = _taken(character.inventory, where, index)
    return _revised(character, inventory), [
        event("item dropped", f"{character.label} drops {item.name}", item=item.name)
    ]


def move(character: Character, where: str, index: int, to: str) -> Change:
    """Move an item to another place with room for it."""
    if to == where:
        raise DeadWeightError(f"{to}: the item is there already")
    inventory, item = _taken(character.inventory, where, index)
    inventory = _put(inventory, item, to)
    return _revised(character, inventory), [
        event("item moved", f"{character.label} moves {item.name} to the {to}", item=item.name)
    ]


def use(character: Character, where: str, index: int, dice: DiceSource) -> Change:
    """Use an item: its usage die is rolled and written back, and the last one is gone
    (DW-M26); a food, drink, bandage or first aid is used up and ends what it cures (DW-X26)."""
    item = _item_at(character.inventory, where, index)
    consumed = [CONSUMED[tag] for tag in item.tags if tag in CONSUMED]
    if item.usage is None and not consumed:
        raise DeadWeightError(f"{item.name} has no usage die and is not used up by using it")
    events: list[Event] = []
    inventory = character.inventory
    if item.usage is not None:
        after, rolled = UsageDie(size=item.usage).use(dice)
        left = f"now Ud{after.size}" if after else "that was the last one"
        events.append(
            event(
                "usage die",
                f"{character.label} uses {item.name}: Ud{item.usage}, {left}",
                **rolled.to_json(),
                item=item.name,
                after=after.size if after else None,
            )
        )
        if after is not None:
            inventory = _replaced(
                inventory, where, index, item.model_copy(update={"usage": after.size})
            )
        else:
            inventory, _ = _taken(inventory, where, index)
    else:
        inventory, _ = _taken(inventory, where, index)
        events.append(event("item used", f"{character.label} uses up {item.name}", item=item.name))
    character = _revised(character, inventory)
    for remedy in dict.fromkeys(consumed):
        character, more = _cure(character, remedy)
        events += more
    return character, events


def add_container(character: Character, kind: PlaceKind) -> Change:
    """Strap on a container (a backpack, a small bag, a skin…): places to stow items in."""
    if kind.body:
        raise DeadWeightError(f"the {kind} is part of the body, not a container")
    inventory = character.inventory
    if len(inventory.places) >= len(PlaceKind) + MAX_CONTAINERS:
        raise DeadWeightError("no more containers fit on one character")
    inventory = inventory.model_copy(update={"places": (*inventory.places, Place(kind=kind))})
    return _revised(character, inventory), [
        event("container", f"{character.label} carries a {kind}", container=kind.value)
    ]


def drop_container(character: Character, where: str) -> Change:
    """Leave an empty container behind (its items go first, one by one)."""
    inventory = character.inventory
    index = _place_index(inventory, where)
    place = inventory.places[index]
    if place.kind.body:
        raise DeadWeightError(f"the {where} is part of the body")
    if place.items:
        raise DeadWeightError(f"the {where} still holds {', '.join(i.name for i in place.items)}")
    places = inventory.places[:index] + inventory.places[index + 1 :]
    return _revised(character, inventory.model_copy(update={"places": places})), [
        event("container dropped", f"{character.label} leaves the {where} behind")
    ]


def count_coins(character: Character, silver: int, gold: int, reason: str) -> Change:
    """Coins gained or spent: never fewer than none."""
    purse = {"silver": character.silver, "gold": character.gold}
    change = {"silver": silver, "gold": gold}
    now = counted(character.label, purse, change, MAX_COINS, DeadWeightError)
    text = coins_line(character.label, change, reason)
    return revise(character, **now), [event("coins", text, silver=silver, gold=gold)]


# inside -----------------------------------------------------------------------------------


def _place_index(inventory: Inventory, where: str) -> int:
    labels = place_labels(inventory)
    if where not in labels:
        raise DeadWeightError(f"no place called {where!r} (places: {', '.join(labels)})")
    return labels.index(where)


def _item_at(inventory: Inventory, where: str, index: int) -> Item:
    if where in (LOOSE, OVERFLOW):
        items: tuple[Item, ...] = getattr(inventory, where)
    else:
        items = inventory.places[_place_index(inventory, where)].items
    if not 0 <= index < len(items):
        raise DeadWeightError(f"the {where} holds no item {index + 1}")
    return items[index]


def _taken(inventory: Inventory, where: str, index: int) -> tuple[Inventory, Item]:
    item = _item_at(inventory, where, index)
    if where in (LOOSE, OVERFLOW):
        items: tuple[Item, ...] = getattr(inventory, where)
        return inventory.model_copy(update={where: items[:index] + items[index + 1 :]}), item
    at = _place_index(inventory, where)
    place = inventory.places[at]
    kept = place.model_copy(update={"items": place.items[:index] + place.items[index + 1 :]})
    return inventory.model_copy(update={"places": _swap(inventory.places, at, kept)}), item


def _replaced(inventory: Inventory, where: str, index: int, item: Item) -> Inventory:
    if where in (LOOSE, OVERFLOW):
        items = list(getattr(inventory, where))
        items[index] = item
        return inventory.model_copy(update={where: tuple(items)})
    at = _place_index(inventory, where)
    place = inventory.places[at]
    items = list(place.items)
    items[index] = item
    return inventory.model_copy(
        update={
            "places": _swap(inventory.places, at, place.model_copy(update={"items": tuple(items)}))
        }
    )


def _put(inventory: Inventory, item: Item, where: str) -> Inventory:
    if where == LOOSE:
        if item.slots_used:
            raise DeadWeightError(f"{item.name} takes a slot: it cannot go with the loose things")
        return inventory.model_copy(update={"loose": (*inventory.loose, item)})
    if where == OVERFLOW:
        raise DeadWeightError("an item is carried with no room only when no place has room")
    at = _place_index(inventory, where)
    place = inventory.places[at]
    if place.kind.liquids_only and not item.liquid:
        raise DeadWeightError(f"the {where} holds only liquids")
    if place.free < item.slots_used:
        raise DeadWeightError(
            f"no room in the {where}: {place.free} of {place.kind.capacity} slots free, "
            f"{item.name} takes {item.slots_used}"
        )
    added = place.model_copy(update={"items": (*place.items, item)})
    return inventory.model_copy(update={"places": _swap(inventory.places, at, added)})


def _overflowing(inventory: Inventory, item: Item) -> Inventory:
    return inventory.model_copy(update={"overflow": (*inventory.overflow, item)})


def _swap(places: tuple[Place, ...], at: int, place: Place) -> tuple[Place, ...]:
    return (*places[:at], place, *places[at + 1 :])


def _revised(character: Character, inventory: Inventory) -> Character:
    """The sheet with a new inventory, checked whole (a broken arm, a place's slots)."""
    try:
        return revise(character, inventory=inventory)
    except SheetError as problem:
        raise DeadWeightError(str(problem)) from None


def _cure(character: Character, remedy: Remedy) -> Change:
    """What a used item ends: coffee counts for the coffee addict even without Sleepy."""
    if remedy == Remedy.COFFEE:
        return drink_coffee(character)
    events: list[Event] = []
    for affliction in CURES[remedy]:
        if character.has(affliction):
            character, more = remove_affliction(character, affliction, remedy)
            events += more
    return character, events
