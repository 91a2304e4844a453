"""What each choice of character creation does, in words: guided creation describes every
option before the player picks one, so nobody chooses blind (§ Character Creation)."""

from __future__ import annotations

from typing import Any

from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.catalogue import descriptions
from tabletop.systems.dead_weight.character import CharacterClass
from tabletop.systems.dead_weight.creation import (
    LIFE_PATH,
    ROLL_QUIRK,
    Creation,
    Stage,
)
from tabletop.systems.dead_weight.kits import Kit, creation_data
from tabletop.systems.dead_weight.tables import system_table
from tabletop.tables import Effect, Entry


def effect_text(effect: Effect) -> str:
    """One life-path or table effect as a player reads it: `STR +1`, `skill: cooking`."""
    fields: dict[str, Any] = effect.fields
    if effect.kind in ("score", "proficiency"):
        what = "" if effect.kind == "score" else " proficiency"
        attribute = fields["attribute"]
        named = f"{attribute} attribute" if attribute in ("chosen", "lowest", "highest") else ""
        return f"{named or attribute}{what} {fields['amount']:+d}"
    if effect.kind == "silver":
        return f"{fields['dice']} silver"
    if effect.kind == "insight":
        return f"{fields['amount']:+d} insight"
    if effect.kind in ("skill", "trait", "trauma", "affliction"):
        return f"{effect.kind}: {fields['name']}"
    if effect.kind == "quirk":
        return f"quirk rule: {fields['rule']}"
    shown = ", ".join(f"{k} {v}" for k, v in fields.items())
    return f"{effect.kind.replace('_', ' ')}{': ' + shown if shown else ''}"


def entry_text(entry: Entry) -> str:
    """A table row's name, its words and its effects on one line."""
    parts = [entry.text] if entry.text else []
    effects = "; ".join(effect_text(effect) for effect in entry.effects)
    if effects:
        parts.append(effects)
    return f"{entry.name}: {' — '.join(parts)}" if parts else entry.name


def rolled_text(creation: Creation) -> str:
    """What the life-path roll waiting to be kept would give."""
    table = system_table(LIFE_PATH[creation.stage])
    return entry_text(table.lookup(sum(creation.dice)))


def option_text(creation: Creation, option: str) -> str:
    """What picking `option` at the open decision does; just the name when nothing more is
    known (a background or god the core book leaves to other books)."""
    decision = creation.decision()
    if decision is None:
        return option
    stage = decision.stage
    if creation.effects:
        state = creation.character.attribute(Attribute(option))
        return f"{option}: score {state.score}, proficiency {state.proficiency}"
    if stage == Stage.QUIRK:
        return _quirk(option)
    if stage == Stage.CLASS:
        return _class(CharacterClass(option))
    cls = creation.character.character_class
    if stage in (Stage.SCHOOL, Stage.KIT) and cls is not None:
        kit = next((k for k in creation_data().classes[cls].kits if k.name == option), None)
        return _kit(kit) if kit else option
    if stage == Stage.BACKGROUND:
        supplied = creation.supplement.backgrounds.get(option)
        if supplied is None:
            return f"{option} (its rules are in another book: not supplied)"
        gifts = [
            *(f"trait: {t}" for t in supplied.traits),
            *(f"skill: {s}" for s in supplied.skills),
        ]
        return f"{option}: {', '.join(gifts) or 'gear only'}"
    return option


def _quirk(option: str) -> str:
    if option == ROLL_QUIRK:
        return "roll: 4d6 on the features table"
    for quirk in creation_data().choose_only_quirks:
        if quirk.name == option:
            return f"{option}: {quirk.text}" if quirk.text else option
    for entry in system_table("quirks").entries:
        if entry.name == option:
            return f"{option}: {entry.text}" if entry.text else option
    return option


def _class(cls: CharacterClass) -> str:
    data = creation_data().classes[cls]
    known = descriptions()
    gifts = [f"+1 {data.proficiency} proficiency"]
    gifts += [f"trait {t} ({known['traits'][t.value]})" for t in data.traits]
    gifts += [f"skill {s}" for s in data.skills]
    if data.spells_per:
        gifts.append(f"one spell per {data.spells_per} point")
    if data.prayers_per:
        gifts.append(f"one prayer per {data.prayers_per} point")
    return f"{cls}: {'; '.join(gifts)}; gear: {data.gear}"


def _kit(kit: Kit) -> str:
    items = ", ".join(
        item.name + (f" ({', '.join(item.tags)})" if item.tags else "") for item in kit.items
    )
    coins = f", {kit.silver} silver" if kit.silver else ""
    gold = f", {kit.gold} gold" if kit.gold else ""
    return f"{kit.name}: {items}{coins}{gold}"
