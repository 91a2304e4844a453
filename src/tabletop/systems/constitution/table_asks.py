"""The referee asks a player for a check (article 3; docs/rules/constitution.md C3-S05): an
ability, scaled by a skill if named (§ 4.10), with the advantage or disadvantage dice the
referee gives (§ 3.8), against the referee's DC, shown or kept; the player answers with one
tap. A kept DC, and the verdict and degrees it decides, are the GM's part of the line.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.asks import GM_KEEPS, Ask, AskDesk, AskRoll
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
    """The skills the GM's ask picks from, for the character asked: those on the referee's
    list and those that character has a rating for (C3-S05); the ability alone where no
    character has any."""
    each = {cid: (None, *askable(state, cid)) for cid in state.characters}
    if not any(len(skills) > 1 for skills in each.values()):
        return {"skill": Choice(values=(None,))}
    return {"skill": Choice(follows="character", each=each)}


def askable(state: ConstitutionTable, cid: str) -> list[str]:
    """The skills a check asked of character `cid` may name: rated, or on the referee's list
    for the group to rate when it is first used (§ 4.11)."""
    return sorted(set(state.skills) | set(state.characters[cid].sheet.skills))


def refuse_skill(state: ConstitutionTable, intent: AskRoll[AskedCheck]) -> None:
    """Refuse an ask of a skill the character can never roll: one they have no rating for
    that the referee's list does not hold either (C3-S05)."""
    seat = state.characters.get(intent.character)
    skill = intent.what.skill
    if seat is None or skill is None or skill in askable(state, intent.character):
        return
    raise ConstitutionError(
        f"{seat.sheet.name} has no rating for {skill}, and the referee's skill list does not "
        "hold it: the group rates it first (§ 4.11), or the referee writes it on the list"
    )


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
    refuse=refuse_skill,
    dc_example=None,  # an empty DC is the normal 20 (§ 3.6), which the help says
    picks=skill_picks,
)
"""The referee's asks at a Constitution table."""
