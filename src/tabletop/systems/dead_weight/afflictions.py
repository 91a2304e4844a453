"""Gaining and losing afflictions, and the quirks that change how that happens.

What each affliction does is wired into the rule it changes (tests, fatigue, healing,
trackers); here is only when one starts and when one ends (DW-M54)."""

from __future__ import annotations

from enum import StrEnum

from tabletop.dice import DiceSource, RolledRisk, roll
from tabletop.systems.dead_weight.catalogue import Affliction, QuirkRule
from tabletop.systems.dead_weight.character import Character, revise
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event, event
from tabletop.words import said

Change = tuple[Character, list[Event]]


class Remedy(StrEnum):
    """The ways the book names of ending afflictions (not the only ones: item and spell
    descriptions in other books add more, so `remove_affliction` also takes none)."""

    EAT_FOOD = "eat food"
    DRINK_WATER = "drink water"
    FIRST_AID = "bandage or first aid"
    CAMP = "camp"
    COFFEE = "coffee"
    WOUND_IN_COMBAT = "a wound in combat"
    TEA = "tea or hot chocolate"
    REST_IN_CAMP = "rest in the camp phase"
    POTION_OR_TONIC = "a potion or tonic"
    INTERLUDE = "the interlude"
    ALCOHOL = "wine or other alcohol"
    DEFEAT_A_CHALLENGING_FOE = "defeat a challenging foe"
    ESCAPE_THE_DUNGEON = "escape the dungeon alive"
    SURVIVE_A_CHALLENGING_FIGHT = "survive a challenging fight"
    MAGIC_OR_MIRACLE = "magic or a miracle"


CURES: dict[Remedy, tuple[Affliction, ...]] = {
    Remedy.EAT_FOOD: (Affliction.HUNGRY,),
    Remedy.DRINK_WATER: (Affliction.PARCHED,),
    Remedy.FIRST_AID: (Affliction.BLEEDING,),
    Remedy.CAMP: (Affliction.SLEEPY,),
    Remedy.COFFEE: (Affliction.SLEEPY,),
    Remedy.WOUND_IN_COMBAT: (Affliction.SLEEPY,),
    Remedy.TEA: (Affliction.ANGRY,),
    Remedy.REST_IN_CAMP: (Affliction.SHAKEN,),
    Remedy.POTION_OR_TONIC: (Affliction.NAUSEATED,),
    Remedy.INTERLUDE: (Affliction.NAUSEATED,),
    Remedy.ALCOHOL: (Affliction.TERRIFIED,),
    Remedy.DEFEAT_A_CHALLENGING_FOE: (Affliction.TERRIFIED,),
    Remedy.ESCAPE_THE_DUNGEON: (Affliction.HOPELESS,),
    Remedy.SURVIVE_A_CHALLENGING_FIGHT: (Affliction.HOPELESS,),
    Remedy.MAGIC_OR_MIRACLE: (Affliction.CURSED, Affliction.PLAGUED, Affliction.DOOMED),
}
"""Which afflictions each remedy the book names ends (§ Afflictions)."""


def gain_affliction(character: Character, affliction: Affliction, dice: DiceSource) -> Change:
    """Add an affliction (nothing if already held). An Extremely patient character about
    to become Angry rolls 2d! and stays calm if it triggers (quirk 23)."""
    if character.has(affliction):
        return character, [
            event("affliction ignored", f"{character.label} is already {affliction}")
        ]
    events: list[Event] = []
    if affliction == Affliction.ANGRY and character.has(QuirkRule.EXTREMELY_PATIENT):
        rolled = roll("2d!", dice)
        risk = rolled.pools()[0]
        assert isinstance(risk, RolledRisk)
        if risk.triggered:
            return character, [
                event(
                    "patience",
                    f"{character.label}'s patience, {said(rolled)}: it holds, not angry",
                    roll=rolled.to_json(),
                )
            ]
        events.append(
            event(
                "patience",
                f"{character.label}'s patience, {said(rolled)}: it fails",
                roll=rolled.to_json(),
            )
        )
    updated = revise(character, afflictions=(*character.afflictions, affliction))
    return updated, [
        *events,
        event("affliction", f"{character.label} is now {affliction}", affliction=affliction),
    ]


def choose_affliction(
    character: Character, offered: list[Affliction], chosen: Affliction, dice: DiceSource
) -> Change:
    """When a rule offers a choice of afflictions: an Irritable character must take Angry
    whenever it is offered (quirk 5)."""
    if chosen not in offered:
        raise DeadWeightError(f"choose one of {', '.join(offered)}")
    if (
        character.has(QuirkRule.IRRITABLE)
        and Affliction.ANGRY in offered
        and chosen != Affliction.ANGRY
    ):
        raise DeadWeightError("an irritable character always takes Angry when it is offered")
    return gain_affliction(character, chosen, dice)


def remove_affliction(
    character: Character, affliction: Affliction, remedy: Remedy | None = None
) -> Change:
    """End an affliction. With a `remedy`, it must be one the book names for it; without,
    the GM rules that something else (an item, a spell) ends it."""
    if not character.has(affliction):
        raise DeadWeightError(f"{character.label} is not {affliction}")
    if remedy is not None and affliction not in CURES[remedy]:
        raise DeadWeightError(f"{remedy} does not end {affliction}")
    if affliction == Affliction.SLEEPY and stays_sleepy(character):
        raise DeadWeightError("a coffee addict only shakes off Sleepy after coffee this expedition")
    kept = tuple(a for a in character.afflictions if a != affliction)
    updated = character.model_copy(update={"afflictions": kept})
    how = f" ({remedy})" if remedy else ""
    return updated, [event("affliction ended", f"{character.label} is no longer {affliction}{how}")]


def stays_sleepy(character: Character) -> bool:
    """A coffee addict shakes off Sleepy, by any remedy, only after a coffee this expedition
    (quirk 6). Coffee itself counts first, so it always works."""
    return character.has(QuirkRule.COFFEE_ADDICT) and not character.expedition.had_coffee


def drink_coffee(character: Character) -> Change:
    """Coffee ends Sleepy and counts for a coffee addict this expedition."""
    expedition = character.expedition.model_copy(update={"had_coffee": True})
    character = character.model_copy(update={"expedition": expedition})
    if character.has(Affliction.SLEEPY):
        return remove_affliction(character, Affliction.SLEEPY, Remedy.COFFEE)
    return character, [event("coffee", f"{character.label} drinks coffee")]
