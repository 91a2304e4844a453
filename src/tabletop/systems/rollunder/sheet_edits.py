"""The sheet at a roll-under table: what a player writes on it between rolls (name, notes,
coins, the sacred spells the rest of the game gives, how each item is carried) and the
actions each entry offers (roll this ability, use this held item, cast this spell), as
intents and offers placed at their entries (CR-S08).

Health, abilities, omens and corruption move only through their rules; nothing here sets
them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field

from tabletop.offers import Choice, Offer, accepts, entry_action, entry_offer
from tabletop.session import MAX_NAME, CharacterIntent, RollMode, clean_name
from tabletop.sheet_edits import (
    NAMING,
    Naming,
    WriteNotes,
    coins_line,
    coins_offer,
    counted,
    edit_offer,
    naming_offers,
    written,
)
from tabletop.systems.rollunder.carrying import (
    Item,
    Load,
    Place,
    check_use,
    encumbered,
    place,
    remove,
)
from tabletop.systems.rollunder.character import MAX_MONEY, MAX_SPELLS, Character
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.followers import Company
from tabletop.systems.rollunder.health import Changed
from tabletop.systems.rollunder.intents import CastSpell, DropItem, UseItem
from tabletop.systems.rollunder.omens import cast_sacred_spell
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import Event

Id = str
PLACES: tuple[Place, ...] = ("worn", "held", "stored")


class MoveItem(CharacterIntent):
    """Carry an item another way: worn, held, or stored in the clothes' containers
    (CR-M07..M09)."""

    kind: Literal["move-item"] = "move-item"
    item: str = Field(min_length=1, max_length=80)
    where: Place
    to: Place


class CountMoney(CharacterIntent):
    """Coins gained (positive) or spent (negative)."""

    kind: Literal["money"] = "money"
    amount: int = Field(ge=-MAX_MONEY, le=MAX_MONEY)
    reason: str = Field(default="", max_length=MAX_NAME)


class LearnSpell(CharacterIntent):
    """Write a sacred spell on the sheet (the spells are another chapter's, CR-G09)."""

    kind: Literal["learn-spell"] = "learn-spell"
    spell: str = Field(min_length=1, max_length=MAX_NAME)


class ForgetSpell(CharacterIntent):
    """Strike a sacred spell off the sheet."""

    kind: Literal["forget-spell"] = "forget-spell"
    spell: str = Field(min_length=1, max_length=MAX_NAME)


SheetEdit = Naming | MoveItem | CountMoney | LearnSpell | ForgetSpell
INTENTS = (*NAMING, MoveItem, CountMoney, LearnSpell, ForgetSpell)


def edit(sheet: Character, intent: SheetEdit, options: RollUnderOptions) -> Changed:
    """The sheet after one of the player's own edits (a rename is `renamed`'s)."""
    if isinstance(intent, WriteNotes):
        changes, kind, text = written(intent, sheet.name)
        return Changed(sheet.with_changes(**changes), (Event.about(sheet.name, kind, text),))
    if isinstance(intent, CountMoney):
        return _money(sheet, intent)
    if isinstance(intent, LearnSpell | ForgetSpell):
        return _spells(sheet, intent)
    assert isinstance(intent, MoveItem)
    if sheet.load is None:
        raise RollUnderError(f"{sheet.name} has no carry limit yet: set one first")
    if intent.where == intent.to:
        raise RollUnderError(f"{intent.item!r} is {intent.to} already")
    load, item = remove(sheet.load, intent.item, intent.where)
    load = place(load, item, intent.to, options)
    text = f"{sheet.name} now carries {item.name} {intent.to}"
    event = Event.about(sheet.name, "carrying", text, item=item.name)
    return Changed(sheet.with_changes(load=load), (event,))


def renamed(
    members: tuple[Character, ...], old: str, asked: str
) -> tuple[tuple[Character, ...], Event]:
    """The company after a member's rename: followers follow their leader's new name, and
    no two members share one (§ Followers, CR-S08)."""
    new = clean_name(asked)
    if new != old and any(member.name == new for member in members):
        raise RollUnderError(f"there is already a {new} in the company")
    moved = tuple(
        member.with_changes(name=new)
        if member.name == old
        else member.with_changes(leader=new)
        if member.leader == old
        else member
        for member in members
    )
    Company().with_members(moved)
    # A secret character's name is public (CR-S04), so its new name is told to everyone.
    return moved, Event.about(None, "renamed", f"{old} is now called {new}")


def derived(sheet: Character, options: RollUnderOptions) -> dict[str, Any]:
    """What the sheet's numbers add up to, for a page to show beside them: the bulk carried
    against the carry limit and whether that encumbers (§ Encumbrance)."""
    if sheet.load is None:
        return {"bulk": None, "encumbered": False}
    return {"bulk": sheet.load.bulk, "encumbered": encumbered(sheet.load, options)}


def sheet_offers(cid: Id, sheet: Character, options: RollUnderOptions) -> list[Offer]:
    """Every offer one character's sheet places at its entries, for whoever plays them."""
    found = naming_offers(cid, sheet.name, sheet.notes)
    amount = Choice(help="coins in, or out with a minus", example=1)
    found.append(coins_offer("money", cid, "a lantern", amount=amount))
    if not sheet.alive:
        return found
    found += [
        entry_offer(
            "ability-roll",
            f"roll {ability}",
            f"abilities.{ability}",
            {"character": cid, "ability": ability},
            level=Choice(values=("challenging",)),
            mode=Choice(values=tuple(RollMode)),
        )
        for ability in sheet.abilities
    ]
    if len(sheet.spells) < MAX_SPELLS:
        spell = Choice(help="its name", example="Blessing")
        found.append(edit_offer("learn-spell", "write a sacred spell", "spells", cid, spell=spell))
    for index, spell in enumerate(sheet.spells):
        entry = f"spells.{index}"
        if _works(lambda s=spell: cast_sacred_spell(sheet, s)):
            cast = CastSpell(character=cid, spell=spell)
            found.append(entry_action("cast-spell", "cast (1 omen)", cast, entry))
        gone = ForgetSpell(character=cid, spell=spell)
        found.append(entry_action("forget-spell", "strike", gone, entry))
    return found + _load_offers(cid, sheet, options)


def _load_offers(cid: Id, sheet: Character, options: RollUnderOptions) -> list[Offer]:
    """Carrying an item, and putting down, using or moving each one carried."""
    load = sheet.load
    if load is None:
        return []
    item = Choice(help="name, bulk, kind", example={"name": "rope", "bulk": 1})
    found = [
        edit_offer(
            "take-item", "carry an item", "load", cid, item=item, where=Choice(values=PLACES)
        )
    ]
    for where in PLACES:
        for index, item in enumerate(getattr(load, where)):
            entry = f"load.{where}.{index}"
            if where == "held" and _works(lambda i=item: check_use(load, i.name, options)):
                used = UseItem(character=cid, item=item.name)
                found.append(entry_action("use-item", "use", used, entry))
            if _works(lambda i=item, w=where: remove(load, i.name, w)):
                down = DropItem(character=cid, item=item.name, where=where)
                found.append(entry_action("drop-item", "put down", down, entry))
            others = tuple(
                p for p in PLACES if p != where and _moves(load, item, where, p, options)
            )
            if others:
                found.append(
                    entry_offer(
                        "move-item",
                        "carry it",
                        entry,
                        {"character": cid, "item": item.name, "where": where},
                        to=Choice(values=others),
                    )
                )
    return found


def _moves(load: Load, item: Item, where: Place, to: Place, options: RollUnderOptions) -> bool:
    """Whether the item can be taken from where it is and carried `to` instead."""
    return _works(lambda: place(remove(load, item.name, where)[0], item, to, options))


def _money(sheet: Character, intent: CountMoney) -> Changed:
    change = {"coins": intent.amount}
    money = counted(sheet.name, {"coins": sheet.money}, change, MAX_MONEY, RollUnderError)
    coins = "coin" if abs(intent.amount) == 1 else "coins"  # `Ash: +1 coin`, not `+1 coins`
    text = coins_line(sheet.name, {coins: intent.amount}, intent.reason)
    event = Event.about(sheet.name, "money", text, amount=intent.amount)
    return Changed(sheet.with_changes(money=money["coins"]), (event,))


def _spells(sheet: Character, intent: LearnSpell | ForgetSpell) -> Changed:
    spell = clean_name(intent.spell)
    if isinstance(intent, ForgetSpell):
        if spell not in sheet.spells:
            raise RollUnderError(f"{sheet.name} has no sacred spell {spell!r} written down")
        kept = tuple(s for s in sheet.spells if s != spell)
        text = f"{sheet.name} strikes {spell} off the sheet"
        return Changed(sheet.with_changes(spells=kept), (Event.about(sheet.name, "spells", text),))
    if spell in sheet.spells:
        raise RollUnderError(f"{spell!r} is written down already")
    text = f"{sheet.name} writes down the sacred spell {spell}"
    added = sheet.with_changes(spells=(*sheet.spells, spell))
    return Changed(added, (Event.about(sheet.name, "spells", text),))


def _works(rule: Callable[[], object]) -> bool:
    """Whether a rule that rolls no dice accepts the sheet as it is now."""
    return accepts(rule, RollUnderError)
