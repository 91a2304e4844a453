"""Harm, healing, rest and the hidden death checks at a 2d6 table (§ Resting and Healing,
§ Death and Dying). The death DC is the GM's secret (RU-M37): the GM rolls it when a
character goes down, sees every verdict against it, and may reveal it; until then no
player receives it, not even in the draws of their own death check."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.asks import gm_lever
from tabletop.dice import DiceSource
from tabletop.offers import Choice, Offer, offer
from tabletop.session import CharacterIntent, Event, Member, hidden, note, rolled_for
from tabletop.systems.ap2d6 import health
from tabletop.systems.ap2d6.events import Event as RulesEvent
from tabletop.systems.ap2d6.options import Options
from tabletop.systems.ap2d6.rounds import death_check
from tabletop.systems.ap2d6.sheet import Character
from tabletop.systems.ap2d6.table import (
    Ap2d6Table,
    fight_of,
    in_fight,
    sheet_of,
    with_fight,
    with_sheet,
)
from tabletop.systems.ap2d6.told import told


class Damage(CharacterIntent):
    """Harm: at 0 HP or below the character is down and the GM's secret DC is rolled."""

    kind: Literal["damage"] = "damage"
    amount: int = Field(ge=1, le=1000)
    is_hit: bool = True


class Heal(CharacterIntent):
    kind: Literal["heal"] = "heal"
    amount: int = Field(ge=1, le=1000)


class Rest(CharacterIntent):
    """Hours of rest, spending recovery dice (RU-M33)."""

    kind: Literal["rest"] = "rest"
    hours: int = Field(ge=1, le=1000)
    recovery_dice: int = Field(default=0, ge=0, le=100)


class DeathCheckIntent(CharacterIntent):
    kind: Literal["death-check"] = "death-check"


class CheckOn(CharacterIntent):
    """Someone goes to a downed character and finds out how it went (RU-M38)."""

    kind: Literal["check-on"] = "check-on"


class RevealDeathDc(CharacterIntent):
    """The GM shows everyone a character's death DC."""

    kind: Literal["reveal-death-dc"] = "reveal-death-dc"


HealthIntent = Damage | Heal | Rest | DeathCheckIntent | CheckOn | RevealDeathDc


def rest_offers(mine: tuple[str, ...], heals: bool) -> list[Offer]:
    """Rest for the member's characters, and healing for whoever gives it at this table:
    the GM, unless handed over (RU-S06)."""
    if not mine:
        return []
    healing = [
        offer(
            "heal",
            "regain health",
            character=Choice(values=mine),
            amount=Choice(help="HP", example=3),
        )
    ]
    return [
        *(healing if heals else []),
        offer(
            "rest",
            "rest for some hours",
            character=Choice(values=mine),
            hours=Choice(help="hours", example=8),
        ),
    ]


def dying_offers(state: Ap2d6Table, mine: tuple[str, ...]) -> list[Offer]:
    """The death checks of the member's dying characters, and going to anyone downed whose
    fate is unknown."""
    found: list[Offer] = []
    dying = tuple(c for c in mine if _may_check_death(state, c))
    if dying:
        found.append(offer("death-check", "a death check", character=Choice(values=dying)))
    everyone = tuple(state.characters)
    unknown = tuple(c for c in everyone if health.fate_unknown(state.characters[c].sheet))
    if unknown:
        found.append(
            offer("check-on", "go to a downed character", character=Choice(values=unknown))
        )
    return found


def harm_offers(everyone: tuple[str, ...]) -> list[Offer]:
    """Harm anyone: the GM's, unless handed over (RU-S06)."""
    if not everyone:
        return []
    return [
        offer(
            "damage",
            "harm a character",
            character=Choice(values=everyone),
            amount=Choice(help="damage", example=4),
        )
    ]


def reveal_offers(state: Ap2d6Table) -> list[Offer]:
    """The GM's: show a death DC still kept."""
    secret = tuple(
        c
        for c, seat in state.characters.items()
        if seat.sheet.dying is not None and c not in state.revealed
    )
    if not secret:
        return []
    return [offer("reveal-death-dc", "show everyone a death DC", character=Choice(values=secret))]


def _may_check_death(state: Ap2d6Table, cid: str) -> bool:
    sheet = state.characters[cid].sheet
    if sheet.life != "dying" or sheet.dying is None or not sheet.dying.rolling:
        return False
    fight = state.fight
    if fight is None or not in_fight(fight, sheet.name):
        return True
    return sheet.name not in fight.death_checked


def health_step(
    state: Ap2d6Table, intent: HealthIntent, member: Member, dice: DiceSource
) -> tuple[Ap2d6Table, list[Event]]:
    """What harm, healing, rest or dying does to one character; harm and healing are the
    GM's to give unless the table hands them over (RU-S06)."""
    options = state.options
    sheet = sheet_of(state, intent.character)
    if isinstance(intent, Damage | Heal):
        what = "harm" if isinstance(intent, Damage) else "healing"
        gm_lever(member, options.players_set_difficulty, what)
    if isinstance(intent, RevealDeathDc):
        assert sheet.dying is not None
        shown = note(
            "death DC shown",
            f"{sheet.name}'s death DC was {sheet.dying.dc}",
            character=intent.character,
            dc=sheet.dying.dc,
        )
        return state.model_copy(update={"revealed": (*state.revealed, intent.character)}), [shown]
    if isinstance(intent, CheckOn):
        with rolled_for(intent.character):  # what dying cost them is rolled for them
            sheet, events = health.check_on(sheet, dice, options=options)
        return with_sheet(state, intent.character, sheet), told(events, state.owners, sheet.name)
    fight = fight_of(state, sheet.name)
    if isinstance(intent, DeathCheckIntent) and fight is not None:
        with rolled_for(intent.character):
            fight, events = death_check(fight, sheet.name, dice, options)
        return with_fight(state, fight), told(events, state.owners, sheet.name)
    if isinstance(intent, Damage):  # the death DC it may roll is the GM's: nobody's dice
        sheet, events = health.take_damage(sheet, intent.amount, dice, is_hit=intent.is_hit)
    else:
        with rolled_for(intent.character):  # their death checks, recovery dice, consequences
            sheet, events = _recovered(sheet, intent, dice, options)
    return with_sheet(state, intent.character, sheet), told(events, state.owners, sheet.name)


def _recovered(
    sheet: Character, intent: DeathCheckIntent | Heal | Rest, dice: DiceSource, options: Options
) -> tuple[Character, list[RulesEvent]]:
    """A death check out of a fight, healing or rest: what the character rolls for it."""
    if isinstance(intent, DeathCheckIntent):
        return health.death_check(sheet, dice, options=options)
    if isinstance(intent, Heal):
        return health.heal(sheet, intent.amount, dice, options=options)
    return health.rest(sheet, intent.hours, intent.recovery_dice, dice, options=options)


def sheet_view(sheet: Character, everything: bool) -> dict[str, Any]:
    """A sheet as one member sees it. Until the GM reveals it, a player sees of a death record
    their own rolls and whether to keep rolling, never the DC, a verdict or a margin, and of
    a downed character only that they are down until someone checks (RU-M37, RU-M38)."""
    data = sheet.model_dump(mode="json")
    data["public_life"] = sheet.public_life
    if everything:
        return data
    if sheet.life != "up" and not (sheet.life == "dead" and sheet.public_life == "dead"):
        data["life"] = hidden("how it goes while down, until someone checks")
    record = sheet.dying
    if record is not None:
        dying = data["dying"]
        dying["dc_roll"] = hidden("the GM's death DC")
        for mark in dying["checks"]:
            mark["success"] = hidden("the verdict against the DC")
            mark["margin"] = hidden("the margin")
        if record.end is not None and not record.revealed:
            dying["end"] = hidden("how it ended, until someone checks")
        for consequence in dying["consequences"]:
            consequence["margin"] = hidden("the margin")
    return data
