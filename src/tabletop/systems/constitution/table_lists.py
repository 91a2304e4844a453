"""The skills and spells a Constitution referee keeps for the table (C3-S08). The articles
rate skills as the group sees fit and make each spell a skill of its own, but name neither
(§ 4.10–4.11, § 12.1; C3-G03): the referee writes the group's once, or loads the group's
file of them; a sheet rates a skill used for the first time from the list, and a character
with a spell book learns a spell from it (§ 12.8–12.9), or researches one the server's die
picks from it (§ 12.10, § 12.12; C3-S10)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.frozen import Frozen
from tabletop.kept_lists import (
    Desk,
    KeptList,
    LoadLists,
    write_offer,
)
from tabletop.offers import Choice, Offer, accepts, offer
from tabletop.session import MAX_NAME, CharacterIntent, Event, Member, note, rolled_for
from tabletop.systems.constitution.character import MAX_LEVEL, Character, KnownSpell
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.magic import (
    RESEARCH_RATING,
    learn_spell,
    may_learn,
    may_research,
    research_subject,
)
from tabletop.systems.constitution.sheet_edits import RateSkill
from tabletop.systems.constitution.table import ConstitutionTable, ListedSpell, Seat
from tabletop.words import counted

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


SpellName = Annotated[str, Field(min_length=1, max_length=60)]


class ResearchAtRandom(CharacterIntent):
    """A character with a spell book spends a research owed on research whose spell a die
    picks, at 50% (§ 12.9): with Goetia, a 1st-level spell of the referee's list new to
    them (§ 12.10); or one of another magician's spells, which the referee names from the
    list as their writings, that they do not know (§ 12.12)."""

    kind: Literal["research-at-random"] = "research-at-random"
    writings: tuple[SpellName, ...] = Field(default=(), max_length=MAX_LISTED)


LIST_INTENTS = (KeepSkill, KeepSpell, DropListed, LearnSpell, ResearchAtRandom, LoadLists)
ListIntent = KeepSkill | KeepSpell | DropListed | LearnSpell | ResearchAtRandom | LoadLists

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
        found += _learning(state, cid, member) + _research_at_random(state, cid, member)
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


def _research_at_random(state: ConstitutionTable, cid: str, member: Member) -> list[Offer]:
    """Research at random, to a character with a spell book and a research owed: the GM's
    names the writings (or none, exploratory); a player's is exploratory, with Goetia and a
    1st-level spell of the list left to learn."""
    sheet = state.characters[cid].sheet
    if not (sheet.has_spell_book and sheet.research_owed and state.spells):
        return []
    text = f"research a spell at random ({sheet.name})"
    who = Choice(values=(cid,))
    if member.is_gm:
        writings = Choice(items=tuple(state.spells))
        return [offer("research-at-random", text, character=who, writings=writings)]
    if not accepts(lambda: _exploratory(state, sheet), ConstitutionError):
        return []
    mine = offer("research-at-random", text, character=who)
    return [mine.model_copy(update={"preset": {"writings": []}})]  # no writings: exploratory


def _exploratory(state: ConstitutionTable, sheet: Character) -> list[str]:
    """The spells exploratory research may yield `sheet`'s character (§ 12.10): the list's
    1st-level spells they do not know, with Goetia or a like initiation; refused else."""
    if not sheet.can("learn_first_level_spells"):
        raise ConstitutionError(
            f"exploratory research needs Goetia or a like initiation (§ 12.10): {sheet.name} "
            "has none"
        )
    pool = [n for n, s in state.spells.items() if s.level == 1 and n not in sheet.spells]
    if not pool:
        raise ConstitutionError(
            f"nothing is left to learn: {sheet.name} knows every 1st-level spell on the "
            "referee's list"
        )
    return pool


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
    state: ConstitutionTable, intent: ListIntent, member: Member, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """The table's lists after the referee writes or drops an entry, or a sheet after its
    character learns a spell from them."""
    if isinstance(intent, LearnSpell):
        return _learned(state, intent, member)
    if isinstance(intent, ResearchAtRandom):
        return _researched(state, intent, member, dice)
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
    seat = _seat(state, intent.character)
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


def _researched(
    state: ConstitutionTable, intent: ResearchAtRandom, member: Member, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """The character's spell book with the spell a die picked among those their research
    may yield (§ 12.10, § 12.12), at 50%; refused, drawing no die, when none is left."""
    seat = _seat(state, intent.character)
    if intent.writings and not member.is_gm:  # said to the player, as the rules' reason
        raise ConstitutionError(
            "which spells a magician's writings hold is the referee's to say: the GM ticks them"
        )
    may_research(seat.sheet)
    if intent.writings:
        pool = _from_writings(state, seat.sheet, intent.writings)
        said = ("§ 12.12", "spell", "of another magician's writings")
    else:
        pool = _exploratory(state, seat.sheet)
        said = ("§ 12.10", "1st-level spell", "of the referee's list")
    with rolled_for(intent.character):
        route = "writings" if intent.writings else "exploratory"
        name, rating, record = research_subject(route, dice, candidates=pool)
    listed = state.spells[name]
    known = KnownSpell(level=listed.level, rating=rating, school=listed.school)
    sheet = learn_spell(seat.sheet, name, known)
    article, noun, tail = said
    rolled = f": {record.text}" if record else ""
    among = f"one of {counted(len(pool), noun)}" if len(pool) > 1 else f"the only {noun}"
    line = (
        f"{sheet.name} researches a spell at random ({article}), {among} {tail} new to "
        f"them{rolled}: {name} ({spell_words(listed)}), {rating}%"
    )
    drawn = [record.model_dump(mode="json")] if record else []
    seats = {**state.characters, intent.character: seat.model_copy(update={"sheet": sheet})}
    told = note("spell learned", line, character=intent.character, spell=name, dice=drawn)
    return state.model_copy(update={"characters": seats}), [told]


def _from_writings(
    state: ConstitutionTable, sheet: Character, writings: tuple[str, ...]
) -> list[str]:
    """The spells of a magician's writings (on the referee's list) research may yield
    `sheet`'s character (§ 12.12): those they do not know that an initiation opens to them
    (C3-A48); refused when none is."""
    unlisted = [name for name in writings if name not in state.spells]
    if unlisted:
        raise ConstitutionError(f"{unlisted[0]} is not on the referee's spell list")
    pool = [
        name
        for name in dict.fromkeys(writings)
        if name not in sheet.spells
        and may_learn(sheet, state.spells[name].level, state.spells[name].school)
    ]
    if not pool:
        raise ConstitutionError(
            f"nothing is left to learn: {sheet.name} knows every spell of those writings "
            "that an initiation opens to them"
        )
    return pool


def _seat(state: ConstitutionTable, cid: str) -> Seat:
    """The seat of character `cid`, or a refusal naming the id the intent gave."""
    seat = state.characters.get(cid)
    if seat is None:
        raise ConstitutionError(f"no character {cid!r} at this table")
    return seat


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
