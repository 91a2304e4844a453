"""The characters at a Dead Weight table (§ Character Creation): made at random or step by
step through the life path, or brought from a saved sheet, and seated with their player."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.frozen import Frozen
from tabletop.offers import Choice, Offer, offer
from tabletop.session import (
    CharacterIntent,
    Event,
    ImportCharacter,
    Member,
    controls,
    note,
    owner_for,
)
from tabletop.systems.dead_weight.character import Character, CharacterClass, sheet_from
from tabletop.systems.dead_weight.creation import (
    AnyChoice,
    Creation,
    CreationChoice,
    Pick,
    PickNames,
    begin_creation,
    free_reroll,
    random_character,
)
from tabletop.systems.dead_weight.creation import RerollDice as Reroll
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event as RulesEvent
from tabletop.systems.dead_weight.events import about
from tabletop.systems.dead_weight.supplements import Supplement
from tabletop.systems.dead_weight.table import DeadWeightTable, Making, Seat
from tabletop.systems.dead_weight.table_lists import MAX_LISTED, step_words
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


class ChooseNames(CharacterIntent):
    """The spells or prayers a character being made starts with, ticked from the list
    (DW-T07), or the god they follow written in when the GM's list has none."""

    kind: Literal["choose-names"] = "choose-names"
    names: tuple[str, ...] = Field(default=(), max_length=MAX_LISTED)


class RerollDice(CharacterIntent):
    """Re-roll dice of the life-path roll waiting to be kept, by their place in it (the
    first die is 1): with an insight point, or the party's free re-roll."""

    kind: Literal["reroll-dice"] = "reroll-dice"
    dice: tuple[int, ...] = Field(min_length=1, max_length=4)
    free: bool = False


MAKING_INTENTS = (NewCharacter, ImportCharacter, CreationStep, ChooseNames, RerollDice)
MakingIntent = NewCharacter | ImportCharacter | CreationStep | ChooseNames | RerollDice


GMS_OWN = {
    "supplement": Choice(values=(Supplement().model_dump(mode="json"),)),
    "allow_choosing_quirk": Choice(values=(False,)),
}
"""What a player's new character leaves at its default: the group's additions and a
feature chosen instead of rolled are the GM's to give (DW-T07, DW-M10; issue 30)."""


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
                **({} if member.is_gm else GMS_OWN),
            ),
            offer("import-character", "bring a saved sheet", sheet=Choice(help="the sheet")),
        ]
    for cid, making in state.making.items():
        if controls(member, making.owner):
            found += _creation_offers(cid, making.creation) + _flat_offers(cid, making.creation)
    return found


def seat_character(
    state: DeadWeightTable, intent: MakingIntent, member: Member, dice: DiceSource
) -> tuple[DeadWeightTable, list[Event]]:
    """A character made at random or begun step by step, brought from a sheet, or one step
    further in the making (seated when done)."""
    if isinstance(intent, ChooseNames | RerollDice):
        intent = CreationStep(character=intent.character, choice=_as_choice(intent, state))
    if isinstance(intent, CreationStep):
        making = state.making[intent.character]
        creation, events = making.creation.choose(intent.choice, dice)
        if not creation.done:
            made = {
                **state.making,
                intent.character: making.model_copy(update={"creation": creation}),
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
    supplement = intent.supplement.over(state.lists)
    if intent.guided:
        creation, events = begin_creation(
            dice,
            name=intent.name,
            character_class=intent.character_class,
            options=state.options,
            supplement=supplement,
            party=party,
            allow_choosing_quirk=intent.allow_choosing_quirk,
        )
        making = Making(owner=owner, creation=creation, own=intent.supplement)
        made = {**state.making, cid: making}
        told = note("character begun", f"{intent.name} is being made", character=cid)
        named = about(events, creation.character.label)
        return state.model_copy(update={"making": made}), [told, *told_of(named)]
    creation, events = random_character(
        dice,
        name=intent.name,
        character_class=intent.character_class,
        options=state.options,
        supplement=supplement,
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
    """The open creation decision as offers: each listed option, and names or dice to give
    (that open form stays for logs that sent it; the page ticks `_flat_offers` instead)."""
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


def _flat_offers(cid: str, creation: Creation) -> list[Offer]:
    """The open decision's names and re-rolls as forms a page fills in without JSON: spells
    and prayers ticked from their list (DW-T07), a name written in where no list is kept,
    the dice of a life-path roll ticked by their place."""
    decision = creation.decision()
    if decision is None:
        return []
    found: list[Offer] = []
    character = Choice(values=(cid,))
    if "names" in decision.kinds and decision.options:
        names = Choice(
            items=decision.options,
            example=decision.options[: decision.count],
            help=f"tick {decision.count}",
        )
        found.append(offer("choose-names", decision.prompt, character=character, names=names))
    elif decision.free_names:
        wanted = decision.count if "names" in decision.kinds else 1
        names = Choice(help=f"write {wanted} in by name, as your book gives them")
        found.append(offer("choose-names", decision.prompt, character=character, names=names))
    if "reroll" in decision.kinds:
        free = (True,) if creation.character.insight <= 0 else (False, True)
        dice = Choice(items=tuple(range(1, len(creation.dice) + 1)), example=(1,))
        found.append(
            offer(
                "reroll-dice",
                f"re-roll dice of the {decision.stage} roll",
                character=character,
                dice=dice,
                free=Choice(values=free if free_reroll(creation) else (False,)),
            )
        )
    return found


def _as_choice(intent: ChooseNames | RerollDice, state: DeadWeightTable) -> AnyChoice:
    """The creation choice a flat form stands for, at the decision open now."""
    decision = state.making[intent.character].creation.decision()
    if decision is None:
        raise DeadWeightError("the character is finished")
    if isinstance(intent, RerollDice):
        return Reroll(dice=tuple(die - 1 for die in intent.dice), free=intent.free)
    if "names" in decision.kinds:
        return PickNames(names=intent.names)
    if len(intent.names) != 1:
        raise DeadWeightError(f"{decision.prompt}: write one name")
    return Pick(name=intent.names[0])


def making_view(state: DeadWeightTable) -> list[dict[str, Any]]:
    """The characters in the making, each with its open decision in words: what the step
    asks, each choice as the book presents it, where its list comes from, and what creation
    left out so far and why."""
    return [
        {
            "id": cid,
            "owner": making.owner,
            "character": making.creation.character.model_dump(mode="json"),
            "decision": _decision_json(making.creation),
            "step": step_words(making.creation),
            "left_out": list(making.creation.missing),
        }
        for cid, making in state.making.items()
    ]


def _decision_json(creation: Creation) -> dict[str, Any] | None:
    decision = creation.decision()
    return None if decision is None else decision.model_dump(mode="json")
