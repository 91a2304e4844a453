"""The skills and armour a 2d6 GM keeps for the table (RU-S10). The book gives a skill's shape
(an SP cost and prerequisites "listed along with the skill") and armour's part in the rules
(damage reduction by type, bulky armour's To-Hit) but no skills and no armour (RU-G01,
RU-G03): the GM writes the group's once, or loads the group's file of skills, armour and
weapons; a sheet buys a skill from the list at its cost, and a character wears armour from
it, whose reduction the GM's damage step starts from."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.frozen import Frozen
from tabletop.kept_lists import (
    Desk,
    KeptList,
    LoadLists,
    write_offer,
)
from tabletop.offers import Choice, Offer, closed_offer, offer
from tabletop.session import MAX_NAME, CharacterIntent, Event, Member, note
from tabletop.systems.ap2d6.creation import MAX_BUDGET
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.sheet import Character
from tabletop.systems.ap2d6.sheet_edits import BuySkill
from tabletop.systems.ap2d6.table import Ap2d6Table, Id, KeptArmour, KeptSkill, sheet_of, with_sheet
from tabletop.systems.ap2d6.table_weapons import KeepWeapon, weapon_step, weapon_words

MAX_LISTED = 100
"""Skills, and armour, one table's lists hold."""

HOW = "the GM writes each under “Write … on the table's list” or loads the group's list file"
"""How an empty list gets written, as the page says it."""

TYPE_WORDS = {"B": "bludgeoning", "P": "piercing", "S": "slashing"}


class KeepSkill(Frozen):
    """The GM writes one of the group's skills on the table's list: its SP cost, the skills
    it needs first, and what it does in the group's words."""

    kind: Literal["keep-skill"] = "keep-skill"
    name: str = Field(min_length=1, max_length=MAX_NAME)
    cost: int = Field(ge=0, le=MAX_BUDGET)
    needs: tuple[str, ...] = Field(default=(), max_length=12)
    text: str = Field(default="", max_length=300)


class KeepArmour(Frozen):
    """The GM writes one of the group's armours on the table's list: the damage it takes off
    by type, and the To-Hit it costs its wearer (bulky armour, RU-M05)."""

    kind: Literal["keep-armour"] = "keep-armour"
    name: str = Field(min_length=1, max_length=MAX_NAME)
    bludgeoning: int = Field(default=0, ge=0, le=100)
    piercing: int = Field(default=0, ge=0, le=100)
    slashing: int = Field(default=0, ge=0, le=100)
    to_hit: int = Field(default=0, ge=-100, le=0)


class DropListed(Frozen):
    """The GM takes a skill or an armour off the table's lists (sheets keep what they have)."""

    kind: Literal["drop-listed"] = "drop-listed"
    list: Literal["skill", "armour"]
    name: str = Field(min_length=1, max_length=MAX_NAME)


class WearArmour(CharacterIntent):
    """A character puts on armour from the GM's list (none: takes theirs off)."""

    kind: Literal["wear-armour"] = "wear-armour"
    armour: str | None = Field(default=None, max_length=MAX_NAME)


LIST_INTENTS = (KeepSkill, KeepArmour, DropListed, WearArmour, LoadLists)
ListIntent = KeepSkill | KeepArmour | DropListed | WearArmour | LoadLists

KEPT = (
    KeptList("skills", "skill", "skills", KeepSkill),
    KeptList("armour", "armour", "armours", KeepArmour),
    KeptList("weapons", "weapon", "weapons", KeepWeapon),
)
"""The lists a group's list file fills, each entry with the fields of the GM's form."""

DESK = Desk(KEPT, {"skill": "skills", "armour": "armours"}, MAX_LISTED, Ap2d6Error)


def list_offers(state: Ap2d6Table, member: Member, mine: tuple[Id, ...]) -> list[Offer]:
    """The GM's: write or drop a skill or an armour; each character's: wear armour."""
    found: list[Offer] = []
    if member.is_gm:
        found += DESK.offers(
            state, write_offer("keep-skill", "a skill"), write_offer("keep-armour", "an armour")
        )
    players = tuple(c for c in mine if state.characters[c].npc is None)
    if state.armours and players:
        worn = Choice(values=(*state.armours, None))
        found.append(
            offer("wear-armour", "wear armour", character=Choice(values=players), armour=worn)
        )
    return found


def skill_offer(state: Ap2d6Table, cid: Id, sheet: Character) -> Offer | None:
    """The skills on the GM's list this sheet can buy now, one button each; None when the
    GM keeps no list (the sheet's open form then takes a skill by name and cost)."""
    buys = (
        BuySkill(character=cid, skill=name, cost=skill.cost)
        for name, skill in state.skills.items()
        if name not in sheet.skills
        and skill.cost <= sheet.unspent_sp
        and all(need in sheet.skills for need in skill.needs)
    )
    return closed_offer("buy-skill", "buy a skill from the GM's list", buys, "skills")


def bought(state: Ap2d6Table, intent: BuySkill) -> None:
    """Refuse a skill bought off the GM's list, at another cost, or before what it needs."""
    if not state.skills:
        return
    skill = state.skills.get(intent.skill.strip())
    if skill is None:
        raise Ap2d6Error(f"{intent.skill} is not on the GM's skill list")
    if intent.cost != skill.cost:
        raise Ap2d6Error(f"{intent.skill} costs {skill.cost} SP on the GM's list")
    missing = [need for need in skill.needs if need not in sheet_of(state, intent.character).skills]
    if missing:
        raise Ap2d6Error(f"{intent.skill} needs {', '.join(missing)} first")


def list_step(
    state: Ap2d6Table, intent: ListIntent, member: Member
) -> tuple[Ap2d6Table, list[Event]]:
    """The table's lists after the GM writes or drops an entry, or a sheet after its
    character puts armour on or takes it off."""
    if isinstance(intent, WearArmour):
        return _worn(state, intent)

    def written(table: Ap2d6Table, entry: Any) -> Ap2d6Table:
        return (weapon_step if isinstance(entry, KeepWeapon) else list_step)(table, entry, member)[
            0
        ]

    return DESK.step(state, intent, member, _entry, written)


def _entry(state: Ap2d6Table, intent: KeepSkill | KeepArmour) -> tuple[str, dict[str, Any], str]:
    """The list the GM writes on, with the entry, and the line that says so."""
    if isinstance(intent, KeepSkill):
        skill = KeptSkill(cost=intent.cost, needs=intent.needs, text=intent.text)
        line = f"the GM writes the skill {intent.name} on the list: {skill_words(skill)}"
        return "skills", {**state.skills, intent.name: skill}, line
    armour = KeptArmour(
        takes={"B": intent.bludgeoning, "P": intent.piercing, "S": intent.slashing},
        to_hit=intent.to_hit,
    )
    line = f"the GM writes the armour {intent.name} on the list: {armour_words(armour)}"
    return "armours", {**state.armours, intent.name: armour}, line


def _worn(state: Ap2d6Table, intent: WearArmour) -> tuple[Ap2d6Table, list[Event]]:
    """The character in the armour (its To-Hit cost on the sheet, RU-M05), or out of it."""
    seat = state.characters.get(intent.character)
    if seat is None:
        raise Ap2d6Error(f"no character {intent.character!r} at this table")
    sheet = seat.sheet
    adjustments = {k: v for k, v in sheet.to_hit_adjustments.items() if k != seat.armour}
    if intent.armour is None:
        line = f"{sheet.name} takes off {seat.armour or 'no armour'}"
    else:
        armour = state.armours.get(intent.armour)
        if armour is None:
            raise Ap2d6Error(f"{intent.armour} is not on the GM's armour list")
        if armour.to_hit:
            adjustments[intent.armour] = armour.to_hit
        line = f"{sheet.name} wears {intent.armour}: {armour_words(armour)}"
    state = with_sheet(
        state, intent.character, sheet.model_copy(update={"to_hit_adjustments": adjustments})
    )
    seats = {
        **state.characters,
        intent.character: state.characters[intent.character].model_copy(
            update={"armour": intent.armour}
        ),
    }
    return state.model_copy(update={"characters": seats}), [
        note("armour", line, character=intent.character)
    ]


def armour_taken(state: Ap2d6Table, target: Id, damage_type: str) -> Choice:
    """The GM's damage step's "armour takes" field, starting from what the target's worn
    armour on the list takes off this damage type."""
    seat = state.characters.get(target)
    armour = state.armours.get(seat.armour or "") if seat is not None else None
    if seat is None or armour is None:
        return Choice(help="what the target's armour takes", example=0)
    takes = armour.takes.get(damage_type, 0)
    said = f"{seat.sheet.name}'s {seat.armour} takes {takes} of {TYPE_WORDS[damage_type]}"
    return Choice(help=f"{said} (the GM's armour list)", example=takes)


def skill_words(skill: KeptSkill) -> str:
    """A skill in a line: "2 SP, needs STEALTH; climbs walls"."""
    needs = f", needs {', '.join(skill.needs)}" if skill.needs else ""
    return f"{skill.cost} SP{needs}" + (f"; {skill.text}" if skill.text else "")


def armour_words(armour: KeptArmour) -> str:
    """An armour in a line: "takes 1 B, 2 P, 3 S; To-Hit -1"."""
    takes = ", ".join(f"{n} {t}" for t, n in armour.takes.items())
    return f"takes {takes}" + (f"; To-Hit {armour.to_hit}" if armour.to_hit else "")


def lists_view(state: Ap2d6Table) -> dict[str, Any]:
    """The table's weapon, skill and armour lists, everyone's to read, in words, and what an
    empty skill list waits for."""
    return {
        "from": "the GM's lists for this table (the book gives no weapons, skills or armour)",
        "parts": [
            {"title": "Weapons", "rows": [weapon_words(w) for w in state.weapons.values()]},
            {
                "title": "Skills",
                "rows": [f"{n}: {skill_words(s)}" for n, s in state.skills.items()],
            },
            {
                "title": "Armour",
                "rows": [f"{n}: {armour_words(a)}" for n, a in state.armours.items()],
            },
        ],
        "empty": _empty(state),
    }


def _empty(state: Ap2d6Table) -> str:
    """Which lists the GM has not written yet, and how: empty when all are written."""
    lists = {"weapons": state.weapons, "skills": state.skills, "armour": state.armours}
    empty = [name for name, kept in lists.items() if not kept]
    if not empty:
        return ""
    named = " or ".join(empty) if len(empty) < 3 else "weapons, skills or armour"
    return f"No {named} on the table's lists yet: {HOW}."
