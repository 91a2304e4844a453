"""The party's days on the road at a table (articles 6, 13 and 15 together): the clock the
referee keeps, the rations each character carries, and the end of a day, when everyone eats,
drinks and sleeps, and wakes to a fresh hit-point roll.

The clock and the supplies outlive a scene: a campaign keeps them (docs/campaigns.md).
Readings: docs/rules/constitution.md, C3-A56 to C3-A62.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.systems.constitution.character import Character
from tabletop.systems.constitution.encumbrance import SPEED
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.health import good_night
from tabletop.systems.constitution.models import Event, Model
from tabletop.systems.constitution.options import DEFAULT, Options
from tabletop.systems.constitution.survival import (
    Deprivation,
    Meal,
    Sleep,
    deprivation_injury,
    effects,
    pass_day,
)
from tabletop.systems.constitution.travel import TRAPPER_SPEED, TurnClock

MAX_RATIONS = 10_000
"""Rations of food or of water one character may carry on the record: a documented bound."""

DEHYDRATED_DRINK = 2
"""Carried rations a dehydrated character drinks to reset the penalty: one and a half
(§ 15.5), rounded up to whole rations (C3-A59)."""

Pace = Literal["unencumbered", "encumbered", "heavily_encumbered"]


class Supplies(Model):
    """Rations of food and of water a character carries (§ 15.1)."""

    food: int = Field(default=0, ge=0, le=MAX_RATIONS)
    water: int = Field(default=0, ge=0, le=MAX_RATIONS)


class Clock(Model):
    """The referee's clock of the party's days (§ 13.3): the day, the exploration turns and
    lights of that day, and what the day has held so far."""

    day: int = Field(default=1, ge=1)
    turns: TurnClock = TurnClock()
    marched: bool = False
    """The day's march is done; the next is after camp."""
    miles: Fraction = Field(default=Fraction(0), ge=0)
    """Miles marched since the clock started."""
    day_lost: Fraction = Field(default=Fraction(0), ge=0, le=1)
    """Share of today's march hunting has taken: the worst hunter's loss (§ 13.8)."""
    hunted: tuple[str, ...] = ()
    """Characters (by id) who have hunted or foraged today."""


def march_speed(pace: Pace, *, deprived: bool, trapping: bool, day_lost: Fraction) -> Fraction:
    """The party's speed factor for a day's march (C3-A32, C3-A57): its encumbrance, half
    when anyone's deprivation halves their speed (§ 15.7), −25% while setting traps (§ 10.2),
    and what is left of the day after hunting (§ 13.8)."""
    speed = SPEED[pace] * (1 - day_lost)
    if deprived:
        speed /= 2
    if trapping:
        speed *= TRAPPER_SPEED
    return speed


def end_of_day(
    character: Character,
    state: Deprivation,
    supplies: Supplies,
    dice: DiceSource,
    *,
    marched: bool,
    water_found: bool,
    sleep: Sleep,
    options: Options = DEFAULT,
) -> tuple[Character, Deprivation, Supplies, list[Event]]:
    """A character's evening and night (§ 15.1–15.7, § 6.5): a ration of food eaten if
    carried, water found or drunk from what is carried, the day passed with a march counting
    as exertion (C3-A58), the daily injury saves when deprivation calls for them, and after a
    good night's sleep the morning hit-point roll (C3-A60)."""
    if character.dead or state.dead:
        raise ConstitutionError(f"{character.name} is dead")
    meal: Meal = "full" if supplies.food >= 1 else "none"
    needed = DEHYDRATED_DRINK if state.dehydration else 1
    drank = water_found or supplies.water >= needed
    supplies = supplies.evolve(
        food=supplies.food - (meal == "full"),
        water=supplies.water - (0 if water_found or not drank else needed),
    )
    events = [_supper(character, meal, water_found, drank)]
    state, passed = pass_day(
        state,
        character,
        dice,
        meal=meal,
        exerted=marched,
        drank=drank,
        slept=sleep,
        options=options,
    )
    events += passed
    if state.dead:
        return character.evolve(dead=True, standing=False), state, supplies, events
    character, _, hurt = deprivation_injury(character, state, dice, options)
    events += hurt
    if sleep == "well" and not character.dead:
        tired = effects(state, character.abilities.strength, options)["morning_fatigue"]
        character, morning = good_night(character, dice, morning_fatigue=int(tired))
        events += morning
    return character, state, supplies, events


def _supper(character: Character, meal: Meal, water_found: bool, drank: bool) -> Event:
    """What a character ate and drank at the day's end, in words."""
    food = "eats a ration" if meal == "full" else "has nothing to eat"
    water = "water found on the way" if water_found else "a carried ration of water"
    drink = f"drinks ({water})" if drank else "has nothing to drink"
    return Event(kind="supper", message=f"{character.name} {food} and {drink}")
