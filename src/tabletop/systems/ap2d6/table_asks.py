"""The GM asks a player for a check at a 2d6 table (§ A Simple Example of a "Check": "your
GM tells you to roll agility … The GM knows the DC"; RU-S08): a score, against the GM's DC
shown or kept, or against none for the GM to judge; the player answers with one tap. A
kept DC and the verdict it decides are the GM's parts of the line."""

from __future__ import annotations

from pydantic import Field

from tabletop import kept
from tabletop.asks import Ask, AskDesk
from tabletop.dice import DiceSource
from tabletop.kept import GM_KEEPS
from tabletop.session import Event, Frozen, Seated, note, rolled_for
from tabletop.systems.ap2d6.checks import check
from tabletop.systems.ap2d6.rounds import double_six_temp_ap
from tabletop.systems.ap2d6.scores import STANDARD_SCORES
from tabletop.systems.ap2d6.table import Ap2d6Table, fight_of, sheet_of, with_fight
from tabletop.systems.ap2d6.table_checks import CheckIntent, judged
from tabletop.systems.ap2d6.told import told


class AskedCheck(Frozen):
    """What the GM asks a character to check: one score."""

    score: str = Field(
        min_length=1, max_length=40, json_schema_extra={"enum": list(STANDARD_SCORES)}
    )
    """Any score's name; a form lists the book's standard six (RU-M03), whose words say
    each."""


def said(what: AskedCheck) -> str:
    """An asked check as the log says it: "an AGI check"."""
    article = "an" if what.score[:1].upper() in "AEIOU" else "a"
    return f"{article} {what.score} check"


def players_characters(state: Ap2d6Table) -> dict[str, Seated]:
    """Who the GM may ask: each character a player plays (an NPC's rolls are the GM's)."""
    return {
        cid: Seated(seat.sheet.name, seat.owner)
        for cid, seat in state.characters.items()
        if seat.npc is None
    }


def roll_asked(state: Ap2d6Table, ask: Ask, dice: DiceSource) -> tuple[Ap2d6Table, list[Event]]:
    """2d6 + the score against the GM's DC, a set DC a tie meets (RU-A01); with no DC, the
    total for the GM to judge (RU-S06). A kept DC and its verdict are the GM's parts; in a
    fight, double 6s give a temp AP as any check there does (RU-A13)."""
    what = ASKS.read(ask)
    sheet = sheet_of(state, ask.character)
    fight = fight_of(state, sheet.name)
    if ask.dc is None:
        intent = CheckIntent(character=ask.character, score=what.score)
        with rolled_for(ask.character):
            return judged(state, intent, sheet, fight, dice)
    with rolled_for(ask.character):
        result = check(
            sheet.score(what.score),
            ask.dc,
            dice,
            modifier=sheet.check_modifier(what.score),
            options=state.options,
        )
    keeper = None if ask.dc_shown else GM_KEEPS
    verdict = ("success" if result.success else "failure") + (
        f" ({result.reason})" if result.reason else ""
    )
    if result.roll is None:
        rolled = f"{sheet.name} ({what.score}): fails: {result.reason}"
    else:
        bonus = (result.score or 0) + result.modifier
        dc = ask.dc if keeper is None else kept.secret(keeper, ask.dc)
        said_verdict = verdict if keeper is None else kept.secret(keeper, verdict)
        rolled = (
            f"{sheet.name} ({what.score}), as the GM asked: "
            f"{result.roll} {bonus:+d} = {result.total} vs DC {dc}: {said_verdict}"
        )
    events = [note("check", rolled, **result.model_dump(mode="json"), character=ask.character)]
    if fight is None:
        return state, events
    fight, temp = double_six_temp_ap(fight, sheet.name, result.roll, False, state.options)
    return with_fight(state, fight), events + told(temp, state.owners, sheet.name)


ASKS: AskDesk[Ap2d6Table, AskedCheck] = AskDesk(
    AskedCheck, said, {"score": "AGI"}, players_characters, roll_asked
)
"""The GM's asks at a 2d6 table."""
