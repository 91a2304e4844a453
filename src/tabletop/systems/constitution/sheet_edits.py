"""The sheet at a Constitution table: what a player writes on it between rolls (name,
notes, what is carried and where, coins, a skill's rating the group settles) and the
actions each entry offers (check this ability or skill, cast this spell, prepare spells),
as intents and offers placed at their entries (C3-S01..S03).

Abilities, HP, fatigue, XP and level move only through their rules; nothing here sets them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.offers import Choice, Offer, accepts, entry_action, entry_offer
from tabletop.session import MAX_NAME, CharacterIntent, RollMode
from tabletop.sheet_edits import (
    NAMING,
    Naming,
    coins_line,
    coins_offer,
    counted,
    edit_offer,
    naming_offers,
    taken,
    without,
    written,
)
from tabletop.systems.constitution.character import ABILITIES, Character
from tabletop.systems.constitution.encumbrance import MAX_GEAR, Gear, encumbrance, limits, load_of
from tabletop.systems.constitution.errors import ConstitutionDataError, ConstitutionError
from tabletop.systems.constitution.magic import cast_prepared, cast_ritual, prepare_spells
from tabletop.systems.constitution.models import Event
from tabletop.systems.constitution.options import Options

Id = str
MAX_COINS = 1_000_000


class StowGear(CharacterIntent):
    """Write a line of gear on the sheet (§ 14.1)."""

    kind: Literal["stow-gear"] = "stow-gear"
    gear: Gear


class DropGear(CharacterIntent):
    kind: Literal["drop-gear"] = "drop-gear"
    index: int = Field(ge=0, le=MAX_GEAR)


class MoveGear(CharacterIntent):
    """Carry a line of gear somewhere else (its size, not its place, counts for the load)."""

    kind: Literal["move-gear"] = "move-gear"
    index: int = Field(ge=0, le=MAX_GEAR)
    where: str = Field(min_length=1, max_length=40)


class CountCoins(CharacterIntent):
    """Silver pieces gained (positive) or spent (negative)."""

    kind: Literal["coins"] = "coins"
    amount: int = Field(ge=-MAX_COINS, le=MAX_COINS)
    reason: str = Field(default="", max_length=MAX_NAME)


class RateSkill(CharacterIntent):
    """The rating the group settles for a skill on its first use, or as the group's view of
    the character changes (§ 4.10–4.11, C3-S02)."""

    kind: Literal["rate-skill"] = "rate-skill"
    skill: str = Field(min_length=1, max_length=60)
    rating: int = Field(ge=0, le=100)


class CastSpell(CharacterIntent):
    """Cast a known spell: a prepared one quickly (d100 under the rating), or any as a ritual
    (knowledge and will checks, § 12.2–12.3)."""

    kind: Literal["cast-spell"] = "cast-spell"
    spell: str = Field(min_length=1, max_length=60)
    ritual: bool = False


class PrepareSpells(CharacterIntent):
    """Two hours with the spell book to memorise spells for quick casting (§ 12.3–12.6)."""

    kind: Literal["prepare-spells"] = "prepare-spells"
    spells: tuple[str, ...] = Field(default=(), max_length=30)


SheetEdit = Naming | StowGear | DropGear | MoveGear | CountCoins | RateSkill
SheetAction = SheetEdit | CastSpell | PrepareSpells
INTENTS = (
    *NAMING,
    StowGear,
    DropGear,
    MoveGear,
    CountCoins,
    RateSkill,
    CastSpell,
    PrepareSpells,
)


def act(
    sheet: Character, intent: SheetAction, dice: DiceSource, options: Options
) -> tuple[Character, list[Event]]:
    """The sheet after one of its owner's edits or spells, and what the table is told."""
    try:
        if isinstance(intent, CastSpell):
            return _cast(sheet, intent, dice, options)
        if isinstance(intent, PrepareSpells):
            return prepare_spells(sheet, intent.spells)
        return _edit(sheet, intent)
    except ConstitutionDataError as problem:  # the sheet refused the change as a whole
        raise ConstitutionError(str(problem).removeprefix("invalid Character: ")) from None


def _edit(sheet: Character, intent: SheetEdit) -> tuple[Character, list[Event]]:
    name = sheet.name
    if isinstance(intent, Naming):
        changes, kind, text = written(intent, name)
        return sheet.evolve(**changes), [_told(kind, text)]
    if isinstance(intent, StowGear):
        where = f" ({intent.gear.where})" if intent.gear.where else ""
        line = f"{name} carries {_count(intent.gear)}{where}"
        return sheet.evolve(gear=(*sheet.gear, intent.gear)), [_told("gear", line)]
    if isinstance(intent, DropGear | MoveGear):
        missing = f"{name} carries no line {intent.index + 1}"
        line = taken(sheet.gear, intent.index, missing, ConstitutionError)
        if isinstance(intent, DropGear):
            dropped = without(sheet.gear, intent.index)
            return sheet.evolve(gear=dropped), [_told("gear", f"{name} drops {_count(line)}")]
        gear = list(sheet.gear)
        gear[intent.index] = line.evolve(where=intent.where)
        text = f"{name} carries {_count(line)} at the {intent.where} now"
        return sheet.evolve(gear=tuple(gear)), [_told("gear", text)]
    if isinstance(intent, CountCoins):
        coins = counted(
            name, {"sp": sheet.coins}, {"sp": intent.amount}, MAX_COINS, ConstitutionError
        )
        line = coins_line(name, {"sp": intent.amount}, intent.reason)
        return sheet.evolve(coins=coins["sp"]), [_told("coins", line)]
    skill = intent.skill.strip().lower()
    if not skill:
        raise ConstitutionError("name the skill")
    skills = {**sheet.skills, skill: intent.rating}
    return sheet.evolve(skills=skills), [_told("skill", f"{name}: {skill} {intent.rating}%")]


def _cast(
    sheet: Character, intent: CastSpell, dice: DiceSource, options: Options
) -> tuple[Character, list[Event]]:
    if intent.ritual:
        sheet, ritual = cast_ritual(sheet, intent.spell, dice, options)
        verdict = "it works" if ritual.success else "it fails"
        text = (
            f"{sheet.name} casts {intent.spell} as a ritual ({ritual.hours} h): knowledge "
            f"{ritual.knowledge.describe()}; will {ritual.will.describe()}; {verdict}"
        )
        dice_shown = (ritual.knowledge.roll, ritual.will.roll)
        return sheet, [Event(kind="ritual", message=text, dice=dice_shown)]
    sheet, cast = cast_prepared(sheet, intent.spell, dice)
    verdict = "it works" if cast.success else "it fails"
    rolled = f"d100 {cast.roll.total} against {cast.rating}%"
    text = f"{sheet.name} casts {intent.spell}: {rolled}, {verdict}"
    return sheet, [Event(kind="spell", message=text, dice=(cast.roll,))]


def carrying(sheet: Character, options: Options) -> dict[str, object]:
    """What the sheet's gear weighs (§ 14.3–14.13): stones, the encumbrance level, and the
    stones carried freely and while encumbered at this strength."""
    stones = load_of(sheet.gear, sheet.coins).stones
    free, most = limits(sheet.abilities.strength, options)
    level = encumbrance(sheet.abilities.strength, stones, options)
    return {"stones": stones, "level": level, "free": free, "encumbered_up_to": most}


def _holds_coins(sheet: Character) -> bool:
    """Whether the sheet's gear has a purse or pouch for coins (§ 14.13a): with none and
    no coin to spend, counting coins could only be refused (the control walk,
    tests/pages/test_walk.py, found the form on every new character's sheet)."""
    return any(line.size in ("purse", "pouch") for line in sheet.gear)


def sheet_offers(cid: Id, sheet: Character, fixed: Mapping[str, Any] | None = None) -> list[Offer]:
    """Every offer one character's sheet places at its entries, for whoever plays them;
    its checks fix `fixed` too (the DC and bonuses a player leaves to the GM, C3-S07)."""
    fixed = fixed or {}
    asks = {} if "dc" in fixed else {"dc": Choice(help="the DC; 20 is normal", example=20)}
    found = naming_offers(cid, sheet.name, sheet.notes)
    if sheet.coins or _holds_coins(sheet):
        amount = Choice(help="sp in, or out with a minus", example=10)
        found.append(coins_offer("coins", cid, "a lantern", amount=amount))
    found += _gear_offers(cid, sheet)
    if sheet.dead:
        return found
    found += [
        entry_offer(
            "check",
            f"check {ability}",
            f"abilities.{ability}",
            {"character": cid, "ability": ability, **fixed},
            **asks,
            mode=Choice(values=tuple(RollMode)),
        )
        for ability in ABILITIES
    ]
    for skill in sheet.skills:
        found += [
            entry_offer(
                "check",
                f"check {skill}",
                f"skills.{skill}",
                {"character": cid, "skill": skill, **fixed},
                ability=Choice(values=ABILITIES),
                **asks,
                mode=Choice(values=tuple(RollMode)),
            ),
            entry_offer(
                "rate-skill",
                "rate",
                f"skills.{skill}",
                {"character": cid, "skill": skill},
                rating=Choice(help="0 to 100, as the group sees it", example=sheet.skills[skill]),
            ),
        ]
    found.append(
        edit_offer(
            "rate-skill",
            "rate a skill used for the first time",
            "skills",
            cid,
            skill=Choice(help="the skill", example="climbing"),
            rating=Choice(help="0 to 100, as the group sees it", example=30),
        )
    )
    return found + _spell_offers(cid, sheet)


def _gear_offers(cid: Id, sheet: Character) -> list[Offer]:
    gear = Choice(help="what, its size, how many, where", example={"name": "rope", "size": "big"})
    found = [edit_offer("stow-gear", "write down gear", "gear", cid, gear=gear)]
    for index, line in enumerate(sheet.gear):
        entry = f"gear.{index}"
        rest = without(sheet.gear, index)
        if accepts(lambda r=rest: sheet.evolve(gear=r), ConstitutionDataError):
            dropped = DropGear(character=cid, index=index)
            found.append(entry_action("drop-gear", "drop", dropped, entry))
        found.append(
            entry_offer(
                "move-gear",
                "carry it at",
                entry,
                {"character": cid, "index": index},
                where=Choice(help="backpack, belt, worn, …", example=line.where or "backpack"),
            )
        )
    return found


def _spell_offers(cid: Id, sheet: Character) -> list[Offer]:
    found: list[Offer] = []
    for spell in sheet.spells:
        entry = f"spells.{spell}"
        if spell in sheet.prepared:
            quick = CastSpell(character=cid, spell=spell)
            found.append(entry_action("cast-spell", "cast (prepared)", quick, entry))
        if sheet.has_spell_book:
            ritual = CastSpell(character=cid, spell=spell, ritual=True)
            found.append(entry_action("cast-spell", "cast as a ritual", ritual, entry))
    if sheet.spells and accepts(lambda: prepare_spells(sheet, ()), ConstitutionError):
        spells = Choice(help="one per slot, each level at most its slot's", example=[])
        found.append(edit_offer("prepare-spells", "prepare spells", "spells", cid, spells=spells))
    return found


def _told(kind: str, text: str) -> Event:
    return Event(kind=kind, message=text)


def _count(line: Gear) -> str:
    return f"{line.count} × {line.name}" if line.count > 1 else line.name
