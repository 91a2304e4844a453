"""The characters at a roll-under table: made or brought (CR-S01), written on between rolls
(CR-S08), and the company they form: followers, burial and replacement (§ Followers,
§ Death).
"""

from __future__ import annotations

from typing import Any

from tabletop.session import Event, Member, Visibility, note, owner_for
from tabletop.sheet_edits import RenameCharacter
from tabletop.systems.rollunder.character import Character, check_sheet, sheet_from
from tabletop.systems.rollunder.death import bury, replace_character
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.followers import dismiss_follower, recruit_follower
from tabletop.systems.rollunder.intents import (
    Bury,
    CharacterIntent,
    DismissFollower,
    ImportCharacter,
    RecruitFollower,
)
from tabletop.systems.rollunder.records import Event as RulesEvent
from tabletop.systems.rollunder.sheet_edits import SheetEdit, edit, renamed
from tabletop.systems.rollunder.table import RollUnderTable, with_company, with_sheets
from tabletop.systems.rollunder.telling import Telling


def join(
    state: RollUnderTable, intent: CharacterIntent, member: Member
) -> tuple[RollUnderTable, list[Event]]:
    owner = owner_for(intent.owner, member)
    if intent.secret and owner != member.id:
        raise RollUnderError("a secret character is the GM's own")
    if isinstance(intent, ImportCharacter):
        sheet = sheet_from(intent.sheet)
    else:
        data = intent.model_dump(exclude={"kind", "owner", "secret"})
        data["health"] = intent.max_health if intent.health is None else intent.health
        data["max_omens"] = intent.omens if intent.max_omens is None else intent.max_omens
        sheet = sheet_from(data, "the character")
    sheet = check_sheet(sheet, state.options)
    company = state.company.with_members((*state.company.members, sheet))
    state = with_company(state, company, owner, intent.secret)
    cid = state.id_of(sheet.name)
    facts = {"character": cid, "owner": owner, "name": sheet.name, "secret": intent.secret}
    if not intent.secret:
        joined = note("joined", f"{sheet.name} joins the table", **facts, sheet=dump(sheet))
        return state, [joined]
    joined = note("joined", f"the GM brings {sheet.name} to the table", **facts)
    kept = Event(
        type="sheet",
        text=f"{sheet.name}'s sheet, kept from the players",
        data={"character": cid, "sheet": dump(sheet)},
        visibility=Visibility.GM,
    )
    return state, [joined, kept]


def rename(
    state: RollUnderTable, intent: RenameCharacter, member: Member
) -> tuple[RollUnderTable, list[Event]]:
    """A new name on the sheet; the character's followers follow it (CR-S08)."""
    old = state.sheet(intent.character).name
    members, said = renamed(state.company.members, old, intent.name)
    state = with_members(state, members)
    return state, tell(state, member, (said,))


def sheet_edit(
    state: RollUnderTable, intent: SheetEdit, member: Member
) -> tuple[RollUnderTable, list[Event]]:
    """What a player writes on the sheet between rolls (CR-S08)."""
    changed = edit(state.sheet(intent.character), intent, state.options)
    after = with_sheets(state, (changed.character,))
    return after, tell(state, member, changed.events, changed.character.name)


def company_rule(
    state: RollUnderTable, intent: Any, member: Member
) -> tuple[RollUnderTable, list[Event]]:
    """Followers, burial and replacement: the company rules on every seat's sheet."""
    company = state.company
    if isinstance(intent, RecruitFollower):
        seat = state.seat(intent.leader)
        follower = check_sheet(sheet_from(intent.sheet, "the follower"), state.options)
        company, events = recruit_follower(company, seat.sheet.name, follower)
        state = with_company(state, company, seat.owner, seat.secret)
        told = tell(state, member, events)
        if seat.secret:  # a secret follower's name is public, as every character's is
            cid = state.id_of(follower.name)
            told.append(
                note("joined", f"the GM brings {follower.name} to the table", character=cid)
            )
        return state, told
    if isinstance(intent, DismissFollower):
        left = state.seat(intent.follower)
        company, events = dismiss_follower(company, left.sheet.name)
        told = tell(state, member, events)  # told while they are still at the table
        return with_company(state, company, member.id), told
    seat = state.seat(intent.dead)
    if isinstance(intent, Bury):
        payment = None
        if intent.payment is not None:
            payment = {state.sheet(cid).name: paid for cid, paid in intent.payment.items()}
        company, events = bury(company, seat.sheet, intent.remains_retrieved, payment)
        state = with_company(state, company, member.id)
        seats = {**state.characters, intent.dead: seat.model_copy(update={"buried": True})}
        settled = note("buried", f"{seat.sheet.name}'s burial is settled", dead=intent.dead)
        told = tell(state, member, events)
        return state.model_copy(update={"characters": seats}), [*told, settled]
    newcomer = check_sheet(sheet_from(intent.sheet, "the replacement"), state.options)
    company, events = replace_character(company, seat.sheet.name, newcomer, state.options)
    state = with_company(state, company, seat.owner, seat.secret)
    return state, tell(state, member, events)


def tell(
    state: RollUnderTable,
    member: Member,
    events: tuple[RulesEvent, ...],
    changed: str | None = None,
) -> list[Event]:
    """The events of a rule that needs no decision, told as a public step (`changed`:
    the one character it changes, if it is about one)."""
    return Telling.at(state, member).rules(events, changed)


def with_members(state: RollUnderTable, members: tuple[Character, ...]) -> RollUnderTable:
    """The table with every seat's sheet replaced by the company member in its place (a
    rename: the company keeps the seats' order)."""
    seats = {
        cid: seat.model_copy(update={"sheet": sheet})
        for (cid, seat), sheet in zip(state.characters.items(), members, strict=True)
    }
    return state.model_copy(update={"characters": seats})


def dump(sheet: Character) -> dict[str, Any]:
    return sheet.model_dump(mode="json")
