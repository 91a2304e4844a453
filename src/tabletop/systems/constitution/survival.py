"""Food, water and exhaustion (article 15): fasting, starvation, dehydration and lack of sleep
as penalties on every check, and what their total does to a character.

`Deprivation` is one character's state, advanced a day at a time by `pass_day`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.systems.constitution.character import Character
from tabletop.systems.constitution.check import Check, check
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.health import Injury, injury_saves
from tabletop.systems.constitution.models import Event, Model
from tabletop.systems.constitution.options import DEFAULT, Options

FASTING_PENALTY = -2
STARVATION_STEP = -2
DEHYDRATION_PASSED = -4
DEHYDRATION_FAILED = -6
DEHYDRATION_DC = 20
DEHYDRATION_DEATHS = 3
"""Failed water saves before drinking one's fill that kill (§ 15.5)."""
SLEEP_STEP = -4
POOR_SLEEP_PENALTY = -2
STAY_AWAKE_DC = 25
DEPRIVATION_INJURY_DC = 20
MAX_RECOVERY_DAYS = 30
"""'Up to a maximum of a month' read as 30 days (C3-A30)."""

Meal = Literal["full", "half", "none"]
Sleep = Literal["well", "badly", "none"]


class Deprivation(Model):
    """Hunger, thirst and sleeplessness of one character."""

    fasting: bool = False
    fasting_days: int = Field(default=0, ge=0)
    """Length of the fast before any starvation: the days it takes to end it (§ 15.2, 15.4)."""
    strain: int = Field(default=0, ge=0)
    starving: bool = False
    starving_days: int = Field(default=0, ge=0)
    eaten_well: int = Field(default=0, ge=0)
    """Days in a row of normal meals towards ending starvation or the fast."""
    dehydration: int = Field(default=0, le=0)
    failed_water_saves: int = Field(default=0, ge=0)
    hours_awake: int = Field(default=0, ge=0)
    poor_sleep: bool = False
    dead: bool = False


def strain_threshold(strength: int, options: Options = DEFAULT) -> int:
    """Days of strain before fasting turns to starvation (§ 15.3; C3-A23)."""
    if options.starvation_threshold == "three":
        return 3
    return max(1, math.floor(Fraction(strength, 3) + Fraction(1, 2)))


def starvation_penalty(state: Deprivation, strength: int, options: Options = DEFAULT) -> int:
    """−2 per day of strain while starving, on top of fasting (§ 15.4; C3-A24)."""
    if not state.starving:
        return 0
    days = state.strain - strain_threshold(strength, options)
    if options.starvation_penalty_start == "with_trigger":
        days += 1
    return STARVATION_STEP * max(0, days)


def sleep_penalty(state: Deprivation) -> int:
    """−4 per 24 hours awake after the first; −2 after sleeping badly (§ 15.6; C3-A28)."""
    periods = max(0, state.hours_awake // 24 - 1)
    return SLEEP_STEP * periods + (POOR_SLEEP_PENALTY if state.poor_sleep else 0)


def penalties(state: Deprivation, strength: int, options: Options = DEFAULT) -> dict[str, int]:
    """Each deprivation penalty on all checks, by cause."""
    hunger = FASTING_PENALTY if (state.fasting or state.starving) else 0
    return {
        "fasting": hunger,
        "starvation": starvation_penalty(state, strength, options),
        "dehydration": state.dehydration,
        "sleep": sleep_penalty(state),
    }


def total_penalty(state: Deprivation, strength: int, options: Options = DEFAULT) -> int:
    """The sum of every deprivation penalty, applied to all checks (§ 15.2–15.7)."""
    return sum(penalties(state, strength, options).values())


EFFECTS_TOLD = {
    "half_speed": "travels overland at half speed (§ 15.7)",
    "morning_fatigue": "starts the day with a point of fatigue (§ 15.7)",
    "daily_injury_save": "must make an injury save each day (§ 15.7)",
}
"""What each effect of the combined penalty does, as the log says it."""


def effects(state: Deprivation, strength: int, options: Options = DEFAULT) -> dict[str, bool]:
    """What the combined penalty does (§ 15.7): at half the strength score, half speed and a
    point of fatigue each morning; at the full score, an injury save every day."""
    size = -total_penalty(state, strength, options)
    return {
        "half_speed": 2 * size >= strength and size > 0,
        "morning_fatigue": 2 * size >= strength and size > 0,
        "daily_injury_save": size >= strength and size > 0,
    }


def _eat(state: Deprivation, meal: Meal, exerted: bool, character: Character, options: Options):
    """One day's food (§ 15.2–15.4)."""
    name, strength = character.name, character.abilities.strength
    events = []
    if meal == "full":
        if not (state.fasting or state.starving):
            return state, events
        eaten = state.eaten_well + 1
        if state.starving:
            if eaten >= state.starving_days:
                events.append(
                    Event(kind="starvation_ends", message=f"{name}: starvation ends; still fasting")
                )
                return state.evolve(starving=False, starving_days=0, eaten_well=0), events
            return state.evolve(eaten_well=eaten), events
        if eaten >= min(state.fasting_days, MAX_RECOVERY_DAYS):
            events.append(Event(kind="fast_ends", message=f"{name}'s fast is over"))
            return Deprivation(
                dehydration=state.dehydration,
                failed_water_saves=state.failed_water_saves,
                hours_awake=state.hours_awake,
                poor_sleep=state.poor_sleep,
            ), events
        return state.evolve(eaten_well=eaten), events
    if not state.fasting:
        events.append(Event(kind="fasting", message=f"{name} is fasting: −2 to all checks"))
    strain = state.strain + (meal == "none") + exerted
    starving = state.starving or strain >= strain_threshold(strength, options)
    if starving and not state.starving:
        events.append(Event(kind="starving", message=f"{name}: starvation sets in"))
    return state.evolve(
        fasting=True,
        fasting_days=state.fasting_days + (0 if state.starving else 1),
        strain=strain,
        starving=starving,
        starving_days=state.starving_days + (1 if state.starving else 0),
        eaten_well=0,
    ), events


def _drink(
    state: Deprivation, drank: bool, character: Character, dice: DiceSource, options: Options
) -> tuple[Deprivation, list[Event], Check | None]:
    """One day's water (§ 15.5): without it, a strength save sets the penalty. The save is a
    check like any other, so the deprivation penalties already in force apply (C3-A51)."""
    if drank:
        return state.evolve(dehydration=0, failed_water_saves=0), [], None
    strength = character.abilities.strength
    score = strength + total_penalty(state, strength, options)
    save = check(score, DEHYDRATION_DC, dice, options=options)
    penalty = DEHYDRATION_PASSED if save.success else DEHYDRATION_FAILED
    if options.dehydration == "cumulative":
        penalty += state.dehydration
    failures = state.failed_water_saves + (0 if save.success else 1)
    events = [
        Event(
            kind="thirst",
            message=f"{character.name} goes a day without water: " + save.describe(),
            dice=(save.roll,),
        )
    ]
    dead = failures >= DEHYDRATION_DEATHS
    if dead:
        events.append(Event(kind="dead", message=f"{character.name} dies of thirst"))
    return state.evolve(dehydration=penalty, failed_water_saves=failures, dead=dead), events, save


def _sleep(state: Deprivation, slept: Sleep) -> Deprivation:
    """One night (§ 15.6): well clears the penalty; badly brings a penalty to −2 (and leaves
    a rested character unpenalised, C3-A28); none adds a day awake."""
    if slept == "well":
        return state.evolve(hours_awake=0, poor_sleep=False)
    if slept == "badly":
        return state.evolve(hours_awake=0, poor_sleep=sleep_penalty(state) != 0)
    return state.evolve(hours_awake=state.hours_awake + 24)


def pass_day(
    state: Deprivation,
    character: Character,
    dice: DiceSource,
    *,
    meal: Meal = "full",
    exerted: bool = False,
    drank: bool = True,
    slept: Sleep = "well",
    options: Options = DEFAULT,
) -> tuple[Deprivation, list[Event]]:
    """A day of food, water and sleep; reports the penalty and its effects (§ 15.1–15.7)."""
    if state.dead:
        raise ConstitutionError(f"{character.name} is dead")
    strength = character.abilities.strength
    state, events = _eat(state, meal, exerted, character, options)
    state, thirst, _ = _drink(state, drank, character, dice, options)
    state = _sleep(state, slept)
    events += thirst
    penalty = total_penalty(state, strength, options)
    if penalty:
        events.append(Event(kind="penalty", message=f"{character.name}: {penalty} to all checks"))
    for effect, applies in effects(state, strength, options).items():
        if applies:
            events.append(Event(kind=effect, message=f"{character.name} {EFFECTS_TOLD[effect]}"))
    return state, events


def stay_awake(
    character: Character, state: Deprivation, dice: DiceSource, options: Options = DEFAULT
) -> Check:
    """Staying awake sitting or lying down while exhausted: a will check at DC 25 each turn
    (§ 15.6), with the deprivation penalty on it."""
    if sleep_penalty(state) == 0:
        raise ConstitutionError(f"{character.name} is not exhausted; no check is needed")
    score = character.abilities.will + total_penalty(state, character.abilities.strength, options)
    return check(score, STAY_AWAKE_DC, dice, options=options)


def deprivation_injury(
    character: Character, state: Deprivation, dice: DiceSource, options: Options = DEFAULT
) -> tuple[Character, Injury | None, list[Event]]:
    """The daily injury saves at DC 20 once the combined penalty reaches the strength score
    (§ 15.7; C3-A29: both saves, no overflow), with that penalty on them (C3-A51)."""
    strength = character.abilities.strength
    if not effects(state, strength, options)["daily_injury_save"]:
        return character, None, []
    penalty = total_penalty(state, strength, options)
    return injury_saves(character, DEPRIVATION_INJURY_DC, dice, modifier=penalty, options=options)
