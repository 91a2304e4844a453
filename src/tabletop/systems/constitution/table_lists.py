"""The skills and spells a Constitution referee keeps for the table (C3-S08). The articles
rate skills as the group sees fit and make each spell a skill of its own, but name neither
(§ 4.10–4.11, § 12.1; C3-G03): the referee writes the group's once, or loads the group's
file of them; a sheet rates a skill used for the first time from the list, and a character
with a spell book learns a spell from it (§ 12.8–12.9)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.errors import PermissionDenied
from tabletop.frozen import Frozen
from tabletop.kept_lists import (
    Desk,
    KeptList,
    LoadLists,
    write_offer,
)
from tabletop.offers import Choice, Offer, offer
from tabletop.session import MAX_NAME, CharacterIntent, Event, Member, note
from tabletop.systems.constitution.character import MAX_LEVEL, KnownSpell
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.magic import RESEARCH_RATING, learn_spell, may_learn
from tabletop.systems.constitution.sheet_edits import RateSkill
from tabletop.systems.constitution.table import ConstitutionTable, ListedSpell

MAX_LISTED = 200
"""Skills, and spells, one table's lists hold."""

HOW = "the referee writes each under “Write … on the table's list” or loads the group's list file"
"""How an empty list gets written, as the page says it."""


class KeepSkill(Frozen):
    """The referee writes one of the group's skills on the table's list (what it covers, in
    the group's words, if anything)."""

    kind: Literal["keep-skill"] = "keep-skill"
    name: str = Field(min_length=1, max_length=60)
    note: str = Field(default="", max_length=200)


class KeepSpell(Frozen):
    """The referee writes one of the group's spells on the table's list: its level and its
    school, if it has one (§ 8.4–8.5)."""

    kind: Literal["keep-spell"] = "keep-spell"
    name: str = Field(min_length=1, max_length=60)
    level: int = Field(ge=1, le=MAX_LEVEL)
    school: str | None = Field(default=None, max_length=MAX_NAME)


class DropListed(Frozen):
    """The referee takes a skill or a spell off the table's lists (sheets keep theirs)."""

    kind: Literal["drop-listed"] = "drop-listed"
    list: Literal["skill", "spell"]
    name: str = Field(min_length=1, max_length=60)


class LearnSpell(CharacterIntent):
    """A character with a spell book learns a spell from the referee's list: researched with a
    research they are owed, at 50% (§ 12.8–12.9), or given by the referee (a Goetia
    character's first spell, C3-A48) at the rating the referee names."""

    kind: Literal["learn-spell"] = "learn-spell"
    spell: str = Field(min_length=1, max_length=60)
    owed: bool = True
    rating: int = Field(default=RESEARCH_RATING, ge=0, le=100)


LIST_INTENTS = (KeepSkill, KeepSpell, DropListed, LearnSpell, LoadLists)
ListIntent = KeepSkill | KeepSpell | DropListed | LearnSpell | LoadLists

KEPT = (
    KeptList("skills", "skill", "skills", KeepSkill),
    KeptList("spells", "spell", "spells", KeepSpell),
)
"""The lists a group's list file fills, each entry with the fields of the referee's form."""

DESK = Desk(KEPT, {"skill": "skills", "spell": "spells"}, MAX_LISTED, ConstitutionError)


def list_offers(state: ConstitutionTable, member: Member, mine: tuple[str, ...]) -> list[Offer]:
    """The referee's: write or drop a skill or a spell; a spell-book holder's: learn one."""
    found: list[Offer] = []
    if member.is_gm:
        level = Choice(help="its level", example=1)
        found += DESK.offers(
            state,
            write_offer("keep-skill", "a skill"),
            write_offer("keep-spell", "a spell", level=level),
        )
    for cid in mine:
        found += _learning(state, cid, member)
    return found


def _learning(state: ConstitutionTable, cid: str, member: Member) -> list[Offer]:
    """The spells on the list this character may learn now, and how."""
    sheet = state.characters[cid].sheet
    if not sheet.has_spell_book:
        return []
    ways = (True,) if sheet.research_owed else ()
    ways += (False,) if member.is_gm else ()
    open_to = tuple(
        name
        for name, spell in state.spells.items()
        if name not in sheet.spells and may_learn(sheet, spell.level, spell.school)
    )
    if not ways or not open_to:
        return []
    rating = Choice(help="what a given spell starts at", example=RESEARCH_RATING)
    fields = {"rating": rating} if member.is_gm else {}
    return [
        offer(
            "learn-spell",
            f"learn a spell from the referee's list ({sheet.name})",
            character=Choice(values=(cid,)),
            spell=Choice(values=open_to),
            owed=Choice(values=ways),
            **fields,
        )
    ]


def rating_offers(state: ConstitutionTable, cid: str) -> list[Offer]:
    """A skill used for the first time rated from the referee's list (C3-S08): the skills on
    it this sheet has not rated yet."""
    rated = state.characters[cid].sheet.skills
    fresh = tuple(name for name in state.skills if name not in rated)
    if not fresh:
        return []
    return [
        Offer(
            kind="rate-skill",
            text="rate a skill used for the first time",
            entry="skills",
            preset={"character": cid},
            fields={
                "skill": Choice(values=fresh),
                "rating": Choice(help="0 to 100, as the group sees it", example=30),
            },
        )
    ]


def rated(state: ConstitutionTable, intent: RateSkill) -> None:
    """Refuse a first rating of a skill the referee's list does not hold, once there is one."""
    seat = state.characters.get(intent.character)
    if not state.skills or seat is None or intent.skill in seat.sheet.skills:
        return
    if intent.skill not in state.skills:
        raise ConstitutionError(
            f"{intent.skill} is not on the referee's skill list: the referee writes it there first"
        )


def list_step(
    state: ConstitutionTable, intent: ListIntent, member: Member
) -> tuple[ConstitutionTable, list[Event]]:
    """The table's lists after the referee writes or drops an entry, or a sheet after its
    character learns a spell from them."""
    if isinstance(intent, LearnSpell):
        return _learned(state, intent, member)
    return DESK.step(state, intent, member, _entry)


def _entry(
    state: ConstitutionTable, intent: KeepSkill | KeepSpell
) -> tuple[str, dict[str, Any], str]:
    """The list the referee writes on, with the entry, and the line that says so."""
    if isinstance(intent, KeepSkill):
        line = f"the GM writes the skill {intent.name} on the list"
        line += f": {intent.note}" if intent.note else ""
        return "skills", {**state.skills, intent.name: intent.note}, line
    spell = ListedSpell(level=intent.level, school=intent.school)
    line = f"the GM writes the spell {intent.name} on the list: {spell_words(spell)}"
    return "spells", {**state.spells, intent.name: spell}, line


def _learned(
    state: ConstitutionTable, intent: LearnSpell, member: Member
) -> tuple[ConstitutionTable, list[Event]]:
    """The character's spell book with the spell: researched at 50%, or the referee's gift."""
    seat = state.characters.get(intent.character)
    if seat is None:
        raise ConstitutionError(f"no character {intent.character!r} at this table")
    listed = state.spells.get(intent.spell)
    if listed is None:
        raise ConstitutionError(f"{intent.spell} is not on the referee's spell list")
    if not intent.owed and not member.is_gm:
        raise PermissionDenied("a spell not researched is the referee's to give")
    if intent.owed and intent.rating != RESEARCH_RATING:
        raise ConstitutionError(f"a researched spell starts at {RESEARCH_RATING}% (§ 12.9)")
    known = KnownSpell(level=listed.level, rating=intent.rating, school=listed.school)
    sheet = learn_spell(seat.sheet, intent.spell, known, owed=intent.owed)
    how = "researches" if intent.owed else "is given"
    line = f"{sheet.name} {how} {intent.spell} ({spell_words(listed)}): {intent.rating}%"
    seats = {**state.characters, intent.character: seat.model_copy(update={"sheet": sheet})}
    told = note("spell learned", line, character=intent.character)
    return state.model_copy(update={"characters": seats}), [told]


def spell_words(spell: ListedSpell) -> str:
    """A spell in a line: "level 2, fire"."""
    return f"level {spell.level}" + (f", {spell.school}" if spell.school else "")


def lists_view(state: ConstitutionTable) -> dict[str, Any]:
    """The table's skill and spell lists, everyone's to read, and what an empty one waits for."""
    empty = [
        name for name, kept in (("skills", state.skills), ("spells", state.spells)) if not kept
    ]
    return {
        "from": "the referee's lists for this table (the articles name no skills or spells)",
        "parts": [
            {"title": "Skills", "rows": [f"{n}: {t}" if t else n for n, t in state.skills.items()]},
            {
                "title": "Spells",
                "rows": [f"{n}: {spell_words(s)}" for n, s in state.spells.items()],
            },
        ],
        "empty": f"No {' or '.join(empty)} on the table's lists yet: {HOW}." if empty else "",
    }
