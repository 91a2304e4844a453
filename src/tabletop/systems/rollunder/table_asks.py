"""The GM asks a player for an ability roll (§ Ability Rolls; CR-S12): which ability, and
the number the d20 must roll equal or under, the character's own score unless the GM names
another ("the DC"), which the player sees or does not. The player answers with one tap; a
number the GM keeps, and whether the roll passed it, are the GM's part of the line.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from tabletop import kept
from tabletop.asks import GM_KEEPS, Ask, AskDesk, AskRoll
from tabletop.dice import DiceSource
from tabletop.session import Event, Frozen, Member, Seated, note, rolled_for
from tabletop.systems.rollunder.abilities import Roller, ScoreOutcome, ScoreRoll
from tabletop.systems.rollunder.character import MAX_SCORE
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.intents import AbilityRollIntent
from tabletop.systems.rollunder.options import AGI, STR, WIT
from tabletop.systems.rollunder.resolution import no_rerolls, resolve
from tabletop.systems.rollunder.table import RollUnderTable
from tabletop.systems.rollunder.table_rules import start


class AskedRoll(Frozen):
    """What the GM asks a character to roll: one of the table's abilities."""

    ability: str = Field(min_length=1, max_length=8, json_schema_extra={"enum": [STR, AGI, WIT]})
    """One of the table's abilities; a form lists the chapter's three (CR-G01)."""


def said(what: AskedRoll) -> str:
    """An asked roll as the log says it: "an AGI roll"."""
    return f"an {what.ability} roll" if what.ability[0] in "AEIOU" else f"a {what.ability} roll"


def characters(state: RollUnderTable) -> dict[str, Seated]:
    """Who the GM may ask: the players' characters alive at the table."""
    return {
        cid: Seated(seat.sheet.name, seat.owner)
        for cid, seat in state.characters.items()
        if not (seat.secret or seat.npc) and seat.sheet.alive
    }


def check_asked(state: RollUnderTable, what: AskedRoll) -> None:
    """Refuse an ask of an ability the table's sheets do not have (CR-G01)."""
    if what.ability not in state.options.abilities:
        known = ", ".join(state.options.abilities)
        raise RollUnderError(f"an ability roll is of {known}, not {what.ability!r}")


def refused(state: RollUnderTable, intent: AskRoll[AskedRoll]) -> None:
    """An ask for an ability the table's sheets do not have is refused when asked."""
    check_asked(state, intent.what)


def roll_asked(
    state: RollUnderTable, ask: Ask, dice: DiceSource
) -> list[Event] | tuple[RollUnderTable, list[Event]]:
    """The character's ability roll against their score or the GM's number (a number
    under 0 rolls as 0, over the limit as the limit), with the extra STR roll of an
    encumbered AGI roll and an incapacitated character's fail as any ability roll has
    them (CR-A02, CR-A21); the dice are the character's, shown to their player even when
    the number and the verdict are kept. Against their own score it is their ordinary
    ability roll, omen re-rolls and all (CR-A10); against the GM's number, one tap."""
    seat = state.characters.get(ask.character)
    if seat is None:
        raise RollUnderError(f"no character {ask.character!r} at this table")
    what = ASKS.read(ask)
    check_asked(state, what)
    if ask.dc is None:
        own = AbilityRollIntent(character=ask.character, ability=what.ability)
        with rolled_for(ask.character):
            return start(state, own, Member.gm(), dice)
    roller = Roller.of(seat.sheet, what.ability, state.options)
    dc = min(max(ask.dc, 0), MAX_SCORE)
    roller = roller.model_copy(update={"score": dc, "omens": 0})  # one tap (CR-S12)
    rule = ScoreRoll(rollers=(roller,), ability=what.ability)
    with rolled_for(ask.character):
        done = resolve(rule, dice, state.options, no_rerolls)
    keeper = ask.character if ask.dc_shown else GM_KEEPS
    name = seat.sheet.name
    told = [
        note(e.kind, _line(name, e.kind, e.values, e.text, keeper), character=ask.character)
        for e in done.events
    ]
    outcome = done.outcome
    assert isinstance(outcome, ScoreOutcome)
    verdict = kept.secret(keeper, "passes" if outcome.passed else "fails")
    told.append(
        note(
            "outcome",
            f"{name}'s {what.ability} roll, as the GM asked: {verdict}",
            character=ask.character,
        )
    )
    return told


def _line(name: str, kind: str, values: dict[str, Any], text: str, keeper: str) -> str:
    """One roll of the asked roll, the number rolled against and its verdict the keeper's
    (the GM's when kept); a roll settled without a die as the rules tell it."""
    if kind not in ("ability_roll", "strength_roll"):
        return text
    score = values["score"] if kind == "strength_roll" else kept.secret(keeper, values["score"])
    verdict = kept.secret(keeper, "pass" if values["passed"] else "fail")
    extra = " (the extra roll of an encumbered AGI roll)" if kind == "strength_roll" else ""
    return f"{name} rolls {values['face']} against {values['ability']} {score}: {verdict}{extra}"


ASKS: AskDesk[RollUnderTable, AskedRoll] = AskDesk(
    AskedRoll, said, {"ability": "AGI"}, characters, roll_asked, refuse=refused, dc_example=None
)
"""The GM's asks at a roll-under table."""
