"""The referee asks a player for a check (article 3; docs/rules/constitution.md C3-S05): an
ability, scaled by a skill if named (§ 4.10), with the advantage or disadvantage dice the
referee gives (§ 3.8), against the referee's DC, shown or kept; the player answers with one
tap. A kept DC, and the verdict and degrees it decides, are the GM's part of the line.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.asks import GM_KEEPS, Ask, AskDesk
from tabletop.dice import DiceSource
from tabletop.offers import Choice
from tabletop.session import Event, Frozen, Seated, rolled_for
from tabletop.systems.constitution.character import character_check
from tabletop.systems.constitution.check import NORMAL_DC
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.models import Event as RulesEvent
from tabletop.systems.constitution.table import ConstitutionTable
from tabletop.systems.constitution.told import protocol_events


class AskedCheck(Frozen):
    """What the referee asks a character to check."""

    ability: Literal["strength", "wits", "knowledge", "will", "charisma"]
    skill: str | None = Field(default=None, min_length=1, max_length=60)
    advantage: int = Field(default=0, ge=0, le=20)
    disadvantage: int = Field(default=0, ge=0, le=20)


def said(what: AskedCheck) -> str:
    """An asked check as the log says it: "a wits check with swimming, 1 advantage die"."""
    skill = f" with {what.skill}" if what.skill else ""
    dice = [
        f"{count} {name} di{'c' if count > 1 else ''}e"
        for count, name in ((what.advantage, "advantage"), (what.disadvantage, "disadvantage"))
        if count
    ]
    return f"a {what.ability} check{skill}{''.join(f', {d}' for d in dice)}"


def characters(state: ConstitutionTable) -> dict[str, Seated]:
    """Who the referee may ask: every character at the table, with the one who plays them."""
    return {cid: Seated(seat.sheet.name, seat.owner) for cid, seat in state.characters.items()}


def skill_picks(state: ConstitutionTable) -> dict[str, Choice]:
    """The skills the GM's ask picks from: those on the referee's list and those any
    character has a rating for; none where there are none, and the skill is typed."""
    rated = {skill for seat in state.characters.values() for skill in seat.sheet.skills}
    known = sorted(set(state.skills) | rated)
    return {"skill": Choice(values=(None, *known))} if known else {}


def roll_asked(state: ConstitutionTable, ask: Ask, dice: DiceSource) -> list[Event]:
    """The character's check of what was asked against the referee's DC, with their
    deprivation penalty (C3-A62); the dice are the character's, shown to their player even
    when the DC and verdict are kept."""
    seat = state.characters.get(ask.character)
    if seat is None:
        raise ConstitutionError(f"no character {ask.character!r} at this table")
    what = ASKS.read(ask)
    with rolled_for(ask.character):
        result = character_check(
            seat.sheet,
            what.ability,
            NORMAL_DC if ask.dc is None else ask.dc,
            dice,
            skill=what.skill,
            modifier=seat.penalty(state.options),
            advantage=what.advantage,
            disadvantage=what.disadvantage,
            options=state.options,
        )
    keeper = ask.character if ask.dc_shown else GM_KEEPS
    line = RulesEvent.told(
        "check",
        f"{seat.sheet.name} checks {what.ability}, as the GM asked: ",
        *result.told(ask.character, against=keeper, verdict=keeper),
        dice=(result.roll,),
        roller=ask.character,
    )
    (told,) = protocol_events([line], {GM_KEEPS})
    facts = {
        **result.model_dump(mode="json"),
        "success": result.success,
        "character": ask.character,
    }
    return [told.model_copy(update={"data": {**told.data, **facts}})]


ASKS: AskDesk[ConstitutionTable, AskedCheck] = AskDesk(
    AskedCheck,
    said,
    {"ability": "wits"},
    characters,
    roll_asked,
    dc_example=None,  # an empty DC is the normal 20 (§ 3.6), which the help says
    picks=skill_picks,
)
"""The referee's asks at a Constitution table."""
