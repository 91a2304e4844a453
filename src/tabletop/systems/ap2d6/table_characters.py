"""Characters at a 2d6 table (§ Characters and Scores, § Character Creation, § Encumbrance):
made by point buy or rolled, brought as a saved sheet, their sheets edited and their loads
carried; and the GM's NPCs, who are characters too (RU-N04)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.npcs import (
    BookNpc,
    EditNpc,
    NewNpc,
    RemoveNpc,
    RevealNpc,
    changed,
    check_name,
    check_rename,
    check_room,
    seat_npc,
    shown,
    unseat_npc,
)
from tabletop.offers import Choice, Offer, offer
from tabletop.session import (
    MAX_NAME,
    CharacterIntent,
    Event,
    Frozen,
    ImportCharacter,
    Member,
    note,
    owner_for,
)
from tabletop.sheet_edits import RenameCharacter
from tabletop.systems.ap2d6.creation import buy_skills, point_buy, random_character
from tabletop.systems.ap2d6.encumbrance import carry
from tabletop.systems.ap2d6.errors import Ap2d6Error, validated
from tabletop.systems.ap2d6.gear import MAX_BAGS_IN_USE, Bag, Carried, Item
from tabletop.systems.ap2d6.scores import RANDOM_SCHEMES, STANDARD_SCORES
from tabletop.systems.ap2d6.sheet import Character
from tabletop.systems.ap2d6.sheet_edits import SheetEdit, edit, weighed
from tabletop.systems.ap2d6.table import (
    MAX_CHARACTERS,
    Ap2d6Table,
    Seat,
    in_fight,
    sheet_of,
    with_seat,
    with_sheet,
)
from tabletop.systems.ap2d6.table_npcs import (
    NpcMark,
    NpcStats,
    bestiary,
    card_words,
    edited,
    npc_sheet,
    stats_view,
)
from tabletop.systems.ap2d6.told import told

SUGGESTED_POINTS = 9
"""The rules call 9 SP a good start for semi-competent adventurers (RU-M08)."""

MAX_CARRIED = 200
"""Lines of a load one intent may list."""


class NewCharacter(Frozen):
    """A character by point buy (RU-M08) or with rolled scores (RU-M09)."""

    kind: Literal["new-character"] = "new-character"
    name: str = Field(default="Adventurer", min_length=1, max_length=MAX_NAME)
    method: Literal["point-buy", "d4-2", "d6-3"] = "point-buy"
    points: int = SUGGESTED_POINTS
    scores: dict[str, int] = Field(default_factory=dict)
    skills: dict[str, int] = Field(default_factory=dict)
    priority: tuple[str, ...] | None = None
    """With rolled scores: the highest roll to the first score listed."""
    owner: str | None = None


class BagLoad(Frozen):
    """A bag in use and what is in it."""

    bag: Bag
    items: tuple[Item, ...] = Field(default=(), max_length=MAX_CARRIED)


class Carry(CharacterIntent):
    """What a character carries now: [encumbered] comes or goes with the load (RU-M49..M52)."""

    kind: Literal["carry"] = "carry"
    items: tuple[Item, ...] = Field(default=(), max_length=MAX_CARRIED)
    bags: tuple[BagLoad, ...] = Field(default=(), max_length=MAX_BAGS_IN_USE)


NpcIntent = BookNpc | NewNpc[NpcStats] | EditNpc | RemoveNpc | RevealNpc


def seat_offers(state: Ap2d6Table) -> list[Offer]:
    """Making a character or bringing a saved sheet, while the table has room."""
    if len(state.characters) >= MAX_CHARACTERS:
        return []
    return [
        offer(
            "new-character",
            "make a character",
            name=Choice(help="the character's name", example="Ayla"),
            method=Choice(values=("point-buy", *RANDOM_SCHEMES)),
            scores=Choice(
                help="with point buy: each score bought and the value it is bought to",
                example=dict.fromkeys(STANDARD_SCORES, 0),
            ),
            skills=Choice(
                help="with point buy: each skill from your group's list and its SP",
                example={name: skill.cost for name, skill in state.skills.items()} or None,
            ),
            priority=Choice(
                help="with rolled scores: every standard score, the highest roll to the first",
                items=STANDARD_SCORES,
                ordered=True,
                example=[],
            ),
        ),
        offer("import-character", "bring a saved sheet", sheet=Choice(help="the sheet")),
    ]


def carry_offers(mine: tuple[str, ...]) -> list[Offer]:
    """A whole load at once for each of the member's characters."""
    if not mine:
        return []
    return [
        offer(
            "carry",
            "carry a load",
            character=Choice(values=mine),
            items=Choice(help="what is carried", example=[{"kind": "weapon"}]),
        )
    ]


def seat_character(
    state: Ap2d6Table, intent: NewCharacter | ImportCharacter, member: Member, dice: DiceSource
) -> tuple[Ap2d6Table, list[Event]]:
    """A new character at the table, made by the rules or brought as a saved sheet."""
    owner = owner_for(intent.owner, member)
    if isinstance(intent, ImportCharacter):
        sheet, events = validated(Character, intent.sheet, "the sheet"), []
    elif intent.method == "point-buy":
        if intent.priority:
            raise Ap2d6Error("a priority order only goes with rolled scores")
        sheet, events = point_buy(
            intent.name, intent.points, intent.scores, intent.skills, state.options
        )
    else:
        if intent.scores:
            raise Ap2d6Error("rolled scores are rolled: leave out the scores")
        sheet, events = random_character(
            intent.name, intent.method, dice, intent.priority, state.options
        )
        sheet, bought = buy_skills(sheet, intent.skills)
        events += bought
    if any(seat.sheet.name == sheet.name for seat in state.characters.values()):
        raise Ap2d6Error(f"there is already a character called {sheet.name} at this table")
    cid = f"c{state.next_id}"
    seats = {**state.characters, cid: Seat(owner=owner, sheet=sheet)}
    joined = note("character", f"{sheet.name} joins the table", character=cid, owner=owner)
    after = state.model_copy(update={"characters": seats, "next_id": state.next_id + 1})
    return after, [*told(events), joined]


def carry_step(state: Ap2d6Table, intent: Carry) -> tuple[Ap2d6Table, list[Event]]:
    """A whole new load, weighed as the rules weigh it (RU-S01)."""
    sheet = sheet_of(state, intent.character)
    bags = [(load.bag, list(load.items)) for load in intent.bags]
    carry(sheet.score("STR"), intent.items, bags, bags_allowed=MAX_BAGS_IN_USE)
    carried = Carried(
        personal=intent.items,
        bag=intent.bags[0].bag if intent.bags else None,
        in_bag=intent.bags[0].items if intent.bags else (),
    )
    sheet, events = weighed(sheet, carried, f"{sheet.name} carries a new load")
    return with_sheet(state, intent.character, sheet), told(events, state.owners, sheet.name)


def edit_step(state: Ap2d6Table, intent: SheetEdit) -> tuple[Ap2d6Table, list[Event]]:
    """One of a sheet's own edits; a rename keeps names unique and waits for the end of
    a fight (the fight knows its fighters by name)."""
    sheet = sheet_of(state, intent.character)
    if state.characters[intent.character].npc is not None:
        raise Ap2d6Error(f"{sheet.name} is an NPC: the GM changes it with edit-npc")
    after, events = edit(sheet, intent)
    if isinstance(intent, RenameCharacter):
        if state.fight is not None and in_fight(state.fight, sheet.name):
            raise Ap2d6Error(f"{sheet.name} is in a fight: rename them after it")
        taken = (s.sheet.name for c, s in state.characters.items() if c != intent.character)
        if after.name in taken:
            raise Ap2d6Error(f"there is already a character called {after.name} at this table")
        seats = {
            **state.characters,
            intent.character: state.characters[intent.character].model_copy(
                update={"sheet": after}
            ),
        }
        return state.model_copy(update={"characters": seats}), told(events)
    return with_sheet(state, intent.character, after), told(events)


def npc_step(
    state: Ap2d6Table, intent: NpcIntent, member: Member
) -> tuple[Ap2d6Table, list[Event]]:
    """The GM's NPCs: the book's or typed in, changed, taken away, shown or hidden."""
    names = [seat.sheet.name for seat in state.characters.values()]
    if isinstance(intent, BookNpc | NewNpc):
        check_room(len(state.npcs), Ap2d6Error)
        if isinstance(intent, BookNpc):
            creature = bestiary().creature(intent.creature, Ap2d6Error)
            name, stats, whence = intent.name or creature.name, creature.stats, creature.name
        else:
            name, stats, whence = intent.name, intent.stats, None
        check_name(name, names, Ap2d6Error)
        sheet = npc_sheet(name, stats)
        mark = NpcMark(creature=whence, bias=stats.bias)
        seat = Seat(owner=member.id, sheet=sheet, npc=mark)
        return seat_npc(state, seat, name, card_words(sheet, mark), whence)
    seat = state.characters.get(intent.npc)
    if seat is None or seat.npc is None:
        raise Ap2d6Error(f"no NPC {intent.npc!r} at this table")
    name = seat.sheet.name
    fighting = state.fight is not None and in_fight(state.fight, name)
    if isinstance(intent, RemoveNpc):
        if fighting:
            raise Ap2d6Error(f"{name} is in the fight; end the fight first")
        return unseat_npc(state, intent.npc, name)
    if isinstance(intent, RevealNpc):
        mark = seat.npc.model_copy(update={"revealed": intent.revealed})
        told_now = shown(intent.npc, name, intent.revealed, stats_view(seat.sheet, mark))
        return with_seat(state, intent.npc, seat.sheet, mark), [told_now]
    if intent.stat == "name":
        if fighting:
            raise Ap2d6Error(f"{name} is in the fight; rename them after it")
        check_rename(intent.value.strip(), name, names, Ap2d6Error)
    sheet, mark = edited(seat.sheet, seat.npc, intent)
    now = (
        sheet.name
        if intent.stat == "name"
        else str(stats_view(sheet, mark).get(intent.stat, sheet.scores.get(intent.stat)))
    )
    events = changed(intent.npc, name, intent.stat, now, seat.npc.revealed)
    return with_seat(state, intent.npc, sheet, mark), events
