"""The characters at a 3d6 Constitution table (articles 2–4 and 6): rolled up or brought
from a saved sheet, their checks with degrees, harm and rest, XP, and what their players
write on their sheets, as intents, offers and rules steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.offers import Choice, Offer, offer
from tabletop.session import (
    MAX_NAME,
    CharacterIntent,
    Event,
    Frozen,
    ImportCharacter,
    Member,
    RollMode,
    in_mode,
    note,
    owner_for,
)
from tabletop.systems.constitution.character import ABILITIES, Character, award_xp, character_check
from tabletop.systems.constitution.check import NORMAL_DC
from tabletop.systems.constitution.creation import new_character
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.health import good_night, short_rest, take_damage
from tabletop.systems.constitution.initiations import catalogue
from tabletop.systems.constitution.levers import held_back, levers_for
from tabletop.systems.constitution.models import build
from tabletop.systems.constitution.sheet_edits import SheetAction, act, sheet_offers
from tabletop.systems.constitution.table import ConstitutionTable, Seat
from tabletop.systems.constitution.told import protocol_events

MAX_CHARACTERS = 100


class NewCharacter(Frozen):
    """A level-1 character: 3d6 in order for each ability, then hit points (§ 4)."""

    kind: Literal["new-character"] = "new-character"
    name: str = Field(default="Nameless", min_length=1, max_length=MAX_NAME)
    character_class: Literal["fighter", "sage", "adventurer"] | None = None
    initiation: str | None = Field(default=None, max_length=60)
    owner: str | None = None


class CheckIntent(CharacterIntent):
    """A check of an ability (skill-scaled if named) with every bonus that applies (§ 3)."""

    kind: Literal["check"] = "check"
    ability: Literal["strength", "wits", "knowledge", "will", "charisma"]
    dc: int = Field(default=NORMAL_DC, ge=-1000, le=1000)
    skill: str | None = Field(default=None, max_length=60)
    modifier: int = Field(default=0, ge=-1000, le=1000)
    advantage: int = Field(default=0, ge=0, le=20)
    disadvantage: int = Field(default=0, ge=0, le=20)
    mode: RollMode = RollMode.PUBLIC


class Damage(CharacterIntent):
    """Damage off HP; past 0 the overflow raises the injury DC (§ 5.18, § 6.6)."""

    kind: Literal["damage"] = "damage"
    amount: int = Field(ge=0, le=10_000)


class Rest(CharacterIntent):
    """A short rest (HP re-rolled, a point of fatigue) or a good night's sleep (§ 6.4–6.5)."""

    kind: Literal["rest"] = "rest"
    night: bool = False


class AwardXp(CharacterIntent):
    kind: Literal["award-xp"] = "award-xp"
    amount: int = Field(ge=0, le=10_000_000)
    reason: str = Field(default="the session", max_length=MAX_NAME)


CharacterStep = CheckIntent | Damage | Rest | AwardXp | SheetAction


def character_offers(
    state: ConstitutionTable, member: Member, mine: tuple[str, ...]
) -> list[Offer]:
    """Rolling up or bringing a character; checks and rest for one's own; each sheet's
    entries; the GM's harm and XP for anyone's."""
    found: list[Offer] = []
    if len(state.characters) < MAX_CHARACTERS:
        found += [
            offer(
                "new-character",
                "roll up a character",
                name=Choice(help="the character's name", example="Ada"),
                character_class=Choice(values=(None, "fighter", "sage", "adventurer")),
                initiation=Choice(values=(None, *catalogue())),
            ),
            offer("import-character", "bring a saved sheet", sheet=Choice(help="the sheet")),
        ]
    fixed = levers_for(member, state.options)
    if mine:
        found += [
            Offer(
                kind="check",
                text="check an ability",
                fields=_unfixed(
                    fixed,
                    character=Choice(values=mine),
                    ability=Choice(values=ABILITIES),
                    dc=Choice(help="the DC; 20 is normal", example=NORMAL_DC),
                    mode=Choice(values=tuple(RollMode)),
                ),
                preset=fixed,
            ),
            offer(
                "rest", "rest", character=Choice(values=mine), night=Choice(values=(False, True))
            ),
        ]
    for cid in mine:
        found += sheet_offers(cid, state.characters[cid].sheet, fixed)
    if member.is_gm and state.characters:
        everyone = tuple(state.characters)
        found += [
            offer(
                "damage",
                "harm a character",
                character=Choice(values=everyone),
                amount=Choice(help="damage", example=4),
            ),
            offer(
                "award-xp",
                "award XP",
                character=Choice(values=everyone),
                amount=Choice(help="XP", example=100),
            ),
        ]
    return found


def _unfixed(fixed: Mapping[str, Any], **fields: Choice) -> dict[str, Choice]:
    """An offer's fields but those its preset fixes."""
    return {name: choice for name, choice in fields.items() if name not in fixed}


def seat_character(
    state: ConstitutionTable,
    intent: NewCharacter | ImportCharacter,
    member: Member,
    dice: DiceSource,
) -> tuple[ConstitutionTable, list[Event]]:
    """A character rolled up or brought to the table, played by its owner."""
    owner = owner_for(intent.owner, member)
    if isinstance(intent, ImportCharacter):
        sheet, events = build(Character, intent.sheet), []
    else:
        if intent.initiation is not None and intent.initiation not in catalogue():
            known = ", ".join(sorted(catalogue()))
            raise ConstitutionError(f"unknown initiation {intent.initiation!r}; known: {known}")
        sheet, events = new_character(intent.name, dice, intent.character_class, intent.initiation)
    cid = f"c{state.next_id}"
    seats = {**state.characters, cid: Seat(owner=owner, sheet=sheet)}
    joined = note("character", f"{sheet.name} joins the table", character=cid, owner=owner)
    after = state.model_copy(update={"characters": seats, "next_id": state.next_id + 1})
    return after, [*protocol_events(events), joined]


def character_step(
    state: ConstitutionTable, intent: CharacterStep, member: Member, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """A character's check, harm, rest, XP, or an edit or spell of their sheet's."""
    options = state.options
    seat = state.characters.get(intent.character)
    if seat is None:
        raise ConstitutionError(f"no character {intent.character!r} at this table")
    sheet = seat.sheet
    if isinstance(intent, CheckIntent):
        refused = held_back(intent.model_dump(mode="json"), member, options)
        if refused is not None:
            raise PermissionDenied(refused)
        result = character_check(
            sheet,
            intent.ability,
            intent.dc,
            dice,
            skill=intent.skill,
            modifier=intent.modifier + seat.penalty(options),
            advantage=intent.advantage,
            disadvantage=intent.disadvantage,
            options=options,
        )
        text = f"{sheet.name} checks {intent.ability}: {result.describe()}"
        told = note("check", text, **result.model_dump(mode="json"), success=result.success)
        return state, [in_mode(told, intent.mode, member.name or member.id)]
    if isinstance(intent, Damage):
        sheet, _, events = take_damage(sheet, intent.amount, dice, options=options)
    elif isinstance(intent, Rest):
        if intent.night:
            sheet, events = good_night(sheet, dice)
        else:
            sheet, events = short_rest(sheet, dice, options=options)
    elif isinstance(intent, AwardXp):
        sheet, events = award_xp(sheet, intent.amount, intent.reason, options)
    else:
        sheet, events = act(sheet, intent, dice, options)
    seats = {**state.characters, intent.character: seat.model_copy(update={"sheet": sheet})}
    return state.model_copy(update={"characters": seats}), protocol_events(events)
