"""The lists a Dead Weight GM keeps in the room (DW-T07): warrior and thief backgrounds, each
school's spells and the gods with their prayers. The core book names them and leaves them
to the Blacksalt book (DW-G01..G03), so tabletop ships none: the GM types each in once, or
loads the group's supplement file (`supplements`), and guided creation picks from them."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field

from tabletop.errors import PermissionDenied
from tabletop.frozen import Frozen
from tabletop.kept_lists import MAX_FILE, LoadLists, dropped, gm_offers, load_offer, write_offer
from tabletop.offers import Choice, Offer
from tabletop.session import Event, Member, note
from tabletop.systems.dead_weight.catalogue import Skill, Trait
from tabletop.systems.dead_weight.character import CharacterClass
from tabletop.systems.dead_weight.creation import Creation, Decision, Stage
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.guide import option_text, rolled_text
from tabletop.systems.dead_weight.kits import KitItem, creation_data
from tabletop.systems.dead_weight.supplements import (
    Background,
    God,
    School,
    Supplement,
    read_supplement,
)
from tabletop.systems.dead_weight.table import DeadWeightTable, Making

MAX_LISTED = 100
"""Entries one list holds (backgrounds, gods, a school's spells, a god's prayers)."""
MAX_LISTED_NAME = 200

SILVER = re.compile(r"[1-9]?d(?:4|6|8|10|12|20)(?:[+-][0-9]{1,2})?")
"""A background's silver dice, as the book writes a kit's: 2d6, 3d6, 1d6+2."""

ListedName = Field(min_length=1, max_length=MAX_LISTED_NAME)
Names = Field(default=(), max_length=MAX_LISTED)

HOW = "the GM writes it with “Write … on the table's list” or loads the group's supplement file"
"""How a list the GM has not written yet gets written, as every empty list says it."""

SHAPE = (
    "# the group's file as the command line's --supplement reads it: "
    "its backgrounds and schools' spells and gods and items"
)
"""What the form's placeholder says of the file: a comment, so sent as it is it loads nothing
and invents nothing."""


class KeepBackground(Frozen):
    """The GM writes a warrior or thief background on the table's list: its special traits
    and skills, its maneuver list, its silver dice and its gear (by name)."""

    kind: Literal["keep-background"] = "keep-background"
    name: str = ListedName
    character_class: Literal[CharacterClass.WARRIOR, CharacterClass.THIEF]
    traits: tuple[Trait, ...] = Field(default=(), max_length=10)
    skills: tuple[Skill, ...] = Field(default=(), max_length=26)
    maneuvers: tuple[str, ...] = Names
    silver: str | None = Field(default=None, pattern=f"^{SILVER.pattern}$")
    """Dice of silver coins, such as 2d6."""
    gear: tuple[str, ...] = Names
    """Its items by name; what each is like comes from the items a loaded file describes."""


class KeepSpells(Frozen):
    """The GM writes a school of magic's spell list."""

    kind: Literal["keep-spells"] = "keep-spells"
    school: str = ListedName
    spells: tuple[str, ...] = Field(min_length=1, max_length=MAX_LISTED)


class KeepGod(Frozen):
    """The GM writes a god a cleric may follow, and that god's prayers (none: the basic
    prayers only)."""

    kind: Literal["keep-god"] = "keep-god"
    name: str = ListedName
    prayers: tuple[str, ...] = Names


class DropListed(Frozen):
    """The GM takes a background, a school's spell list or a god off the table's lists."""

    kind: Literal["drop-listed"] = "drop-listed"
    list: Literal["background", "school", "god"]
    name: str = ListedName


LIST_INTENTS = (KeepBackground, KeepSpells, KeepGod, DropListed, LoadLists)
ListIntent = KeepBackground | KeepSpells | KeepGod | DropListed | LoadLists

_FIELD = {"background": "backgrounds", "school": "schools", "god": "gods"}


def the(school: str | None) -> str:
    """A school as a sentence names it: "the Wandering Mystics", "The Awakened"."""
    return school if not school or school.startswith("The ") else f"the {school}"


def schools() -> tuple[str, ...]:
    """The schools of magic the core book names (§ Wizard), whose spells the GM may write."""
    return tuple(kit.name for kit in creation_data().classes[CharacterClass.WIZARD].kits)


def list_offers(state: DeadWeightTable, member: Member) -> list[Offer]:
    """The GM's: write a background, a school's spells or a god; load a file; take one off."""
    if not member.is_gm:
        return []
    return gm_offers(
        {which: getattr(state.lists, field) for which, field in _FIELD.items()},
        write_offer(
            "keep-background",
            "a background",
            name=Choice(help="its name", example="Footman"),
            character_class=Choice(values=("warrior", "thief")),
        ),
        write_offer(
            "keep-spells",
            "a school's spells",
            name=None,
            school=Choice(values=schools()),
            spells=Choice(help="the school's spells, as your book names them"),
        ),
        write_offer("keep-god", "a god"),
        load_offer("the group's supplement file", SHAPE),
    )


def list_step(
    state: DeadWeightTable, intent: ListIntent, member: Member
) -> tuple[DeadWeightTable, list[Event]]:
    """The table's lists after the GM writes, loads or drops an entry; every character being
    made picks from them at once."""
    if not member.is_gm:
        raise PermissionDenied("only the GM keeps the table's lists")
    lists, line = _changed(state.lists, intent)
    _check_bounds(lists)
    making = {
        cid: Making(
            owner=m.owner,
            own=m.own,
            creation=m.creation.model_copy(update={"supplement": m.own.over(lists)}),
        )
        for cid, m in state.making.items()
    }
    return state.model_copy(update={"lists": lists, "making": making}), [note("list kept", line)]


def _changed(lists: Supplement, intent: ListIntent) -> tuple[Supplement, str]:
    """The lists with the GM's change, and the line that says it."""
    if isinstance(intent, LoadLists):
        loaded = read_supplement(intent.file, "the supplement file", DeadWeightError)
        return loaded.over(lists), f"the GM loads the group's supplement file: {_counted(loaded)}"
    if isinstance(intent, DropListed):
        field = _FIELD[intent.list]
        rest, line = dropped(getattr(lists, field), intent.list, intent.name, DeadWeightError)
        return lists.model_copy(update={field: rest}), line.text
    if isinstance(intent, KeepSpells):
        if intent.school not in schools():
            raise DeadWeightError(f"{intent.school} is not a school of magic the book names")
        school = School(spells=tuple(dict.fromkeys(intent.spells)))
        said = f"the GM writes the spells of {the(intent.school)}: {', '.join(school.spells)}"
        return lists.model_copy(update={"schools": {**lists.schools, intent.school: school}}), said
    if isinstance(intent, KeepGod):
        god = God(prayers=tuple(dict.fromkeys(intent.prayers)))
        prayers = ", ".join(god.prayers) or "the basic prayers only"
        said = f"the GM writes the god {intent.name} on the table's list: {prayers}"
        return lists.model_copy(update={"gods": {**lists.gods, intent.name: god}}), said
    background = Background(
        character_class=intent.character_class,
        traits=intent.traits,
        skills=intent.skills,
        maneuvers=tuple(dict.fromkeys(intent.maneuvers)),
        silver=intent.silver,
        items=tuple(KitItem(name=name) for name in dict.fromkeys(intent.gear)),
    )
    said = f"the GM writes the {intent.character_class} background {intent.name}: "
    said += background_words(background)
    update = {"backgrounds": {**lists.backgrounds, intent.name: background}}
    return lists.model_copy(update=update), said


def _check_bounds(lists: Supplement) -> None:
    """Refuse lists past their documented bounds, or a school the book does not name."""
    for field in ("backgrounds", "schools", "gods", "items"):
        entries = getattr(lists, field)
        if len(entries) > MAX_LISTED:
            raise DeadWeightError(f"a table keeps at most {MAX_LISTED} {field}")
        if any(len(name) > MAX_LISTED_NAME for name in entries):
            raise DeadWeightError(f"a name on the {field} list is over {MAX_LISTED_NAME} letters")
    unknown = sorted(set(lists.schools) - set(schools()))
    if unknown:
        raise DeadWeightError(
            f"{', '.join(unknown)}: not a school of magic the book names ({', '.join(schools())})"
        )
    for name, background in lists.backgrounds.items():
        if background.silver is not None and not SILVER.fullmatch(background.silver):
            raise DeadWeightError(f"{name}'s silver is dice such as 2d6, not {background.silver!r}")
    lengths = [
        *(len(s.spells) for s in lists.schools.values()),
        *(len(g.prayers) for g in lists.gods.values()),
        *(len(b.maneuvers) + len(b.items) for b in lists.backgrounds.values()),
    ]
    if any(n > MAX_LISTED for n in lengths):
        raise DeadWeightError(f"an entry of the table's lists names at most {MAX_LISTED} things")
    if len(lists.model_dump_json()) > MAX_FILE:
        raise DeadWeightError(f"the table's lists would be over {MAX_FILE:,} characters")


def _counted(loaded: Supplement) -> str:
    """What a loaded file holds, counted: "2 backgrounds, 1 school, 0 gods, 3 items"."""
    counts = {
        "background": len(loaded.backgrounds),
        "school's spells": len(loaded.schools),
        "god": len(loaded.gods),
        "item": len(loaded.items),
    }
    return ", ".join(f"{n} {what if n == 1 else _plural(what)}" for what, n in counts.items())


def _plural(what: str) -> str:
    return {"school's spells": "schools' spells"}.get(what, f"{what}s")


def background_words(background: Background) -> str:
    """A background in a line: its traits, skills, maneuvers, silver and gear."""
    parts = [
        *(f"trait {t}" for t in background.traits),
        *(f"skill {s}" for s in background.skills),
    ]
    if background.maneuvers:
        parts.append(f"maneuvers {', '.join(background.maneuvers)}")
    if background.silver:
        parts.append(f"{background.silver} silver")
    if background.items:
        parts.append(f"gear {', '.join(item.name for item in background.items)}")
    return "; ".join(parts) or "nothing written beyond its name"


def lists_view(state: DeadWeightTable) -> dict[str, Any]:
    """The table's lists, everyone's to read, each entry in words, where they come from, and
    what an empty one waits for (the shape every system's lists share on the page)."""
    lists = state.lists
    backgrounds = lists.backgrounds.items()
    gods = lists.gods.items()
    return {
        "from": "the GM's lists for this table (the core book leaves them to the Blacksalt book)",
        "parts": [
            {
                "title": "Backgrounds",
                "rows": [
                    f"{n} ({b.character_class}): {background_words(b)}" for n, b in backgrounds
                ],
            },
            {
                "title": "Spells of the schools of magic",
                "rows": [f"{n}: {', '.join(s.spells)}" for n, s in lists.schools.items()],
            },
            {
                "title": "Gods",
                "rows": [
                    f"{n}: {', '.join(g.prayers) or 'the basic prayers only'}" for n, g in gods
                ],
            },
        ],
        "empty": "" if lists != Supplement() else f"The GM has not written any yet: {HOW}.",
    }


def step_words(creation: Creation) -> dict[str, Any] | None:
    """A character's open creation step as the page shows it: what it asks, each choice as
    the book presents it, and where its list comes from (DW-T07); None once finished."""
    decision = creation.decision()
    if decision is None:
        return None
    if "keep" in decision.kinds:
        choices = [f"keep it: {rolled_text(creation)}"]
    else:
        choices = [option_text(creation, option) for option in decision.options]
    return {"asks": decision.prompt, "choices": choices, "from": _source(creation, decision)}


def _source(creation: Creation, decision: Decision) -> str:
    """Where the step's list comes from, and what an empty one means."""
    stage, character, supplement = decision.stage, creation.character, creation.supplement
    if stage == Stage.BACKGROUND:
        cls = character.character_class
        book = ", ".join(creation_data().classes[cls].backgrounds) if cls else ""
        kept = [n for n, b in supplement.backgrounds.items() if b.character_class == cls]
        said = f"The core book names {book}; what each brings is in the Blacksalt book. "
        if kept:
            return said + f"On the GM's list: {', '.join(kept)}."
        return said + (
            f"The GM has not written any yet: {HOW}. One picked now brings no special "
            "trait, gear, silver or maneuver."
        )
    if stage == Stage.GOD:
        if decision.options:
            return "From the GM's list of gods (the core book leaves them to the Blacksalt book)."
        return f"The GM has not written any gods yet: {HOW}. Write the god in by name, or skip."
    if stage == Stage.SPELLS:
        school = character.school
        if decision.options:
            return f"From the GM's list of the spells of {the(school)} (the Blacksalt book's)."
        return (
            f"The GM has not written the spells of {the(school)} yet: {HOW}. Until then write "
            "them in by name, or skip and write them on the sheet later."
        )
    if stage == Stage.PRAYERS:
        god = character.god or "no god"
        own = supplement.gods.get(character.god or "")
        said = "The basic prayers are the core book's"
        if own is not None and own.prayers:
            return f"{said}; {god}'s own come from the GM's list."
        return f"{said}; {god} has no prayers on the GM's list ({HOW})."
    if stage == Stage.MANEUVER:
        return f"From the maneuvers of the {character.background} background on the GM's list."
    return "From the core book."
