"""The sheet at a shared table: what a player writes on it between rolls (name, notes,
Trappings, coins) and the actions each entry offers (test this attribute, use this item,
cast this spell, pray this prayer), as intents and offers placed at their entries.

Nothing here sets a number the rules move (scores, fatigue, wounds, insight): those change
only through their rules (DW-X25).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.offers import Choice, Offer, accepts, entry_action, entry_offer
from tabletop.session import MAX_NAME, CharacterIntent
from tabletop.sheet_edits import (
    NAMING,
    Naming,
    RenameCharacter,
    coins_offer,
    edit_offer,
    naming_offers,
    written,
)
from tabletop.systems.dead_weight.attribute_test import GM_ANNOUNCES
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.catalogue import Trait
from tabletop.systems.dead_weight.character import Character, revise
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event, event
from tabletop.systems.dead_weight.gear import CONSUMED as _CONSUMED
from tabletop.systems.dead_weight.gear import (
    LOOSE,
    MAX_COINS,
    OVERFLOW,
    NewItem,
    add_container,
    carried,
    count_coins,
    drop,
    drop_container,
    move,
    place_labels,
    rooms_for,
    stow,
    use,
)
from tabletop.systems.dead_weight.inventory import PlaceKind, carrying_capacity
from tabletop.systems.dead_weight.magic import study

Id = str
CONTAINERS = tuple(kind for kind in PlaceKind if not kind.body)


class StowItem(CharacterIntent):
    """Write an item into the Trappings: in a place, or the first with room (DW-X25)."""

    kind: Literal["stow-item"] = "stow-item"
    item: NewItem
    place: str | None = Field(default=None, max_length=40)


class DropItem(CharacterIntent):
    kind: Literal["drop-item"] = "drop-item"
    place: str = Field(min_length=1, max_length=40)
    index: int = Field(ge=0, le=100)


class MoveItem(CharacterIntent):
    kind: Literal["move-item"] = "move-item"
    place: str = Field(min_length=1, max_length=40)
    index: int = Field(ge=0, le=100)
    to: str = Field(min_length=1, max_length=40)


class UseItem(CharacterIntent):
    """Use an item: roll its usage die, or use it up (DW-X26)."""

    kind: Literal["use-item"] = "use-item"
    place: str = Field(min_length=1, max_length=40)
    index: int = Field(ge=0, le=100)


class AddContainer(CharacterIntent):
    kind: Literal["add-container"] = "add-container"
    container: PlaceKind


class DropContainer(CharacterIntent):
    kind: Literal["drop-container"] = "drop-container"
    place: str = Field(min_length=1, max_length=40)


class CountCoins(CharacterIntent):
    """Silver and gold gained (positive) or spent (negative)."""

    kind: Literal["coins"] = "coins"
    silver: int = Field(default=0, ge=-MAX_COINS, le=MAX_COINS)
    gold: int = Field(default=0, ge=-MAX_COINS, le=MAX_COINS)
    reason: str = Field(default="", max_length=MAX_NAME)


class CastSpell(CharacterIntent):
    """Cast a memorised spell: it works, then the INT test says what it costs (DW-M18)."""

    kind: Literal["cast-spell"] = "cast-spell"
    spell: str = Field(min_length=1, max_length=MAX_NAME)


class Pray(CharacterIntent):
    """Pray a memorised prayer: the PRE test says whether it is answered (DW-M22)."""

    kind: Literal["pray"] = "pray"
    prayer: str = Field(min_length=1, max_length=MAX_NAME)
    desperate_plea: bool = False


SheetEdit = (
    Naming | StowItem | DropItem | MoveItem | UseItem | AddContainer | DropContainer | CountCoins
)
INTENTS = (
    *NAMING,
    StowItem,
    DropItem,
    MoveItem,
    UseItem,
    AddContainer,
    DropContainer,
    CountCoins,
    CastSpell,
    Pray,
)


def edit(
    character: Character, intent: SheetEdit, dice: DiceSource
) -> tuple[Character, list[Event]]:
    """The sheet after one of the player's own edits, and what the table is told."""
    if isinstance(intent, Naming):
        changes, kind, text = written(intent, character.label)
        facts = changes if isinstance(intent, RenameCharacter) else {}  # the new name
        return revise(character, **changes), [event(kind, text, **facts)]
    if isinstance(intent, StowItem):
        return stow(character, intent.item, intent.place)
    if isinstance(intent, DropItem):
        return drop(character, intent.place, intent.index)
    if isinstance(intent, MoveItem):
        return move(character, intent.place, intent.index, intent.to)
    if isinstance(intent, UseItem):
        return use(character, intent.place, intent.index, dice)
    if isinstance(intent, AddContainer):
        return add_container(character, intent.container)
    if isinstance(intent, DropContainer):
        return drop_container(character, intent.place)
    return count_coins(character, intent.silver, intent.gold, intent.reason)


def derived(sheet: Character) -> dict[str, Any]:
    """What the sheet's numbers add up to, for a page to show beside them: each attribute's
    available dice, each place's slots, the load against the carrying limit, warnings."""
    inventory = sheet.inventory
    labels = place_labels(inventory)
    return {
        "available": {a.value: sheet.attribute(a).available for a in Attribute},
        "places": [
            {"label": label, "used": place.used, "capacity": place.kind.capacity}
            for label, place in zip(labels, inventory.places, strict=True)
        ],
        "slots": inventory.slots_carried,
        "capacity": carrying_capacity(sheet.attributes.STR.score),
        "encumbered": sheet.encumbered,
        "warnings": sheet.warnings(),
    }


def sheet_offers(cid: Id, sheet: Character, testing: bool, levers: bool) -> list[Offer]:
    """Every offer one character's sheet places at its entries, for whoever plays them
    (`levers`: whether they announce the GM's part of a test too, DW-T01)."""
    found = [*naming_offers(cid, sheet.name, sheet.notes), *_trappings(cid, sheet)]
    silver = Choice(help="silver in, or out with a minus", example=1)
    gold = Choice(help="gold in, or out with a minus", example=0)
    found.append(coins_offer("coins", cid, "a rope", silver=silver, gold=gold))
    if not testing:
        found += _tests(cid, sheet, levers) + _magic(cid, sheet)
    return found


def setup_choice(levers: bool) -> Choice:
    """The announcement's field of a test's offer: with the GM's part (`levers`) or not."""
    said = "advantage, disadvantage, extra effort, …" if levers else "extra effort, fewer dice, …"
    return Choice(help=said, example={})


def _tests(cid: Id, sheet: Character, levers: bool) -> list[Offer]:
    """A test at each attribute, while the character can act (§ Fainting); the GM's part
    of its announcement fixed as none unless `levers` (DW-T01)."""
    if not sheet.condition.can_act:
        return []
    fixed = {} if levers else GM_ANNOUNCES
    return [
        entry_offer(
            "test",
            f"test {attribute}",
            f"attributes.{attribute}",
            {"roller": cid, "setup": {"attribute": attribute.value, **fixed}},
            setup=setup_choice(levers),
        )
        for attribute in Attribute
    ]


def _trappings(cid: Id, sheet: Character) -> list[Offer]:
    inventory = sheet.inventory
    labels = place_labels(inventory)
    item = Choice(help="its name and slots; usage die, tags", example={"name": "rope"})
    found = [
        edit_offer(
            "stow-item",
            "write an item in",
            "inventory",
            cid,
            item=item,
            place=Choice(values=(None, *labels, LOOSE)),
        ),
        edit_offer(
            "add-container",
            "carry another container",
            "inventory",
            cid,
            container=Choice(values=CONTAINERS),
        ),
    ]
    for index, (place, label) in enumerate(zip(inventory.places, labels, strict=True)):
        if not place.kind.body and not place.items:
            left = DropContainer(character=cid, place=label)
            text = f"leave the {label} behind"
            found.append(entry_action("drop-container", text, left, f"inventory.places.{index}"))
    for where, index, item in carried(inventory):
        entry = _item_entry(labels, where, index)
        dropped = DropItem(character=cid, place=where, index=index)
        found.append(entry_action("drop-item", "drop", dropped, entry))
        rooms = rooms_for(inventory, item, where)
        if where != LOOSE and rooms:
            found.append(
                entry_offer(
                    "move-item",
                    "move to",
                    entry,
                    {"character": cid, "place": where, "index": index},
                    to=Choice(values=tuple(rooms)),
                )
            )
        if item.usage is not None or any(tag in _CONSUMED for tag in item.tags):
            text = f"use (Ud{item.usage})" if item.usage else "use up"
            used = UseItem(character=cid, place=where, index=index)
            found.append(entry_action("use-item", text, used, entry))
    return found


def _item_entry(labels: list[str], where: str, index: int) -> str:
    """The sheet path of an item: `inventory.places.P.items.I`, `inventory.loose.I`, …"""
    if where in (LOOSE, OVERFLOW):
        return f"inventory.{where}.{index}"
    return f"inventory.places.{labels.index(where)}.items.{index}"


def _magic(cid: Id, sheet: Character) -> list[Offer]:
    magic = sheet.magic
    found: list[Offer] = []
    able = sheet.condition.can_act
    for index, spell in enumerate(magic.spells_known):
        entry = f"magic.spells_known.{index}"
        if able and sheet.has(Trait.MAGIC_USER) and spell in magic.spells_memorised:
            cast = CastSpell(character=cid, spell=spell)
            found.append(entry_action("cast-spell", "cast", cast, entry))
        studies = accepts(lambda s=spell: study(sheet, s), DeadWeightError)
        if spell in magic.spells_forgotten and studies:
            asked = {"kind": "study", "character": cid, "spell": spell}
            found.append(Offer(kind="study", text="study it back", intents=(asked,), entry=entry))
    if not (able and sheet.has(Trait.DIVINE_MANDATE) and sheet.has_holy_symbol):
        return found
    if magic.god_angry:
        return found
    for index, prayer in enumerate(magic.prayers_known):
        if prayer not in magic.prayers_memorised:
            continue
        exhausted = prayer in magic.prayers_exhausted
        if exhausted and magic.desperate_plea_used:
            continue
        text = "desperate plea" if exhausted else "pray"
        prays = Pray(character=cid, prayer=prayer, desperate_plea=exhausted)
        found.append(entry_action("pray", text, prays, f"magic.prayers_known.{index}"))
    return found
