"""The monsters and NPCs a roll-under GM keeps. The chapter has none of its own (CR-N01), so
each is typed in: its abilities, maximum health and omens. It sits at the table as one of
the GM's secret characters (CR-S04) marked as an NPC, so it joins ability rolls, contests
and hits by its id like any character, and its sheet reaches the players only once the GM
shows it, which the GM may take back (CR-N02).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from tabletop.npcs import (
    NAMES_NOT_NUMBERS,
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
from tabletop.session import Event, Frozen, Member
from tabletop.systems.rollunder.character import (
    MAX_HEALTH,
    MAX_OMENS,
    Character,
    check_sheet,
    sheet_from,
)
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.sheet_edits import renamed
from tabletop.systems.rollunder.table import RollUnderTable, Seat
from tabletop.systems.rollunder.table_characters import with_members


class NpcStats(Frozen):
    """What the GM types in for a monster: its ability scores (the table's abilities),
    its maximum health (it starts at full) and its omens."""

    abilities: dict[str, int]
    max_health: int = Field(ge=0, le=MAX_HEALTH)
    omens: int = Field(default=0, ge=0, le=MAX_OMENS)


SHEET_STATS = ("max_health", "health", "omens")
"""The sheet's numbers `edit-npc` changes, besides the name and each ability."""


def stat_names(options: RollUnderOptions) -> tuple[str, ...]:
    return (*NAMES_NOT_NUMBERS, *SHEET_STATS, *options.abilities)


def example(options: RollUnderOptions) -> dict[str, Any]:
    """A typed-in monster in the GM's form: 12 in every ability, 8 health, no omens."""
    return {"abilities": dict.fromkeys(options.abilities, 12), "max_health": 8}


def npc_sheet(name: str, stats: NpcStats, options: RollUnderOptions) -> Character:
    """The monster's sheet, its abilities in the table's order whatever order they were typed
    in: a room's log keeps the intent with its keys sorted, and `verify` re-tells the line
    that lists them from it."""
    ordered = {a: stats.abilities[a] for a in options.abilities if a in stats.abilities}
    data = {
        "name": name,
        "abilities": {**ordered, **stats.abilities},
        "max_health": stats.max_health,
        "health": stats.max_health,
        "omens": stats.omens,
        "max_omens": stats.omens,
    }
    return check_sheet(sheet_from(data, "the NPC"), options)


def edited(sheet: Character, intent: EditNpc, options: RollUnderOptions) -> Character:
    """The sheet with one number (or the name) changed, checked, or `RollUnderError`."""
    data = sheet.model_dump(mode="json")
    value = intent.value.strip()
    if intent.stat == "name":
        data["name"] = value
    elif intent.stat == "omens":
        data["omens"] = data["max_omens"] = value
    elif intent.stat in SHEET_STATS:
        data[intent.stat] = value
        if intent.stat == "max_health" and sheet.health == sheet.max_health:
            data["health"] = value  # at full health it stays full
    elif intent.stat in options.abilities:
        data["abilities"] = {**data["abilities"], intent.stat: value}
    else:
        known = ", ".join(stat_names(options))
        raise RollUnderError(f"an NPC here has no {intent.stat!r}; it has {known}")
    return check_sheet(sheet_from(data, "the NPC"), options)


def statblock(sheet: Character) -> str:
    """A monster's numbers as the GM's line reads them: 'STR 11, AGI 9, WIT 8; health 6 of
    6; 1 omen'."""
    parts = [
        ", ".join(f"{name} {score}" for name, score in sheet.abilities.items()),
        f"health {sheet.health} of {sheet.max_health}",
    ]
    if sheet.omens:
        parts.append(f"{sheet.omens} omen{'' if sheet.omens == 1 else 's'}")
    return "; ".join(parts)


def stats_view(sheet: Character) -> dict[str, Any]:
    """What the NPC panel shows the GM of a monster."""
    return {
        "abilities": dict(sheet.abilities),
        "health": sheet.health,
        "max_health": sheet.max_health,
        "omens": sheet.omens,
        "injuries": [injury.model_dump(mode="json") for injury in sheet.injuries],
        "death": sheet.death,
    }


def npc_step(
    state: RollUnderTable,
    intent: NewNpc[NpcStats] | EditNpc | RemoveNpc | RevealNpc,
    member: Member,
) -> tuple[RollUnderTable, list[Event]]:
    """The GM's monsters: typed in, changed, taken away, shown or hidden (CR-N02)."""
    names = [seat.sheet.name for seat in state.characters.values()]
    options = state.options
    if isinstance(intent, NewNpc):
        check_room(sum(seat.npc for seat in state.characters.values()), RollUnderError)
        check_name(intent.name, names, RollUnderError)
        sheet = npc_sheet(intent.name, intent.stats, options)
        state.company.with_members((*state.company.members, sheet))  # its rules hold
        seat = Seat(owner=member.id, sheet=sheet, secret=True, npc=True)
        return seat_npc(state, seat, sheet.name, statblock(sheet), None)
    seat = state.characters.get(intent.npc)
    if seat is None or not seat.npc:
        raise RollUnderError(f"no NPC {intent.npc!r} at this table")
    name = seat.sheet.name
    if isinstance(intent, RemoveNpc):
        return unseat_npc(state, intent.npc, name)
    if isinstance(intent, RevealNpc):
        now = seat.model_copy(update={"secret": not intent.revealed})
        told = shown(intent.npc, name, intent.revealed, stats_view(seat.sheet))
        seats = {**state.characters, intent.npc: now}
        return state.model_copy(update={"characters": seats}), [told]
    if intent.stat == "name":  # as rename-character: its followers follow the new name
        check_rename(intent.value.strip(), name, names, RollUnderError)
        edited(seat.sheet, intent, options)  # a name its sheet may hold
        members, _ = renamed(state.company.members, name, intent.value)
        after = with_members(state, members)
        new = after.sheet(intent.npc).name
        return after, changed(intent.npc, name, intent.stat, new, not seat.secret)
    sheet = edited(seat.sheet, intent, options)
    value = str(sheet.abilities.get(intent.stat, getattr(sheet, intent.stat, None)))
    seats = {**state.characters, intent.npc: seat.model_copy(update={"sheet": sheet})}
    after = state.model_copy(update={"characters": seats})
    return after, changed(intent.npc, name, intent.stat, value, not seat.secret)
