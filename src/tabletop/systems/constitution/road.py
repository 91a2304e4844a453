"""The party's days on the road at a 3d6 Constitution table (articles 13 and 15 with 6.5):
the intents, what each member is offered, and the rules steps, on the table's clock and
each seat's rations and deprivation (tabletop.systems.constitution.expedition).

The referee keeps the time of day and the encounter checks (§ 13.3, § 13.5; C3-A61);
everything else on the road is said aloud. Readings: docs/rules/constitution.md, C3-A56 on.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.offers import Choice, Offer, offer
from tabletop.session import (
    CharacterIntent,
    Event,
    Frozen,
    Member,
    RollMode,
    Visibility,
    hidden,
    in_mode,
    note,
)
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.expedition import (
    MAX_RATIONS,
    Clock,
    Pace,
    end_of_day,
    march_speed,
)
from tabletop.systems.constitution.survival import Sleep, effects
from tabletop.systems.constitution.table import ConstitutionTable
from tabletop.systems.constitution.told import protocol_events
from tabletop.systems.constitution.travel import (
    LIGHT_TURNS,
    MAX_TURNS,
    MILES_PER_DAY,
    Leg,
    Method,
    Season,
    Terrain,
    Weather,
    dungeon_encounter,
    hunt,
    walk_day,
)
from tabletop.words import counted


class March(Frozen):
    """The party's day on the road (§ 13.4–13.5): as far as terrain, weather and pace allow,
    or `miles` if the goal is nearer; the referee's encounter checks on the way."""

    kind: Literal["march"] = "march"
    terrain: Terrain = "road"
    weather: Weather = "fair"
    pace: Pace = "unencumbered"
    """The slowest traveller's encumbrance (§ 14.13)."""
    miles: int | None = Field(default=None, ge=1, le=1_000)
    """Where the day's goal is nearer than a full day's march."""
    trapping: bool = False
    """A patient trapper sets traps on the way: −25% (§ 10.2)."""


class HuntIntent(CharacterIntent):
    """A character hunts or forages before the day's march (§ 13.6–13.9): rations on a
    success, part of the day's march lost."""

    kind: Literal["hunt"] = "hunt"
    method: Method = "ranged"
    terrain: Terrain = "plains"
    season: Season = "summer"
    skill: str = Field(default="hunting", min_length=1, max_length=60)
    rating: int | None = Field(default=None, ge=0, le=100)
    """The skill's rating, when the group sets it the first time it is used (§ 4.11)."""
    mode: RollMode = RollMode.PUBLIC


class Rations(CharacterIntent):
    """Rations of food and water a character takes on or hands over (§ 15.1)."""

    kind: Literal["rations"] = "rations"
    food: int = Field(default=0, ge=-MAX_RATIONS, le=MAX_RATIONS)
    water: int = Field(default=0, ge=-MAX_RATIONS, le=MAX_RATIONS)


class Camp(Frozen):
    """The day ends for the whole party: supper from their rations, the night's sleep, a
    fresh hit-point roll after a good one (§ 6.5, § 15; C3-A58…A60)."""

    kind: Literal["camp"] = "camp"
    sleep: Sleep = "well"
    water_found: bool = True
    """Water came to hand today, so no carried ration is drunk (§ 13.10)."""


class Explore(Frozen):
    """Exploration turns pass (§ 13.1–13.2): lights burn down; the referee's encounter
    checks, 1 in 6 each turn or each hour, if the place calls for them (§ 13.5)."""

    kind: Literal["explore"] = "explore"
    turns: int = Field(default=1, ge=1, le=MAX_TURNS)
    encounters: Literal["none", "each_turn", "each_hour"] = "none"


class LightIntent(CharacterIntent):
    """A character lights a torch, a candle or a lantern (§ 13.2)."""

    kind: Literal["light"] = "light"
    light: Literal["torch", "candle", "lantern"] = "torch"


TURNS_PER_HOUR = 6
"""Exploration turns in an hour (§ 13.1), for dungeon encounter checks once an hour."""


def road_offers(state: ConstitutionTable, member: Member, mine: tuple[str, ...]) -> list[Offer]:
    """The day on the road: the characters' own (hunting, rations, lights) and the
    referee's (the march, the camp, time passing)."""
    clock = state.clock
    living = tuple(c for c in mine if not state.characters[c].sheet.dead)
    hunters = tuple(c for c in living if c not in clock.hunted)
    found = []
    if hunters and not clock.marched:
        found.append(
            offer(
                "hunt",
                "hunt or forage before the march",
                character=Choice(values=hunters),
                method=Choice(values=("ranged", "traps", "forage")),
                terrain=Choice(values=tuple(MILES_PER_DAY)),
                season=Choice(values=("spring", "summer", "autumn", "winter")),
                rating=Choice(help="the skill's rating, set the first time it is used"),
                mode=Choice(values=tuple(RollMode)),
            )
        )
    if living:
        found += [
            offer(
                "rations",
                "take on or hand over rations",
                character=Choice(values=living),
                food=Choice(help="rations of food, + taken on, − handed over", example=3),
                water=Choice(help="rations of water, + taken on, − handed over", example=2),
            ),
            offer(
                "light",
                "light a torch, candle or lantern",
                character=Choice(values=living),
                light=Choice(values=tuple(LIGHT_TURNS)),
            ),
        ]
    if not member.is_gm:
        return found
    if not clock.marched and clock.day_lost < 1:
        found.append(
            offer(
                "march",
                "march for the day",
                terrain=Choice(values=tuple(MILES_PER_DAY)),
                weather=Choice(values=("fair", "rain", "snow", "wind", "storm")),
                pace=Choice(values=("unencumbered", "encumbered", "heavily_encumbered")),
                miles=Choice(help="stop sooner: the goal's distance in miles", example=None),
            )
        )
    if any(not seat.sheet.dead for seat in state.characters.values()):
        found.append(
            offer(
                "camp",
                "make camp: supper, the night, the morning's HP",
                sleep=Choice(values=("well", "badly", "none")),
                water_found=Choice(values=(True, False)),
            )
        )
    found.append(
        offer(
            "explore",
            "let exploration turns pass",
            turns=Choice(help="ten-minute turns", example=3),
            encounters=Choice(values=("none", "each_turn", "each_hour")),
        )
    )
    return found


def why_not_on_the_road(state: ConstitutionTable, kind: str) -> str:
    """Why an intent of `kind` is not open now, in the words of the day's order (C3-A56)."""
    clock = state.clock
    if kind == "march" and clock.marched:
        return "the party has marched today: make camp first"
    if kind == "march" and clock.day_lost >= 1:
        return "hunting has taken the whole day: make camp"
    if kind == "hunt" and clock.marched:
        return "the party has marched today: hunt tomorrow, before the march"
    if kind == "hunt":
        return "that character has hunted today already, or is not yours"
    return f"no {kind} is open now"


ENCOUNTER_HINT = "the GM rolls for encounters"
FURTHER_THAN_A_DAY = 1_000
"""Miles of a march with no nearer goal: more than any day covers (24 at best, § 13.4)."""
TIME_HINT = "time passes"

OVER = {
    "road": "country roads",
    "plains": "plains",
    "trail": "wilderness trails",
    "desert": "desert",
    "hills": "hills",
    "forest": "forest",
    "jungle": "jungle",
    "mountains": "mountains",
    "swamp": "swamp",
}
"""Each terrain as a march's line says it (§ 13.4)."""

HUNTING = {
    "ranged": "hunts with a ranged weapon",
    "traps": "hunts with traps",
    "forage": "forages",
}
"""Each way of finding food as a hunt's line says it (§ 13.6, § 13.9)."""


def march(
    state: ConstitutionTable, intent: March, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """The party's day's march, and the referee's encounter checks kept from the players
    (§ 13.5; C3-A61)."""
    clock = state.clock
    if clock.marched:
        raise ConstitutionError("the party has marched today: make camp first")
    if clock.day_lost >= 1:
        raise ConstitutionError("hunting has taken the whole day: make camp")
    travellers = [seat for seat in state.characters.values() if not seat.sheet.dead]
    deprived = any(
        effects(seat.deprivation, seat.sheet.abilities.strength, state.options)["half_speed"]
        for seat in travellers
    )
    speed = march_speed(
        intent.pace, deprived=deprived, trapping=intent.trapping, day_lost=clock.day_lost
    )
    leg = Leg(terrain=intent.terrain, miles=intent.miles or FURTHER_THAN_A_DAY)
    day, _ = walk_day(clock.day, [leg], intent.weather, dice, speed=speed)
    walked = day.miles
    shown = f"{float(walked):.3g}"
    marched = note(
        "march",
        f"day {clock.day}: the party marches {shown} miles over {OVER[intent.terrain]} "
        f"({intent.weather}, {intent.pace.replace('_', ' ')})",
        day=clock.day,
        miles=str(walked),
        terrain=intent.terrain,
        weather=intent.weather,
        speed=str(speed),
        encounter_checks=day.encounter_checks,
    )
    found = counted(day.encounters, "encounter") if day.encounters else "no encounter"
    checks = note(
        "encounter-check",
        f"encounter checks on day {clock.day}: {found} in {day.encounter_checks} (1 in 3 each)",
        encounters=day.encounters,
        dice=[record.model_dump(mode="json") for record in day.dice],
    ).model_copy(update={"visibility": Visibility.HIDDEN, "hint": ENCOUNTER_HINT})
    after = clock.evolve(marched=True, miles=clock.miles + walked)
    return state.model_copy(update={"clock": after}), [marched, checks]


def camp(
    state: ConstitutionTable, intent: Camp, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """The day's end for every living character in turn, then a new day on the clock."""
    clock = state.clock
    seats = dict(state.characters)
    events = [note("camp", f"day {clock.day} ends: the party makes camp", day=clock.day)]
    for cid, seat in state.characters.items():
        if seat.sheet.dead:
            continue
        sheet, deprivation, supplies, evening = end_of_day(
            seat.sheet,
            seat.deprivation,
            seat.supplies,
            dice,
            marched=clock.marched,
            water_found=intent.water_found,
            sleep=intent.sleep,
            options=state.options,
        )
        seats[cid] = seat.model_copy(
            update={"sheet": sheet, "deprivation": deprivation, "supplies": supplies}
        )
        events += protocol_events(evening)
    if len(events) == 1:
        raise ConstitutionError("nobody alive to make camp")
    morning = Clock(day=clock.day + 1, turns=clock.turns.evolve(turns=0), miles=clock.miles)
    after = state.model_copy(update={"characters": seats, "clock": morning})
    return after, events


def explore(
    state: ConstitutionTable, intent: Explore, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """Turns pass on the referee's clock, which the players do not see (§ 13.3), while
    lights going out are plain to all; dungeon encounter checks stay with the referee."""
    before = state.clock.turns
    names = {cid: seat.sheet.name for cid, seat in state.characters.items()}
    turns, out = before.advance(intent.turns, names)
    passed = note(
        "explore",
        f"{counted(intent.turns, 'exploration turn')} pass: {turns.minutes} minutes today",
        turns=intent.turns,
        today=turns.turns,
    ).model_copy(update={"visibility": Visibility.HIDDEN, "hint": TIME_HINT})
    events = [passed, *protocol_events(out)]
    if intent.encounters == "each_turn":
        checks = intent.turns
    elif intent.encounters == "each_hour":
        checks = turns.turns // TURNS_PER_HOUR - before.turns // TURNS_PER_HOUR
    else:
        checks = 0
    rolled = [dungeon_encounter(dice) for _ in range(checks)]
    if rolled:
        met = sum(1 for hit, _ in rolled if hit)
        found = counted(met, "encounter") if met else "no encounter"
        events.append(
            note(
                "encounter-check",
                f"dungeon encounter checks: {found} in {checks} (1 in 6 each)",
                encounters=met,
                dice=[record.model_dump(mode="json") for _, record in rolled],
            ).model_copy(update={"visibility": Visibility.HIDDEN, "hint": ENCOUNTER_HINT})
        )
    after = state.clock.evolve(turns=turns)
    return state.model_copy(update={"clock": after}), events


def on_the_road(
    state: ConstitutionTable,
    intent: HuntIntent | Rations | LightIntent,
    member: Member,
    dice: DiceSource,
) -> tuple[ConstitutionTable, list[Event]]:
    """A character's own part of the day: a hunt, rations taken on or handed over, a light."""
    seat = state.characters[intent.character]
    if seat.sheet.dead:
        raise ConstitutionError(f"{seat.sheet.name} is dead")
    clock = state.clock
    if isinstance(intent, LightIntent):
        lit = clock.evolve(turns=clock.turns.light(intent.light, intent.character))
        told = note(
            "light",
            f"{seat.sheet.name} lights a {intent.light} ({LIGHT_TURNS[intent.light]} turns)",
            light=intent.light,
        )
        return state.model_copy(update={"clock": lit}), [told]
    if isinstance(intent, Rations):
        return _rations(state, intent)
    return _hunt(state, intent, member, dice)


def _rations(state: ConstitutionTable, intent: Rations) -> tuple[ConstitutionTable, list[Event]]:
    seat = state.characters[intent.character]
    food, water = seat.supplies.food + intent.food, seat.supplies.water + intent.water
    if food < 0 or water < 0:
        raise ConstitutionError(
            f"{seat.sheet.name} carries {seat.supplies.food} food and {seat.supplies.water} "
            "water rations: not that many to hand over"
        )
    supplies = seat.supplies.evolve(food=food, water=water)
    seats = {**state.characters, intent.character: seat.model_copy(update={"supplies": supplies})}
    told = note(
        "rations",
        f"{seat.sheet.name} now carries {food} food and {water} water rations",
        character=intent.character,
        food=food,
        water=water,
    )
    return state.model_copy(update={"characters": seats}), [told]


def _hunt(
    state: ConstitutionTable, intent: HuntIntent, member: Member, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """A hunt before the march: rations to the hunter, the worst loss of the day kept."""
    clock = state.clock
    seat = state.characters[intent.character]
    if clock.marched:
        raise ConstitutionError("the party has marched today: hunt tomorrow, before the march")
    if intent.character in clock.hunted:
        raise ConstitutionError(f"{seat.sheet.name} has hunted today already")
    sheet = seat.sheet
    if intent.rating is not None:
        if intent.skill in sheet.skills:
            raise ConstitutionError(
                f"{sheet.name} already has {intent.skill} {sheet.skills[intent.skill]}%"
            )
        sheet = sheet.evolve(skills={**sheet.skills, intent.skill: intent.rating})
    got = hunt(
        sheet,
        intent.terrain,
        intent.season,
        intent.method,
        dice,
        skill=intent.skill,
        modifier=seat.penalty(state.options),
        options=state.options,
    )
    supplies = seat.supplies.evolve(food=min(MAX_RATIONS, seat.supplies.food + got.rations))
    lost = f"{float(got.distance_lost):.0%} of the day's march"
    text = (
        f"{sheet.name} {HUNTING[intent.method]}: {got.check.describe()}; "
        f"{counted(got.rations, 'ration')} of food, {lost}"
    )
    told = note(
        "hunt",
        text,
        character=intent.character,
        rations=got.rations,
        distance_lost=str(got.distance_lost),
        success=got.check.success,
        check=got.check.model_dump(mode="json"),
        dice=[record.model_dump(mode="json") for record in got.dice],
    )
    day = clock.evolve(
        day_lost=max(clock.day_lost, got.distance_lost),
        hunted=(*clock.hunted, intent.character),
    )
    seated = seat.model_copy(update={"sheet": sheet, "supplies": supplies})
    seats = {**state.characters, intent.character: seated}
    after = state.model_copy(update={"characters": seats, "clock": day})
    return after, [in_mode(told, intent.mode, member.name or member.id)]


def clock_view(clock: Clock, member: Member) -> dict[str, Any]:
    """The clock as `member` sees it: the time of day is the referee's (§ 13.3; C3-A61)."""
    shown = clock.model_dump(mode="json")
    shown["miles"] = float(clock.miles)
    shown["day_lost"] = float(clock.day_lost)
    if not member.is_gm:
        shown["turns"] = {**shown["turns"], "turns": hidden("the time of day")}
    return shown
