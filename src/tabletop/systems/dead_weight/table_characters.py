"""The characters at a Dead Weight table (§ Character Creation): made at random or step by
step through the life path, or brought from a saved sheet, and seated with their player."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.offers import Choice, Offer, offer
from tabletop.session import (
    CharacterIntent,
    Event,
    Frozen,
    ImportCharacter,
    Member,
    controls,
    note,
    owner_for,
)
from tabletop.systems.dead_weight.character import Character, CharacterClass, sheet_from
from tabletop.systems.dead_weight.creation import (
    Creation,
    CreationChoice,
    begin_creation,
    random_character,
)
from tabletop.systems.dead_weight.events import Event as RulesEvent
from tabletop.systems.dead_weight.events import about
from tabletop.systems.dead_weight.supplements import Supplement
from tabletop.systems.dead_weight.table import DeadWeightTable, Making, Seat
from tabletop.systems.dead_weight.table_npcs import told_of

MAX_CHARACTERS = 100


class NewCharacter(Frozen):
    """Make a character: at random at once, or step by step (`guided`)."""

    kind: Literal["new-character"] = "new-character"
    name: str = Field(default="Unnamed", min_length=1, max_length=200)
    character_class: CharacterClass | None = None
    guided: bool = False
    owner: str | None = None
    """Who will play them (the GM may make a character for a player); the asker by default."""
    supplement: Supplement = Supplement()
    """Backgrounds, spells, gods and items the group supplies (the book leaves them out)."""
    allow_choosing_quirk: bool = False
    """The GM lets the player choose a quirk instead of rolling it (DW-M10)."""


class CreationStep(CharacterIntent):
    """One choice of a character being made: keep or re-roll a life-path roll, pick…"""

    kind: Literal["creation-choice"] = "creation-choice"
    choice: CreationChoice


def making_offers(state: DeadWeightTable, member: Member) -> list[Offer]:
    """A new character or a saved one, while the table has room, and each open creation
    decision of a character the member makes."""
    found: list[Offer] = []
    if len(state.characters) + len(state.making) < MAX_CHARACTERS:
        found += [
            offer(
                "new-character",
                "make a character, at random or step by step",
                name=Choice(help="the character's name", example="Amber"),
                guided=Choice(values=(False, True)),
            ),
            offer("import-character", "bring a saved sheet", sheet=Choice(help="the sheet")),
        ]
    for cid, making in state.making.items():
        if controls(member, making.owner):
            found += _creation_offers(cid, making.creation)
    return found


def seat_character(
    state: DeadWeightTable,
    intent: NewCharacter | ImportCharacter | CreationStep,
    member: Member,
    dice: DiceSource,
) -> tuple[DeadWeightTable, list[Event]]:
    """A character made at random or begun step by step, brought from a sheet, or one step
    further in the making (seated when done)."""
    if isinstance(intent, CreationStep):
        making = state.making[intent.character]
        creation, events = making.creation.choose(intent.choice, dice)
        if not creation.done:
            made = {
                **state.making,
                intent.character: Making(owner=making.owner, creation=creation),
            }
            named = about(events, creation.character.label)
            return state.model_copy(update={"making": made}), told_of(named)
        rest = {k: v for k, v in state.making.items() if k != intent.character}
        state = state.model_copy(update={"making": rest})
        return _seated(state, intent.character, making.owner, creation, events)
    owner = owner_for(intent.owner, member)
    cid = f"c{state.next_id}"
    state = state.model_copy(update={"next_id": state.next_id + 1})
    if isinstance(intent, ImportCharacter):
        sheet = sheet_from(intent.sheet)
        return _seated(state, cid, owner, sheet, [])
    party = tuple(seat.sheet.life_path for seat in state.characters.values())
    if intent.guided:
        creation, events = begin_creation(
            dice,
            name=intent.name,
            character_class=intent.character_class,
            options=state.options,
            supplement=intent.supplement,
            party=party,
            allow_choosing_quirk=intent.allow_choosing_quirk,
        )
        made = {**state.making, cid: Making(owner=owner, creation=creation)}
        told = note("character begun", f"{intent.name} is being made", character=cid)
        named = about(events, creation.character.label)
        return state.model_copy(update={"making": made}), [told, *told_of(named)]
    creation, events = random_character(
        dice,
        name=intent.name,
        character_class=intent.character_class,
        options=state.options,
        supplement=intent.supplement,
    )
    return _seated(state, cid, owner, creation, events)


def _seated(
    state: DeadWeightTable,
    cid: str,
    owner: str,
    made: Character | Creation,
    events: list[RulesEvent],
) -> tuple[DeadWeightTable, list[Event]]:
    """The character (a sheet, or a finished creation) seated at the table."""
    if isinstance(made, Creation):
        seat = Seat(owner=owner, sheet=made.character, missing=made.missing)
    else:
        seat = Seat(owner=owner, sheet=made)
    sheet = seat.sheet
    seated = {**state.characters, cid: seat}
    joined = note("character", f"{sheet.label} joins the table", character=cid, owner=owner)
    told = told_of(about(events, sheet.label))
    return state.model_copy(update={"characters": seated}), [*told, joined]


def _creation_offers(cid: str, creation: Creation) -> list[Offer]:
    """The open creation decision as offers: each listed option, and names or dice to give."""
    decision = creation.decision()
    if decision is None:
        return []
    listed: list[dict[str, Any]] = []
    if "keep" in decision.kinds:
        listed.append({"kind": "keep"})
    if "attribute" in decision.kinds:
        listed += [{"kind": "attribute", "attribute": name} for name in decision.options]
    if "class" in decision.kinds:
        listed += [{"kind": "class", "character_class": name} for name in decision.options]
    if "pick" in decision.kinds:
        listed += [{"kind": "pick", "name": name} for name in decision.options]
    if "skip" in decision.kinds:
        listed.append({"kind": "skip"})
    intents = tuple(
        {"kind": "creation-choice", "character": cid, "choice": choice} for choice in listed
    )
    found = (
        [Offer(kind="creation-choice", text=decision.prompt, intents=intents)] if intents else []
    )
    if {"reroll", "names"} & set(decision.kinds) or decision.free_names:
        found.append(
            offer(
                "creation-choice",
                decision.prompt,
                character=Choice(values=(cid,)),
                choice=Choice(
                    help="dice to re-roll, or the names chosen", example={"kind": "keep"}
                ),
            )
        )
    return found


def _decision_json(creation: Creation) -> dict[str, Any] | None:
    decision = creation.decision()
    return None if decision is None else decision.model_dump(mode="json")


def making_view(state: DeadWeightTable) -> list[dict[str, Any]]:
    """The characters in the making, each with its open decision."""
    return [
        {
            "id": cid,
            "owner": making.owner,
            "character": making.creation.character.model_dump(mode="json"),
            "decision": _decision_json(making.creation),
        }
        for cid, making in state.making.items()
    ]
